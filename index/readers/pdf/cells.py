"""A PDF's tables: cells inside one of PDFium's text boxes, and rows written as a Markdown table.

PDFium may give a whole table row as one text box, its cells set apart by wide gaps that it
fills with one generated space ("Mace 5 gp 1d6 bludgeoning"); the box keeps its place (the
page's columns are found from boxes, and a row is no column), but its text may be cut there,
at the same gap that sets two boxes apart as cells (``cell_gap``). A justified line or a
code line has wide spaces too, so such a cut holds only in a table: on two or more lines in a
row of three cells or more (two are a label and its value, "Range | 60 feet") whose cells
start where the next line's do (two columns at least), and is a space elsewhere.

Such rows are written as Markdown's ``| a | b |`` rows, as an HTML or Markdown book's table
is, so the extractor reads a PDF's catalog tables as it reads theirs. The first row is the header (a separator row follows it) when it is set bold, or when
it holds no digit while most rows below it do ("Name | Cost" over "Mace | 5 gp"); else every
row is a body row. A line in code font is no row ("`a | b`" is a shell pipe).
"""

from __future__ import annotations

import re
from typing import Sequence

Box = tuple[float, float, float, float]
CELL_BREAKS = ("\t", "\v")  # a cell break between text boxes, and one inside a box
MIN_CELLS = 3  # cells of a table's row: two are a label and its value ("Range | 60 feet")
ALIGNED = 3.0  # points two cells' left edges may differ by in one column
_NUMBERING = re.compile(r"(?:\d+|[A-Z]|[IVXLC]+)(?:\.\d+)*\.?")
_SEPARATOR = re.compile(r" \| | \v ")


def cell_gap(size: float) -> float:
    """The gap, in points, that sets two cells of a line apart: one em of the font, at least 6."""
    return max(size, 6) * 1.0


def _inked(box: Box) -> bool:
    return box[2] > box[0] or box[3] > box[1]


def cell_breaks(boxes: Sequence[Box], start: int, end: int, gap: float, text: str) -> tuple[tuple[int, float], ...]:
    """Where, in the characters ``[start, end)`` of one text box (``text``), a new cell may
    start, as (offset from ``start``, left edge): after a blank (generated) character, where
    the next inked character starts more than ``gap`` points right of the last inked one; not
    after a heading's number alone ("1  Math commands": a quad sets it apart)."""
    breaks: list[tuple[int, float]] = []
    right, blank_since = None, None
    for index in range(start, end):
        box = boxes[index]
        if not _inked(box):
            if right is not None and blank_since is None:
                blank_since = index
            continue
        if blank_since is not None and box[0] - right > gap \
                and not _NUMBERING.fullmatch(text[breaks[-1][0] if breaks else 0:blank_since - start].strip()):
            breaks.append((blank_since + 1 - start, box[0]))
        blank_since, right = None, box[2]
    return tuple(breaks)


def joined_cells(parts: list[str], starts: list[float]) -> tuple[str, tuple[float, ...]]:
    """A line's text from its cells and the breaks between them (``re.split`` with the breaks
    kept), a break between boxes as " | ", one inside a box as " \\v "; and each cell's left
    edge (``starts``, one per cell). An empty cell goes, with its break."""
    cells = [" ".join(part.split()) for part in parts[::2]]
    kept = [i for i, cell in enumerate(cells) if cell]
    out = []
    for n, i in enumerate(kept):
        if n:
            out.append(" | " if parts[2 * i - 1] == "\t" else " \v ")
        out.append(cells[i])
    return "".join(out), tuple(starts[i] for i in kept if i < len(starts))


def _aligned(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Two rows whose cells start in two columns at least (the first cell's edge aside)."""
    return sum(any(abs(x - y) <= ALIGNED for y in b[1:]) for x in a[1:]) >= 2


def _is_row(text: str, cell_x: tuple[float, ...]) -> bool:
    return len(cell_x) >= MIN_CELLS and len(_SEPARATOR.split(text)) == len(cell_x) and not text.lstrip().startswith("`")


def _has_digit(cells: list[str]) -> bool:
    return any(ch.isdigit() for cell in cells for ch in cell)


def _header(rows: list[list[str]], first_bold: bool) -> bool:
    if first_bold:
        return True
    body = rows[1:]
    return not _has_digit(rows[0]) and sum(_has_digit(row) for row in body) * 2 > len(body)


def _unbold(cell: str) -> str:
    return cell[2:-2] if len(cell) > 4 and cell.startswith("**") and cell.endswith("**") else cell


def _spaced(text: str) -> str:
    """A line's cuts inside a box as spaces: a run marked on both sides is one run again."""
    for mark in ("**", "`", "*"):
        text = text.replace(f"{mark} \v {mark}", " ")
    return text.replace(" \v ", " ")


def _tables(lines: Sequence[tuple[str, tuple[float, ...]]]) -> list[range]:
    """The runs of two or more rows whose cells align, each next to the one after it."""
    rows = [_is_row(*line) for line in lines]
    runs: list[range] = []
    i = 0
    while i < len(lines):
        j = i
        while j + 1 < len(lines) and rows[j] and rows[j + 1] and _aligned(lines[j][1], lines[j + 1][1]):
            j += 1
        if j > i:
            runs.append(range(i, j + 1))
        i = j + 1
    return runs


def table_lines(lines: Sequence[tuple[str, tuple[float, ...]]]) -> list[str]:
    """Each printed line's text (``(text, cell_x)``, see ``joined_cells``): a table's rows as a
    Markdown table (module doc), its first row the header when it is set bold, or when it
    holds no digit while most rows below it do; a cut inside a box elsewhere a space."""
    out = [_spaced(text) for text, _ in lines]
    for run in _tables(lines):
        rows = [[cell.strip() for cell in _SEPARATOR.split(lines[k][0])] for k in run]
        bold = all(cell.startswith("**") and cell.endswith("**") and "*" not in cell[2:-2] for cell in rows[0])
        for k, row in zip(run, rows):
            out[k] = "| " + " | ".join(_unbold(cell) if k == run.start and bold else cell for cell in row) + " |"
        if _header(rows, bold):
            out[run.start] += "\n|" + "|".join(["---"] * len(rows[0])) + "|"
    return out
