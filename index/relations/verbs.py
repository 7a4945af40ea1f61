"""The verb vocabulary of the offline relationship path: ``verbs.toml`` next to this module.

Its categories (which relation types are hierarchy verbs, which are what), the design's
replacements (``HAS`` -> ``HAS_ONE``, some swapping source and target), and the non-verb
filter's words (nouns the small model tags as verbs, auxiliaries, the modals that make a
link "uncertain"). Data, not code: a new verb is a line in the TOML file.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

VERBS_FILE = Path(__file__).with_name("verbs.toml")


@dataclass(frozen=True)
class Replacement:
    relation_type: str
    swap: bool


@dataclass(frozen=True)
class VerbVocabulary:
    """``verbs.toml``: categories, replacements and the non-verb filter."""

    categories: dict[str, tuple[str, ...]]
    hierarchy_verbs: frozenset[str]
    replacements: dict[str, Replacement]
    non_verbs: frozenset[str]
    aux_lemmas: frozenset[str]
    uncertain_modals: frozenset[str]

    def category(self, relation_type: str) -> str:
        """The category of an UPPER_SNAKE relation type; "other" when unlisted."""
        for category, verbs in self.categories.items():
            if relation_type in verbs:
                return category
        return "other"


@lru_cache(maxsize=1)
def load_vocabulary(path: Path = VERBS_FILE) -> VerbVocabulary:
    """Read ``verbs.toml``; raises OSError or tomllib.TOMLDecodeError if it is unreadable."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    cats = dict(data.get("categories", {}))
    hierarchy = frozenset(cats.pop("hierarchy_verbs", ()))
    replacements = {
        verb: Replacement(spec["type"], bool(spec.get("swap", False)))
        for verb, spec in data.get("replacements", {}).items()
    }
    flt = data.get("filter", {})
    return VerbVocabulary(
        categories={name: tuple(verbs) for name, verbs in cats.items()},
        hierarchy_verbs=hierarchy,
        replacements=replacements,
        non_verbs=frozenset(v.lower() for v in flt.get("non_verbs", ())),
        aux_lemmas=frozenset(v.lower() for v in flt.get("aux_lemmas", ())),
        uncertain_modals=frozenset(v.lower() for v in flt.get("uncertain_modals", ())),
    )
