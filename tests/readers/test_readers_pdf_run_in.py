"""Run-in headings of a PDF (LaTeX's \\paragraph, which an outline leaves out): a bold name
opening its paragraph's line, the text going on after a wide space, is a section one level
below the outline entry it follows; a bold lead that ends in its stop is not."""

from __future__ import annotations

from pathlib import Path

from crossbook.readers import read_book
from crossbook.readers.pdf.run_in import run_in_lines, run_in_title

SPELLS = [("Acid Arrow", "2nd-level evocation", "A shimmering green arrow streaks toward a target."),
          ("Aid", "2nd-level abjuration", "Your spell bolsters your allies with toughness."),
          ("Alarm", "1st-level abjuration", "You set an alarm against unwanted intrusion.")]


def run_in_pdf(path: Path, spells=SPELLS) -> Path:
    from reportlab.lib.pagesizes import A5
    from reportlab.pdfgen import canvas

    pdf = canvas.Canvas(str(path), pagesize=A5)
    pdf.bookmarkPage("k0")
    pdf.addOutlineEntry("Spell Descriptions", "k0", level=0)
    pdf.setFont("Helvetica-Bold", 14)
    pdf.drawString(40, 560, "Spell Descriptions")
    y = 530
    for name, category, text in spells:
        pdf.setFont("Helvetica-Bold", 10)
        pdf.drawString(40, y, name)
        width = pdf.stringWidth(name, "Helvetica-Bold", 10)
        pdf.setFont("Helvetica-Oblique", 10)
        pdf.drawString(40 + width + 14, y, category)  # a wide space, as \paragraph sets
        pdf.setFont("Helvetica-Bold", 10)
        pdf.drawString(40, y - 14, "Casting Time:")
        pdf.setFont("Helvetica", 10)
        pdf.drawString(120, y - 14, "1 action")
        pdf.drawString(40, y - 28, text)
        y -= 60
    pdf.showPage()
    pdf.save()
    return path


def test_a_run_in_heading_is_a_bold_name_without_a_stop_over_its_kind_in_italics():
    assert run_in_title("**Acid Arrow** | *2nd-level evocation*") == "Acid Arrow"
    assert run_in_title("**Wolf** *Medium beast, unaligned*") == "Wolf"
    for line in ("**Amphibious.** The aboleth can breathe air.", "**Casting Time:** 1 action",
                 "**Armor** | **Cost** | **Weight**", "**Mastiffs** are impressive hounds",
                 "**Code snippets** | Read this if you only need a listing."):
        assert run_in_title(line) is None, line


def test_a_book_with_fewer_than_three_is_left_as_it_is():
    assert run_in_lines([["**Acid Arrow** | *evocation*", "text", "**Aid** | *abjuration*"]]) == []


def test_each_run_in_heading_of_a_pdf_is_a_section_below_the_outline_entry(tmp_path: Path):
    book = read_book(run_in_pdf(tmp_path / "spells.pdf"))
    paths = [s.heading_path for s in book.sections]
    assert paths == [("Spell Descriptions",), ("Spell Descriptions", "Acid Arrow"),
                     ("Spell Descriptions", "Aid"), ("Spell Descriptions", "Alarm")]
    aid = book.sections[2]
    assert aid.level == 2 and "2nd-level abjuration" in aid.text and "bolsters" in aid.text
    assert "Casting Time" in aid.text and "Alarm" not in aid.text


def test_a_title_set_twice_or_a_single_letter_is_no_run_in_heading():
    # a slide's date on every example page, an index's letter groups beside its entries
    pages = [["**March 25, 2021** | *Example*", "**A** | *alignment*", "**Acid Arrow** | *evocation*"],
             ["**March 25, 2021** | *Example*", "**C** | *colour*", "**Aid** | *abjuration*"],
             ["**Alarm** | *abjuration*", "**Symbols** | *and signs*"]]
    assert [title for _, _, title in run_in_lines(pages)] == ["Acid Arrow", "Aid", "Alarm", "Symbols"]
