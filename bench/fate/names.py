"""The fair name key shared by the Fate gold and bench/eval_extraction.py.

A name is compared as ``index.normalize.normalize_name`` (NFKC, case-folded, leading
article dropped, punctuation runs as ``_``) with a simple singular fold of its last word
(trailing ``es`` after s/x/z/ch/sh, else a trailing ``s`` that is not ``ss``/``us``/``is``),
so "Aspects", "aspect" and "The Aspect" meet, and so do "Fate Points" and "fate point".
"""

from __future__ import annotations

import re
from pathlib import Path

from crossbook.core.normalize import normalize_name

ROOT = Path(__file__).resolve().parents[2]

_ES = re.compile(r"(?:ss|x|z|ch|sh)es$")


def singular(word: str) -> str:
    """'consequences' -> 'consequence', 'approaches' -> 'approach', 'stress' -> 'stress'."""
    if len(word) > 4 and _ES.search(word):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def name_key(name: str) -> str:
    """The key two names must share to be the same entity ('' for an empty name)."""
    words = normalize_name(name).split("_")
    if not words or not words[-1]:
        return ""
    words[-1] = singular(words[-1])
    return "_".join(words)


def canonical_keys(entries: list[tuple[str, list[str]]]) -> dict[str, str]:
    """Name key of every name and alias -> the key of the entity it belongs to, from
    (name, aliases) pairs: two definitions that share a name key or an alias key are one
    entity (Condensed's "Adjective Ladder", alias "Ladder", is Fate Core's "Ladder")."""
    parent: dict[str, str] = {}

    def find(key: str) -> str:
        while parent.setdefault(key, key) != key:
            key = parent[key]
        return key

    for name, aliases in entries:
        for alias in aliases:
            parent[find(name_key(alias))] = find(name_key(name))
    return {name_key(n): find(name_key(n)) for name, aliases in entries for n in [name, *aliases]}
