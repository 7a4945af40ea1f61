"""A name a page's Markdown escapes (``\\_\\_pool`` for ``__pool``: a run of underscores at a
word's edge) or wraps over two lines keeps its term through chunking and is verified in the
chunk's text as written."""

from __future__ import annotations

from crossbook.chunk.chunking import parent_chunks
from crossbook.core.models import DocTerm, Section
from crossbook.core.packs import load_pack
from crossbook.extract.marks import NoteMarks
from crossbook.extract.verify import ChunkText

TEXT = "## Pools\n\n\\_\\_gnu_cxx::\\_\\_pool Class Reference\n\nA pool of memory blocks; see compound\ncommands.\n"
SECTION = Section(heading="Pools", level=2, heading_path=("Pools",), text=TEXT, start_line=1,
                  terms=(DocTerm("__gnu_cxx::__pool", "class"), DocTerm("compound commands", "index entry")),
                  file="a001.html")


def test_an_escaped_or_wrapped_name_keeps_its_term_on_its_chunk():
    (parent,) = parent_chunks("Docs", [SECTION])
    assert {t.name for t in parent.terms} == {"__gnu_cxx::__pool", "compound commands"}


def test_an_escaped_name_is_defined_with_the_sentence_that_shows_it():
    (parent,) = parent_chunks("Docs", [SECTION])
    marks = NoteMarks(load_pack("generic"), [parent], [None])
    found = {m.name: m.context for m in marks.verify(parent, [], ChunkText(parent.text)).mentions}
    assert "__gnu_cxx::__pool" in found and "\\_\\_pool" in found["__gnu_cxx::__pool"]
