"""The PDF reader's layout (index/readers/pdf.py) on PDFs written here with reportlab: a
table stays readable rows, a two-column page reads column by column, and printed page labels."""

from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen import canvas
from reportlab.platypus import SimpleDocTemplate, Table

from crossbook.readers import read_book


def test_a_table_reads_as_a_markdown_table_under_its_header_row(tmp_path):
    rows = [["Name", "Cost", "Range", "Effect"], ["Frost Lance", "2 mana", "30 ft", "1d8 cold"],
            ["Ember", "1 mana", "10 ft", "burns 1d6"]]
    SimpleDocTemplate(str(tmp_path / "table.pdf"), pagesize=LETTER).build([Table(rows)])
    lines = read_book(tmp_path / "table.pdf").text.splitlines()
    at = lines.index("| Name | Cost | Range | Effect |")
    assert lines[at + 1:at + 4] == ["|---|---|---|---|", "| Frost Lance | 2 mana | 30 ft | 1d8 cold |",
                                    "| Ember | 1 mana | 10 ft | burns 1d6 |"]


def two_column_page(path, sentences=30, offset=0):
    """Two columns whose content stream runs across the page line by line; ``offset`` sets the
    right column's baselines that much lower (columns whose paragraphs space differently)."""
    pdf = canvas.Canvas(str(path), pagesize=LETTER)
    pdf.setFont("Helvetica-Bold", 16)
    pdf.drawString(72, 740, "Marsh Roads")  # a title on the left, above both columns
    pdf.setFont("Helvetica", 10)
    half = sentences // 2
    for row in range(half):
        y = 700 - row * 14
        pdf.drawString(72, y, f"Sentence S{row:03d} tells of the winding marsh road.")
        pdf.drawString(324, y - offset, f"Sentence S{row + half:03d} tells of the stony hill road.")
    pdf.showPage()
    pdf.save()
    return path


def test_a_two_column_page_reads_column_by_column(tmp_path):
    text = read_book(two_column_page(tmp_path / "columns.pdf")).text
    at = [text.index(f"S{n:03d}") for n in range(30)]
    assert at == sorted(at)
    assert "Sentence S000 tells of the winding marsh road." in text.splitlines()


def test_two_columns_whose_baselines_differ_read_column_by_column(tmp_path):
    text = read_book(two_column_page(tmp_path / "columns.pdf", offset=6)).text
    at = [text.index(f"S{n:03d}") for n in range(30)]
    assert at == sorted(at) and " | " not in text


def test_a_table_is_not_taken_for_two_columns(tmp_path):
    # a long table of three columns, the last one wide: no gutter between its cells
    rows = [[f"Spell {n}", f"{n} mana", f"Deals {n}d6 cold damage to a creature within reach"] for n in range(14)]
    SimpleDocTemplate(str(tmp_path / "wide.pdf"), pagesize=LETTER).build([Table(rows)])
    lines = read_book(tmp_path / "wide.pdf").text.splitlines()
    assert "| Spell 3 | 3 mana | Deals 3d6 cold damage to a creature within reach |" in lines
    assert not any(line.startswith("|--") for line in lines)  # every row holds a number: no header


def test_pages_are_the_printed_numbers_of_the_page_labels(tmp_path):
    from pypdf import PdfReader, PdfWriter
    from pypdf.constants import PageLabelStyle

    from tests.helpers import make_pdf

    pages = [["Preface", "Why this book."], ["More preface."], ["Spells", "Spells are cast."], ["Ember burns."],
             ["Frost Lance", "Frost Lance chills."], ["Ice Wall", "A wall of ice."]]
    outline = [("Preface", 1, 0), ("Spells", 1, 2), ("Frost Lance", 2, 4), ("Ice Wall", 2, 5)]
    plain = make_pdf(tmp_path / "plain.pdf", pages, outline)
    writer = PdfWriter(clone_from=PdfReader(plain))
    writer.set_page_label(0, 1, style=PageLabelStyle.LOWERCASE_ROMAN, start=1)  # i, ii
    writer.set_page_label(2, 5, style=PageLabelStyle.DECIMAL, start=115)  # 115..118
    with open(tmp_path / "labelled.pdf", "wb") as out:
        writer.write(out)
    book = read_book(tmp_path / "labelled.pdf")
    assert [(s.heading, s.pages) for s in book.sections] == [
        ("Preface", (1, 2)), ("Spells", (115, 116)), ("Frost Lance", (117, 117)), ("Ice Wall", (118, 118))]
    assert [s.pages for s in read_book(plain).sections] == [(1, 2), (3, 4), (5, 5), (6, 6)]


def test_a_chapters_running_head_is_removed(tmp_path):
    # LaTeX's book class: the chapter's title and the page number on odd pages, the book's on even
    # pages; 24 pages, chapters of 8, so a chapter's head is on 4 pages (fewer than a quarter)
    pdf = canvas.Canvas(str(tmp_path / "heads.pdf"), pagesize=LETTER)
    for page in range(24):
        chapter = ("Ashen Roads", "Frozen Rivers", "Burning Hills")[page // 8]
        if page % 2 == 0:  # physical page 1, 3, ... is odd
            pdf.drawString(72, 750, chapter.upper())
            pdf.drawRightString(540, 750, str(page + 1))
        else:
            pdf.drawString(72, 750, str(page + 1))
            pdf.drawRightString(540, 750, "The Book")
        for line in range(3):  # body lines differ in their words, not only in their digits
            word = "".join(chr(97 + (page * 5 + line * 3 + k) % 26) for k in range(6))
            pdf.drawString(72, 700 - 14 * line, f"The {word} text goes on about {chapter.lower()}.")
        pdf.showPage()
    pdf.save()
    text = read_book(tmp_path / "heads.pdf").text
    assert "The uvwxyz text goes on about ashen roads." in text
    assert "ASHEN ROADS" not in text and "The Book" not in text


def test_italic_runs_become_markdown_emphasis(tmp_path):
    pdf = canvas.Canvas(str(tmp_path / "italic.pdf"), pagesize=LETTER)
    line = pdf.beginText(72, 700)
    line.setFont("Helvetica", 10)
    line.textOut("- ")
    line.setFont("Helvetica-Oblique", 10)
    line.textOut("Attracts Monster Hordes")
    line.setFont("Helvetica", 10)
    line.textOut(" (Loki, Tlaltecuhtli)")
    pdf.drawText(line)
    pdf.showPage()
    pdf.save()
    assert "- *Attracts Monster Hordes* (Loki, Tlaltecuhtli)" in read_book(tmp_path / "italic.pdf").text


def test_a_paragraphs_lines_are_one_line_and_paragraphs_stay_apart(tmp_path):
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph

    style = getSampleStyleSheet()["BodyText"]
    first = ("A caster who knows the old words may call the frost. " * 4
             + "The spell that answers is <b>Frost Lance</b>, and the cold it brings lingers on the ground.")
    second = "<b>Ember Surge:</b> three sixes while casting set the air alight around the caster."
    SimpleDocTemplate(str(tmp_path / "para.pdf"), pagesize=LETTER).build([Paragraph(first, style),
                                                                          Paragraph(second, style)])
    lines = [line for line in read_book(tmp_path / "para.pdf").text.splitlines() if line.strip()]
    assert lines[-2].startswith("A caster who knows") and lines[-2].endswith("lingers on the ground.")
    assert "**Frost Lance**" in lines[-2]  # mid-sentence bold is never a line's lead
    assert lines[-1] == "**Ember Surge:** three sixes while casting set the air alight around the caster."
