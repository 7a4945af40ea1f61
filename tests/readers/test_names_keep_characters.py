"""Names keep their characters: an underscore inside a name is no Markdown emphasis, a
signature set in several code runs is one name, an identifier's last word is no plural and
a name's first letter is no article."""

from __future__ import annotations

from crossbook.chunk.chunking import split_sections
from crossbook.core.normalize import normalize_name
from crossbook.core.titles import strip_markup
from crossbook.readers.code_runs import joined_code_runs
from crossbook.readers.html_markdown import html_to_markdown


def test_a_heading_keeps_the_underscores_of_its_names():
    sections = split_sections("# Loader\n\ntext\n\n## load_parts()\n\nLoads.\n\n## g_main_loop_new ()\n\nNew.\n")
    assert [s.heading for s in sections] == ["Loader", "load_parts()", "g_main_loop_new ()"]
    assert sections[1].heading_path == ("Loader", "load_parts()")


def test_emphasis_still_goes_from_a_heading():
    assert strip_markup("_Basic_ *usage* of **it**") == "Basic usage of it"
    assert strip_markup("`__init__` and class_") == "__init__ and class_"


def test_a_signature_in_two_code_runs_is_one_name():
    html = b'<p><code class="sig-prename">Basket.</code><code class="sig-name">tally</code>()</p>'
    assert "`Basket.tally`()" in html_to_markdown(html)
    assert joined_code_runs("`a` `b`") == "`a` `b`"


def test_an_identifier_keeps_its_last_word_and_its_first_letter():
    assert normalize_name("load_parts()") == normalize_name("load_parts") == "load_parts"
    assert normalize_name("a->b") != normalize_name("b")
    assert normalize_name("the Rapid Strikes") == "rapid_strike"


def test_a_dunder_in_html_text_keeps_its_underscores_in_the_heading():
    """``__len__`` is escaped as one run (not ``\\__len_\\_``, which read as emphasis) and the
    heading cleaner honours Markdown's backslash escapes: the name survives whole."""
    from crossbook.core.titles import clean_inline
    from crossbook.readers.html_markdown import html_to_markdown

    markdown = html_to_markdown(b"<h1>Data model</h1><h2>object.__len__(self)</h2><p>Called by __len__.</p>")
    assert [s.heading_path for s in split_sections(markdown)][1] == ("Data model", "object.__len__(self)")
    assert clean_inline(r"3\. Combat") == "3. Combat" and clean_inline(r"a \*star\* and **bold**") == "a *star* and bold"
    assert clean_inline(r"`a\_b`") == r"a\_b"  # a code span is kept as written
