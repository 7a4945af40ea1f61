"""A PDF's tables (index/readers/pdf/cells.py): a row that PDFium gives as one text box is cut
into its cells at the wide gaps, rows of three cells or more are a Markdown table with a
header row where the first row is one, and a bold line alone over a table is its heading."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from crossbook.readers import read_book
from crossbook.readers.pdf.cells import cell_breaks, markdown_tables

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


def test_a_gap_wider_than_an_em_after_a_blank_starts_a_cell():
    # "Mace 5 gp": M(0-8) a(8-13) c e, a generated blank, then "5" 40 pt further right
    boxes = [(0, 0, 8, 10), (8, 0, 13, 10), (13, 0, 18, 10), (18, 0, 23, 10), (0, 0, 0, 0),
             (63, 0, 68, 10), (0, 0, 0, 0), (70, 0, 75, 10), (75, 0, 80, 10)]
    assert cell_breaks(boxes, 0, len(boxes), 10, "Mace 5 gp") == (5,)
    assert cell_breaks(boxes, 0, 4, 10, "Mace") == ()  # no wide gap


def test_a_headings_number_set_apart_by_a_quad_is_no_cell():
    boxes = [(0, 0, 6, 10), (0, 0, 0, 0), (18, 0, 26, 10), (26, 0, 31, 10)]
    assert cell_breaks(boxes, 0, 4, 10, "1 Ma") == ()
    assert cell_breaks(boxes, 0, 4, 10, "X Ma") == ()
    assert cell_breaks(boxes, 0, 4, 10, "% Ma") == (2,)


def test_rows_of_three_cells_are_a_table_whose_header_holds_no_digit():
    lines = [("Name | Cost | Damage", 3), ("Mace | 5 gp | 1d6 bludgeoning", 3), ("Spear | 1 gp | 1d6 piercing", 3)]
    assert markdown_tables(lines) == ["| Name | Cost | Damage |\n|---|---|---|", "| Mace | 5 gp | 1d6 bludgeoning |",
                                      "| Spear | 1 gp | 1d6 piercing |"]


def test_a_bold_first_row_is_the_header_written_plain():
    lines = [("**Level** | **Feature** | **Bonus**", 3), ("1st | Rage | +2", 3), ("Any | Sense | none", 3)]
    assert markdown_tables(lines)[0] == "| Level | Feature | Bonus |\n|---|---|---|"


def test_label_lines_code_and_a_lone_row_are_no_table():
    labels = [("**Range:** | 60 feet", 2), ("**Duration:** | 1 minute", 2)]
    code = [("`a | b | c`", 3), ("`d | e | f`", 3)]
    lone = [("text", 1), ("Mace | 5 gp | 1d6", 3), ("more text", 1)]
    for lines in (labels, code, lone):
        assert markdown_tables(lines) == [text for text, _ in lines]


def test_every_row_numbered_has_no_header():
    lines = [("Spell 1 | 1 mana | 1d6", 3), ("Spell 2 | 2 mana | 2d6", 3)]
    assert not any("---" in line for line in markdown_tables(lines))


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
