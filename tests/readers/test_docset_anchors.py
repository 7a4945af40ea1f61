"""Anchors are the authors' inventory (readers/docset/anchors.py, sibling_runs.py,
anchor_terms.py): the name an id spells in its element's text defines a thing when it
looks like code or stands in a run of siblings; a heading's slug in words marks a place."""

from __future__ import annotations

from pathlib import Path

from crossbook.readers import read_book
from crossbook.readers.docset.anchor_terms import anchor_terms
from crossbook.readers.docset.anchors import id_forms, learnt_prefixes, page_anchors, skeleton, spelled_name
from crossbook.readers.html_markdown import parse_html


def page(body: str):
    return parse_html(f"<html><head><title>Ref</title></head><body>{body}</body></html>".encode())


def named(body: str) -> dict[str, str]:
    """id -> the name its anchor spells."""
    return {a.ident: a.name for a in page_anchors(page(body))[0]}


def defined(body: str) -> dict[str, tuple[str, str, str]]:
    """name -> (kind, rule, id) of what the page's anchors define."""
    return {t.name: (t.kind, t.rule, ident) for ident, t in anchor_terms(page_anchors(page(body))[0])}


def test_an_id_spells_its_text_through_case_separators_arity_and_escapes():
    forms = dict(id_forms("blend-2", ()))
    assert spelled_name("blend(a, b) → mix", list(forms.items())) == ("blend", "")
    assert spelled_name("BASH_VERSION", id_forms("index-BASH_005fVERSION", ("index-",))) == ("BASH_VERSION", "index-")
    assert spelled_name("attribute_locked?(name)", id_forms("method-i-attribute_locked-3F", ("method-i-",)))[0] \
        == "attribute_locked?"
    assert spelled_name("word8ToWord# :: Word# -> Word#", id_forms("v:word8ToWord-35-", ("v:",)))[0] == "word8ToWord#"
    assert spelled_name("generateBitVector", id_forms("generateBitVector(java.lang.Class,E...)", ()))[0] \
        == "generateBitVector"
    assert skeleton("Frob_Path::x") == "frobpathx"


def test_a_prefix_is_learnt_from_the_pages_own_ids_never_listed():
    ids = ["knob_spool_depth", "knob_lantern", "knob_harbor", "intro"]
    assert learnt_prefixes(ids) == ("knob_",)
    assert learnt_prefixes(["knob_a", "intro"]) == ()  # one id is no prefix the page shares


def test_the_issues_forms_each_define_their_name():
    knobs = "".join(f'<h2 id="{n.lower()}"><span id="{n}">{n}</span> Knob</h2><p>Sets it.</p>'
                    for n in ("Lantern", "Harbor", "Quay"))
    found = defined(knobs)
    assert {n: k for n, (k, _, _) in found.items()} == {"Lantern": "knob", "Harbor": "knob", "Quay": "knob"}
    assert found["Harbor"][1] == "sibling_run"
    assert defined('<h4 id="blend-2">blend(a, b) → mix</h4><p>Blends.</p>') == {
        "blend": ("function", "anchor_name", "blend-2")}
    spool = "".join(f'<a name="knob_{n}"></a><h3>KNOB {n}</h3><p>x</p>' for n in ("spool_depth", "wick_size", "lamp_oil"))
    assert set(defined(spool)) == {"spool_depth", "wick_size", "lamp_oil"}


def test_a_heading_slug_in_words_or_an_id_that_spells_nothing_marks_a_place():
    body = ('<h2 id="getting-started">Getting Started</h2><p>x</p><h2 id="installation">Installation</h2><p>y</p>'
            '<h2 id="usage">Usage</h2><p>z</p><h2 id="id17">Frobbing</h2><span id="index-0"></span><p>w</p>'
            '<h2 id="section-3">Section 3</h2><p>v</p>')
    assert named(body) == {"getting-started": "Getting Started", "installation": "Installation", "usage": "Usage"}
    assert defined(body) == {}


def test_code_keeps_its_case_and_a_label_before_a_code_name_is_its_kind():
    body = ('<h4 id="class-filehandle">Class: <code>FileHandle</code></h4><p>x</p>'
            '<h4 id="frob_path"><code>FROB_PATH</code></h4><p>y</p>'
            "<h5 id=\"event-close\">Event: <code>'close'</code></h5><p>z</p>")
    found = defined(body)
    assert found["FileHandle"][0] == "class" and found["FROB_PATH"][1] == "anchor_name"
    assert found["'close'"][0] == "event"


def test_a_name_linked_to_another_thing_is_referenced_unless_arguments_follow():
    impls = "".join(f'<section id="impl-{t}"><h3>impl <a href="{t}.html">{t}</a> for Span</h3><p>x</p></section>'
                    for t in ("Debug", "Clone", "Hash"))
    methods = "".join(f'<section id="method.{m}"><h4>fn <a href="t.html#tymethod.{m}">{m}</a>(&amp;self)</h4></section>'
                      for m in ("clone", "fmt", "hash"))
    assert set(defined(impls + methods)) == {"clone", "fmt", "hash"}


def test_an_empty_marker_names_the_term_the_text_after_it_shows():
    body = ('<span id="index-LANG"></span><span id="index-TEXTDOMAIN"></span><span id="index-x"></span>'
            '<p>Your users set <code>LANG</code>.</p><p>You set the <code>TEXTDOMAIN</code> variable.</p>')
    assert named(body) == {"index-LANG": "LANG", "index-TEXTDOMAIN": "TEXTDOMAIN"}


def test_a_doc_set_defines_its_anchored_names_in_the_section_of_the_anchor(tmp_path: Path):
    folder = tmp_path / "ref"
    folder.mkdir()
    rows = "".join(f'<div class="top"><p class="src"><a id="v:{n}" class="def">{n}</a> :: Int -&gt; Set</p>'
                   f'<div class="doc"><p>Does {n}.</p></div></div>' for n in ("insert", "delete", "member"))
    (folder / "Set.html").write_text(f"<html><head><title>Set</title></head><body><h1>Data.Set</h1>"
                                     f"<h2>Building</h2>{rows}</body></html>", encoding="utf-8")
    (folder / "Map.html").write_text('<html><head><title>Map</title></head><body><h1>Data.Map</h1>'
                                     '<p>See <a href="Set.html#v:member">member</a>.</p></body></html>',
                                     encoding="utf-8")
    book = read_book(folder, fmt="docset")
    terms = {(s.file, s.heading, t.name, t.rule) for s in book.sections for t in s.terms if not t.subject}
    assert {("Set.html", "Building", n, "sibling_run") for n in ("insert", "delete", "member")} <= terms
    links = [link for s in book.sections if s.file == "Map.html" for link in s.links]
    assert links == [("member", "member", "Set.html#v:member")]


def test_a_heading_slug_that_leads_with_code_defines_the_code():
    body = ('<h2 id="-h--help-get-help"><code>-h</code>/<code>--help</code>: get help</h2><p>x</p>'
            '<h2 id="reprc-repri">repr(C), repr(i*)</h2><p>y</p><h2 id="hmacdigestencoding">hmac.digest([encoding])</h2>'
            '<h2 id="linking-modifiers-bundle">Linking modifiers: <code>bundle</code></h2><p>z</p>'
            '<h2 id="summary">Summary</h2><p>w</p>')
    found = {t.name: t.aliases for _, t in anchor_terms(page_anchors(page(body))[0])}
    assert found == {"-h": ("--help",), "repr(C)": ("repr(i*)",), "hmac.digest": ("hmac.digest([encoding])",),
                     "bundle": ()}  # a label, then code: "Class: FileHandle"


def test_a_call_alone_whose_slug_spells_its_arguments_keeps_them_in_an_alias():
    body = "".join(f'<h2 id="repr{a.lower()}">repr({a})</h2><p>Lays out as {a}.</p>' for a in ("C", "transparent"))
    found = {(t.name, t.aliases) for _, t in anchor_terms(page_anchors(page(body))[0])}
    assert found == {("repr", ("repr(C)",)), ("repr", ("repr(transparent)",))}


def test_an_id_that_spells_nothing_is_named_by_the_pages_links_to_it_and_a_permalink_mark_is_no_part():
    body = ('<table><tr><td><a href="ref.html#a8b0f1">frob</a> ()</td></tr></table>'
            '<a id="a8b0f1"></a><h2><span class="permalink"><a href="#a8b0f1">\u25c6</a></span>frob()</h2><p>x</p>')
    anchors = page_anchors(page(body), own="ref.html")[0]
    assert [(a.ident, a.name, a.by_links) for a in anchors] == [("a8b0f1", "frob", True)]


def test_an_index_marker_defines_the_term_it_spells_in_the_text_after_it():
    body = ('<h2 id="x">Expansions</h2><span id="index-arithmetic-expansion"></span>'
            '<span id="index-arithmetic_002c-shell"></span><p>Arithmetic expansion evaluates.</p>'
            '<span id="index-esac"></span><div class="example"><pre>case word in\n  x) y ;;\nesac</pre></div>'
            '<span id="index-7"></span><p>Numbers.</p>')
    found = defined(body)
    assert set(found) == {"Arithmetic expansion", "esac"}
    assert found["esac"][1] == found["Arithmetic expansion"][1] == "anchor_name"


def test_a_script_call_holding_a_relative_page_and_anchor_is_that_link(tmp_path: Path):
    folder = tmp_path / "ref"
    folder.mkdir()
    rows = "".join(f'<h4 id="{n}-2">{n}(a, b) → mix</h4><p>Does {n}.</p>' for n in ("blend", "tint", "fade"))
    (folder / "shapes.html").write_text(f"<html><head><title>shapes</title></head><body><h1>shapes</h1>{rows}"
                                        "</body></html>", encoding="utf-8")
    (folder / "guide.html").write_text("<html><head><title>Guide</title></head><body><h1>Guide</h1><p>Use "
                                       "<a href=\"javascript:show('shapes.html#tint-2')\">tint</a>.</p></body></html>",
                                       encoding="utf-8")
    book = read_book(folder, fmt="docset")
    links = [link for s in book.sections if s.file == "guide.html" for link in s.links]
    assert links == [("tint", "tint", "shapes.html#tint-2")]


def test_a_result_type_is_never_the_name_a_signature_spells():
    assert learnt_prefixes(["v:insert", "v:delete"]) == ("v:",)
    assert spelled_name("final def !=(arg0: Any): Boolean", id_forms("!=(Any):Boolean", ())) is None
    assert spelled_name("final def isInstanceOf[T0]: Boolean", id_forms("isInstanceOf[T0]:Boolean", ()))[0] \
        == "isInstanceOf"


def test_a_heading_label_before_a_heading_is_no_index_marker():
    body = "".join(f'<span id="lib-{n.lower()}"></span><h2>{n}</h2><p>x</p>' for n in ("Fixers", "Usage", "Examples"))
    assert defined(body) == {}


def test_a_link_naming_a_hashed_anchor_by_its_qualified_name_names_the_heading_of_the_short_one():
    body = ('<table><tr><td>int&#160;</td><td><a href="ref.html#ga1f">spool::wind0</a> (int n)</td></tr></table>'
            '<a id="ga1f"></a><h2><span class="permalink"><a href="#ga1f">\u25c6</a></span>wind0()</h2><p>x</p>')
    anchors = page_anchors(page(body), own="ref.html")[0]
    assert [(a.ident, a.name) for a in anchors] == [("ga1f", "wind0")]


def test_a_name_ending_in_a_number_after_an_underscore_is_no_ordinal():
    body = ('<p><a href="#a9c">SPOOL_LEVEL_2</a> and <a href="#section-3">Section 3</a></p>'
            '<table><tr><td><a id="a9c"></a>SPOOL_LEVEL_2</td><td>The second level.</td></tr></table>'
            '<h2 id="section-3">Section 3</h2><p>v</p>')
    assert "SPOOL_LEVEL_2" in defined(body) and "Section 3" not in defined(body)


def test_a_qualified_name_has_its_other_form_as_an_alias_and_a_file_name_keeps_its_dot():
    body = ('<h2 id="spools.reel.Winder"><code>spools.reel.Winder</code></h2><p>x</p>'
            '<h4 id="wind">Winder.wind(rate)</h4><p>y</p>'
            '<h2 id="spool.yml"><code>spool.yml</code></h2><p>z</p>')
    terms = {t.name: t.aliases for _, t in anchor_terms(page_anchors(page(body))[0])}
    assert terms["spools.reel.Winder"] == ("Winder",)
    assert terms["wind"] == ("Winder.wind",)
    assert terms["spool.yml"] == ()


def test_a_word_like_name_written_after_its_owner_is_code():
    body = ('<p><a href="#a024b">Row</a> () const</p><a class="anchor" id="a024b"></a><div class="memitem">'
            '<table><tr><td>int Spool::Row</td><td>(</td><td>)</td><td>const</td></tr></table>'
            '<p>Return the position, in the original source file, of this node.</p></div>')
    assert [(a.name, a.code) for a in page_anchors(page(body))[0]] == [("Row", True)]
    assert "Row" in defined(body)


def test_an_xhtml_pages_anchor_over_a_preformatted_block_is_read():
    xhtml = ('<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Ref'
             '</title></head><body><p><a href="#a9">frob_wind</a></p><a class="anchor" id="a9"></a><div class="memitem">'
             '<table><tr><td>void Spool::frob_wind</td></tr></table><pre>frob_wind(spool);</pre></div></body></html>')
    assert {a.name for a in page_anchors(parse_html(xhtml.encode()))[0]} == {"frob_wind"}


def test_an_argument_heading_defines_the_argument_less_its_default():
    body = '<h3 id="wind_ratenone"><code>wind_rate=None</code></h3><p>How fast the spool winds.</p>'
    assert "wind_rate" in defined(body) and "wind_rate=None" not in defined(body)


def test_a_run_of_slugs_after_a_commands_name_defines_its_subcommands():
    subs = "".join(f'<h2 id="frob-{n}">frob {n}</h2><p>Does {n}.</p>' for n in ("build", "serve", "new"))
    found = defined(f'<h1 id="frob">frob</h1><p>The tool.</p>{subs}')
    assert {n for n in found if n != "frob"} == {"build", "serve", "new"}
    # a topic's name in title case over slugs of its topics: places, no subcommands
    topics = "".join(f'<h2 id="docker-{n}">Docker {n}</h2><p>On {n}.</p>' for n in ("images", "volumes", "networks"))
    assert not {"images", "volumes", "networks"} & set(defined(f'<h1 id="docker">Docker</h1><p>x</p>{topics}'))
