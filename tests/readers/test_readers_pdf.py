"""The PDF reader (index/readers/pdf.py) on PDFs written here with reportlab: outline
sections and their pages, running headers and footers, hyphen joins, ligatures, bad input,
and a PDF twin that answers where-else like its Markdown original."""


import pytest
from reportlab.lib.pagesizes import A5
from reportlab.pdfgen import canvas

from crossbook.core.errors import BadInput
from crossbook.readers import read_book
from crossbook.readers.pdf import normalise_text
from tests.helpers import BOOK_A, make_pdf, write

PAGES = [
    ["Conditions", "A condition changes what a creature can do.", "Chilled", "A Chilled creature loses 1 Speed.",
     "Frost Lance causes it; the cold is unre-", "lenting and hard to shake."],
    ["Prone", "A Prone fighter is easy to hit."],
    ["Equipment", "Shield", "A Shield is armor you wield in the off hand."],
    ["Appendix", "Nothing more."],
]
OUTLINE = [("Conditions", 1, 0), ("Chilled", 2, 0), ("Prone", 2, 1), ("Equipment", 1, 2), ("Shield", 2, 2),
           ("Appendix", 1, 3)]


def test_outline_gives_the_section_tree_with_pages(tmp_path):
    book = read_book(make_pdf(tmp_path / "core.pdf", PAGES, OUTLINE))
    assert book.format == "pdf" and book.title == "The Book" and not book.warnings
    assert [(s.heading_path, s.pages) for s in book.sections] == [
        (("Conditions",), (1, 1)), (("Conditions", "Chilled"), (1, 1)), (("Conditions", "Prone"), (2, 2)),
        (("Equipment",), (3, 3)), (("Equipment", "Shield"), (3, 3)), (("Appendix",), (4, 4))]
    chilled = book.sections[1].text
    assert chilled.startswith("## Chilled\n\n")
    assert "Speed." in chilled and "Prone fighter" not in chilled


def test_running_headers_page_numbers_hyphens_and_ligatures_are_cleaned(tmp_path):
    text = read_book(make_pdf(tmp_path / "core.pdf", PAGES, OUTLINE)).text
    assert "Running Header" not in text
    assert not any(line.strip().isdigit() for line in text.splitlines())
    assert "unrelenting" in text and "unre-" not in text


def test_ligatures_and_soft_hyphens_are_normalised():
    # reportlab's standard fonts have no ligature glyphs: the text layer's mapping is tested here
    assert normalise_text("dif\ufb01cult \ufb02ask of\ufb00 e\u00adven re-\nlated") == "difficult flask offf even related"


def test_no_outline_is_one_section_per_page_with_a_warning(tmp_path):
    book = read_book(make_pdf(tmp_path / "flat.pdf", PAGES))
    assert [s.pages for s in book.sections] == [(1, 1), (2, 2), (3, 3), (4, 4)]
    assert "one section per page" in book.warnings[0]


def test_bad_pdfs_are_one_line_that_names_the_fix(tmp_path):
    from reportlab.lib.pdfencrypt import StandardEncryption

    locked = make_pdf(tmp_path / "locked.pdf", PAGES, OUTLINE, encrypt=StandardEncryption("secret", "owner"))
    with pytest.raises(BadInput, match="encrypted PDF: decrypt it first"):
        read_book(locked)
    scanned = make_pdf(tmp_path / "scan.pdf", [[None], [None]], running=False)
    with pytest.raises(BadInput, match="run OCR first"):
        read_book(scanned)
    whole = make_pdf(tmp_path / "whole.pdf", PAGES, OUTLINE).read_bytes()
    cut = tmp_path / "cut.pdf"
    cut.write_bytes(whole[: len(whole) // 3])
    with pytest.raises(BadInput, match="damaged or truncated PDF"):
        read_book(cut)


def test_a_pdf_twin_answers_where_else_like_its_markdown_original(tmp_path, cli_json):
    pages = [["Core Rules", "Conditions", "Chilled", "A Chilled creature loses 1 Speed. Frost Lance causes it.",
              "Prone", "A Prone fighter is easy to hit."],
             ["Equipment", "Shield", "A Shield is armor you wield in the off hand."]]
    outline = [("Core Rules", 1, 0), ("Conditions", 2, 0), ("Chilled", 3, 0), ("Prone", 3, 0),
               ("Equipment", 2, 1), ("Shield", 3, 1)]
    md, pdf = tmp_path / "md", tmp_path / "pdf"
    md.mkdir()
    pdf.mkdir()
    write(md / "core.md", BOOK_A)
    make_pdf(pdf / "core.pdf", pages, outline, title="Core Rules", running=False)

    def answers(folder):
        index = tmp_path / f"index-{folder.name}"
        cli_json("--index", index, "ingest", folder / ("core." + folder.name), "--relations", "off")
        out = {}
        for name in ("Chilled", "Prone", "Shield"):
            result = cli_json("--index", index, "where-else", name)
            out[name] = sorted((g["book"], m["mention_type"], m["heading_path"], tuple(m.get("pages") or ()))
                               for e in result["entities"] for g in e["books"] for m in g["mentions"])
        return out

    from_md, from_pdf = answers(md), answers(pdf)
    assert {k: [row[:3] for row in v] for k, v in from_pdf.items()} == {
        k: [row[:3] for row in v] for k, v in from_md.items()}
    assert from_pdf["Shield"][0][3] == (2, 2)


def test_no_outline_headings_come_from_the_font_size(tmp_path):
    pdf = canvas.Canvas(str(tmp_path / "sized.pdf"), pagesize=A5)
    for page in ([("Conditions", 20), ("A condition changes a creature.", 10), ("Chilled", 14),
                  ("A Chilled creature loses 1 Speed.", 10)], [("Prone", 14), ("A Prone fighter is easy to hit.", 10),
                                                               ("It stands up slowly.", 10)]):
        y = 560
        for text, size in page:
            pdf.setFont("Helvetica", size)
            pdf.drawString(40, y, text)
            y -= 2 * size
        pdf.showPage()
    pdf.save()
    book = read_book(tmp_path / "sized.pdf")
    assert "font size" in book.warnings[0]
    assert [(s.heading_path, s.pages) for s in book.sections] == [
        (("Conditions",), (1, 1)), (("Conditions", "Chilled"), (1, 1)), (("Conditions", "Prone"), (2, 2))]
    assert "Speed." in book.sections[1].text and "Prone" not in book.sections[1].text


def test_bold_runs_and_bullets_become_markdown(tmp_path):
    pdf = canvas.Canvas(str(tmp_path / "bold.pdf"), pagesize=A5)
    line = pdf.beginText(40, 560)  # one line, two fonts (as TeX sets a bold lead)
    line.setFont("Helvetica-Bold", 10)
    line.textOut("Sprinter:")
    line.setFont("Helvetica", 10)
    line.textOut(" you move two zones.")
    pdf.drawText(line)
    pdf.setFont("Symbol", 10)  # the bullet glyph, mapped to U+2022 in the text layer
    pdf.drawString(40, 540, "\u2022")
    pdf.setFont("Helvetica", 10)
    pdf.drawString(48, 540, " Shield")
    pdf.showPage()
    pdf.save()
    text = read_book(tmp_path / "bold.pdf").text
    assert "**Sprinter:** you move two zones." in text
    assert "- Shield" in text


def _partly_scanned(path):
    """Three pages: text, a scanned page (an image, no text layer), text."""
    from PIL import Image

    scan = path.parent / "scan.png"
    Image.new("L", (60, 80), 200).save(scan)
    pdf = canvas.Canvas(str(path), pagesize=A5)
    pdf.setTitle("Partly Scanned")
    pdf.drawString(40, 560, "Conditions")
    pdf.drawString(40, 540, "A Chilled creature loses 1 Speed.")
    pdf.showPage()
    pdf.drawImage(str(scan), 40, 100, 300, 400)
    pdf.showPage()
    pdf.showPage()  # a blank page: nothing left out
    pdf.drawString(40, 560, "A Prone fighter is easy to hit.")
    pdf.showPage()
    pdf.save()
    return path


def test_pages_without_a_text_layer_are_named_and_counted_in_books(tmp_path, cli, cli_json):
    result = cli("ingest", _partly_scanned(tmp_path / "scan.pdf"), "--relations", "off")
    assert result.exit_code == 0, result.stderr
    [warning] = [line for line in result.stderr.splitlines() if "text layer" in line]
    assert "1 of 4 pages have no text layer" in warning and "page 2;" in warning and "ocrmypdf" in warning
    [book] = cli_json("books")
    assert book["pages_without_text"] == [2]
    assert "1 scanned page without text" in cli("books").stdout


def test_a_page_whose_layout_fails_is_a_warning(tmp_path, cli, monkeypatch):
    from crossbook.readers import pdf as reader

    runs = reader._runs
    calls = []

    def fail_on_the_second_page(page):
        calls.append(page)
        if len(calls) == 2:
            raise ValueError("bad content stream")
        return runs(page)

    monkeypatch.setattr(reader, "_runs", fail_on_the_second_page)
    path = make_pdf(tmp_path / "core.pdf", PAGES, OUTLINE)
    result = cli("ingest", path, "--relations", "off")
    assert result.exit_code == 0, result.stderr
    assert "the layout of page 2 failed (ValueError: bad content stream): left out" in result.stderr
