"""Real-world Markdown: recover the headings a broken HTML conversion left behind.

Pure. ``repair_headings`` returns a *structure view* of a book with the same lines, where
``#>Title</h1>`` lines (often indented, which CommonMark reads as code) and one-line HTML
headings (``<h2 class="x">Title</h2>``) are rewritten as ATX headings. The chunker finds
sections in that view and slices the stored text from the original lines, so the stored
text stays verbatim.

A *title line* is a heading the conversion lost to a plain line: a name in title case alone
between blank lines, before a paragraph of prose, where the next heading below it is the first
child its siblings open with ("Super Agility" then "### Enhancements", as "## Animal Control"
opens with "### Enhancements" two or more times). It becomes a heading one level above that
child.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_BROKEN = re.compile(r"^[ \t]*(#{1,6})>(.*?)(?:</h[1-6]>)?(?:[ \t]*<br\s*/?>)*[ \t]*$", re.IGNORECASE)
_HTML_HEADING = re.compile(r"^[ \t]*<h([1-6])(?:\s[^>]*)?>(.*?)</h\1>[ \t]*$", re.IGNORECASE)
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)[ \t#]*$")
# a name in title case: capitalized words, short lowercase joiners between them ("Wall of Fire")
_TITLE = re.compile(r"^[A-Z][\w’'&-]*(?: (?:[a-z]{1,3} )*[A-Z0-9][\w’'&-]*)*$")
_TITLE_MAX_WORDS = 6
_SIBLINGS_MIN = 2      # headings that open with one child: the list of siblings a title line is one of
_PROSE_MIN_WORDS = 3   # the paragraph after a title line: a sentence, not a label or a list


@dataclass(frozen=True)
class RepairReport:
    broken_headings: int = 0   # `#>Title</h1>` lines recovered
    html_headings: int = 0     # `<h2>Title</h2>` lines recovered
    title_lines: int = 0       # plain title lines read as the headings of their siblings' shape

    @property
    def warning(self) -> str | None:
        if self.broken_headings:
            return (f"looks like a broken HTML conversion: recovered {self.broken_headings} "
                    "'#>Title</hN>' lines as headings (fix the file to silence this)")
        return None


def repair_headings(text: str) -> tuple[str, RepairReport]:
    """(structure view of ``text`` with the same line count, what was recovered)."""
    lines = text.splitlines(keepends=True)
    broken = html = 0
    fence: str | None = None
    fenced: set[int] = set()
    for i, line in enumerate(lines):
        opening = _FENCE.match(line)
        if fence is not None:
            fenced.add(i)
            if opening and opening.group(1)[0] == fence:
                fence = None
            continue
        if opening:
            fenced.add(i)
            fence = opening.group(1)[0]
            continue
        ending = line[len(line.rstrip("\r\n")):]
        match = _BROKEN.match(line)
        if match and match.group(2).strip():
            broken += 1
            lines[i] = f"{match.group(1)} {match.group(2).strip()}{ending}"
            continue
        match = _HTML_HEADING.match(line)
        if match:
            html += 1
            lines[i] = f"{'#' * int(match.group(1))} {match.group(2).strip()}{ending}"
    titles = title_lines(lines, fenced)
    for i, level in titles.items():
        ending = lines[i][len(lines[i].rstrip("\r\n")):]
        lines[i] = f"{'#' * level} {lines[i].strip()}{ending}"
    return "".join(lines), RepairReport(broken, html, len(titles))


def title_lines(lines: list[str], fenced: set[int]) -> dict[int, int]:
    """line index -> heading level of each title line (see the module doc)."""
    headings = [(i, len(m.group(1)), m.group(2).strip().casefold())
                for i, line in enumerate(lines) if i not in fenced and (m := _ATX.match(line))]
    shapes: dict[tuple[int, str], int] = {}
    for (_, level, _), (_, child_level, child) in zip(headings, headings[1:]):
        if child_level == level + 1:
            shapes[(level, child)] = shapes.get((level, child), 0) + 1
    out: dict[int, int] = {}
    below = iter(headings)
    after = next(below, None)
    for i, line in enumerate(lines):
        while after is not None and after[0] <= i:
            after = next(below, None)
        if after is None or i in fenced or not _title_line(lines, i):
            continue
        _, level, child = after
        if shapes.get((level - 1, child), 0) >= _SIBLINGS_MIN and _prose_follows(lines, i + 1, after[0]):
            out[i] = level - 1
    return out


def _title_line(lines: list[str], i: int) -> bool:
    text = lines[i].strip()
    blank_around = (i == 0 or not lines[i - 1].strip()) and i + 1 < len(lines) and not lines[i + 1].strip()
    return (blank_around and lines[i][:1] not in " \t" and len(text.split()) <= _TITLE_MAX_WORDS
            and bool(_TITLE.match(text)))


def _prose_follows(lines: list[str], start: int, end: int) -> bool:
    """Whether the first text between ``start`` and ``end`` is a paragraph of prose."""
    for line in lines[start:end]:
        text = line.strip()
        if text:
            return text[:1].isalpha() and len(text.split()) >= _PROSE_MIN_WORDS and text[-1] in ".!?:"
    return False
