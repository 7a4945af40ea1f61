"""The kinds documentation readers give what a page documents (the linker reads a name of
these kinds as code): the documentation pack's words, shared by the doc-set reader and the
authors' inventories."""

from __future__ import annotations

from ..core.packs import genre_table, genre_words

# a Sphinx object entry's domain role (the dl's second class) -> its kind
SPHINX_KINDS = genre_table("documentation", "sphinx_kinds")
# every kind the documentation readers give
DOC_KINDS = frozenset({*SPHINX_KINDS.values(), *genre_words("documentation", "doc_kinds")}) - {"other"}
