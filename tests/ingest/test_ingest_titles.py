"""Book title inference: front matter, title page, sole opening #, attribution, stem."""

from crossbook.chunk.chunking import book_title, split_sections_report


def test_front_matter_title_wins():
    text = "---\ntitle: \"The Real Title\"\nauthor: x\n---\n\n# Chapter One\n\nText.\n"
    assert book_title(text, "stem") == "The Real Title"


def test_title_page_heading_followed_by_a_copyright_notice():
    # Fate Core's layout: a chapter heading, then the title over its copyright line
    text = "## Declarations & Copyright\n\n### Fate Core System\n\n©2013 Evil Hat Productions, LLC.\n\n## THE BASICS\n\nText.\n"
    assert book_title(text, "fate-core") == "Fate Core System"
    # Fate Condensed: several # headings, the first over "Fate Condensed ©2020"
    text = "# Fate Condensed\n\nFate Condensed ©2020 Evil Hat.\n\n# Credits\n\nPeople.\n\n# Introduction\n\nText.\n"
    assert book_title(text, "stem") == "Fate Condensed"


def test_several_level_one_headings_are_chapters_not_the_title():
    text = "# Custom Skills\n\nText.\n\n# Custom Stunts\n\nMore.\n"
    assert book_title(text, "atomic-robo-SRD") == "atomic-robo-SRD"


def test_licence_attribution_names_the_work():
    text = (
        "©2016 Evil Hat Productions, LLC. Refer to the licensing pages.\n\n"
        "This work is based on the _War of Ashes: Fate of Agaptus_ SRD (found at http://www.faterpg.com/), "
        "a product of Evil Hat Productions.\n\n# Introduction\n\nText.\n\n# Stunts\n\nMore.\n"
    )
    assert book_title(text, "war-of-ashes") == "War of Ashes: Fate of Agaptus"


def test_broken_html_conversion_headings_are_recovered_with_a_warning():
    # excerpt shape of fate-system-toolkit-SRD.md (Fate SRD, CC BY 3.0, Evil Hat Productions)
    text = (
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<body>\n\n"
        "    #>Foreword: “A” Not “The”</h1>\n\nThis book is a <em>Fate System Toolkit</em>.\n\n"
        "    ##>Aspects</h2><br />\n\nAspects are phrases.\n\n<h3 class=\"x\">Gear Aspects</h3>\n\nGear.\n"
    )
    sections, report = split_sections_report(text)
    assert [s.heading for s in sections if s.heading] == ["Foreword: “A” Not “The”", "Aspects", "Gear Aspects"]
    assert sections[-1].heading_path == ("Foreword: “A” Not “The”", "Aspects", "Gear Aspects")
    assert report.broken_headings == 2 and report.html_headings == 1
    assert "broken HTML conversion" in report.warning
    assert "".join(s.text for s in sections) == text  # stored text stays verbatim
    attributed = text.replace("<body>\n", "<body>\n\nThis work is based on the Fate System Toolkit (found at x).\n")
    assert book_title(attributed, "toolkit") == "Fate System Toolkit"


def _clash(result):
    assert result.exit_code == 1 and result.stdout == ""
    # one line besides the read's progress (a folder's pages read: "ingest read 1/1 pages")
    [line] = [line for line in result.stderr.strip().splitlines() if not line.startswith("ingest read ")]
    assert "have the same title" in line or "already has" in line, line
    return line


def test_duplicate_title_advice_fits_the_format(tmp_path, cli):
    from tests.helpers import make_pdf

    pages, outline = [["Chapter", "Text of it."]], [("Chapter", 1, 0)]
    one, two = make_pdf(tmp_path / "one.pdf", pages, outline), make_pdf(tmp_path / "two.pdf", pages, outline)
    line = _clash(cli("ingest", one, two))
    assert "--book 'OTHER TITLE'" in line and "PDF metadata" in line and "front matter" not in line
    # a folder of notes whose names repeat: read it as one book
    notes = tmp_path / "notes"
    for folder in ("Chapter 1", "Chapter 2"):
        (notes / folder).mkdir(parents=True)
        (notes / folder / "Bonds.md").write_text("Bonds tie you to people.\n", encoding="utf-8")
    line = _clash(cli("ingest", notes))
    assert "--as-book" in line and "front matter" in line
    # a vault already stored under its folder's name
    vault = tmp_path / "vault" / "shelf"
    (vault / ".obsidian").mkdir(parents=True)
    (vault / "Note.md").write_text("A note.\n", encoding="utf-8")
    other = tmp_path / "other" / "shelf"
    (other / ".obsidian").mkdir(parents=True)
    (other / "Other.md").write_text("Another note.\n", encoding="utf-8")
    assert cli("ingest", vault, "--relations", "off").exit_code == 0
    line = _clash(cli("ingest", other, "--relations", "off"))
    assert "book.toml" in line and "--book" in line and "front matter" not in line
