"""Property: odd Markdown and HTML (empty and separator-only tables, ragged rows, lone code
fences, deep lists, empty headings, stray ``|``, ``+---+`` art...) never make a reader or the
rules extractor raise. Run in strict mode (the suite's): a rule that raised would fail here,
not be caught. A bounded number of examples keeps it in the fast lane."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crossbook.chunk.chunking import parent_chunks
from crossbook.core.packs import load_pack
from crossbook.extract.rules import RulesExtractor
from crossbook.readers import read_book

GENERIC = load_pack("generic")
WORDS = st.sampled_from(["Lantern", "Frost Lance", "frob_open()", "`code`", "**Bold.**", "", " ", "|", "+", "-",
                         "1.", "*", "Harbor", "x|y", "#", "<b>", "&amp;", "é", "\t", "Knob"])
TEXT = st.lists(WORDS, max_size=6).map(" ".join)
CELLS = st.lists(TEXT, max_size=5)

MARKDOWN_BLOCKS = st.one_of(
    st.builds(lambda level, text: "#" * level + " " + text, st.integers(1, 7), TEXT),   # empty headings too
    st.just("|---|---|\n|---|---|"),                                                    # separator-only table
    st.just("| |\n|-|"),
    st.builds(lambda rows: "\n".join("|" + "|".join(r) + "|" for r in rows), st.lists(CELLS, max_size=5)),  # ragged
    st.builds(lambda head, rows: f"| {head} | Cost |\n|---|---|\n" + "\n".join("| " + " | ".join(r) for r in rows),
              TEXT, st.lists(CELLS, max_size=4)),
    st.just("```"), st.just("```python\nx = 1"), st.just("~~~"),                        # lone fences
    st.builds(lambda depth, text: "\n".join("  " * d + "- " + text for d in range(depth)), st.integers(1, 40), TEXT),
    st.just("+---+---+\n| a | b |\n+---+---+"), st.just("+--\n|\n+--"),                   # ASCII art
    st.builds(lambda text: "| " + text, TEXT), st.just("|"), st.just("||"),              # stray pipes
    st.builds(lambda name, text: f"**{name}.** {text}", TEXT, TEXT),
    st.builds(lambda name, text: f"{name}\n: {text}", TEXT, TEXT),
    TEXT,
)
HTML_BLOCKS = st.one_of(
    st.builds(lambda level, text: f"<h{level}>{text}</h{level}>", st.integers(1, 6), TEXT),
    st.builds(lambda level, ident: f'<h{level} id="{ident}"></h{level}>', st.integers(1, 6), TEXT),
    st.just("<table></table>"), st.just("<table><tr></tr></table>"), st.just("<table><tr><td></td></tr>"),
    st.builds(lambda rows: "<table>" + "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
              + "</table>", st.lists(CELLS, max_size=4)),
    st.builds(lambda depth: "<ul><li>" * depth + "x" + "</li></ul>" * depth, st.integers(1, 60)),
    st.just("<pre>+---+\n| a |\n+---+</pre>"), st.just("<pre>"), st.just("<code>|</code>"),
    st.builds(lambda term, text: f"<dl><dt>{term}</dt><dd>{text}</dd></dl>", TEXT, TEXT), st.just("<dl><dd>x</dd>"),
    st.builds(lambda ident, text: f'<a name="{ident}"></a><p>{text}</p>', TEXT, TEXT),
    st.builds(lambda href, text: f'<a href="{href}">{text}</a>', st.sampled_from(["#", "#x", "a.html#", "javascript:go('b.html#c')", "", "?"]), TEXT),
    st.builds(lambda text: f"<p>{text}</p>", TEXT),
)
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                       HealthCheck.too_slow])


def _extract(book) -> None:
    parents = parent_chunks(book.title, list(book.sections))
    RulesExtractor(GENERIC).extract(book.title, parents)


@FUZZ
@given(st.lists(MARKDOWN_BLOCKS, min_size=1, max_size=12))
def test_odd_markdown_never_raises(tmp_path, blocks):
    path = tmp_path / "odd.md"
    path.write_text("# Odd\n\n" + "\n\n".join(blocks) + "\n", encoding="utf-8")
    _extract(read_book(path))


@FUZZ
@given(st.lists(HTML_BLOCKS, min_size=1, max_size=12))
def test_odd_html_never_raises(tmp_path, blocks):
    path = tmp_path / "odd.html"
    path.write_text("<html><head><title>Odd</title></head><body><h1>Odd</h1>" + "".join(blocks) + "</body></html>",
                    encoding="utf-8")
    _extract(read_book(path))


@FUZZ
@given(st.lists(HTML_BLOCKS, min_size=1, max_size=8), st.lists(HTML_BLOCKS, min_size=1, max_size=8))
def test_odd_doc_set_never_raises(tmp_path, first, second):
    folder = tmp_path / "docs"
    folder.mkdir(exist_ok=True)
    nav = '<nav><a href="a.html">A</a> <a href="b.html">B</a></nav>'
    for name, blocks in (("a.html", first), ("b.html", second)):
        (folder / name).write_text(f"<html><head><title>{name}</title></head><body>{nav}<h1>{name}</h1>"
                                   + "".join(blocks) + "</body></html>", encoding="utf-8")
    _extract(read_book(folder, "docset"))
