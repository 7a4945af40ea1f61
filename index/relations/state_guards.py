"""How a sentence holds the condition it names, for the ``inflicts`` claims (edge_guards.py).

One occurrence of a condition in a claim's evidence reads as one of:

- ``resisted``: a resistance lists it ("advantage on saving throws against being blinded,
  charmed", "can't be charmed"), or a list of the conditions something may be ("The
  condition can be blinded, deafened, or poisoned"): nothing is inflicted;
- ``cured``: a cure governs it in the same clause ("end one effect causing you to be
  charmed", "suppress any effect causing a target to be frightened", "ceases to be
  poisoned"): the subject counters it;
- ``own``: the reader holds it and nobody else shares the clause ("When your rage ends, you
  suffer one level of exhaustion", "spend 4 ki points to become invisible"), or the subject
  named by its own word does ("If the armor is targeted ..., it must succeed ... or fall
  unconscious"): a class, an item or a creature that puts a condition on itself or its
  holder inflicts nothing; so does what it carries ("Any equipment she wears is invisible
  with her");
- ``inflicted``: anything else.

The words (the reader, the other parties, cure and resistance leads) are the rulebook pack's.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable

from ..core.normalize import normalize_name
from ..core.packs import genre_words

INFLICTED, OWN, CURED, RESISTED = "inflicted", "own", "cured", "resisted"
_CLAUSE_END = re.compile(r"[.;!?:](?=\s)|\n")
# what may stand between a resistance lead and the condition: a list of states
_STATE_LIST = re.compile(r"(?:[\s,*_]|(?<![\w-])(?:and|or|being|knocked|the|becoming|[a-z]+ed|conditions?)(?![\w-]))*",
                         re.IGNORECASE)
# the verb that puts the clause's subject in the state named next: "or fall unconscious", "is stunned"
_STATE_VERB = re.compile(r"(?<![\w-])(?:be|is|are|become|becomes|fall|falls|remain|remains)\s+(?:[\w-]+\s+){0,2}[*_]*$",
                         re.IGNORECASE)
# what the subject carries shares its state: "is invisible with her"
_CARRIED_WITH = re.compile(r"[*_]*\s+with\s+(?:it|him|her|them)(?![\w-])", re.IGNORECASE)
# the subject a sentence opens with, after an entry's lead: "***Invisibility.*** The will-o'-wisp ..."
_OPENING = re.compile(r"[\s*_>-]*(?:[*_]+[^*_\n]{1,40}?[.:][*_]+\s*)?(?:(?:if|when|whenever|while)\s+)?the\s+([\w'’-]+)",
                      re.IGNORECASE)
_UNTIL = re.compile(r"(?<![\w-])(?:until|unless|when|whenever|if)(?![\w-])", re.IGNORECASE)


def _words(key: str) -> frozenset[str]:
    return frozenset(w.casefold() for w in genre_words("rulebook", key))


@lru_cache(maxsize=16)
def _lead(words: frozenset[str]) -> re.Pattern | None:
    if not words:
        return None
    alternatives = "|".join(sorted((re.escape(w).replace(r"\ ", r"\s+") for w in words), key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.IGNORECASE)


def _listed_after(clause: str, key: str) -> bool:
    """True when a lead of the pack's ``key`` list opens a list of states that ends at the condition."""
    lead = _lead(_words(key))
    return lead is not None and any(_STATE_LIST.fullmatch(clause, m.end()) for m in lead.finditer(clause))


def _cured(clause: str) -> bool:
    """A cure lead in the clause with no comma between it and the condition, in a clause that
    is no time limit ("Until this grapple ends, the target is restrained")."""
    lead = _lead(_words("cure_leads"))
    if lead is None:
        return False
    for match in lead.finditer(clause):
        if not re.search(r"[,;]", clause[match.end():]) and len(clause) - match.end() <= 80 \
                and not _UNTIL.search(clause[:match.start()]):
            return True
    return False


def _own(sentence: str, clause: str, own: frozenset[str]) -> bool:
    """The reader with nobody else in the clause, or the subject the sentence opens with by
    its own name ("If the armor is targeted ..., it must succeed ... or fall unconscious")
    with no other party than a pronoun."""
    words = set(re.findall(r"[\w'’]+", clause.casefold()))
    others = words & _words("other_party_words")
    if words & _words("self_words") and not others:
        return True
    opening = _OPENING.match(sentence)
    named = opening is not None and bool(set(normalize_name(opening.group(1)).split("_")) & own)
    return named and others <= {"it"} and _STATE_VERB.search(clause) is not None


def reading(evidence: str, start: int, own: frozenset[str] = frozenset(), end: int | None = None) -> str:
    """How the sentence ``evidence`` holds the condition at ``start:end``; ``own``: the words
    of the subject's name ("armor" of "Animated Armor")."""
    ends = [m.end() for m in _CLAUSE_END.finditer(evidence, 0, start)]
    clause = evidence[ends[-1] if ends else 0:start]
    if _listed_after(clause, "resistance_leads") or _listed_after(clause, "condition_choice_leads"):
        return RESISTED
    if end is not None and _CARRIED_WITH.match(evidence, end):
        return OWN  # "Any equipment she wears or carries is invisible with her"
    if _cured(clause):
        return CURED
    if _own(evidence, clause, own):
        return OWN
    return INFLICTED


def condition_reading(evidence: str, spans: Iterable[tuple[int, int]], own: frozenset[str] = frozenset()) -> str:
    """The reading of a claim: ``inflicted`` when one occurrence is inflicted (or none is
    found), else ``cured`` when one is cured, else the first occurrence's."""
    readings = [reading(evidence, start, own, end) for start, end in spans]
    if not readings or INFLICTED in readings:
        return INFLICTED
    return CURED if CURED in readings else readings[0]
