"""The PDF reader's layout (index/readers/pdf.py) on PDFs written here with reportlab: a
table stays readable rows, a two-column page reads column by column, and printed page labels."""

from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen import canvas
from reportlab.platypus import SimpleDocTemplate, Table

from index.readers import read_book


def test_a_table_reads_as_one_line_per_row_with_cells_joined(tmp_path):
    rows = [["Name", "Cost", "Range", "Effect"], ["Frost Lance", "2 mana", "30 ft", "1d8 cold"],
            ["Ember", "1 mana", "10 ft", "burns 1d6"]]
    SimpleDocTemplate(str(tmp_path / "table.pdf"), pagesize=LETTER).build([Table(rows)])
    lines = read_book(tmp_path / "table.pdf").text.splitlines()
    for row in rows:
        assert " | ".join(row) in lines


def two_column_page(path, sentences=30):
    """Two columns whose content stream runs across the page line by line."""
    pdf = canvas.Canvas(str(path), pagesize=LETTER)
    pdf.setFont("Helvetica-Bold", 16)
    pdf.drawString(72, 740, "Marsh Roads")  # a title on the left, above both columns
    pdf.setFont("Helvetica", 10)
    half = sentences // 2
    for row in range(half):
        y = 700 - row * 14
        pdf.drawString(72, y, f"Sentence S{row:03d} tells of the winding marsh road.")
        pdf.drawString(324, y, f"Sentence S{row + half:03d} tells of the stony hill road.")
    pdf.showPage()
    pdf.save()
    return path


def test_a_two_column_page_reads_column_by_column(tmp_path):
    text = read_book(two_column_page(tmp_path / "columns.pdf")).text
    at = [text.index(f"S{n:03d}") for n in range(30)]
    assert at == sorted(at)
    assert "Sentence S000 tells of the winding marsh road." in text.splitlines()


def test_a_table_is_not_taken_for_two_columns(tmp_path):
    # a long table of three columns, the last one wide: no gutter between its cells
    rows = [[f"Spell {n}", f"{n} mana", f"Deals {n}d6 cold damage to a creature within reach"] for n in range(14)]
    SimpleDocTemplate(str(tmp_path / "wide.pdf"), pagesize=LETTER).build([Table(rows)])
    lines = read_book(tmp_path / "wide.pdf").text.splitlines()
    assert "Spell 3 | 3 mana | Deals 3d6 cold damage to a creature within reach" in lines
