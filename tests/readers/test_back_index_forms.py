"""Index entries in the forms manuals print them: a bold name before its kind, and a TeX
command whose backslash is a box of its own."""

from __future__ import annotations

from reportlab.lib.pagesizes import LETTER
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas

from crossbook.readers import read_book
from crossbook.readers.passes.printed_index import index_entries, with_back_index


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


def test_a_command_of_one_letter_is_an_entry_and_a_word_of_two_is_not():
    from crossbook.core.models import Section

    body = Section("Code", 1, ("Code",), "# Code\n\n12 `\\def\\c#1{\\accent24 #1}` and an ox\n", 0, pages=(2, 2))
    entries = "\n".join(["\\c . . . . . 2", "ox . . . . . 2"] + [f"\\frob{chr(97 + n)} . . . 9" for n in range(10)])
    index = Section("Index", 1, ("Index",), f"# Index\n\n{entries}\n", 0, pages=(3, 3))
    terms = {t.name for s in with_back_index((body, index)) for t in s.terms}
    assert "\\c" in terms and "ox" not in terms


def test_a_command_entry_the_text_writes_bare_as_code_is_its_bare_name():
    from crossbook.core.models import Section

    text = "# Keys\n\nThe width is `layerwidth` (`\\tikzset{layerwidth=1}`); \\frob frobs it.\n"
    body = Section("Keys", 1, ("Keys",), text, 0, pages=(2, 2))
    index = Section("Index", 1, ("Index",), "# Index\n\n\\layerwidth . . . 2\n\\frob . . . 2\n", 0, pages=(3, 3))
    terms = {t.name: t for s in with_back_index((body, index)) for t in s.terms}
    assert terms["layerwidth"].aliases == ("\\layerwidth",) and "\\frob" in terms


def test_a_short_name_the_index_types_is_an_entry_and_an_untyped_one_is_not():
    from crossbook.core.models import Section

    body = Section("Fonts", 1, ("Fonts",), "# Fonts\n\n| Aliases: ae (aer), zefonts (zer) and an ox |\n", 0, pages=(2, 2))
    entries = "\n".join(["ae (package) . . . . . 2", "ox . . . . . 2"] + [f"\\frob{chr(97 + n)} . . . 9" for n in range(10)])
    index = Section("Index", 1, ("Index",), f"# Index\n\n{entries}\n", 0, pages=(3, 3))
    terms = {(t.name, t.kind) for s in with_back_index((body, index)) for t in s.terms}
    assert ("ae", "package") in terms and not any(name == "ox" for name, _ in terms)


def test_a_name_the_index_sets_in_math_is_placed_like_any_other():
    from crossbook.core.models import Section

    # the reader's text of a makeindex index: an entry set in math keeps its backslash in
    # italics ("*\\*frobnorm") or is italic whole ("*frobdist*"); an italic page stays a page
    text = ("# Math\n\nThe norm is written `\\frobnorm`; the distance *frobdist* (*x, y*) is symmetric.\n"
            "| `\\frobtab` | sets the frob |\n")
    body = Section("Math", 1, ("Math",), text, 0, pages=(1, 1))
    entries = "\n".join(["*\\*frobnorm, 1", "*frobdist*, 1", "`\\frobtab`, 1"]
                        + [f"\\frob{chr(97 + n)}x . . . 9" for n in range(10)])
    index = Section("Index", 1, ("Index",), f"# Index\n\n{entries}\n", 0, pages=(3, 3))
    defined = {t.name for t in with_back_index((body, index))[0].terms}
    assert {"\\frobnorm", "frobdist", "\\frobtab"} <= defined and "frobdist*" not in defined
    assert [(n, p, i) for n, _, p, _, i in index_entries("frobit, *12*, 3")] == [("frobit", [12, 3], [12])]
