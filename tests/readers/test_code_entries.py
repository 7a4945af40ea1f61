"""A reference section's entries: code runs that open most of its paragraphs or table rows
define what they name there; a section that quotes code in a few paragraphs defines nothing
this way. Fixtures are written here, in the shapes Markdown and HTML references take."""

from __future__ import annotations

from pathlib import Path

from crossbook.core.config import load_settings
from crossbook.core.models import Section
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.query.lookup import where_else
from crossbook.readers import read_book
from crossbook.readers.passes.reference_entries import code_entries
from crossbook.storage.db import open_db

REFERENCE_MD = """# Colour commands

## Commands

`\\definecolor` gives a colour a name in a colour model.

`\\colorlet` makes a colour from an expression of others.

`\\pagecolor{colour}` sets the background of the page.

A closing remark on the commands above.

## Keys

| Key | Meaning |
|---|---|
| `width` | the width of the box |
| `frame-rule` | the thickness of the frame |
| `-v, --verbose` | say what is done |

## Usage

Load the package before `\\usepackage` of others, and mind the order.

Colours are named once and used everywhere.

Some packages redefine `\\textcolor` on their own.

## Empty"""

PROSE_HTML = """<html><body><h1>Notes</h1>
<p><code>listing</code> is how the tool shows a folder.</p>
<p>The rest of this page is prose about folders.</p>
<p>It says nothing more about code.</p>
<p>Nor here.</p>
<h2>Options</h2><ul><li><code>--depth</code>: how deep to go</li>
<li><code>--hidden</code>: show hidden files</li><li><code>--sort</code>: the order</li></ul>
</body></html>"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def terms_by_heading(path: Path) -> dict[str, list[tuple[str, str, tuple[str, ...]]]]:
    return {s.heading: [(t.name, t.kind, t.aliases) for t in s.terms] for s in read_book(path).sections if s.heading}


def test_code_runs_opening_most_paragraphs_or_rows_define_them(tmp_path: Path):
    terms = terms_by_heading(write(tmp_path / "colour.md", REFERENCE_MD))
    assert terms["Commands"] == [("\\definecolor", "command", ()), ("\\colorlet", "command", ()),
                                 ("\\pagecolor", "command", ())]
    # a table's body rows, typed by the heading they are filed under; an options block's long option
    assert terms["Keys"] == [("width", "key", ()), ("frame-rule", "key", ()), ("--verbose", "option", ("-v",))]


def test_a_section_quoting_code_in_a_few_paragraphs_defines_nothing(tmp_path: Path):
    terms = terms_by_heading(write(tmp_path / "colour.md", REFERENCE_MD))
    assert terms["Usage"] == []
    assert terms["Empty"] == []  # a heading with no body, the file's last line
    html = terms_by_heading(write(tmp_path / "notes.html", PROSE_HTML))
    assert html["Notes"] == []
    # HTML's <code> in list items is the same convention
    assert [name for name, _, _ in html["Options"]] == ["--depth", "--hidden", "--sort"]


def test_a_code_entry_is_a_definition_where_else_finds(tmp_path: Path):
    path = write(tmp_path / "colour.md", REFERENCE_MD)
    settings = load_settings({"index_dir": tmp_path / "idx", "embedder": "hash"}, {}, None)
    db = open_db(tmp_path / "idx", create=True)
    ingest_paths(IngestJob(db, settings), [path])
    found = where_else(db, "colorlet")["entities"]
    assert found and found[0]["name"] == "\\colorlet"
    defines = [m for g in found[0]["books"] for m in g["mentions"] if m["mention_type"] == "defines"]
    assert defines and "Commands" in defines[0]["heading_path"]


def test_expressions_define_nothing_and_a_doc_set_states_its_own_entries(tmp_path: Path):
    root = tmp_path / "docs"
    items = "".join(f'<li><a href="{n}.html"><code>{n}</code></a> — the {n} module</li>' for n in ("os", "io", "time"))
    write(root / "contents.html", f"<h1>Services</h1><ul>{items}</ul>")
    for n in ("os", "io", "time"):
        write(root / f"{n}.html", f"<h1>{n}</h1><p>The {n} module.</p>")
    ops = write(tmp_path / "ops.html", "<h1>Operators</h1><table><tr><th>Operation</th><th>Result</th></tr>"
                "<tr><td><code>x + y</code></td><td>sum</td></tr><tr><td><code>&lt;=</code></td><td>at most</td></tr>"
                "<tr><td><code>abs(x)</code></td><td>absolute value</td></tr></table>")
    # an expression or a symbol is no name; a call defines its function
    assert terms_by_heading(ops)["Operators"] == [("abs", "function", ())]
    # a doc set's contents list of links points at what the linked pages define
    sections = {s.heading: s for s in read_book(root, "docset").sections}
    assert [t.name for t in sections["Services"].terms if not t.subject] == []


def test_a_contents_tree_of_bare_names_defines_nothing(tmp_path: Path):
    tree = "".join(f"- `{n}`\n  - `{n}.open`\n  - `{n}.close`\n" for n in ("alpha", "beta", "gamma"))
    terms = terms_by_heading(write(tmp_path / "contents.md", f"# Contents\n\n{tree}"))
    assert terms["Contents"] == []


def _pdf_section(body: str) -> Section:
    """A section as the PDF reader writes one: a paragraph a line, no blank line between."""
    return Section("Interface", 1, ("Interface",), "# Interface\n\n" + body, 0, pages=(1, 1))


def test_a_pdf_line_set_whole_in_code_font_is_an_example_not_an_entry():
    example = _pdf_section("The package reads verbatim code.\n`\\lstset{fancyvrb}`\n`\\begin{BVerbatim}`\n"
                           "`First verbatim line.`\n`\\end{BVerbatim}`\n`\\fbox{Second}` verbatim line.\n"
                           "`First` verbatim line.\n")
    assert code_entries(example, lines_are_paragraphs=True) == []
    keys = _pdf_section("`width=`*length* sets the width.\n`\\begin{boxed}` *contents* `\\end{boxed}` boxes it.\n"
                        "`\\framebox` frames it.\n`\\\\color@x=macro:` | the colour.\nAll of them are set once.\n")
    assert {t.name: t.kind for t in code_entries(keys, lines_are_paragraphs=True)} == {
        "width": "key", "boxed": "environment", "\\framebox": "command"}


GUIDE = """## Styles

By default the class uses the `plain` style for the front and back of each card.
The style centers the contents horizontally and vertically on the card.
The front contents are also set in large bold face, which a style may change.
A card may carry a header and a footer, each set by the style.
Styles are chosen once for the whole document, before the first card.
These are described next, one by one, with an example of each.
`\\cardfrontstyle` | The style of the front of the card is selected with the
`\\cardfrontstyle{`*style*`}` command, where *style* is one of `empty` or `plain`.
`\\meta{` *<placeholder>* `}`
`\\m{` *<placeholder>* `}`
Prints *<placeholder>* in italics within angle brackets.
`\\setlength{` *length* `}{` *value* `}`
`\\setlength{\\cardmargin}{0.25in}`
`\\end{flashcard}` | closes the card.
"""


def test_a_guide_without_an_index_defines_its_margin_labels_and_declarations():
    from crossbook.readers.passes.reference_entries import described_commands, with_described_commands

    section = Section("Styles", 2, ("Guide", "Styles"), GUIDE, 0, pages=(2, 2))
    # a margin label and two declarations sharing one description; an example's declaration
    # (a line set whole in code follows it) and an environment's end define nothing
    assert [t.name for t in described_commands(section)] == ["\\cardfrontstyle", "\\meta", "\\m"]
    assert code_entries(section, True) == []  # most lines are prose: no reference section
    assert {t.name for t in with_described_commands(section).terms} == {"\\cardfrontstyle", "\\meta", "\\m"}


def test_only_a_printed_guide_with_no_back_index_is_read_for_its_margin_labels():
    from crossbook.readers.passes import after_reading
    from crossbook.readers.source import SourceBook

    styles = Section("Styles", 2, ("Guide", "Styles"), GUIDE, 0, pages=(2, 2))
    entries = "\n".join(f"\\frob{chr(97 + n)} . . . 2" for n in range(12))
    index = Section("Index", 1, ("Index",), f"# Index\n\n{entries}\n", 0, pages=(3, 3))

    def terms(sections, fmt="pdf"):
        book = after_reading(SourceBook(Path("guide.pdf"), fmt, "Guide", sections, "0"))
        return {t.name for s in book.sections for t in s.terms}

    assert {"\\cardfrontstyle", "\\meta", "\\m"} <= terms((styles,))
    assert "\\cardfrontstyle" not in terms((styles, index))  # its index is the author's list
    assert "\\meta" not in terms((styles,), "markdown")  # a Markdown page's lines are no printed margins
