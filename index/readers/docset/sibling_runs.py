"""Siblings give the kind: entries of one shape, side by side. Pure.

A generator writes each entry of a reference alike: ``<h2>Lantern Knob</h2>``, ``<h2>Harbor
Knob</h2>``; ``blend(a, b) → mix``, ``tint(a) → mix``; ``insert :: Ord a => a -> Set a``.
Anchored elements (readers/docset/anchors.py) at the same place of their pages (the tags
and classes of their ancestors, never an id) whose text shows their names with the same
words around them make a run:

- the shape of an entry is what its line shows around the name: the last word before it
  ("Class:", "fn", "KNOB"), and what follows it (a word, "()" for arguments and the symbol
  after them: ``() →``, ``::``, "—"); numbers and permalink marks are no part of it, and a
  number before the name ("Step 1: Install", "2.1 Syntax") numbers a part: no kind;
- ``MIN_RUN`` entries of one place and shape, with some words or symbols around the name
  (a heading alone, "Getting Started", has none: it titles a section, it names no entry),
  are a run: each names a thing, a word-like name too (``Harbor``);
- the shared affix is the run's kind, as the documentation pack's ``affix_kinds`` names it
  ("fn": a function; "Knob": a knob), arguments a function; else an entry.
"""

from __future__ import annotations

import re
from collections import Counter

from ...core.packs import genre_table
from .anchors import Anchored

MIN_RUN = 3
MIN_KIND = 3         # letters of a kind's word at least
_MARKS = "#\u00b6\u00a7"
_TOKEN = re.compile(r"\S+")
_NUMBER = re.compile(r"^(?=.*\d)[\d.:)(\[\]]+$")  # "1:", "2.1", "(3)": a number, never "::" alone
_SYMBOLS = re.compile(r"^[^\w\s]+$")

Shape = tuple[str, str]


def _after_arguments(after: str) -> tuple[str, str]:
    """("()", the rest) when ``after`` opens with an argument list, else ("", after)."""
    if not after.startswith("("):
        return "", after
    depth = 0
    for at, char in enumerate(after):
        depth += (char == "(") - (char == ")")
        if depth == 0:
            return "()", after[at + 1:]
    return "()", ""


def shape(anchor: Anchored) -> Shape:
    """(the word before the name, what follows it) in its line (module doc), case-folded."""
    line = anchor.line.strip(_MARKS + " ")
    at = line.find(anchor.name)
    if at < 0:
        at = line.casefold().find(anchor.name.casefold())
    if at < 0:
        return "", ""
    before = _TOKEN.findall(line[:at])
    if before and _NUMBER.match(before[-1]):
        before = []  # "Step 1: Install", "2.1 Syntax": a numbered part of a whole, no kind
    rest = line[at + len(anchor.name):]
    arguments = ""
    if rest.lstrip().startswith("("):
        arguments, rest = _after_arguments(rest.lstrip())
    if before and before[-1].casefold() in genre_table("documentation", "affix_kinds"):
        return before[-1].casefold(), ""  # "type IReader t a": a kind's word, whatever follows
    after = [t for t in _TOKEN.findall(rest) if not _NUMBER.match(t) and t.strip(_MARKS)]
    following = after[0] if after else ""
    if arguments and not _SYMBOLS.match(following):
        following = ""  # "blend(a, b) → mix": the arrow is the shape, the result type is not
    return (before[-1].casefold() if before else ""), (arguments + following).casefold()


def has_affix(found: Shape) -> bool:
    """A shape with words or symbols around the name (a bare heading has none)."""
    return any(part.strip(_MARKS) for part in found)


def run_key(anchor: Anchored) -> tuple | None:
    """The run an anchor may stand in: its place and shape, when the shape has an affix, or
    when the anchor's element is the name itself (``<a id="v:Node">Node</a>``: anchored
    names side by side, a table's or a list's)."""
    found = shape(anchor)
    if has_affix(found) or anchor.wraps:
        return anchor.place, found
    return None


def set_runs(pages: list[list[Anchored]]) -> set[tuple]:
    """The (place, shape) keys ``MIN_RUN`` or more anchors of the doc set share (module doc)."""
    counts = Counter(key for anchors in pages for key in map(run_key, anchors) if key is not None)
    return {key for key, n in counts.items() if n >= MIN_RUN}


def affix_kind(found: Shape) -> str:
    """The kind a run's shared affix gives its entries (module doc)."""
    kinds = genre_table("documentation", "affix_kinds")
    before, after = found
    for word in (before.rstrip(":"), after.removeprefix("()").strip(":")):
        if word in kinds:
            return kinds[word]
    if after.startswith("()"):
        return "function"
    word = before.rstrip(":") if before.rstrip(":").isalpha() else after if after.isalpha() else ""
    return word if len(word) >= MIN_KIND else "entry"  # "Knob" of "Lantern Knob"; a type's "a" is none
