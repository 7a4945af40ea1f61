"""What a book's own lists say its things are. Pure, no pack.

A rulebook lists its classes, skills and conditions as such: a "Skills" section lists the
skills under each ability ("Skills > Strength" then "- Athletics"), a table's first column
is headed by the kind of its rows ("| Skill | Ability |"), a book titled "Classes" is a
catalog of class chapters. A rulebook also states a thing's kind in a phrase: "the Wyrmcaller class", "the Dazed
condition", "the *Glimmer* spell", and "a Wisdom (Tracking) check" names the skill Tracking.
A name the book lists or so states as a kind takes that kind wherever the book
defines it without stating another (the "**Athletics.**" lead of "Strength Checks").

The kind nouns are the rulebook pack's (``[words.kind_words]`` and ``[words.bracket_kind_words]``,
index/packs/rulebook.toml), read through ``entry_kinds.listing_kind``.
"""

from __future__ import annotations

import re
from collections import defaultdict

from ..core.models import ParentChunk
from ..core.normalize import normalize_name
from ..core.packs import genre_words, per_genres, word_pattern
from .entry_kinds import bracket_kind, listing_kind

_LIST_ITEM = re.compile(r"^[ \t]*[-*+][ \t]+(?:\*\*|__)?([A-Z][\w'’ -]{1,40}?)(?:\*\*|__)?[ \t\r]*$", re.MULTILINE)
_MAX_WORDS = 4
_LIST_MIN = 3  # items under one kind heading to make it a list of that kind


def list_items(text: str) -> list[str]:
    """The bare names a section lists, one a line ("- Athletics", "* Sleight of Hand")."""
    return [m.group(1).strip() for m in _LIST_ITEM.finditer(text) if len(m.group(1).split()) <= _MAX_WORDS]


def listed_kinds(parents: list[ParentChunk]) -> dict[str, str]:
    """normalized name -> the kind a list of the book gives it: the items of the lists in a
    section whose heading, or the heading above it, names a kind ("Skills", "Skills >
    Strength"), when that heading lists three or more."""
    by_heading: dict[tuple[str, ...], list[str]] = defaultdict(list)
    kinds: dict[tuple[str, ...], str] = {}
    for parent in parents:
        path = parent.heading_path
        for depth in (len(path), len(path) - 1):
            if depth >= 1 and (kind := listing_kind(path[depth - 1])):
                kinds[path[:depth]] = kind
                by_heading[path[:depth]].extend(list_items(parent.text))
                break
    out: dict[str, str] = {}
    for heading, items in by_heading.items():
        if len(set(items)) >= _LIST_MIN:
            for item in items:
                out.setdefault(normalize_name(item), kinds[heading])
    return out



_NAME = r"(?P<name>[A-Z][\w'’-]*(?: (?:of |the )?[A-Z][\w'’-]*){0,3})"


@per_genres
def _kind_phrases() -> tuple[re.Pattern, re.Pattern]:
    """"the Wyrmcaller class" (a kind noun of the rulebook pack after a capitalized or
    emphasized name, not the head of a compound: "the Bard spell list") and "a Wisdom (Tracking) check" (a roll word after a parenthesized name)."""
    rolls = word_pattern(genre_words("rulebook", "roll_words"))
    tails = word_pattern(genre_words("rulebook", "kind_compound_tails"))
    return (re.compile(rf"(?<![\w-])[Tt]he\s+[*_]*{_NAME}[*_]*\s+(?P<kind>[a-z]+)(?![\w-])(?!\s+(?:{tails})(?![\w-]))"),
            re.compile(rf"(?<![\w-])[A-Z][a-z]+\s+\([*_]*{_NAME}[*_]*\)\s+(?:{rolls})(?![\w-])"))


def stated_kinds(parents: list[ParentChunk]) -> dict[str, str]:
    """normalized name -> the one kind the book's phrases state of it ("the Dazed condition",
    "a Wisdom (Tracking) check": a skill); a name stated as two kinds takes neither."""
    stated: dict[str, set[str]] = defaultdict(set)
    named, rolled = _kind_phrases()
    for parent in parents:
        for match in named.finditer(parent.text):
            if kind := bracket_kind(match.group("kind")):
                stated[normalize_name(match.group("name"))].add(kind)
        for match in rolled.finditer(parent.text):
            stated[normalize_name(match.group("name"))].add("skill")
    return {name: next(iter(kinds)) for name, kinds in stated.items() if len(kinds) == 1}
