"""Documentation shelves: a folder of HTML pages as one book, what its markup defines, the
authors' links as references, the labels and letters that define nothing, and names that
differ only by a TeX backslash. Fixtures are written here, in the shapes Sphinx, pandoc's
man-page HTML and a hand-written manual give."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crossbook.core.config import load_settings
from crossbook.core.normalize import normalize_name
from crossbook.extract.glossary import glossary_terms
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.query.lookup import where_else
from crossbook.readers import read_book
from crossbook.storage.db import open_db


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


SPHINX_JSON = """<html><head><title>json — JSON encoder and decoder</title></head><body>
<div class="related" role="navigation"><a href="pickle.html">next</a></div>
<div class="body" role="main"><section id="module-json">
<h1><a class="reference internal" href="#module-json"><code class="xref py py-mod">json</code></a>
 — JSON encoder and decoder<a class="headerlink" href="#module-json">¶</a></h1>
<p>It is like <a class="reference internal" href="pickle.html#module-pickle"><code>pickle</code></a>.
Keys are kept in sorted order unless asked otherwise.</p>
<section id="basic-usage"><h2>Basic Usage</h2>
<dl class="py function"><dt class="sig sig-object py" id="json.dump">
<span class="sig-prename descclassname">json.</span><span class="sig-name descname">dump</span>(obj, fp)</dt>
<dd><p>Serialize <em>obj</em> as a JSON formatted stream to <em>fp</em>.</p></dd></dl>
<p>Use <a class="reference internal" href="functions.html#sorted"><code>sorted()</code></a> for stable output.</p>
</section></section></div></body></html>"""

SPHINX_PICKLE = """<html><body><div role="main"><section id="module-pickle">
<h1><code class="xref py py-mod">pickle</code> — Python object serialization</h1>
<p>The pickle module implements binary protocols.</p>
<section id="interface"><h2>Module Interface</h2>
<dl class="py function"><dt class="sig sig-object py" id="pickle.dump">
<span class="sig-prename descclassname">pickle.</span><span class="sig-name descname">dump</span>(obj, file)</dt>
<dd><p>Write the pickled representation of the object to the open file object.</p></dd></dl>
<p>Call <code>sorted()</code> on the keys first; see <a href="json.html#json.dump"><code>json.dump()</code></a>.</p>
</section><section id="fallback"><h2>Fallback Values</h2>
<p>Fallback Values are the values a lookup returns when the key is missing; Fallback Values keep loads safe.</p>
</section></section></div></body></html>"""

SPHINX_FUNCTIONS = """<html><body><div role="main"><section id="built-in-functions">
<h1>Built-in Functions</h1><p>The interpreter has a number of functions.</p>
<dl class="py function"><dt class="sig sig-object py" id="sorted">
<span class="sig-name descname">sorted</span>(iterable, key=None)</dt>
<dd><p>Return a new sorted list from the items in <em>iterable</em>.</p></dd></dl>
</section></div></body></html>"""


def man_page(command: str, summary: str, see_also: str = "") -> str:
    """A page as ``pandoc -f man -t html`` writes one, with an HTML manual's links."""
    spaced = command.replace("-", " ")
    return f"""<h1>NAME</h1><p>{command} - {summary}</p>
<h1>SYNOPSIS</h1><p><strong>{spaced}</strong> [<strong>-f</strong> <em>ARCHIVE</em>] [<em>FILE</em>...]</p>
<h1>DESCRIPTION</h1><p>The <strong>{spaced}</strong> command works on an archive.</p>
<h1>OPTIONS</h1><dl><dt><strong>-f</strong>, <strong>--file</strong>=<em>ARCHIVE</em></dt>
<dd><p>Use archive file ARCHIVE.</p></dd>
<dt><strong>--no-recursion</strong></dt><dd><p>Avoid descending into directories.</p></dd></dl>
<h1>CONFIGURATION</h1><p>Read from the settings file.</p>
<h1>SEE ALSO</h1><p>{see_also}</p>"""


@pytest.fixture()
def sphinx(tmp_path: Path) -> Path:
    root = tmp_path / "html"
    write(root / "objects.inv", "# Sphinx inventory version 2\n")
    write(root / "library" / "json.html", SPHINX_JSON)
    write(root / "library" / "pickle.html", SPHINX_PICKLE)
    write(root / "library" / "functions.html", SPHINX_FUNCTIONS)
    write(root / "genindex.html", '<h1>Index</h1><p><a href="library/json.html">json</a></p>')
    return root


@pytest.fixture()
def manual(tmp_path: Path) -> Path:
    root = tmp_path / "tar-manual"
    link = '<a href="{0}.html"><strong>{0}</strong>(1)</a>'
    write(root / "tar-create.html", man_page("tar-create", "create an archive", link.format("tar-extract")))
    write(root / "tar-extract.html", man_page("tar-extract", "extract files", link.format("tar-create")))
    write(root / "tar-list.html", man_page("tar-list", "list an archive", link.format("tar-create")))
    return root


def ingest(index_dir: Path, paths, as_book=True):
    settings = load_settings({"index_dir": index_dir, "embedder": "hash"}, {}, None)
    db = open_db(index_dir, create=True)
    ingest_paths(IngestJob(db, settings), paths, as_book=as_book)
    return db


def mentions(db, name: str) -> list[dict]:
    found = where_else(db, name)
    return [dict(m, entity=e["name"], entity_type=e["entity_type"])
            for e in found["entities"] for g in e["books"] for m in g["mentions"]]


def test_a_sphinx_build_is_one_book_whose_sections_keep_their_page(sphinx: Path):
    book = read_book(sphinx)
    assert book.format == "docset"
    files = {s.file for s in book.sections}
    # the general index is a tool's page of links, not the authors'
    assert files == {"library/json.html", "library/pickle.html", "library/functions.html"}
    assert all(s.heading_path[0] for s in book.sections)


def test_a_page_defines_its_subject_and_its_entries(sphinx: Path, tmp_path: Path):
    db = ingest(tmp_path / "idx", [sphinx])
    json_defs = [m for m in mentions(db, "json") if m["mention_type"] == "defines"]
    assert [(m["entity_type"], m["source"]) for m in json_defs] == [("module", "note")]
    # json's dump and pickle's are two functions, each defined on its page
    for module in ("json", "pickle"):
        dumps = [m for m in mentions(db, f"{module}.dump") if m["mention_type"] == "defines"]
        assert [(m["file"], m["entity_type"]) for m in dumps] == [(f"library/{module}.html", "function")]
    sorted_def = [m for m in mentions(db, "sorted") if m["mention_type"] == "defines"]
    assert sorted_def and "Return a new sorted list" in sorted_def[0]["context"]


def test_a_doc_pages_section_headings_in_words_are_topics(sphinx: Path, tmp_path: Path):
    db = ingest(tmp_path / "idx", [sphinx])
    defined = {normalize_name(r[0]) for r in db.execute(
        "SELECT name FROM entity_mentions WHERE mention_type = 'defines'")}
    assert not {"fallback_value", "basic_usage", "module_interface"} & defined, defined


def test_authors_links_are_references_to_what_the_target_documents(sphinx: Path, tmp_path: Path):
    db = ingest(tmp_path / "idx", [sphinx])
    pickle_refs = [m for m in mentions(db, "pickle") if m["mention_type"] == "references"]
    assert any(m["file"] == "library/json.html" and m["source"] == "wikilink" for m in pickle_refs)
    # a link to an entry on another page (#json.dump) references that entry
    dump_refs = [m for m in mentions(db, "json.dump") if m["mention_type"] == "references"]
    assert any(m["file"] == "library/pickle.html" and m["source"] == "wikilink" for m in dump_refs)


def test_a_function_named_by_a_word_is_referenced_in_code_font_only(sphinx: Path, tmp_path: Path):
    db = ingest(tmp_path / "idx", [sphinx])
    refs = [m for m in mentions(db, "sorted") if m["mention_type"] == "references"]
    # `sorted()` in pickle.html is the function; "in sorted order" in json.html's prose is the word
    assert [m["file"] for m in refs if m["source"] == "linker"] == ["library/pickle.html"]


def test_a_man_page_defines_its_command_and_options_not_its_labels(manual: Path, tmp_path: Path):
    db = ingest(tmp_path / "idx", [manual])
    create = [m for m in mentions(db, "tar-create") if m["mention_type"] == "defines"]
    assert [(m["entity_type"], m["file"]) for m in create] == [("command", "tar-create.html")]
    options = {m["file"] for m in mentions(db, "--no-recursion") if m["mention_type"] == "defines"}
    assert options == {"tar-create.html", "tar-extract.html", "tar-list.html"}
    assert {m["entity_type"] for m in mentions(db, "--file") if m["mention_type"] == "defines"} == {"option"}
    defined = {row[0] for row in db.execute(
        "SELECT e.name FROM entities e JOIN entity_mentions m ON m.entity_id = e.id WHERE m.mention_type = 'defines'")}
    for label in ("Name", "Synopsis", "Description", "Options", "See Also", "Configuration"):
        assert normalize_name(label) not in {normalize_name(d) for d in defined}, label


def test_a_hyphenated_command_is_found_by_its_spaced_name(manual: Path):
    book = read_book(manual)
    subject = next(t for s in book.sections for t in s.terms if t.subject and t.name == "tar-create")
    assert subject.aliases == ("tar create",)


def test_man_pages_links_are_references(manual: Path, tmp_path: Path):
    db = ingest(tmp_path / "idx", [manual])
    refs = [m for m in mentions(db, "tar-create") if m["mention_type"] == "references"]
    assert {m["file"] for m in refs if m["source"] == "wikilink"} == {"tar-extract.html", "tar-list.html"}


def test_a_folder_of_notes_stays_a_vault(tmp_path: Path):
    write(tmp_path / "notes" / "a.md", "# Alpha\nText.\n")
    write(tmp_path / "notes" / "page.html", "<h1>Page</h1><p>Text.</p>")
    assert read_book(tmp_path / "notes").format == "vault"


def test_a_backslash_command_and_the_word_stay_two_entities(tmp_path: Path):
    assert normalize_name("\\caption") != normalize_name("caption")
    assert normalize_name("\\a") != normalize_name("A")
    root = tmp_path / "latex"
    write(root / "manual.html", """<h1>Captions</h1><dl>
<dt><code>\\caption</code></dt><dd><p>Typesets a caption in a float.</p></dd>
<dt><code>\\definecolor</code></dt><dd><p>Defines a colour by name.</p></dd></dl>
<h2>caption package</h2><p>The caption package is loaded with options.</p>""")
    write(root / "more.html", "<h1>More</h1><p>See the caption package.</p>")
    db = ingest(tmp_path / "idx", [root])
    # a lookup folds the backslash: "definecolor" finds \definecolor
    assert where_else(db, "definecolor")["entities"][0]["name"] == "\\definecolor"
    names = {e["name"] for e in where_else(db, "caption")["entities"]}
    assert "\\caption" in names and len(names) == 2, names


def test_speakers_options_and_letters_are_no_bold_lead_terms():
    text = ("**You:** I draw my sword.\n\n**GM:** The guard flinches.\n\n**Player:** Then I run.\n\n"
            "**-F** reads the file.\n\n**Overcome:** You overcome.\n")
    names = {t.name for t in glossary_terms(text)}
    assert "You" not in names and "F" not in names and "GM" not in names
    assert "Overcome" in names


def test_an_index_letter_heading_defines_nothing(tmp_path: Path):
    book = write(tmp_path / "manual.md", "# Manual\n\n## A\n\nalpha, 3\n\nanchor, 5\n\n## B\n\nbeta, 4\n\n"
                                        "## Colors\n\nThe Colors chapter. Colors are used.\n")
    db = ingest(tmp_path / "idx", [book], as_book=False)
    rows = {r[0] for r in db.execute("SELECT name FROM entity_mentions WHERE mention_type = 'defines'")}
    assert not {"A", "B"} & rows, rows


def test_where_else_json_names_the_page(sphinx: Path, tmp_path: Path):
    db = ingest(tmp_path / "idx", [sphinx])
    found = where_else(db, "json")
    assert json.dumps(found) and found["entities"][0]["books"][0]["mentions"][0]["file"] == "library/json.html"


def test_a_single_man_page_defines_none_of_its_section_labels(tmp_path: Path):
    page = write(tmp_path / "tar.html", man_page("tar", "an archiving utility").replace(
        "<h1>CONFIGURATION</h1>", "<h1>FILES</h1><p>The settings file.</p><h1>ENVIRONMENT</h1><p>TAR_OPTIONS.</p>"
        "<h1>BUGS</h1><p>Report them.</p><h1>CONFIGURATION</h1>"))
    db = ingest(tmp_path / "idx", [page], as_book=False)
    defined = {normalize_name(r[0]) for r in db.execute(
        "SELECT name FROM entity_mentions WHERE mention_type = 'defines'")}
    for label in ("Name", "Synopsis", "Description", "Options", "Files", "Environment", "Bugs", "See Also"):
        assert normalize_name(label) not in defined, label


def test_a_manuals_back_index_defines_its_commands_where_it_points(tmp_path: Path):
    from tests.helpers import make_pdf

    pages = [
        ["Colors in LaTeX documents are named before they are used in the text."],
        ["The \\definecolor command names a colour from a model and its values.",
         "Use the draft option while you write."],
        ["A named colour is mixed with \\colorlet from colours known already."],
        ["Recall that \\definecolor takes the model first, then the values."],
        ["A", "\\colorlet . . . . . . . . 3", "D", "\\definecolor . . . . . . 2, 4",
         "draft (option) . . . . . 2"],
    ]
    outline = [("Colors", 1, 0), ("Defining colours", 1, 1), ("Mixing", 1, 2), ("Recap", 1, 3), ("Index", 1, 4)]
    pdf = make_pdf(tmp_path / "colors.pdf", pages, outline, running=False)
    db = ingest(tmp_path / "idx", [pdf], as_book=False)
    found = mentions(db, "definecolor")  # the backslash folded for the lookup
    assert {(m["entity"], m["entity_type"], m["mention_type"], tuple(m["pages"])) for m in found} >= {
        ("\\definecolor", "command", "defines", (2, 2)), ("\\definecolor", "command", "references", (4, 4))}
    assert [(m["entity_type"], m["pages"]) for m in mentions(db, "draft") if m["mention_type"] == "defines"] \
        == [("option", [2, 2])]
    defined = {r[0] for r in db.execute("SELECT name FROM entity_mentions WHERE mention_type = 'defines'")}
    assert not {"A", "D", "Index"} & defined, defined


def test_an_option_paragraph_with_its_indented_description_defines_the_option(tmp_path: Path):
    # pandoc's rendering of a man page whose options are paragraphs (.PP) with an indented body (.RS)
    root = tmp_path / "git-html"
    write(root / "git-commit.html", "<h1>NAME</h1><p>git-commit - Record changes to the repository</p>"
          "<h1>OPTIONS</h1><p>-a, --all</p><blockquote><p>Stage modified files first. Then commit.</p></blockquote>"
          "<p>--amend</p><blockquote><p>Replace the tip of the branch.</p></blockquote>"
          "<p>Use --all with care.</p><blockquote><p>A quoted remark.</p></blockquote>")
    db = ingest(tmp_path / "idx", [root])
    found = [m for m in mentions(db, "--all") if m["mention_type"] == "defines"]
    assert [(m["entity_type"], m["context"]) for m in found] == [
        ("option", "-a, --all > Stage modified files first.")]
    assert [m["entity_type"] for m in mentions(db, "--amend") if m["mention_type"] == "defines"] == ["option"]


def test_a_manual_of_command_headings_defines_its_commands_not_its_topics(tmp_path: Path):
    commands = ["\\appto", "\\preto", "\\gappto", "\\eappto", "\\xappto"]
    text = "# Manual\n\n## Hook Management\n\nHook Management is how a package adds code to a hook.\n\n" + "".join(
        f"### {c}\n\n{c} adds code to a hook; use {c} in the preamble.\n\n" for c in commands) + \
        "## Known Problems\n\nKnown Problems are listed here. The Known Problems grow.\n"
    book = write(tmp_path / "manual.md", text)
    db = ingest(tmp_path / "idx", [book], as_book=False)
    defined = {r[0] for r in db.execute("SELECT name FROM entity_mentions WHERE mention_type = 'defines'")}
    assert set(commands) <= defined, defined  # stored as written, backslash and all
    assert not {"Hook Management", "Known Problems"} & defined, defined


def test_a_back_index_word_counts_where_the_text_writes_it_as_a_key(tmp_path: Path):
    from tests.helpers import make_pdf

    pages = [["Emphasize the functions square and root in the listing."],
             ["Set label=name to name a listing; the label appears in the list."],
             ["label . . . . . . . . 2", "root . . . . . . . . . 1"]]
    outline = [("Emphasis", 1, 0), ("Labels", 1, 1), ("Index", 1, 2)]
    pdf = make_pdf(tmp_path / "listings.pdf", pages, outline, running=False)
    db = ingest(tmp_path / "idx", [pdf], as_book=False)
    defined = {r[0] for r in db.execute("SELECT name FROM entity_mentions WHERE mention_type = 'defines'")}
    assert "label" in defined and "root" not in defined, defined


def test_a_bibliography_entry_defines_nothing(tmp_path: Path):
    book = write(tmp_path / "manual.md", "# Manual\n\n## Colours\n\nColours are named.\n\n## References\n\n"
                                        "**Algorithms:** June 2, 2006.\n\n**Floats:** 2001/11/08.\n\n"
                                        "**Pictures:** July 13, 1993.\n")
    db = ingest(tmp_path / "idx", [book], as_book=False)
    defined = {r[0] for r in db.execute("SELECT name FROM entity_mentions WHERE mention_type = 'defines'")}
    assert not {"Algorithms", "Floats", "Pictures"} & defined, defined


def test_each_page_of_a_doc_set_is_a_place_a_retrieval_hop_goes_to(manual: Path, tmp_path: Path):
    from crossbook.query import entity_graph

    db = ingest(tmp_path / "idx", [manual])
    # tar-create's page is reached from tar-extract's page, one book: the hop crosses pages
    entity_id = next(r[0] for r in db.execute("SELECT id FROM entities WHERE name = 'tar-create'"))
    referencing = {r[0] for r in db.execute(
        "SELECT m.chunk_id FROM entity_mentions m JOIN chunks c ON c.id = m.chunk_id"
        " WHERE m.entity_id = ? AND c.source_file = 'tar-extract.html'", [entity_id])}
    definitions = entity_graph.definitions(db, [entity_id])[entity_id]
    seed_place = next(r[0] for r in db.execute(
        f"SELECT {entity_graph.PLACE_SQL} FROM chunks c JOIN books b ON b.title = c.book WHERE c.id = ?",
        [sorted(referencing)[0]]))
    assert {d.place for d in definitions} and seed_place not in {d.place for d in definitions}
