"""An index's markers named by their ids where the text after them does not show the term
(readers/docset/markers.py), and a heading of one word in lower case naming a thing
(readers/docset/anchors.py)."""

from __future__ import annotations

from crossbook.readers.docset.anchor_terms import anchor_terms
from crossbook.readers.docset.anchors import page_anchors, repeated_ids
from crossbook.readers.docset.markers import as_written, id_words, marked_anchors
from crossbook.readers.html_markdown import parse_html


def page(body: str):
    return parse_html(f"<html><head><title>Ref</title></head><body>{body}</body></html>".encode())


def _confirmed(names) -> str:
    """Markers whose terms the text after each shows: the prefix is proved an index's."""
    return "".join(f'<span id="index-{n}"></span><p>The {n} setting does it.</p>' for n in names)


def test_an_id_spells_its_words_with_separators_as_spaces_and_escapes_decoded():
    assert id_words("commands_002c-compound") == "commands, compound"
    assert id_words("Bash-configuration") == "Bash configuration"
    assert id_words("abbrev-mode") == "abbrev mode"  # two hex letters of a word are no escape


def test_a_marker_of_a_proved_prefix_names_the_words_its_id_spells():
    body = (_confirmed(["spool", "wick", "lamp", "quay", "knob"])
            + '<h2 id="aliases">Aliases</h2><span id="index-alias-expansion"></span>'
              '<span id="index-word-splitting"></span><p>Aliases allow a string to stand for a word.</p>')
    names = {t.name for _, t in anchor_terms(marked_anchors(page(body)))}
    assert {"alias expansion", "word splitting"} <= names
    assert not {"alias expansion", "word splitting"} & {t.name for _, t in anchor_terms(page_anchors(page(body))[0])}


def test_a_prefix_few_markers_prove_names_nothing_by_its_ids():
    body = (_confirmed(["spool", "wick"]) + '<span id="index-alias-expansion"></span><p>Aliases allow it.</p>'
            '<span id="index-word-splitting"></span><p>Words split.</p>')
    assert {t.name for _, t in anchor_terms(marked_anchors(page(body)))} == {"spool", "wick"}


def test_a_heading_of_one_word_in_lower_case_names_a_thing_one_capitalised_names_a_place():
    body = ('<h4 id="config">config<a class="headerlink" href="#config"></a></h4><p>The configuration.</p>'
            '<h4 id="absolute-paths">absolute-paths</h4><p>A lint.</p>'
            '<h4 id="section">Section</h4><p>A section.</p><h4 id="getting-started">Getting started</h4><p>x</p>')
    assert {t.name for _, t in anchor_terms(page_anchors(page(body))[0])} == {"config", "absolute-paths"}


def test_an_entry_the_index_inverts_names_its_thing_as_prose_writes_it():
    body = (_confirmed(["spool", "wick", "lamp", "quay", "knob"])
            + '<span id="index-expansion_002c-tilde"></span><p>Each word is read.</p>')
    found = {t.name: t.aliases for _, t in anchor_terms(marked_anchors(page(body)))}
    assert found["tilde expansion"] == ("expansion, tilde",)


def _manual(tmp_path, body: str):
    from crossbook.readers import read_book

    folder = tmp_path / "manual"
    folder.mkdir()
    (folder / "manual.html").write_text(f"<html><head><title>Manual</title></head><body>{body}</body></html>",
                                        encoding="utf-8")
    return read_book(folder, fmt="docset")


def _node(ident: str, title: str, before: str, text: str) -> str:
    """A node as a one-page manual writes it: its container's id, a panel of links to the nodes
    beside it, then its heading."""
    return (f'<div class="section" id="{ident}"><div class="header"><p>Next: {before}, Up: '
            f'<a href="#Top">Top</a></p></div><h3>{title}</h3>{text}</div>')


def test_a_containers_id_is_its_headings_though_a_panel_of_links_comes_first(tmp_path):
    body = ('<h1 id="Top">Manual</h1>'
            + _node("Quay-Expansion", "3.1 Quay Expansion", '<a href="#Lamp-Search">Lamp Search</a>',
                    '<span id="index-quay-expansion"></span><p>Each quay expansion is read.</p>')
            + _node("Lamp-Search", "3.2 Lamp Search", '<a href="#Quay-Expansion">Quay Expansion</a>',
                    '<span id="index-lamp-search"></span><p>The lamp search runs.</p>')
            + '<p>See <a href="#Lamp-Search">how lamps are found</a>.</p>')
    book = _manual(tmp_path, body)
    terms = {t.name: s.heading for s in book.sections for t in s.terms if not t.subject}
    assert terms["quay expansion"] == "3.1 Quay Expansion" and terms["lamp search"] == "3.2 Lamp Search"
    targets = {link[2] for s in book.sections for link in s.links if link[1] == "how lamps are found"}
    assert targets == {"manual.html#index-lamp-search"}


def _terms_under(tmp_path, title: str, markers: str, text: str) -> dict[str, tuple]:
    """name -> aliases of the terms of a manual whose index prefix is proved, then a section
    ``title`` with its ``markers`` and ``text``."""
    body = (f'<h2 id="Settings">Settings</h2>{_confirmed(["spool", "wick", "lamp", "quay", "knob"])}'
            f'<h2 id="Next">{title}</h2>{markers}<p>{text}</p>')
    return {t.name: t.aliases for s in _manual(tmp_path, body).sections for t in s.terms if not t.subject}


def test_a_second_marker_of_a_thing_adds_the_inverted_form_the_first_did_not(tmp_path):
    found = _terms_under(tmp_path, "Tilde Expansion",
                         '<span id="index-tilde-expansion"></span><span id="index-expansion_002c-tilde"></span>',
                         "Each word that begins with a tilde is read.")
    assert found["tilde expansion"] == ("expansion, tilde",)


def test_an_inverted_marker_of_a_thing_in_the_plural_is_an_alias_of_its_singular_term(tmp_path):
    found = _terms_under(tmp_path, "Lamp Functions",
                         '<span id="index-lamp-function"></span><span id="index-functions_002c-lamp"></span>',
                         "A lamp function is like a simple command; lamp functions are read first.")
    assert found["lamp function"] == ("functions, lamp",) and "lamp functions" not in found


def test_a_marker_written_in_another_case_than_its_title_takes_the_titles_capitals(tmp_path):
    found = _terms_under(tmp_path, "4.8.4 Build Directories",
                         '<span id="index-Build-directories"></span><span id="index-Directories_002c-build"></span>',
                         "Each object file is kept in its own folder.")
    assert found["Build Directories"] == ("Directories, build",) and "Build directories" not in found


def test_a_name_only_written_otherwise_than_by_a_first_capital_keeps_its_own_spelling():
    assert as_written("Build directories", "## Build Directories") == "Build Directories"
    assert as_written("Shell builtins", "shell builtins, Shell Builtins") == "shell builtins"
    assert as_written("frob_path", "Frob_path is set") == "frob_path"  # code keeps its case
    assert as_written("OpenMP", "openmp") == "OpenMP"
    assert as_written("tilde expansion", "## Tilde Expansion") == "tilde expansion"  # any case bears it out
    assert as_written("Lamp wicks", "the Lamp wicks") == "Lamp wicks"  # written as it is
    assert as_written("Lamp wicks", "Lamp Wicker") == "Lamp wicks"  # nowhere
    assert as_written("Header template", "## Header Templates") == "Header Templates"  # a plural aside
    assert as_written("prerequisites Macros", "Prerequisite Macros") == "Prerequisite Macros"
    assert as_written("VPATH and double-colon rules", "VPATH and Double-colon Rules") == "VPATH and Double-colon Rules"
    assert as_written("vpath rules", "VPATH Rules") == "vpath rules"  # an acronym only as written


def test_an_anchor_repeating_another_with_a_count_names_what_the_other_does():
    body = (_confirmed(["spool", "wick", "lamp", "quay", "knob"])
            + '<span id="index-FROB_005fPATH"></span><p>Set <code>FROB_PATH</code> first.</p>'
              '<span id="index-FROB_005fPATH-2"></span><p>Then <code>FROB_PATH 2</code> runs.</p>'
              '<span id="index-signed-overflow-1"></span><span id="index-signed-overflow"></span><p>It wraps.</p>'
              '<span id="index-dial-7"></span><p>Seven.</p>')
    found = {i: t.name for i, t in anchor_terms(marked_anchors(page(body)))}
    assert found["index-FROB_005fPATH-2"] == "FROB_PATH"
    assert found["index-signed-overflow-1"] == "signed overflow"
    assert "index-dial-7" not in found  # "index-dial" is no id of the page: "dial 7" counts places


def test_a_page_repeats_an_id_with_a_count_only_where_the_id_without_it_is_its_own_too():
    assert repeated_ids(["x-cflags", "x-cflags-2", "x-cflags-10", "x-lamp-3", "x-b.2", "x-b"]) == {
        "x-cflags-2": "x-cflags", "x-cflags-10": "x-cflags", "x-b.2": "x-b"}


def test_a_keyword_its_id_spells_stays_in_its_name():
    # "set -e" of index-set-_002de is the term, never "-e" ("new Agent" of an id "Agent" is another case)
    body = (_confirmed(["spool", "wick", "lamp", "quay", "knob"])
            + '<span id="index-set-_002de"></span><p>Use <code>set -e</code> with care.</p>'
              '<span id="index-set-_002dx"></span><p>Then <code>set -x</code> traces.</p>')
    names = {t.name for _, t in anchor_terms(marked_anchors(page(body)))}
    assert {"set -e", "set -x"} <= names and not {"-e", "-x"} & names


def test_a_marker_whose_text_shows_its_name_only_as_a_link_away_is_named_by_its_id():
    body = (_confirmed(["spool", "wick", "lamp", "quay", "knob"])
            + '<h3 id="Quotes">8.1 Wick Quotation</h3><span id="index-Wick-quotation"></span>'
              '<div class="header"><p>Next: <a href="#Calls">Wick Quotation</a></p></div>')
    found = {i: t.name for i, t in anchor_terms(marked_anchors(page(body)))}
    assert found["index-Wick-quotation"] == "Wick quotation"


def test_an_index_term_of_five_words_is_defined_where_a_headings_is_not(tmp_path):
    found = _terms_under(tmp_path, "13 Portable Lamp and Wick Programming",
                         '<span id="index-Portable-lamp-and-wick-programming"></span>',
                         "Each lamp is lit.")
    assert "Portable Lamp and Wick Programming" in found
