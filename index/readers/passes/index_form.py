"""A back index known by its form, and what its numbers mean. Pure.

- Its heading is "Index" or the like, numbered or lettered as an appendix may be ("H Index",
  "7 Index"), at the top of the heading path or below a book title that holds every chapter.
- With no outline entry of its own, the index is swallowed by the section before it: it is
  found by a line that prints its heading ("Index", "5 Index", "Command Index") in one of
  the book's last sections from which on the text parses as index entries (at least
  ``MIN_ENTRIES``), and split off as its own section, so that no
  entry is "defined" by the index itself; the section it is split from keeps only the terms
  its own text shows. The sections after an index that read as its entries (a PDF without an
  outline reads a page a section) are index sections too.
- Its numbers are pages unless it says they are code lines (a documented ``.dtx`` package:
  "numbers refer to the code lines", "All numbers denote code lines"); a code line is found
  in the section whose listing prints that line number ("173 `\\newcommand...`").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from ...core.models import Section
from ...core.normalize import normalized_words
from ...core.packs import genre_list

MIN_ENTRIES = 10
MIN_LINES_PER_PAGE = 3
INDEX_TITLES = genre_list("documentation", "index_titles")
_TITLE_KEYS = {normalized_words(t) for t in INDEX_TITLES}
# an appendix's letter or a chapter's number before the title ("H Index", "7 | Index")
_NUMBERING = re.compile(r"^\s*(?:[A-Z]|\d+(?:\.\d+)*)\s*(?:\||\.)?\s+(?=\S)")
# a line that may be a heading: its text after a Markdown heading mark or inside bold, capitalised
# or numbered ("Index", "**INDEX**", "5 Index", "Command Index")
_HEADING_LINE = re.compile(r"(?m)^(?:#{1,6}\s*|\*\*)?(?P<title>[A-Z0-9][^\n*]{0,40}?)(?:\*\*)?\s*$")
_CODE_LINES = re.compile(r"(?:number|entr)[^.;]{0,80}(?:code\s+lines?|ligne de code)", re.IGNORECASE)
# a listing's printed line: its number, then the code ("173 `\newcommand`", "174 | `\def`",
# "2 *<*driver>*")
_LISTING_LINE = re.compile(r"(?m)^(\d{1,5}) (?:\|\s*)?[`*\\%@{}<]")


def heading_words(heading: str) -> str:
    """A heading's words as ``normalized_words`` gives them, its number or letter dropped."""
    return normalized_words(_NUMBERING.sub("", heading))


def is_index_heading(heading: str) -> bool:
    return heading_words(heading) in _TITLE_KEYS


def is_index_section(section: Section) -> bool:
    """Whether a section is (part of) a back-of-book index (see the module doc)."""
    return any(is_index_heading(h) for h in section.heading_path[:2])


def _index_lines(text: str):
    """The lines of ``text`` that print an index's heading (``INDEX_TITLES``, numbered or not)."""
    return (m for m in _HEADING_LINE.finditer(text) if is_index_heading(m.group("title")))


def split_unmarked_index(sections: tuple[Section, ...], entries: Callable[[str], int]) -> tuple[Section, ...]:
    """``sections`` with a back index that has no outline entry split off the section that
    swallowed it (``entries`` counts the index entries a text parses as), and the sections after
    an index that read as its entries joined to it (``_continued``)."""
    if any(is_index_section(s) for s in sections):
        return _continued(sections, entries)
    for i in range(len(sections) - 1, max(-1, len(sections) - 4), -1):
        section = sections[i]
        for line in _index_lines(section.text):
            rest = section.text[line.end():]
            if entries(rest) < MIN_ENTRIES:
                continue
            before = section.text[:line.start()]
            last = section.pages[1] if section.pages else None
            index = Section("Index", 1, ("Index",), "# Index\n" + rest, section.start_line + before.count("\n"),
                            pages=(last, last) if last is not None else None, file=section.file)
            # what a reader found in the index's text (a code entry "name (environment)") is
            # not the section's before it: it keeps only the terms its own text shows
            kept = tuple(term for term in section.terms if term.name in before)
            return _continued((*sections[:i], replace(section, text=before, terms=kept), index, *sections[i + 1:]),
                              entries)
    return sections


def _continued(sections: tuple[Section, ...], entries: Callable[[str], int]) -> tuple[Section, ...]:
    """The sections after the last index section that read as index entries made index
    sections too (its heading, their terms dropped): a PDF without an outline reads a page a
    section, so an index's later pages would be sections of their own, not the index's, and
    their entries "defined" there. A section reads as entries when it holds
    ``MIN_LINES_PER_PAGE`` lines and at least half of them parse as one (a letter heading, a
    page's number aside). The sections keep their places (a PDF's links name sections by place)."""
    last = max((i for i, s in enumerate(sections) if is_index_section(s)), default=None)
    if last is None:
        return sections
    out, index = list(sections), sections[last]
    for i in range(last + 1, len(sections)):
        if not _reads_as_entries(sections[i], entries):
            break
        heading = index.heading_path[-1]
        out[i] = replace(sections[i], heading=heading, level=index.level, heading_path=index.heading_path,
                         text=f"{'#' * max(index.level, 1)} {heading}\n\n{_body(sections[i])}\n\n", terms=())
    return tuple(out)


def _body(section: Section) -> str:
    """A section's text without its heading line."""
    return re.sub(r"\A#{1,6} [^\n]*\n", "", section.text).strip("\n")


def _reads_as_entries(section: Section, entries: Callable[[str], int]) -> bool:
    lines = [line for line in _body(section).splitlines() if line.strip()]
    return len(lines) >= MIN_LINES_PER_PAGE and entries("\n".join(lines)) >= 0.5 * len(lines)


def says_code_lines(index_text: str) -> bool:
    """Whether an index says its numbers are code lines."""
    return _CODE_LINES.search(index_text[:2000]) is not None


def code_line_sections(sections: tuple[Section, ...], body: list[int]) -> dict[int, int]:
    """Printed code line number -> the body section whose listing prints it."""
    out: dict[int, int] = {}
    for i in body:
        for match in _LISTING_LINE.finditer(sections[i].text):
            out.setdefault(int(match.group(1)), i)
    return out
