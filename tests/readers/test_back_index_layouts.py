"""Back indexes in any layout: columns of short entries read column by column, entries with a
comma instead of dot leaders, an index with no outline entry found by its form, a numbered
"H Index" heading, and an index whose numbers are code lines."""

from __future__ import annotations

from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen import canvas

from crossbook.core.models import Section
from crossbook.readers import read_book
from crossbook.readers.passes.printed_index import index_entries, is_back_index, with_back_index


def index_page(path, columns: int):
    """An index page of short entries ("\\frobN, page") in ``columns`` equal columns, whose
    content stream runs across the page line by line."""
    pdf = canvas.Canvas(str(path), pagesize=LETTER)
    pdf.setFont("Helvetica", 10)
    width = (540 - 72) / columns
    rows = 20
    for row in range(rows):
        for column in range(columns):
            n = column * rows + row
            pdf.drawString(72 + column * width, 700 - row * 14, f"\\frob{n:02d}, {n + 3}")
    pdf.showPage()
    pdf.save()
    return path


def test_two_columns_of_short_entries_read_column_by_column(tmp_path):
    text = read_book(index_page(tmp_path / "two.pdf", 2)).text
    at = [text.index(f"\\frob{n:02d}") for n in range(40)]
    assert at == sorted(at) and " | " not in text


def test_three_columns_of_short_entries_read_column_by_column(tmp_path):
    text = read_book(index_page(tmp_path / "three.pdf", 3)).text
    at = [text.index(f"\\frob{n:02d}") for n in range(60)]
    assert at == sorted(at)


def test_an_entry_with_a_comma_and_one_set_in_bold_are_entries():
    found = index_entries("\\frobtop, 17\n\\lscCond**, 5, 14**\n\\colorlet . . . 12, **34**")
    assert [(n, p, b) for n, _, p, b, _ in found] == [("\\frobtop", [17], []), ("\\lscCond", [5, 14], []),
                                                   ("\\colorlet", [12, 34], [34])]


def section(heading_path, text, pages, start=0):
    return Section(heading_path[-1], len(heading_path), tuple(heading_path), text, start, pages=pages)


def test_an_appendix_index_and_one_below_the_title_are_indexes():
    assert is_back_index(section(["H Index"], "# H Index\n", (9, 9)))
    assert is_back_index(section(["frob.sty manual", "Index"], "## Index\n", (9, 9)))
    assert not is_back_index(section(["Indexing"], "# Indexing\n", (2, 2)))


def test_an_index_without_an_outline_entry_is_split_off_and_defines_nothing_itself():
    names = [f"frob{chr(97 + n)}" for n in range(12)]  # \\froba, \\frobb, ...
    entries = "\n".join(f"\\{name} . . . . {2 + n % 2}" for n, name in enumerate(names))
    body = "\n".join(f"The \\{name} command frobs." for name in names)
    sections = (section(["Use"], f"# Use\n\n{body}\n", (2, 3)),
                section(["References"], f"# References\n\n[1] A book.\n**Index**\n{entries}\n", (4, 5), 20))
    out = with_back_index(sections)
    assert [s.heading for s in out] == ["Use", "References", "Index"]
    assert "frob" not in out[1].text
    defined = {t.name for s in out for t in s.terms}
    assert "\\frobd" in defined and not out[2].terms


def test_code_line_numbers_place_an_entry_where_the_listing_prints_the_line():
    listing_a = "# Usage\n\nThe \\frobnicate macro frobs.\n"
    listing_b = "# Code\n\n41 `\\def\\frobnicate{%`\n42 `\\relax}`\n"
    index = ("# Index\n\nNumbers underlined refer to the code line of the definition; numbers in roman refer to"
             " the code lines where the entry is used.\n\\frobnicate . . . . 41\n")
    out = with_back_index((section(["Usage"], listing_a, (1, 1)), section(["Code"], listing_b, (41, 42)),
                           section(["Index"], index, (3, 3))))
    # by page, 41 is the Code section too; here a page the Usage section spans is a code line
    out_pages = with_back_index((section(["Usage"], listing_a, (41, 41)), section(["Code"], listing_b, (2, 2)),
                                 section(["Index"], index, (3, 3))))
    assert [t.name for t in out[1].terms] == ["\\frobnicate"]
    assert [t.name for t in out_pages[1].terms] == ["\\frobnicate"] and not out_pages[0].terms


def test_an_italic_number_of_a_code_line_index_is_the_page_that_describes_the_entry():
    usage = "# Usage\n\nThe \\frobnicate macro frobs.\n"
    code = "# Code\n\n41 `\\def\\frobnicate{%`\n42 `\\relax}`\n"
    index = ("# Index\n\nNumbers written in italic refer to the page where the corresponding entry is described;"
             " numbers in roman refer to the code lines where the entry is used.\n\\frobnicate . . . . *2*, 41\n")
    out = with_back_index((section(["Usage"], usage, (2, 2)), section(["Code"], code, (5, 5)),
                           section(["Index"], index, (6, 6))))
    assert [t.name for t in out[0].terms] == ["\\frobnicate"]
    assert [link[0] for link in out[1].links] == ["\\frobnicate"]


def test_numbers_past_the_last_page_are_code_lines_unsaid():
    usage = "# Usage\n\nThe \\frobnicate macro frobs.\n"
    code = "# Code\n\n41 `\\def\\frobnicate{%`\n42 `\\relax}`\n"
    out = with_back_index((section(["Usage"], usage, (1, 1)), section(["Code"], code, (2, 2)),
                           section(["Index"], "# Index\n\n\\frobnicate . . . . 41\n", (3, 3))))
    assert [t.name for t in out[1].terms] == ["\\frobnicate"] and not out[0].terms


def test_one_name_of_two_kinds_is_placed_by_each_entrys_pages():
    out = with_back_index((section(["Options"], "# Options\n\nThe step= key sets the step.\n", (2, 2)),
                           section(["Files"], "# Files\n\nThe step package is loaded.\n", (3, 3)),
                           section(["Index"], "# Index\n\nstep (option) . . . 2\nstep (package) . . . 3\n", (4, 4))))
    assert [(t.name, t.kind) for t in out[0].terms] == [("step", "option")]
    assert [(t.name, t.kind) for t in out[1].terms] == [("step", "package")]
