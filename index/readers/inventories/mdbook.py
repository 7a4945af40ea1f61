"""An mdBook build's search index (``searchindex.js`` or ``searchindex.json``): its headings.

The index lists every heading of the book (``doc_urls``: its page and anchor; ``docs``: its
title, breadcrumbs and prose). A heading defines its title only where the title names a thing
(heading_names.py); a page's first heading is a chapter, a later one a section.
"""

from __future__ import annotations

import json

from ..files import FolderFiles
from .entry import Inventory, InventoryEntry
from .heading_names import CHAPTER, SECTION, heading_names

FILES = ("searchindex.json", "searchindex.js")


def mdbook_files(files: FolderFiles) -> list[str]:
    """The first search index the set's root holds (Sphinx too writes a ``searchindex.js``:
    told apart when it is read)."""
    return [name for name in FILES if files.has(name)][:1]


def _index(text: str) -> dict:
    if '"doc_urls"' not in text[:200]:  # another tool's file of the same name (Sphinx writes a searchindex.js)
        return {}
    # searchindex.js: ``Object.assign(window.search, {...});`` around the JSON
    return json.loads(text[text.index("{"):text.rindex("}") + 1])


def mdbook_entries(files: FolderFiles, found: list[str]) -> list[InventoryEntry]:
    """Every heading of the index whose title names a thing, on its page and anchor."""
    index = _index(files.read_text(found[0]))
    if not index:
        return []
    docs = index.get("index", {}).get("documentStore", {}).get("docs", {})
    out, seen_pages = [], set()
    for i, url in enumerate(index.get("doc_urls", [])):
        page, _, anchor = url.partition("#")
        kind = SECTION if page in seen_pages else CHAPTER
        seen_pages.add(page)
        title = (docs.get(str(i)) or {}).get("title", "")
        out.extend(InventoryEntry(name, kind, page, anchor) for name in heading_names(title))
    return out


INVENTORY = Inventory("mdbook", mdbook_files, mdbook_entries, markers=("book.js",), tool_dirs=("FontAwesome",))
