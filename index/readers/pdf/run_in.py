"""Run-in headings of a PDF: headings set in bold at the start of their paragraph's first line,
the text going on after a wide space (LaTeX's ``\\paragraph`` and ``\\subparagraph``, which
an outline leaves out: a pandoc-typeset rulebook sets every spell and creature so). Pure.

The reader writes such a line as ``**Acid Arrow** | *2nd-level evocation*``: a bold run, a
wide gap (`` | ``), the rest of the line (or, where the line's spacing narrowed the gap below
a cell's, a space: ``**Wolf** *Medium beast, unaligned*``). A run-in heading of an entry is
such a line whose bold run is a few words, the first capitalised ("5.2", a numbered item, is
none), that end in no punctuation (a bold lead, ``**Amphibious.**`` or ``**Casting Time:**``,
ends in its stop and opens a paragraph, not a section), and whose rest is all in italics: the
entry's kind, as a catalog sets it under each name (a spell's school, a creature's size and
type, an item's category); and the book sets at least ``MIN_RUN_IN`` lines so: a convention
of the book, not a chance line. A run-in heading whose paragraph goes on in roman (a manual's
"**Code snippets** | Read this...") is left in its section: there, a back index's page, off by
one, still falls in the section's pages. Each is a heading one level below the outline's entry
it follows.

A bold line alone over a table (``**Martial Weapons**`` over ``| Name | Cost |``, cells.py) is
a heading too: the table's title, as a heading over a table is in a Markdown or HTML book (a
LaTeX ``\\paragraph`` set before a table has no paragraph to run into).
"""

from __future__ import annotations

import re
from collections import Counter

MIN_RUN_IN = 3
MAX_WORDS = 8
_RUN_IN = re.compile(r"^\*\*(?P<name>[^*|]+?)\*\*(?: \|)? \*(?P<kind>[^*|]+)\*$")
_TABLE_TITLE = re.compile(r"^\*\*(?P<name>[^*|]+?)\*\*$")
_STOP = re.compile(r"[.:;,!?\u2014\u2013-]$")


def _title(found: re.Match | None) -> str | None:
    if found is None:
        return None
    name = " ".join(found.group("name").split())
    words = name.split()
    if not words or len(words) > MAX_WORDS or _STOP.search(name) or not name[0].isupper():
        return None
    return name


def run_in_title(line: str) -> str | None:
    """The heading a line opens with when it is a run-in heading's line (module doc), else None."""
    return _title(_RUN_IN.match(line.strip()))


def table_title(line: str, following: str) -> str | None:
    """The title a bold line alone sets over the table that ``following`` starts, else None."""
    return _title(_TABLE_TITLE.match(line.strip())) if following.startswith("| ") else None


def run_in_lines(pages: list[list[str]]) -> list[tuple[int, int, str]]:
    """(page, line, title) of every run-in heading, none where the book sets fewer than
    ``MIN_RUN_IN``, and of every table's title; a title the book sets twice or more, or one
    of a single letter, is none."""
    run_in = [(p, i, title) for p, lines in enumerate(pages) for i, line in enumerate(lines)
              if (title := run_in_title(line)) is not None]
    tables = [(p, i, title) for p, lines in enumerate(pages) for i, line in enumerate(lines)
              if (title := table_title(line, _next_line(pages, p, i))) is not None]
    found = sorted((run_in if len(run_in) >= MIN_RUN_IN else []) + tables)
    # a title set twice is a slide's date or author, a letter an index's letter group: no heading
    times = Counter(title for _, _, title in run_in + tables)
    return [(p, i, title) for p, i, title in found if times[title] == 1 and re.search(r"[^\W\d_]{2}", title)]


def _next_line(pages: list[list[str]], page: int, line: int) -> str:
    """The line after ``line``, on the next page where it ends its own."""
    if line + 1 < len(pages[page]):
        return pages[page][line + 1]
    return pages[page + 1][0] if page + 1 < len(pages) and pages[page + 1] else ""
