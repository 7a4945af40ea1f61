"""A PDF's tables: cells inside one of PDFium's text boxes, and rows written as a Markdown table.

PDFium may give a whole table row as one text box, its cells set apart by wide gaps that it
fills with one generated space ("Mace 5 gp 1d6 bludgeoning"); the box keeps its place (the
page's columns are found from boxes, and a row is no column), but its text is cut into cells
there, at the same gap that sets two boxes apart as cells (``cell_gap``).

Two or more lines in a row of three cells or more (two are a label and its value, "Range |
60 feet") are a table: written as Markdown's ``| a | b |`` rows, as
an HTML or Markdown book's table is, so the extractor reads a PDF's catalog tables as it reads
theirs. The first row is the header (a separator row follows it) when it is set bold, or when
it holds no digit while most rows below it do ("Name | Cost" over "Mace | 5 gp"); else every
row is a body row. A line in code font is no row ("`a | b`" is a shell pipe).
"""

from __future__ import annotations

import re
from typing import Sequence

Box = tuple[float, float, float, float]
MIN_CELLS = 3  # cells of a table's row: two are a label and its value ("Range | 60 feet")
_NUMBERING = re.compile(r"(?:\d+|[A-Z]|[IVXLC]+)(?:\.\d+)*\.?")


def cell_gap(size: float) -> float:
    """The gap, in points, that sets two cells of a line apart: one em of the font, at least 6."""
    return max(size, 6) * 1.0


def _inked(box: Box) -> bool:
    return box[2] > box[0] or box[3] > box[1]


def cell_breaks(boxes: Sequence[Box], start: int, end: int, gap: float, text: str) -> tuple[int, ...]:
    """Where, in the characters ``[start, end)`` of one text box (``text``), a new cell starts
    (offsets from ``start``): after a blank (generated) character, where the next inked
    character starts more than ``gap`` points right of the last inked one; not after a
    heading's number alone ("1  Math commands": a quad sets it apart). None for one cell."""
    breaks: list[int] = []
    right, blank_since = None, None
    for index in range(start, end):
        box = boxes[index]
        if not _inked(box):
            if right is not None and blank_since is None:
                blank_since = index
            continue
        if blank_since is not None and box[0] - right > gap \
                and not _NUMBERING.fullmatch(text[breaks[-1] if breaks else 0:blank_since - start].strip()):
            breaks.append(blank_since + 1 - start)
        blank_since, right = None, box[2]
    return tuple(breaks)


def _has_digit(cells: list[str]) -> bool:
    return any(ch.isdigit() for cell in cells for ch in cell)


def _header(rows: list[list[str]], first_bold: bool) -> bool:
    if first_bold:
        return True
    body = rows[1:]
    return not _has_digit(rows[0]) and sum(_has_digit(row) for row in body) * 2 > len(body)


def _is_row(text: str, cells: int) -> bool:
    return cells >= MIN_CELLS and not text.lstrip().startswith("`")


def _unbold(cell: str) -> str:
    return cell[2:-2] if len(cell) > 4 and cell.startswith("**") and cell.endswith("**") else cell


def markdown_tables(lines: Sequence[tuple[str, int]]) -> list[str]:
    """Each line's text (``(text, cells)``, cells joined with " | "), runs of two or more table
    rows written as a Markdown table (see the module doc); other lines as they are."""
    out = [text for text, _ in lines]
    i = 0
    while i < len(lines):
        j = i
        while j < len(lines) and _is_row(*lines[j]):
            j += 1
        if j - i < 2:
            i = max(j, i + 1)
            continue
        rows = [[cell.strip() for cell in lines[k][0].split(" | ")] for k in range(i, j)]
        bold = all(cell.startswith("**") and cell.endswith("**") and "*" not in cell[2:-2] for cell in rows[0])
        header = _header(rows, bold)
        for k, row in zip(range(i, j), rows):
            cells = [_unbold(cell) for cell in row] if k == i and bold else row
            out[k] = "| " + " | ".join(cells) + " |"
        if header:
            out[i] += "\n|" + "|".join(["---"] * len(rows[0])) + "|"
        i = j
    return out
