"""The names a heading index's entry defines (mdBook's and MkDocs' search indexes). Pure.

Such an index lists a book's headings and their prose, not the objects it documents: an
entry says "this section is titled so", which is structure. It defines a name only where its
heading names a thing, written as code is: a name of one token that is not a capitalised
word of prose (``site_name``, ``repr(C)``, ``Vec::push_all``, ``--extern``, ``nav``,
``mkdocs.yml``, ``RefCell``), or a list of such (``repr(u*), repr(i*)``, ``-v/--verbose``,
``unix and windows``), before the colon of a description ("``--extern``: specify a
dependency's location"). A heading of prose ("Getting Started", "Traits", "if Expressions")
defines nothing: it stays a heading, found by its path.
"""

from __future__ import annotations

import re

from ...core.packs import genre_list

# the kinds of a page's first heading and of a later one ("chapter", "section")
CHAPTER, SECTION = genre_list("documentation", "heading_entry_kinds")[:2]

_TOKEN = re.compile(r"(?:--?|@|#)?[A-Za-z_][\w]*(?:(?:::|\.|->|-)[\w*]+)*(?:\([^()\s]*(?:\([^()\s]*\))?\)|<[^<>\s]*>|!|\?|=)?")
_CODE_MARK = re.compile(r"[_:.()<>!#=@*/]|\d|^-|[a-z][A-Z]")
_PARTS = re.compile(r",\s+|\s+and\s+|/(?=-)")


def _is_name(token: str) -> bool:
    if not _TOKEN.fullmatch(token):
        return False
    # a word of prose is capitalised ("Traits", "Search") or an acronym ("ABI"); a name is
    # written in lower case or carries a mark of code
    return bool(_CODE_MARK.search(token)) or token[0].islower()


def heading_names(title: str) -> list[str]:
    """The names a heading's title gives, or [] for a heading of prose."""
    lead = title.strip().split(": ", 1)[0].strip()
    parts = [p.strip() for p in _PARTS.split(lead)]
    if not parts or not all(parts) or not all(_is_name(p) for p in parts):
        return []
    return list(dict.fromkeys(parts))
