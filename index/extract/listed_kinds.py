"""What a book's own lists say its things are. Pure, no pack.

A rulebook lists its classes, skills and conditions as such: a "Skills" section lists the
skills under each ability ("Skills > Strength" then "- Athletics"), a table's first column
is headed by the kind of its rows ("| Skill | Ability |"), a book titled "Classes" is a
catalog of class chapters. A name the book lists as a kind takes that kind wherever the book
defines it without stating another (the "**Athletics.**" lead of "Strength Checks").

The kind nouns are the rulebook pack's (``[words.kind_words]`` and ``[words.bracket_kind_words]``,
index/packs/rulebook.toml), read through ``entry_kinds.listing_kind``.
"""

from __future__ import annotations

import re
from collections import defaultdict

from ..core.models import ParentChunk
from ..core.normalize import normalize_name
from .entry_kinds import listing_kind

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
