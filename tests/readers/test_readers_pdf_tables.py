"""A PDF's tables (index/readers/pdf/cells.py): a row that PDFium gives as one text box is cut
into its cells at the wide gaps, rows of three cells or more are a Markdown table with a
header row where the first row is one, and a bold line alone over a table is its heading."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from crossbook.readers import read_book
from crossbook.readers.pdf.cells import cell_breaks, table_lines

WEAPONS = [("Name", "Cost", "Damage"), ("Mace", "5 gp", "1d6 bludgeoning"), ("Spear", "1 gp", "1d6 piercing"),
           ("Longsword", "15 gp", "1d8 slashing")]


def latex_table_pdf(path: Path, title: str = "\\medskip\\noindent\\textbf{Martial Weapons}\\par", rows=WEAPONS) -> Path:
    """A LaTeX book (pdflatex, hyperref's outline) whose table TeX sets one row to a text box,
    its cells moved apart inside it, under a bold title line."""
    body = "\\\\\n".join(" & ".join(row) for row in rows)
    table = f"\\begin{{tabular}}{{lll}}\n{body}\\\\\n\\end{{tabular}}\n" if rows else ""
    path.write_text("\\documentclass{article}\n\\usepackage{hyperref}\n\\begin{document}\n\\section{Weapons}\n"
                    "Every weapon a character can buy, with its cost and damage.\n\n"
                    f"{title}\n\\noindent\n{table}\n\\end{{document}}\n", encoding="utf-8")
    for _ in range(2):
        subprocess.run(["pdflatex", "-interaction=nonstopmode", path.name], cwd=path.parent, check=False,
                       capture_output=True, timeout=120)
    return path.with_suffix(".pdf")


def test_a_gap_wider_than_an_em_after_a_blank_may_start_a_cell():
    # "Mace 5 gp": M(0-8) a(8-13) c e, a generated blank, then "5" 40 pt further right
    boxes = [(0, 0, 8, 10), (8, 0, 13, 10), (13, 0, 18, 10), (18, 0, 23, 10), (0, 0, 0, 0),
             (63, 0, 68, 10), (0, 0, 0, 0), (70, 0, 75, 10), (75, 0, 80, 10)]
    assert cell_breaks(boxes, 0, len(boxes), 10, "Mace 5 gp") == ((5, 63),)
    assert cell_breaks(boxes, 0, 4, 10, "Mace") == ()  # no wide gap


def test_a_headings_number_set_apart_by_a_quad_is_no_cell():
    boxes = [(0, 0, 6, 10), (0, 0, 0, 0), (18, 0, 26, 10), (26, 0, 31, 10)]
    assert cell_breaks(boxes, 0, 4, 10, "1 Ma") == ()
    assert cell_breaks(boxes, 0, 4, 10, "X Ma") == ()
    assert cell_breaks(boxes, 0, 4, 10, "% Ma") == ((2, 18),)


COLUMNS = (0.0, 90.0, 150.0)


def test_aligned_rows_of_three_cells_are_a_table_whose_header_holds_no_digit():
    lines = [("Name \v Cost \v Damage", COLUMNS), ("Mace \v 5 gp \v 1d6 bludgeoning", COLUMNS),
             ("Spear | 1 gp \v 1d6 piercing", COLUMNS)]
    assert table_lines(lines) == ["| Name | Cost | Damage |\n|---|---|---|", "| Mace | 5 gp | 1d6 bludgeoning |",
                                  "| Spear | 1 gp | 1d6 piercing |"]


def test_a_bold_first_row_is_the_header_written_plain():
    lines = [("**Level** | **Feature** | **Bonus**", COLUMNS), ("1st | Rage | +2", COLUMNS), ("Any | Sense | none", COLUMNS)]
    assert table_lines(lines)[0] == "| Level | Feature | Bonus |\n|---|---|---|"


def test_wide_spaces_that_line_up_with_nothing_are_spaces():
    prose = [("New: strip the size \v from the name, \v as the font is chosen.", (0.0, 120.0, 300.0)),
             ("It was inferred \v automatically before \v this change.", (0.0, 80.0, 200.0))]
    assert table_lines(prose) == ["New: strip the size from the name, as the font is chosen.",
                                  "It was inferred automatically before this change."]
    code = [("`\\let\\a\\b%` \v `save a`", (0.0, 90.0)), ("`\\c %` \v `use b` \v `now`", (0.0, 90.0, 200.0))]
    assert table_lines(code) == ["`\\let\\a\\b% save a`", "`\\c % use b now`"]


def test_label_lines_code_and_a_lone_row_are_no_table():
    labels = [("**Range:** | 60 feet", (0.0, 90.0)), ("**Duration:** | 1 minute", (0.0, 90.0))]
    code = [("`a` | `b` | `c`", COLUMNS), ("`d` | `e` | `f`", COLUMNS)]
    lone = [("text", (0.0,)), ("Mace | 5 gp | 1d6", COLUMNS), ("more text", (0.0,))]
    for lines in (labels, code, lone):
        assert table_lines(lines) == [text for text, _ in lines]


def test_every_row_numbered_has_no_header():
    lines = [("Spell 1 | 1 mana | 1d6", COLUMNS), ("Spell 2 | 2 mana | 2d6", COLUMNS)]
    assert not any("---" in line for line in table_lines(lines))


_LATEX = pytest.mark.skipif(not shutil.which("pdflatex"), reason="pdflatex (texlive-latex-recommended) is not installed")


@pytest.mark.slow
@_LATEX
def test_a_latex_table_reads_as_a_table_under_its_bold_title(tmp_path: Path):
    book = read_book(latex_table_pdf(tmp_path / "weapons.tex"))
    assert [s.heading_path for s in book.sections] == [("Weapons",), ("Weapons", "Martial Weapons")]
    lines = book.sections[1].text.splitlines()
    at = lines.index("| Name | Cost | Damage |")
    assert lines[at + 1:at + 3] == ["|---|---|---|", "| Mace | 5 gp | 1d6 bludgeoning |"]


@pytest.mark.slow
@_LATEX
def test_a_bold_title_over_prose_stays_in_its_section(tmp_path: Path):
    book = read_book(latex_table_pdf(tmp_path / "weapons.tex", title="\\medskip\\noindent\\textbf{Martial Weapons}\\par Sharp things.", rows=[]))
    assert [s.heading_path for s in book.sections] == [("Weapons",)]
