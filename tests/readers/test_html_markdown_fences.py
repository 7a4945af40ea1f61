"""A definition whose description opens with a code block (Texinfo's ``@item`` followed by an
``@example``) keeps the code fenced on its own lines: a fence written after ``: `` is no
fence, so its closing line opened one that swallowed every heading after it."""

from __future__ import annotations

from crossbook.chunk.chunking import split_sections
from crossbook.readers.html_markdown import html_to_markdown

PAGE = b"""<html><body><h2>4.3.2 The Shopt Builtin</h2>
<dl><dt><code>shopt</code></dt><dd><pre class="example">shopt [-pqsu] [-o] [optname ...]
</pre><p>Toggle the values of settings.</p></dd></dl>
<h2>5 Shell Variables</h2><p>This chapter describes the shell variables.</p>
<pre class="example"># a comment line in an example
</pre></body></html>"""


def test_a_description_opening_with_code_keeps_the_headings_after_it():
    text = html_to_markdown(PAGE)
    assert ":\n  ```" in text
    headings = [s.heading for s in split_sections(text) if s.heading]
    assert headings == ["4.3.2 The Shopt Builtin", "5 Shell Variables"]
