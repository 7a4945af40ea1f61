"""What a question names and asks about, read from its words alone, once.

``parse_question`` reads a question into one ``Question`` value that every step of a query
reads (retrieve.py, loose_names.py, named_entry.py, bridge.py's signals): its words (each
kind of word is core/words.py's), its normalized tokens, its content words and those it
asks about, the names it may use for entities (``question_names``: runs of capitalized
words; ``question_phrases``: runs of words in any case; ``loose_phrases``: the runs a
loose name is looked up by), and the entity types it asks for (``question_types``: "which
spell", by the index's pack type names and cue words). The index's pack is parsed once per
process (``index_pack``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from sqlite_utils import Database

from ..core.normalize import normalize_name, normalized_tokens
from ..core.packs import DomainPack, parse_pack
from ..core.words import dashed_words, letter_runs, written_words
from ..storage.index_state import read_state
from . import bridge

LINK_WORDS = 5               # longest name looked up in the question
LOOSE_WORDS = 3              # longest phrase a loose name is looked up by (loose_names.py)
CUE_SHARE = 0.3              # ... x (1 + TYPE_BONUS * CUE_SHARE) when it only uses a cue word


@dataclass(frozen=True)
class Question:
    """A question as every step of a query reads it (``parse_question``)."""

    text: str
    tokens: str                              # normalized_tokens: a name is in it as ``_name_``
    content_words: frozenset[str]            # bridge.content_words
    asked_words: frozenset[str]              # ... less those it only uses right after a name
    names: tuple[str, ...]                   # question_names: capitalized runs, longest first
    phrases: tuple[str, ...]                 # question_phrases: runs in any case, sorted
    loose_phrases: tuple[tuple[str, ...], ...]  # runs of up to LOOSE_WORDS words as written
    kinds: dict[str, float]                  # question_types: entity type -> how surely it is asked


def parse_question(text: str, pack: DomainPack | None = None) -> Question:
    """``text`` read once: its words, names, phrases and (with the index's ``pack``) the
    entity types it asks for; an empty text gives a question that names and asks nothing."""
    words = frozenset(bridge.content_words(text))
    return Question(
        text=text, tokens=normalized_tokens(text), content_words=words,
        asked_words=words - bridge.named_category_words(text),
        names=tuple(question_names(text)), phrases=tuple(question_phrases(text)),
        loose_phrases=tuple(loose_phrases(text)), kinds=question_types(text, pack),
    )


def question_types(question: str, pack: DomainPack | None) -> dict[str, float]:
    """Entity types the question asks about: 1.0 when it names the type ("which spell"),
    CUE_SHARE when it only uses one of the type's cue words (longer than 3 letters: short
    cues such as "in" or "he" say nothing). The catch-all type ``other`` is never asked."""
    if pack is None:
        return {}
    words = set(letter_runs(question.casefold()))
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


_CONNECTORS = {"of", "the", "and", "de", "du", "la", "von", "van"}


def question_names(question: str) -> list[str]:
    """Normalized names the question may use for entities: every run of up to LINK_WORDS
    words inside a run of capitalized words ("Venture City's Energy Absorption" gives
    "venture_city", "energy_absorption", "city_energy"...; "of"/"the"/"and" may sit inside
    a run). Longest first."""
    runs, current = [], []
    for word in written_words(question):
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
    words = written_words(question)
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


def loose_phrases(question: str) -> list[tuple[str, ...]]:
    """Runs of up to LOOSE_WORDS words of the question as written (``dashed_words``: an
    option keeps its dashes), none opening or closing on a stopword."""
    words = dashed_words(question)
    out = []
    for start in range(len(words)):
        for end in range(start + 1, min(len(words), start + LOOSE_WORDS) + 1):
            part = words[start:end]
            if part[0].casefold() in bridge.STOPWORDS or part[-1].casefold() in bridge.STOPWORDS:
                continue
            out.append(tuple(part))
    return out


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
    text = read_state(db).pack_text
    return _parsed_pack(text) if text else None
