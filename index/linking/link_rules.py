"""The linker's rules, in the rule contract (index/extract/contract.py): which occurrences of a
defined name in a chunk's text are references, each stored under the rule that made it.

- ``FINDING``, in order, over one occurrence of a form a name is written in: ``as_written`` (the
  text writes it as the book does), ``any_case`` (a name written in lowercase or of several
  words, in any case; an all-capitals occurrence), ``emphasized_term`` (a lowercase occurrence
  set in emphasis: "casts *fireball*"), ``corpus_term`` (a lowercase occurrence of a word the
  shelf uses as a term, linking/linker.lowercase_terms);
- ``VETOES``, over each entity an occurrence may name: ``code_only_in_prose`` (a documented
  thing whose name is a common word links only in code font: "sorted order", "open the file");
- ``STATES``, over an occurrence no finding rule links: ``state_word`` (a lowercase word where
  a state goes, "is weakened", "the stuck condition", names the state of that name).

Each is a small named predicate that only reads; ``rules_off`` switches it off by its name
(the ablation of ``make eval``), and a mention the linker stores names the rule that made it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.normalize import singular, written_as_code

# a state named in lowercase where a state goes: "the target is weakened", "is also stuck",
# "becomes dazed", "knocked prone", "the stuck condition"; not a word describing a noun ("is
# the frozen ghost") nor an idiom's adjective ("is prone to howling", "vulnerable to fire")
_STATE_BEFORE = re.compile(
    r"(?<![\w-])(?:is|are|be|been|being|becomes?|became|knocked|falls?|left)\s+"
    r"(?:(?!(?:the|a|an|its|their|his|her|this|that|these|those|your|our|my|some|any|no|every|each)\b)\w+\s+)?$",
    re.IGNORECASE)
_STATE_IDIOM_AFTER = re.compile(r"\s+(?:to|of|for|with|about|by)\b", re.IGNORECASE)
_CONDITION_AFTER = re.compile(r"\s+conditions?\b", re.IGNORECASE)


@dataclass(frozen=True)
class LinkView:
    """What the linker's rules read besides an occurrence: the shelf's lowercase terms."""

    terms: frozenset[str] | set[str]


@dataclass(frozen=True)
class Occurrence:
    """One occurrence of a name in a chunk's match view: the form its definition writes
    (``pattern``), the text found, where it stands and how it is set."""

    pattern: str
    found: str
    text: str          # the chunk's match view
    start: int
    end: int
    emphasized: bool = False
    in_code: bool = False      # inside a code span or block, or emphasized: where code is named
    code_only: bool = False    # the entity is a documented thing whose name is a common word


def as_written(view: LinkView, o: Occurrence) -> bool:
    return o.found == o.pattern


def any_case(view: LinkView, o: Occurrence) -> bool:
    """A name written in lowercase or of several words links in any case, and an all-capitals
    occurrence ("FIREBALL") links the name; a name written as code only as written."""
    if written_as_code(o.pattern):
        return False
    return o.pattern == o.pattern.lower() or " " in o.pattern or (o.found.isupper() and len(o.found) > 1)


def emphasized_term(view: LinkView, o: Occurrence) -> bool:
    """A lowercase occurrence set in emphasis is a term as the book writes it ("casts *fireball*")."""
    return not written_as_code(o.pattern) and o.found.islower() and o.emphasized


def corpus_term(view: LinkView, o: Occurrence) -> bool:
    """A lowercase occurrence of a word the shelf uses as a term ("the spell's range")."""
    return not written_as_code(o.pattern) and o.found.islower() and singular(o.found.lower()) in view.terms


FINDING = (as_written, any_case, emphasized_term, corpus_term)


def code_only_in_prose(view: LinkView, o: Occurrence) -> bool:
    """A documented thing whose name is a common word, outside code font ("sorted order")."""
    return o.code_only and not o.in_code


VETOES = (code_only_in_prose,)


def state_word(view: LinkView, o: Occurrence) -> bool:
    """A lowercase word where a state goes ("is weakened", "the stuck condition")."""
    if not o.found.islower():
        return False
    if _CONDITION_AFTER.match(o.text, o.end):
        return True
    return bool(_STATE_BEFORE.search(o.text[max(0, o.start - 30):o.start])) and not _STATE_IDIOM_AFTER.match(o.text, o.end)


STATES = (state_word,)
# every rule of the linker, in the order it asks them
RULES = (*FINDING, *VETOES, *STATES)
