"""A PDF's internal links (hyperref's \\ref, index page numbers, command cross-references)
are the author's exact references to what the target section defines (PDFs written here
with reportlab: link annotations to a place in the book)."""

from reportlab.lib.pagesizes import A5
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas

from crossbook.readers import read_book


def _manual(path, lines, links):
    """Page 1: a usage section of ``lines`` with ``links`` (a box, a destination); page 2:
    the command's own section (its outline entry and a destination just above its heading)."""
    pdf = canvas.Canvas(str(path), pagesize=A5)
    pdf.bookmarkPage("usage")
    pdf.addOutlineEntry("Usage", "usage", level=0)
    pdf.drawString(40, 560, "Usage")
    for n, line in enumerate(lines):
        pdf.drawString(40, 530 - 30 * n, line)
    for rect, destination in links:
        pdf.linkAbsolute("", destination, Rect=rect)
    pdf.showPage()
    pdf.bookmarkPage("page2")
    pdf.bookmarkHorizontal("cmd", 0, 575)
    pdf.addOutlineEntry("\\setcolor", "cmd", level=0)
    pdf.drawString(40, 560, "\\setcolor")
    pdf.drawString(40, 530, "Sets the colour of what follows; the key model chooses the model.")
    pdf.showPage()
    pdf.save()
    return path


def _box(lines, row, word):
    """The box of ``word`` (its last occurrence) on line ``row`` of the usage section."""
    x = 40 + stringWidth(lines[row][:lines[row].rindex(word)], "Helvetica", 12)
    y = 530 - 30 * row
    return x, y - 3, x + stringWidth(word, "Helvetica", 12), y + 10


def _links(book, heading):
    return [(name, shown) for name, shown, _ in next(s for s in book.sections if s.heading == heading).links]


def test_an_internal_link_references_what_its_target_section_defines(tmp_path):
    lines = ["Colours are set with \\setcolor in the preamble."]
    book = read_book(_manual(tmp_path / "manual.pdf", lines, [(_box(lines, 0, "\\setcolor"), "cmd")]))
    assert _links(book, "Usage") == [("\\setcolor", "\\setcolor")]  # the target's command, as the link shows it
    assert _links(book, "\\setcolor") == []  # the command's own section links nothing


def test_a_page_number_link_references_the_name_its_line_shows(tmp_path):
    # an index's or a "see page 2" link shows a number: its line says what it points to
    lines = ["\\setcolor . . . 2", "The key model is listed on page 2 of this guide."]
    links = [(_box(lines, 0, "2"), "page2"), (_box(lines, 1, "2"), "page2")]
    book = read_book(_manual(tmp_path / "manual.pdf", lines, links))
    assert _links(book, "Usage") == [("\\setcolor", "\\setcolor")]  # the second line names no such thing
    book = read_book(_manual(tmp_path / "other.pdf", lines[1:], [(_box(lines[1:], 0, "2"), "page2")]))
    assert _links(book, "Usage") == []
