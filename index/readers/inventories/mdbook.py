"""An mdBook build's search index (``searchindex.js`` or ``searchindex.json``): its headings.

The index lists every heading of the book (``doc_urls``: its page and anchor; ``docs``: its
title, breadcrumbs and prose). A heading defines its title only where the title names a thing
(heading_names.py); a page's first heading is a chapter, a later one a section.
"""

from __future__ import annotations

import json
from pathlib import Path

from .entry import InventoryEntry
from .heading_names import CHAPTER, SECTION, heading_names


def _index(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    if '"doc_urls"' not in text[:200]:  # another tool's file of the same name (Sphinx writes a searchindex.js)
        return {}
    # searchindex.js: ``Object.assign(window.search, {...});`` around the JSON
    return json.loads(text[text.index("{"):text.rindex("}") + 1])


def mdbook_entries(path: Path) -> list[InventoryEntry]:
    """Every heading of the index whose title names a thing, on its page and anchor."""
    index = _index(path)
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
