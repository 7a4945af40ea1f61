"""A doc-set page's subject is what it says it documents (readers/page_subject.py), and an
option several pages document is each page's own (readers/docset.py)."""

from __future__ import annotations

from pathlib import Path

from crossbook.query.lookup import where_else
from crossbook.readers import read_book
from tests.docs.test_docs_shelves import ingest
from tests.docset_fixtures import write_docset


def write(folder: Path, pages: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in pages.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def subjects(book) -> dict[str, tuple[str, str]]:
    return {s.file: (t.name, t.kind) for s in book.sections for t in s.terms if t.subject}


def terms(book, page: str) -> set[str]:
    return {t.name for s in book.sections if s.file == page for t in s.terms}


MAN = """<html><head><title>{title}</title></head><body><h1>{title}</h1>
<h2>{name_heading}</h2><p>{names} - {summary}</p><h2>SYNOPSIS</h2><p>{first} [options]</p>
<h2>SEE ALSO</h2><p>{see}</p></body></html>"""


def test_a_man_pages_name_line_names_it_whatever_the_title_says(tmp_path: Path):
    folder = write(tmp_path / "man", {
        "frob-add.html": MAN.format(title="FROB-ADD", name_heading="NAME", names="frob-add", first="frob-add",
                                    summary="add a widget", see=""),
        "frob-list.html": MAN.format(title="frob-list(1) Manual Page", name_heading="1. Name", names="frob-list",
                                     first="frob-list", summary="list widgets", see=""),
    })
    assert subjects(read_book(folder, fmt="docset")) == {
        "frob-add.html": ("frob-add", "command"), "frob-list.html": ("frob-list", "command")}


def test_each_name_a_name_line_declares_is_defined_and_a_link_showing_one_references_it(tmp_path: Path):
    folder = write(tmp_path / "man3", {
        "malloc.html": MAN.format(title="malloc(3)", name_heading="NAME", names="malloc, free, calloc",
                                  first="malloc", summary="allocate and free memory", see=""),
        "strdup.html": MAN.format(title="strdup(3)", name_heading="NAME", names="strdup", first="strdup",
                                  summary="duplicate a string",
                                  see='Release it with <a href="malloc.html"><b>free</b>(3)</a>.'),
    })
    book = read_book(folder, fmt="docset")
    assert subjects(book)["malloc.html"] == ("malloc", "function")
    assert {"malloc", "free", "calloc"} <= terms(book, "malloc.html")
    links = [link for s in book.sections if s.file == "strdup.html" for link in s.links]
    assert links == [("free", "free", "malloc.html")]


SPHINXISH = """<html><head><title>{page} — Acme 2.1 documentation</title></head><body>
<div class="hdr"><h1>Acme documentation</h1></div><div class="content">{heading}<p>{text}</p>
<h2>2. Syntax</h2><p>Write it so.</p></div></body></html>"""


def test_the_subject_is_the_title_less_the_sites_name_never_a_repeated_or_numbered_heading(tmp_path: Path):
    pages = {f"{name}.html": SPHINXISH.format(page=name, heading=heading, text=f"The {name} tool frobs.")
             for name, heading in (("frob", "<h2>1. Overview</h2>"), ("quux", "<h2>1. Overview</h2>"),
                                   ("zap", "<h1>zap</h1>"), ("blip", ""))}
    pages["index.html"] = ("<html><head><title>Acme 2.1 documentation</title></head><body><div class='hdr'>"
                           "<h1>Acme documentation</h1></div><h2>Welcome</h2><p>Start here.</p></body></html>")
    book = read_book(write(tmp_path / "acme", pages), fmt="docset")
    found = subjects(book)
    assert found == {"frob.html": ("frob", "topic"), "quux.html": ("quux", "topic"), "zap.html": ("zap", "topic"),
                     "blip.html": ("blip", "topic")}
    assert not any("Acme" in t.name for s in book.sections for t in s.terms)


def test_an_option_many_pages_document_is_each_commands_own_and_found_by_its_bare_name(tmp_path: Path):
    folder = write_docset(tmp_path / "quux")
    book = read_book(folder)
    assert "frob-add › --verbose" in terms(book, "frob-add.html")
    db = ingest(tmp_path / "index", [folder])
    found = where_else(db, "--verbose")
    assert found["matched_by"] == "sub-entry"
    assert {e["name"] for e in found["entities"]} == {f"{c} › --verbose" for c in
                                                      ("frob-add", "frob-remove", "frob-list", "frob-rename",
                                                       "frob-export")}


def test_a_name_line_broken_before_its_dash_still_names_the_command():
    from crossbook.readers.docset.terms import name_line

    assert name_line("git-check-ref-format\n- Ensures that a reference name is well formed") == \
        ["git-check-ref-format"]


def test_a_name_line_whose_dash_touches_the_name_still_names_the_command():
    from crossbook.readers.docset.terms import name_line

    assert name_line("hishrink- translating ASCII HINT files to binary files") == ["hishrink"]
    assert name_line("fmtutil-sys - manage TeX formats") == ["fmtutil-sys"]
    assert name_line("well-known words, no dash after a name") == []


def test_a_heading_hidden_by_style_that_anchors_an_entry_still_cuts_its_section(tmp_path: Path):
    page = ("<html><head><title>lib</title></head><body><h1>lib</h1><p>The library.</p>"
            '<h2 style="display:none" id="frob_open">frob_open</h2><dl><dt><code>frob_open</code></dt>'
            "<dd>Opens.</dd></dl><h2 style='display: none'>Ignored</h2><p>Shown text.</p></body></html>")
    folder = write(tmp_path / "lib", {"lib.html": page, "other.html": page.replace("lib", "other")})
    sections = [s for s in read_book(folder, fmt="docset").sections if s.file == "lib.html"]
    assert [s.heading for s in sections] == ["lib", "frob_open"]  # a heading keeps its underscores
    assert "frob_open" in {t.name for t in sections[-1].terms}
    assert "Ignored" not in sections[-1].text and "Shown text." in sections[-1].text


def test_a_function_pages_signature_block_declares_its_functions(tmp_path: Path):
    page = ("<html><head><title>frob_open(3)</title></head><body><h1>frob_open(3)</h1><h2>NAME</h2>"
            "<p>frob_open - open a frob</p><h2>SYNOPSIS</h2><pre>#include &lt;frob.h&gt;\n\n"
            "int frob_open(const char *path);\nstruct frob *frob_openat(int dirfd, const char *path);</pre>"
            "<h2>DESCRIPTION</h2><p>Opens it.</p></body></html>")
    other = page.replace("frob_open", "zap_it").replace("frob_openat", "zap_them")
    book = read_book(write(tmp_path / "man3", {"frob_open.html": page, "zap.html": other}), fmt="docset")
    assert {"frob_open", "frob_openat"} <= terms(book, "frob_open.html")


def test_a_topic_many_pages_are_titled_by_is_the_sets_label_not_a_subject(tmp_path: Path):
    page = "<html><head><title>{0}</title></head><body><h2>Documentation</h2><p>{0} frobs a {0}.</p></body></html>"
    folder = write(tmp_path / "ref", {f"{n}.html": page.format(n) for n in ("Spool", "Wick", "Lamp")})
    one = write(tmp_path / "one", {"Spool.html": page.format("Spool"), "Wick.html": page.format("Wick")})
    assert "Documentation" not in {name for name, _ in subjects(read_book(folder, fmt="docset")).values()}
    assert {name for name, _ in subjects(read_book(one, fmt="docset")).values()} == {"Documentation"}


def test_a_kind_led_or_trailed_title_names_its_thing_less_the_kinds_qualifier_and_type_parameters(tmp_path: Path):
    from crossbook.readers.docset.terms import title_subject

    assert title_subject("Class template basic_string", []) == ("basic_string", "class")
    assert title_subject("Test< T * > Class Template Reference", []) == ("Test< T * >", "class")
    assert title_subject("autolink.cpp File Reference", []) == ("autolink.cpp", "file")
    assert title_subject("Config File Format", [])[1] == "other"  # a file's name shows its extension
    for name in ("stdc++.h", "json-util.h"):  # a plus or a hyphen is a letter of a file's name
        assert title_subject(f"{name} File Reference", []) == (name, "file")
    assert title_subject("Spool-Row Class Reference", [])[1] == "other"  # a class's name holds no hyphen
    page = "<html><head><title>{0}</title></head><body><div>{0}</div><h2>Members</h2><p>Test holds T.</p></body></html>"
    folder = write(tmp_path / "ref", {"t.html": page.format("Test&lt; T * &gt; Class Template Reference")})
    found = [t for s in read_book(folder, fmt="docset").sections for t in s.terms if t.subject]
    assert [(t.name, t.kind, t.aliases) for t in found] == [("Test", "class", ("Test< T * >",))]


def test_an_anchored_name_that_only_shares_its_key_with_the_subject_is_another_thing(tmp_path: Path):
    page = ('<html><head><title>frob.h File Reference</title></head><body><div>frob.h File Reference</div>'
            '<h2>Macros</h2><h2 id="_FROB_H">_FROB_H</h2><pre>#define _FROB_H</pre>'
            '<p>Guards frob.h.</p></body></html>')
    book = read_book(write(tmp_path / "ref", {"frob.html": page}), fmt="docset")
    assert subjects(book)["frob.html"] == ("frob.h", "file")
    assert "_FROB_H" in terms(book, "frob.html")


def test_a_code_term_of_one_word_and_its_list_of_keys_is_one_term_a_code_sentence_is_none():
    from crossbook.readers.docset.terms import dt_term
    from crossbook.readers.html_markdown import parse_html

    root = parse_html(b"<html><body><dl><dt><code>lamp-argument (<kbd>M-0</kbd>, <kbd>M-1</kbd>, &hellip; "
                      b"<kbd>M--</kbd>)</code></dt><dd>Add a digit.</dd>"
                      b"<dt><code>set the lamp to its first wick</code></dt><dd>A sentence.</dd></dl></body></html>")
    terms = [dt_term(dt, dt.getparent(), "Commands") for dt in root.iter("dt")]
    assert terms[0] is not None and terms[0].name == "lamp-argument (M-0, M-1, … M--)"
    assert terms[0].aliases == ("lamp-argument",)
    assert terms[1] is None
