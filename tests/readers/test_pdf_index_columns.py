"""Columns of index entries (index/readers/pdf_columns.py, pure): a column's page numbers set
apart at its right end are no column's edge, and a column's lines are grouped from its own
runs, whatever the baselines of the columns beside it."""

from __future__ import annotations

from dataclasses import dataclass

from crossbook.readers.pdf.columns import aligned_gutters, columns, group_lines


@dataclass(frozen=True)
class Run:
    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    size: float = 10.0


def test_a_columns_page_numbers_set_apart_are_not_the_next_columns_edge():
    # three columns of "\name . . . ." with the page number set apart at the column's end
    line = [(72, 140), (150, 158), (228, 300), (356, 364), (384, 460), (470, 478)]
    gutters = aligned_gutters([line] * 20, 612)
    assert len(gutters) == 2
    assert 228 > gutters[0] > 158 and 384 > gutters[1] > 364  # the middle column keeps its numbers


def test_a_columns_lines_are_grouped_from_its_own_runs():
    # the right column sits 5 pt lower; its names' boxes are taller than its numbers', so the
    # number's middle falls in the left column's line and the name's does not
    runs = []
    for row in range(20):
        y = 700 - 14 * row
        runs += [Run(72, y - 2, 150, y + 8, f"\\left{row:02d} . . . 3"),
                 Run(320, y - 9, 380, y + 3, f"\\right{row:02d} . . ."), Run(400, y - 6, 410, y + 2, f"{row + 40}")]
    lines = columns(group_lines(runs), 612)
    texts = [" ".join(r.text for r in line) for line in lines]
    assert "\\right00 . . . 40" in texts and "\\right19 . . . 59" in texts
    assert texts.index("\\left19 . . . 3") < texts.index("\\right00 . . . 40")
