"""More back-index layouts (readers/pdf_columns.py, pdf.py, index_form.py, back_index.py): an
index set in columns below the text before it on its page, an outline entry anchored pages
before its printed heading, an index with no outline whose later pages are sections of their
own, a kind and its leaders set in bold, and a swallowing section that keeps no term the
index's text gave it."""

from __future__ import annotations

from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen import canvas

from crossbook.core.models import DocTerm, Section
from crossbook.readers import read_book
from crossbook.readers.passes.index_form import split_unmarked_index
from crossbook.readers.passes.printed_index import index_entries, is_back_index

PROSE = ("This paragraph of running text is set across the whole text block, from margin to margin, as a manual's "
         "prose is set before its index begins on the same page.")


def _prose(pdf, y: float, lines: int = 12) -> float:
    pdf.setFont("Helvetica", 10)
    for _ in range(lines):
        pdf.drawString(72, y, PROSE[:96])
        y -= 14
    return y


def _entries(pdf, y: float, names: list[str], page: int = 3) -> None:
    """Two columns of entries whose leaders run to the page number at the column's end, near
    the gutter ("\\frob (option) . . . . 3")."""
    half = (len(names) + 1) // 2
    for row in range(half):
        for column, x in ((0, 72), (1, 318)):
            if column * half + row < len(names):
                pdf.drawString(x, y - row * 14, f"{names[column * half + row]} (option) " + ". " * 24)
                pdf.drawRightString(x + 222, y - row * 14, str(page))


def test_columns_below_the_prose_of_their_page_are_read_column_by_column(tmp_path):
    names = [f"frob{chr(97 + n)}" for n in range(24)]
    pdf = canvas.Canvas(str(tmp_path / "band.pdf"), pagesize=LETTER)
    y = _prose(pdf, 720)
    pdf.drawString(72, y - 10, "Index")
    _entries(pdf, y - 34, names)
    pdf.showPage()
    pdf.save()
    text = read_book(tmp_path / "band.pdf").text
    at = [text.index(f"{name} (option)") for name in names]
    assert at == sorted(at)  # column one, then column two; rows would interleave them
    assert text.index(PROSE[:40]) < at[0] and not any(line.count("(option)") > 1 for line in text.splitlines())


def test_a_table_below_the_prose_of_its_page_stays_rows(tmp_path):
    # short names beside their descriptions: aligned, but no columns of one kind of text
    pdf = canvas.Canvas(str(tmp_path / "table.pdf"), pagesize=LETTER)
    y = _prose(pdf, 720)
    for row in range(14):
        pdf.drawString(72, y - 20 - row * 14, f"Frob{row}")
        pdf.drawString(318, y - 20 - row * 14, f"primary, secondary and tertiary frob {row}")
    pdf.showPage()
    pdf.save()
    text = read_book(tmp_path / "table.pdf").text
    assert all(f"Frob{row} | primary, secondary and tertiary frob {row}" in text for row in range(14))


def test_a_heading_anchored_a_page_early_starts_its_section_where_it_is_printed(tmp_path):
    # "Index" and "Bibliography" both point at the index's first page; Bibliography is printed two
    # pages on: it does not swallow the index's pages
    names = [f"frob{chr(97 + n)}" for n in range(20)]
    pdf = canvas.Canvas(str(tmp_path / "early.pdf"), pagesize=LETTER)
    pdf.setFont("Helvetica", 10)
    pdf.drawString(72, 720, "Usage")
    for n, name in enumerate(names):
        pdf.drawString(72, 700 - 14 * n, f"The {name} option frobs the {name} part.")
    pdf.bookmarkPage("usage")
    pdf.addOutlineEntry("Usage", "usage", 0)
    pdf.showPage()
    pdf.setFont("Helvetica", 10)
    pdf.bookmarkPage("index")
    pdf.addOutlineEntry("Index", "index", 0)
    pdf.bookmarkPage("bib")
    pdf.addOutlineEntry("Bibliography", "bib", 0)
    pdf.drawString(72, 720, "Index")
    for n, name in enumerate(names[:10]):
        pdf.drawString(72, 700 - 14 * n, f"{name} (option) . . . . . . 1")
    pdf.showPage()
    pdf.setFont("Helvetica", 10)
    for n, name in enumerate(names[10:]):
        pdf.drawString(72, 720 - 14 * n, f"{name} (option) . . . . . . 1")
    pdf.showPage()
    pdf.setFont("Helvetica", 10)
    pdf.drawString(72, 720, "Bibliography")
    pdf.drawString(72, 700, "[1] A. Nobody, The frob book, 1999.")
    pdf.showPage()
    pdf.save()
    book = read_book(tmp_path / "early.pdf")
    bibliography = next(s for s in book.sections if s.heading == "Bibliography")
    assert "option" not in bibliography.text and bibliography.pages == (4, 4)
    defined = {t.name for s in book.sections if s.heading == "Usage" for t in s.terms if t.rule == "back_index"}
    assert set(names) <= defined


def test_an_index_without_an_outline_keeps_its_later_pages(tmp_path):
    names = [f"\\frob{chr(97 + a)}{chr(97 + b)}" for a in range(3) for b in range(12)]
    pdf = canvas.Canvas(str(tmp_path / "bare.pdf"), pagesize=LETTER)
    pdf.setFont("Helvetica", 10)
    for n, name in enumerate(names):
        pdf.drawString(72, 720 - 14 * n, f"The {name} command frobs.")
    pdf.showPage()
    for first, chunk in ((True, names[:18]), (False, names[18:])):
        pdf.setFont("Helvetica", 10)
        y = 720
        if first:
            pdf.drawString(72, y, "Index")
            y -= 20
        for n, name in enumerate(chunk):
            pdf.drawString(72, y - 14 * n, f"{name} . . . . . . 1")
        pdf.showPage()
    pdf.save()
    book = read_book(tmp_path / "bare.pdf")
    # a section a page; the index split off the page that prints its heading, and its next page joined to it
    assert [(s.heading, is_back_index(s)) for s in book.sections] == [
        ("Page 1", False), ("Page 2", False), ("Index", True), ("Index", True)]
    assert not any(s.terms for s in book.sections[1:])
    assert {t.name for t in book.sections[0].terms if t.rule == "back_index"} == set(names)


def test_a_kind_and_its_leaders_set_in_bold_are_an_entry():
    found = index_entries("frobwidth **(option) . . . . . . 31**\n\\frobtop **. . . . . . 17**")
    assert [(n, k, p) for n, k, p, *_ in found] == [("frobwidth", "option", [31]), ("\\frobtop", "command", [17])]


def test_the_section_an_index_is_split_off_keeps_only_its_own_terms():
    entries = "\n".join(f"frob{chr(97 + n)} (environment) . . . . 2" for n in range(12))
    text = f"# Notes\n\nThe frobz environment ends the notes.\nIndex\n{entries}\n"
    swallowing = Section("Notes", 1, ("Notes",), text, 0, pages=(3, 4),
                         terms=(DocTerm("frobz", "environment"), DocTerm("froba", "environment")))
    out = split_unmarked_index((swallowing,), lambda t: len(index_entries(t)))
    assert [s.heading for s in out] == ["Notes", "Index"]
    assert [t.name for t in out[0].terms] == ["frobz"]


def test_a_number_set_apart_from_its_comma_keeps_the_numbers_after_it():
    # a doc index underlines a code line: a run of its own, set apart from its comma
    found = index_entries("\\frobas . . . . . . 1 , *1*, 2")
    assert [(n, p, i) for n, _, p, _, i in found] == [("\\frobas", [1, 1, 2], [1])]


def test_a_numbered_index_heading_without_an_outline_entry_is_found():
    entries = "\n".join(f"\\frob{chr(97 + n)} . . . . 2" for n in range(12))
    body = "\n".join(f"The \\frob{chr(97 + n)} command frobs." for n in range(12))
    swallowing = Section("Use", 1, ("Use",), f"# Use\n\n{body}\n**5 Command Index**\n{entries}\n", 0, pages=(2, 3))
    out = split_unmarked_index((swallowing,), lambda t: len(index_entries(t)))
    assert [s.heading for s in out] == ["Use", "Index"] and "5 Command" not in out[0].text


def test_a_change_log_defines_nothing_by_its_entries():
    from crossbook.readers.passes.reference_entries import with_code_entries

    entries = "\n".join(f"`\\frob{c}`: `\\bf` replaced by `\\textbf` . . 12" for c in "abcd")
    sections = (Section("Change History", 2, ("frob", "Change History"), f"## Change History\n\n{entries}\n", 0),
                Section("Commands", 2, ("frob", "Commands"), f"## Commands\n\n{entries}\n", 9))
    out = with_code_entries(sections, lines_are_paragraphs=True)
    assert not out[0].terms and len(out[1].terms) == 4
