"""The rule a link is stored under does not depend on the interpreter's hash seed: a name and
its alias that differ only in case ("Frost Lance", "frost lance") are one pattern of the
automaton with two written forms, and which of them is tried first decides whether an
occurrence written as the book writes it is stored as ``as_written`` or ``any_case``."""

from __future__ import annotations

import json
import os
import subprocess
import sys

CHILD = """
import json
from crossbook.linking.linker import Linker, LinkTarget
from crossbook.linking.matchview import match_view
names = {"Frost Lance", "frost lance", "FROST LANCE", "Frost lance"}
linker = Linker([LinkTarget(("frost lance", "spell"), names, {"Grimoire"})], {"spell": ("cast",)})
texts = [f"The wizard casts {name}." for name in ("Frost Lance", "frost lance", "Frost lance", "FROST LANCE")]
print(json.dumps([[m.name, m.rule] for text in texts for m in linker.link(text, "Grimoire", set(), match_view(text))]))
"""


def _rules(seed: int) -> list:
    env = {**os.environ, "PYTHONHASHSEED": str(seed)}
    done = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_rule_of_a_link_is_the_same_under_every_hash_seed():
    seen = {json.dumps(_rules(seed)) for seed in range(8)}
    assert len(seen) == 1, seen


def test_an_occurrence_written_as_one_of_the_forms_is_as_written():
    assert [rule for _, rule in _rules(0)] == ["as_written"] * 4
