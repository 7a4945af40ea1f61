"""Index entries in the forms manuals print them: a bold name before its kind, and a TeX
command whose backslash is a box of its own."""

from __future__ import annotations

from reportlab.lib.pagesizes import LETTER
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas

from crossbook.readers import read_book
from crossbook.readers.back_index import index_entries


def test_a_bold_name_before_its_kind_is_an_entry_of_that_kind():
    found = index_entries("**solution** (environment) . . . . 4, 6, 9\n**exercise** (package) . . . 12")
    assert [(n, k, p) for n, k, p, *_ in found] == [("solution", "environment", [4, 6, 9]),
                                                   ("exercise", "package", [12])]


def test_a_backslash_set_apart_from_its_command_name_is_no_space(tmp_path):
    path = tmp_path / "glued.pdf"
    pdf = canvas.Canvas(str(path), pagesize=LETTER)
    pdf.setFont("Courier", 9)
    pdf.drawString(72, 700, "\\")
    # the name starts 0.1 or 0.2 em after the backslash's box: a narrow glyph's ink, no space
    pdf.drawString(72 + stringWidth("\\", "Courier", 9) + 1.0, 700, "NewThing sets things.")
    pdf.drawString(72, 690, "\\")
    pdf.drawString(72 + stringWidth("\\", "Courier", 9) + 1.8, 690, "OldThing too.")  # PDFium makes it a space
    pdf.drawString(72, 680, "A word")
    pdf.drawString(72 + stringWidth("A word", "Courier", 9) + 5.4, 680, "and a space.")
    pdf.showPage()
    pdf.save()
    text = read_book(path).text
    assert "\\NewThing sets things." in text and "\\OldThing too." in text and "A word and a space." in text
