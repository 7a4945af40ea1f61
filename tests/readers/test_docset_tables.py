"""A doc set's tables and options prose define what they document, plain words nothing
(readers/doc_tables.py), and prose does not link a plain word a doc set documents."""

from __future__ import annotations

from pathlib import Path

from crossbook.readers import read_book
from tests.docs.test_docs_shelves import ingest

NAV = '<div class="nv"><a href="index.html">Home</a> <a href="a.html">Prev</a> <a href="b.html">Next</a></div>'
WORDS = "".join(f"<tr><td>{a}</td><td>{b}</td><td>{c}</td></tr>" for a, b, c in
                [("If", "To", "In"), ("On", "For", "Default"), ("And", "Or", "Not"), ("While", "Do", "Done")])
BODIES = {
    "index": '<h1>Handbook</h1><p>If you set it to true, the default for this is on. Run the '
             '<a href="commands.html">commands</a> below; for more, read on.</p>',
    "a": "<h1>Setup</h1><p>If all commands are set, the default is kept. To start, read on.</p>",
    "commands": "<h1>Commands</h1><p>These commands exist: frob and zap.</p>",
    "words": "<h1>Reserved Words</h1><p>These words are reserved.</p><table><tr><th>Word</th><th>Word</th>"
             f"<th>Word</th></tr>{WORDS}</table>",
    "b": "<h1>Library</h1><table><tr><th>Function</th><th>Description</th></tr>"
         "<tr><td><code>frob_open</code></td><td>Open a frob.</td></tr>"
         "<tr><td><code>frob_close()</code></td><td>Close it.</td></tr>"
         "<tr><td>frob_read</td><td>Read.</td></tr></table>"
         "<h2>Options</h2><p>The options are these.</p><ul><li><code>width=N</code> sets the width.</li>"
         "<li>color=NAME sets the colour.</li></ul><p>The mode matters. mode=fast makes it fast.</p>",
}


def docset(tmp_path: Path) -> Path:
    folder = tmp_path / "hb"
    folder.mkdir()
    for name, body in BODIES.items():
        (folder / f"{name}.html").write_text(
            f'<html><head><meta name="generator" content="Zz"><title>{name}</title></head><body>{NAV}{body}{NAV}'
            "</body></html>", encoding="utf-8")
    return folder


def stored(db) -> dict[tuple[str, str], int]:
    rows = db.execute("SELECT e.name, m.mention_type, count(*) FROM entity_mentions m JOIN entities e"
                      " ON e.id = m.entity_id GROUP BY 1, 2").fetchall()
    return {(name, kind): n for name, kind, n in rows}


def test_a_function_tables_rows_and_an_options_sections_key_value_leads_define_them(tmp_path: Path):
    book = read_book(docset(tmp_path))
    terms = {(t.name, t.kind) for s in book.sections if s.file == "b.html" for t in s.terms}
    assert {("frob_open", "function"), ("frob_close", "function"), ("frob_read", "function")} <= terms
    assert {("width", "option"), ("color", "option"), ("mode", "option")} <= terms


def test_a_value_repeated_down_a_tables_first_column_is_no_name(tmp_path: Path):
    # a function summary: the return type first ("gboolean" on many rows), the function second
    rows = "".join(f"<tr><td><code>{kind}</code></td><td><code>{name}</code> ()</td></tr>" for kind, name in
                   (("gboolean", "frob_is_open"), ("gboolean", "frob_is_shut"), ("FrobMode", "frob_mode"),
                    ("gboolean", "frob_has_key")))
    page = ('<html><head><meta name="generator" content="Zz"><title>{0}</title></head><body><h1>{0}</h1>'
            '<h2>Functions</h2><table>{1}</table></body></html>')
    for name in ("frob", "zap"):
        (tmp_path / f"{name}.html").write_text(page.format(name, rows), encoding="utf-8")
    # a page alone (its Markdown's code entries) and a doc set (its tables' markup)
    for book in (read_book(tmp_path / "frob.html"), read_book(tmp_path, fmt="docset")):
        terms = {t.name for s in book.sections for t in s.terms}
        assert "gboolean" not in terms
    docset = {t.name for s in read_book(tmp_path, fmt="docset").sections for t in s.terms}
    assert "FrobMode" not in docset  # once in the column, but a call follows it: its result type


def test_a_first_cell_before_a_call_or_a_link_naming_the_row_is_its_type_not_a_name(tmp_path: Path):
    rows = ('<tr><td>void&#160;</td><td><a href="#a22">frob_open</a> ()</td></tr>'
            '<tr><td>int&#160;</td><td><a href="#a23">frob_count</a></td></tr>'
            '<tr><td>double&#160;</td><td><b>frob_wait</b> ()</td></tr>'
            '<tr><td><code>FROB_MAX</code></td><td>The most frobs a spool holds.</td></tr>'
            '<tr><td><code>FROB_IS_DIR</code></td><td><a href="m.html#TRUE">TRUE</a> if it is a folder.</td></tr>'
            '<tr><td><code>FROB_SG</code></td><td>Surrogates (SG)</td></tr>'
            '<tr><td><code>frob_old(a)</code></td><td><a href="#a22"><code>frob_open(a)</code></a></td></tr>')
    (tmp_path / "frob.html").write_text('<html><head><title>frob</title></head><body><h1>frob</h1>'
                                        f'<h2>Functions</h2><table>{rows}</table></body></html>', encoding="utf-8")
    terms = {t.name for s in read_book(tmp_path, fmt="docset").sections for t in s.terms}
    assert not {"void", "int", "double"} & terms
    assert "FROB_MAX" in terms  # a name its description follows: the first column holds names
    assert "frob_wait" in terms  # a call no anchor names: the row defines it
    assert {"FROB_IS_DIR", "FROB_SG"} <= terms and "Surrogates" not in terms  # a description, no name
    assert "frob_old" in terms  # a call first is the thing itself (a table of old names and new), no type


def test_a_table_of_plain_words_defines_nothing_and_prose_links_no_plain_word(tmp_path: Path):
    db = ingest(tmp_path / "index", [docset(tmp_path)])
    found = stored(db)
    for word in ("If", "To", "On", "For", "Default", "And", "While"):
        assert (word, "defines") not in found and (word, "references") not in found
    # "Commands", a page about a topic, is referenced where an author links it, not in prose
    rows = db.execute("SELECT m.source, c.source_file FROM entity_mentions m JOIN entities e ON e.id = m.entity_id"
                      " JOIN chunks c ON c.id = m.chunk_id WHERE lower(e.name) = 'commands' AND"
                      " m.mention_type = 'references'").fetchall()
    assert rows == [("wikilink", "index.html")]


def test_a_back_index_page_places_its_entries_where_they_point(tmp_path: Path):
    folder = tmp_path / "manual"
    folder.mkdir()
    body = ("<h1>{0}</h1><p>About {0}.</p><h2>Details</h2><p>Text<a name='ix{1}'></a> on {0}'s frobnication "
            "and the widget cache.</p><h2>More</h2><p>Nothing more on {0}.</p>")
    for n, name in enumerate(("alpha", "beta", "gamma", "delta", "omega")):
        (folder / f"{name}.html").write_text(f"<html><head><title>{name}</title></head><body>"
                                             f"{body.format(name, n)}</body></html>", encoding="utf-8")
    entries = "".join(f"<dt>{term}, <a href='{page}.html#ix{n}'>{page}</a>, <a href='beta.html#ix1'>beta</a></dt>"
                      for term, page, n in (("frobnication", "alpha", 0), ("widget cache", "gamma", 2),
                                            ("alpha", "alpha", 0), ("gamma", "gamma", 2), ("omega", "omega", 4)))
    (folder / "ix01.html").write_text(f"<html><head><title>Index</title></head><body><h1>Index</h1><dl>{entries}"
                                      "</dl></body></html>", encoding="utf-8")
    book = read_book(folder, fmt="docset")
    details = {s.file: s for s in book.sections if s.heading == "Details"}
    assert "frobnication" in {t.name for t in details["alpha.html"].terms}      # defined where it points first
    assert ("frobnication", "frobnication", "alpha.html#index-0") in details["beta.html"].links  # then mentioned
    assert "widget cache" in {t.name for t in details["gamma.html"].terms}
    assert not [link for s in book.sections if s.file == "ix01.html" for link in s.links]  # the index's own links


def test_a_table_whose_rows_are_signatures_defines_each_function_in_its_section(tmp_path: Path):
    rows = "".join(f"<tr><td>{sig}</td><td>{what}</td></tr>" for sig, what in (
        ("<code>frob_merge(a, b) \u2192 frob</code>", "Merges two frobs."),
        ("static frob *frob_split(frob *f, int at)", "Splits a frob."),
        ("<code>Spool.wind(self, n: int) -&gt; Reel</code>", "Winds the spool."),
        ("See the manual (chapter 3)", "Where the rest is."),
        ("Some Frob Bytes (Bytes -&gt; Decoding)", "A constructor and its fields."),
        ("bool frob::merger::operator()", "Calls the merger."),
    ))
    folder = tmp_path / "frob"
    folder.mkdir()
    (folder / "api.html").write_text(
        '<html><head><meta name="generator" content="Zz"><title>API</title></head><body><h1>API</h1>'
        f"<p>The calls.</p><h2>Merging</h2><p>How frobs combine.</p><table>{rows}</table></body></html>",
        encoding="utf-8")
    book = read_book(folder, fmt="docset")
    where = {t.name: (s.heading, t.kind) for s in book.sections for t in s.terms if not t.subject}
    for name in ("frob_merge", "frob_split", "Spool.wind"):
        assert where[name] == ("Merging", "function")
    assert not {"manual", "See", "Bytes", "operator", "frob::merger::operator"} & set(where)


def test_the_terms_filed_under_an_entrys_template_parameters_define_nothing(tmp_path: Path):
    body = ('<h2>Template Parameters</h2><dl><dt><code>Allocator</code></dt><dd>The allocator.</dd>'
            '<dt><code>Key</code></dt><dd>The key type.</dd></dl>'
            '<h2>Members</h2><dl><dt><code>frob_open</code></dt><dd>Opens a frob.</dd></dl>')
    (tmp_path / "frob.html").write_text(f'<html><head><title>frob</title></head><body><h1>frob</h1>{body}'
                                        '</body></html>', encoding="utf-8")
    terms = {t.name for s in read_book(tmp_path, fmt="docset").sections for t in s.terms}
    assert "frob_open" in terms and not {"Allocator", "Key"} & terms


def test_a_member_lists_rows_refer_to_members_and_an_entrys_labelled_parts_define_nothing(tmp_path: Path):
    rows = ('<tr><td><a href="types.html#t1">Mode</a>&#160;</td><td><a href="#a7">get_mode</a> () const</td></tr>'
            '<tr><td>virtual <a href="types.html#t2">Size</a>&#160;</td><td><a href="#a8">get_size</a> ()</td></tr>')
    entry = ('<h2 id="a7">get_mode()</h2><p>The mode.</p>'
             '<dl class="params"><dt>Parameters</dt><dd><table><tr><td>has_spool</td><td>Whether it spools.</td></tr>'
             '<tr><td>wind_rate</td><td>How fast.</td></tr></table></dd></dl>'
             '<dl><dt><b><a href="old.html#d1">Deprecated:</a></b></dt><dd>Use get_state.</dd></dl>'
             '<table><tr><td><code>FROB_MAX</code></td><td>The most frobs a spool holds.</td></tr></table>')
    (tmp_path / "frob.html").write_text('<html><head><title>frob</title></head><body><h1>frob</h1>'
                                        f'<h2>Public Member Functions</h2><table>{rows}</table>{entry}'
                                        '</body></html>', encoding="utf-8")
    terms = {t.name for s in read_book(tmp_path, fmt="docset").sections for t in s.terms}
    assert not {"Mode", "Size", "virtual", "has_spool", "wind_rate", "Deprecated:", "Deprecated"} & terms
    assert "FROB_MAX" in terms  # a table of names outside any entry's labelled parts


def test_a_summary_row_holding_the_anchor_its_link_points_at_defines_the_name(tmp_path: Path):
    rows = ('<tr><td><a class="anchor" id="a28"></a>double&#160;</td><td><a href="#a28">DoubleValue</a> () const</td></tr>'
            '<tr><td>int&#160;</td><td><a href="#a29">IntValue</a> () const</td></tr>')
    (tmp_path / "frob.html").write_text('<html><head><title>frob</title></head><body><h1>frob</h1>'
                                        f'<h2>Public Member Functions</h2><table>{rows}</table>'
                                        '<h2 id="a29">IntValue()</h2><p>The value.</p></body></html>', encoding="utf-8")
    terms = {t.name: t.kind for s in read_book(tmp_path, fmt="docset").sections for t in s.terms}
    assert terms.get("DoubleValue") == "function" and "double" not in terms


def test_an_anchored_term_ending_in_a_colon_is_a_thing_not_a_label(tmp_path: Path):
    body = ('<dl><dt id="directive-option-caption"><code>:caption:</code></dt><dd>The caption of the block.</dd></dl>'
            '<dl><dt><b>Returns:</b></dt><dd>The spool.</dd></dl>')
    (tmp_path / "frob.html").write_text(f'<html><head><title>frob</title></head><body><h1>frob</h1>{body}'
                                        '</body></html>', encoding="utf-8")
    terms = {t.name for s in read_book(tmp_path, fmt="docset").sections for t in s.terms}
    assert ":caption:" in terms and not {"Returns:", "Returns"} & terms
