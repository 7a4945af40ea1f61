"""What a question names and asks about, read from its words alone.

The entity types it asks for (``question_types``: "which spell", by the index's pack type
names and cue words), the names it may use for entities (``question_names``: runs of
capitalized words; ``question_phrases``: runs of words in any case), and the index's
pack, parsed once per process (``index_pack``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from sqlite_utils import Database

from ..core.normalize import normalize_name, normalized_tokens
from ..core.packs import DomainPack, parse_pack
from ..storage import meta
from . import bridge

LINK_WORDS = 5               # longest name looked up in the question
CUE_SHARE = 0.3              # ... x (1 + TYPE_BONUS * CUE_SHARE) when it only uses a cue word


def question_types(question: str, pack: DomainPack | None) -> dict[str, float]:
    """Entity types the question asks about: 1.0 when it names the type ("which spell"),
    CUE_SHARE when it only uses one of the type's cue words (longer than 3 letters: short
    cues such as "in" or "he" say nothing). The catch-all type ``other`` is never asked."""
    if pack is None:
        return {}
    words = set(re.findall(r"[^\W\d_]+", question.casefold()))
    out: dict[str, float] = {}
    for entity_type in pack.entity_types:
        name = entity_type.name.casefold()
        if name == "other":
            continue
        if {name, name + "s", name + "es"} & words:
            out[entity_type.name] = 1.0
        elif any(cue.casefold() in words for cue in entity_type.cues if len(cue) > 3):
            out[entity_type.name] = CUE_SHARE
    return out


_WORD = re.compile(r"[^\W_][\w'’-]*")
_CONNECTORS = {"of", "the", "and", "de", "du", "la", "von", "van"}


def question_names(question: str) -> list[str]:
    """Normalized names the question may use for entities: every run of up to LINK_WORDS
    words inside a run of capitalized words ("Venture City's Energy Absorption" gives
    "venture_city", "energy_absorption", "city_energy"...; "of"/"the"/"and" may sit inside
    a run). Longest first."""
    runs, current = [], []
    for word in _WORD.findall(question):
        word = re.sub(r"['’]s$", "", word)
        if word[:1].isupper():
            current.append(word)
        elif word.casefold() in _CONNECTORS and current:
            current.append(word)
        else:
            runs.append(current)
            current = []
    runs.append(current)
    names: dict[str, int] = {}
    for run in runs:
        for start in range(len(run)):
            for end in range(start + 1, min(len(run), start + LINK_WORDS) + 1):
                part = run[start:end]
                if part[0].casefold() in _CONNECTORS or part[-1].casefold() in _CONNECTORS:
                    continue
                name = normalize_name(" ".join(part))
                if name:
                    names[name] = max(names.get(name, 0), len(part))
    return sorted(names, key=lambda n: (-names[n], n))


def question_phrases(question: str) -> list[str]:
    """Normalized names the question may use for entities in any case: every run of up to
    LINK_WORDS words ("the frightened condition" gives "frightened", "frightened_condition",
    "condition"...), none opening or closing on a stopword ("of", "the", "which")."""
    words = [re.sub(r"['’]s$", "", word) for word in _WORD.findall(question)]
    phrases: set[str] = set()
    for start in range(len(words)):
        for end in range(start + 1, min(len(words), start + LINK_WORDS) + 1):
            part = words[start:end]
            if {part[0].casefold(), part[-1].casefold()} & bridge.STOPWORDS:
                continue
            name = normalize_name(" ".join(part))
            if name:
                phrases.add(name)
    return sorted(phrases)


def names_in(text: str, names: set[str]) -> bool:
    """Whether the text names any of ``names`` (normalized names) as whole words."""
    tokens = normalized_tokens(text)
    return any(name and f"_{name}_" in tokens for name in names)


@lru_cache(maxsize=8)
def _parsed_pack(text: str) -> DomainPack:
    return parse_pack(text, "stored in the index")


def index_pack(db: Database) -> DomainPack | None:
    """The index's pack, parsed once per process for each pack text (a query's budget is
    a few milliseconds)."""
    text = meta.pack_text(db)
    return _parsed_pack(text) if text else None
