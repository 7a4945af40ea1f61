"""A thing the book says is like another, with a difference: ``variant_of`` from prose.

"Conditions are like consequences, except that they're pre-defined", "A Hex works like a
Curse, except ...", "that condition is an aspect on your character sheet like any other",
"creating a Roar aspect is like creating any other situational aspect". Plain likeness
("X is a lot like Y") says nothing of kind, so one of two marks must stand with it:

- a difference right after the kin ("..., except", the rulebook pack's ``likeness_differences``);
- the kin named as one of many ("like any other Y", "is a Y ... like any other": the pack's
  ``kin_words``).

The thing is the name that opens the clause ("In one respect, creating a Roar aspect is
like ..."; a gerund and a determiner may lead it), and it is a thing the chunk defines,
linked there or written as a common noun ("that condition" in the Conditions section). The
kin is the name right after the likeness words; one the chunk does not link ("consequences")
is resolved on the shelf by name (``emit_named``), so a word that names nothing adds nothing.
"""

from __future__ import annotations

import re

from ..core.normalize import normalize_name
from ..core.packs import genre_words, per_genres, word_pattern
from .pattern_context import ChunkScan, emit_named

# where the clause the thing opens begins: a sentence's or a clause's break before it
_CLAUSE_BREAK = re.compile(r"[.!?;:—–]\s*|,\s+|\n")
# a gerund and a determiner may lead the thing: "creating a Roar aspect", "that condition"
# (a gerund only with its determiner: "Sling Bullet" keeps its first word)
_DETERMINER = r"(?:that|this|these|those|the|an?|each|every|your)\s+"
_HEAD_LEAD = re.compile(rf"^(?:[a-z]+ing\s+{_DETERMINER}|{_DETERMINER})?", re.IGNORECASE)
# a kin the chunk does not link: one to three words up to punctuation or the difference
_KIN_WORDS = re.compile(r"[A-Za-z][\w'’-]*(?:\s+[A-Za-z][\w'’-]*){0,2}?(?=[*_]*\s*(?:[,.;:—–(]|$))")
_CLAUSE_END = re.compile(r"[.!?;:—–]|\n")


@per_genres
def _likeness() -> re.Pattern:
    """The words between the thing and its kin: a copula (or "works") and the pack's
    ``likeness_words`` ("is like", "are a lot like"), maybe a gerund ("is like creating") and
    the pack's ``kin_words`` ("any other"); or a plain "is a" (group ``plain``), which counts
    only with "like any other" closing the clause."""
    like = word_pattern(genre_words("rulebook", "likeness_words"))
    kin = word_pattern(genre_words("rulebook", "kin_words"))
    return re.compile(rf"[\s*_]+(?:is|are|works?|work)\s+(?:(?:{like})\s+(?:[a-z]+ing\s+)?|(?P<plain>an?\s+))"
                      rf"(?P<kin>(?:{kin})\s+)?(?:an?\s+|the\s+)?[*_]*", re.IGNORECASE)


@per_genres
def _difference() -> re.Pattern:
    """A difference right after the kin: ", except", "save that" (the pack's ``likeness_differences``)."""
    return re.compile(rf"[*_]*\s*[,—–-]?\s*(?:{word_pattern(genre_words('rulebook', 'likeness_differences'))})(?![\w-])",
                      re.IGNORECASE)


@per_genres
def _like_any_other() -> re.Pattern:
    """"like any other" in the rest of a clause (the pack's ``likeness_words`` and ``kin_words``)."""
    like = word_pattern(genre_words("rulebook", "likeness_words"))
    return re.compile(rf"(?<![\w-])(?:{like})\s+(?:{word_pattern(genre_words('rulebook', 'kin_words'))})(?![\w-])",
                      re.IGNORECASE)


def likeness_family(scan: ChunkScan) -> None:
    """Each likeness the module docstring describes: the thing is a ``variant_of`` its kin."""
    text = scan.text
    for match in _likeness().finditer(text):
        head = _head(scan, match.start())
        if head is None:
            continue
        stop = _CLAUSE_END.search(text, match.end())
        clause_end = stop.start() if stop else len(text)
        tail = next((o for o in scan.occurrences if match.end() <= o[0] <= match.end() + 2), None)
        end = tail[1] if tail else None
        if tail is None and not match.group("plain"):
            words = _KIN_WORDS.match(text, match.end(), clause_end + 1)
            end = words.end() if words else None
        if end is None:
            continue
        if match.group("plain"):
            marked = _like_any_other().search(text, end, clause_end) is not None
        else:
            marked = bool(match.group("kin")) or _difference().match(text, end) is not None
        if not marked:
            continue
        if tail is not None:
            scan.emit(head, tail[2], "variant_of", match.start(), end)
        else:
            emit_named(scan, head, text[match.end():end], "variant_of", match.start(), end)


def _head(scan: ChunkScan, at: int) -> int | None:
    """The thing the chunk defines that opens the clause ending at ``at``: an occurrence
    there, or a common noun naming it ("that condition"); None when the clause opens otherwise."""
    text = scan.text
    breaks = list(_CLAUSE_BREAK.finditer(text, max(0, at - 120), at))
    lo = breaks[-1].end() if breaks else max(0, at - 120)
    if not breaks and at > 120:
        return None
    words = text[lo:at].strip(" *_#>\t")
    words = _HEAD_LEAD.sub("", words, count=1).strip(" *_")
    if not words or len(words) > 60:
        return None
    named = normalize_name(words)
    for start, end, index in scan.occurrences:
        if lo <= start and text[start:end].strip(" *_") == words and scan.entities[index].defines:
            return index
    return next((i for i, e in enumerate(scan.entities) if e.defines and normalize_name(e.name) == named), None)
