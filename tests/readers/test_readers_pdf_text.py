"""The PDF reader's text on conventions TeX's PDFs follow (PDFs written here with reportlab):
a line-end hyphen the text layer marks, a font change inside a command, the TeX logo's
raised and lowered letters, and outline titles that omit the printed heading's number."""

from reportlab.lib.pagesizes import A5
from reportlab.pdfgen import canvas

from crossbook.readers import read_book
from tests.helpers import make_pdf


def test_a_word_hyphenated_at_a_paragraph_lines_end_is_joined(tmp_path):
    # PDFium marks a hyphen that ends a printed line (U+FFFE or \x02): the lines of one
    # paragraph are joined, and the word with them
    path = tmp_path / "hyphen.pdf"
    pdf = canvas.Canvas(str(path), pagesize=A5)
    pdf.setFont("Helvetica", 10)
    for n, line in enumerate(["The spell book is now widely avail-", "able in every shop of the city and sold",
                              "for a price that most travellers pay."]):
        pdf.drawString(40, 560 - 12 * n, line)
    pdf.showPage()
    pdf.save()
    text = read_book(path).text
    assert "widely available in every shop" in text
    assert "avail-" not in text and "\ufffe" not in text and "\x02" not in text


def _command_and_logo_pdf(path):
    pdf = canvas.Canvas(str(path), pagesize=A5)
    line = pdf.beginText(40, 560)  # a command whose name is set bold after a regular backslash
    for font, text in (("Courier", "Put \\"), ("Courier-Bold", "documentclass"), ("Courier", "{book} first, then "),
                       ("Helvetica-Bold", "Sprinter:"), ("Helvetica", " moves.")):
        line.setFont(font, 10)
        line.textOut(text)
    pdf.drawText(line)
    # the TeX logo as TeX sets it: L, a small raised A kerned back under it, T, a lowered E, X
    pdf.setFont("Times-Roman", 10)
    pdf.drawString(40, 520, "Typeset with L")
    x = 40 + pdf.stringWidth("Typeset with L", "Times-Roman", 10) - 3.6
    pdf.setFont("Times-Roman", 7.5)
    pdf.drawString(x, 522.2, "A")
    x += pdf.stringWidth("A", "Times-Roman", 7.5) - 1.5
    pdf.setFont("Times-Roman", 10)
    for letter, rise, kern in (("T", 0, 1.7), ("E", -2.2, 1.2), ("X and more words.", 0, 0)):
        pdf.drawString(x, 520 + rise, letter)
        x += pdf.stringWidth(letter, "Times-Roman", 10) - kern
    pdf.showPage()
    pdf.save()
    return path


def test_a_bold_run_inside_a_command_leaves_the_command_whole(tmp_path):
    text = read_book(_command_and_logo_pdf(tmp_path / "command.pdf")).text
    assert "Put \\documentclass" in text and "\\**" not in text
    assert "**Sprinter:** moves." in text  # bold that is a word of its own stays bold


def test_the_tex_logos_raised_and_lowered_letters_read_once_in_their_case(tmp_path):
    text = read_book(_command_and_logo_pdf(tmp_path / "logo.pdf")).text
    assert "Typeset with LaTeX and more words." in text


def test_sections_start_at_the_printed_heading_their_outline_entry_names(tmp_path):
    # the outline's titles leave out the printed numbers, case and line breaks of the headings
    pages = [["1 Getting Started", "Read this first.", "1.1 Installation", "Run the installer.",
              "1.2. LEGAL NOTES", "The license is free."],
             ["The end of the notes on licences.", "1.3 Command-Line Op-", "tions Explained", "Give --help."],
             ["Some text before the entry.", "\\setlength{len}{value}", "Sets a length."]]
    outline = [("Getting Started", 1, 0), ("Installation", 2, 0), ("Legal Notes", 2, 0),
               ("Command-Line Options Explained", 2, 1), ("\\setlength", 2, 2)]
    book = read_book(make_pdf(tmp_path / "manual.pdf", pages, outline, running=False))
    sections = {s.heading: s.text for s in book.sections}
    assert list(sections) == ["Getting Started", "Installation", "Legal Notes", "Command-Line Options Explained",
                              "\\setlength"]
    assert "Read this first." in sections["Getting Started"] and "installer" not in sections["Getting Started"]
    assert "Run the installer." in sections["Installation"] and "license" not in sections["Installation"]
    assert "The license is free." in sections["Legal Notes"]
    assert "The end of the notes on licences." in sections["Legal Notes"]
    assert "end of the notes" not in sections["Command-Line Options Explained"]
    assert "Give --help." in sections["Command-Line Options Explained"]
    assert "Op-" not in sections["Command-Line Options Explained"]  # the heading broken over two lines
    assert "Some text before" in sections["Command-Line Options Explained"]
    assert sections["\\setlength"] == "## \\setlength\n\n\\setlength{len}{value}\nSets a length.\n\n"


def _index_pdf(path):
    """A back index whose letters share a line with their column's first entry (set apart by a
    wide gap, a table cell to the reader), and a heading with an entry beside it."""
    pdf = canvas.Canvas(str(path), pagesize=A5)
    rows = [("Index", ""), ("Options", "draft (option) 7"), ("", "final (option) 8"),
            ("A", "activate (option) 5"), ("", "ae (package) 21"), ("B", "babel (option) 8")]
    for n, (title, level) in enumerate((("Index", 0), ("Options", 1), ("A", 1), ("B", 1))):
        pdf.bookmarkPage(f"k{n}")
        pdf.addOutlineEntry(title, f"k{n}", level=level)
    y = 560
    for left, right in rows:
        if left:
            pdf.drawString(40, y, left)
        if right:
            pdf.drawString(120, y, right)
        y -= 16
    pdf.showPage()
    pdf.save()
    return path


def test_a_heading_match_keeps_the_text_after_the_heading_in_the_body(tmp_path):
    book = read_book(_index_pdf(tmp_path / "index.pdf"))
    sections = {s.heading: s.text for s in book.sections}
    text = "".join(sections.values())
    assert "activate (option) 5" in text  # a one-letter title is no heading of a longer line
    assert "babel (option) 8" in text
    assert "draft (option) 7" in sections["Options"]  # the cell beside a heading is the body's
    assert "## Options\n\ndraft (option) 7" in sections["Options"]
    assert "activate (option) 5" in sections["A"] and "final (option) 8" in sections["Options"]
