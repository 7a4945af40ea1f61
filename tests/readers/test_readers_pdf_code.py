"""The PDF reader writes a run set in a typewriter (monospace) font as a code run, so a PDF's
reference section defines the terms its entries open with, as Markdown's backticks do
(readers/code_entries.py); code examples set whole in that font define nothing.
PDFs written here with reportlab, whose Courier is a monospace font."""

from reportlab.lib.pagesizes import A5
from reportlab.pdfgen import canvas

from crossbook.readers import read_book


def _line(pdf, y: float, runs: list[tuple[str, str]]) -> None:
    text = pdf.beginText(40, y)
    for font, words in runs:
        text.setFont(font, 10)
        text.textOut(words)
    pdf.drawText(text)


def _section(pdf, key: str, title: str, lines: list[list[tuple[str, str]]]) -> None:
    pdf.bookmarkPage(key)
    pdf.addOutlineEntry(title, key, level=0)
    pdf.setFont("Helvetica-Bold", 14)
    pdf.drawString(40, 560, title)
    for n, runs in enumerate(lines):
        _line(pdf, 530 - 24 * n, runs)
    pdf.showPage()


def _manual(path):
    pdf = canvas.Canvas(str(path), pagesize=A5)
    _section(pdf, "keys", "Keys", [
        [("Courier", "width"), ("Helvetica", " sets the width of the box.")],
        [("Courier", "frame-rule"), ("Helvetica", " is the thickness of the frame.")],
        [("Courier", "\\definecolor"), ("Helvetica", " gives a colour a name.")],
        [("Helvetica", "All keys are read once, when the box is set.")]])
    _section(pdf, "example", "Example", [  # a code example: whole lines in code font, no description
        [("Courier", "\\usepackage{xcolor}")],
        [("Courier", "\\definecolor{sky}{rgb}{0,0,1}")],
        [("Courier", "\\begin{document}")],
        [("Helvetica", "The lines above load the package and name a colour.")]])
    pdf.save()
    return path


def test_a_monospace_run_is_a_code_run_and_opens_a_reference_sections_entries(tmp_path):
    book = read_book(_manual(tmp_path / "manual.pdf"))
    sections = {s.heading: s for s in book.sections}
    assert "`width` sets the width of the box." in sections["Keys"].text
    assert "All keys are read once" in sections["Keys"].text  # prose stays prose
    terms = {t.name: t.kind for t in sections["Keys"].terms}
    assert terms == {"width": "key", "frame-rule": "key", "\\definecolor": "command"}


def test_code_set_whole_in_a_monospace_font_defines_nothing(tmp_path):
    book = read_book(_manual(tmp_path / "manual.pdf"))
    example = next(s for s in book.sections if s.heading == "Example")
    assert "`\\usepackage{xcolor}`" in example.text
    assert example.terms == ()
