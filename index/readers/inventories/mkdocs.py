"""A MkDocs build's search index (``search/search_index.json``): its pages and headings.

Each entry is a page (``location`` its path, ``title`` its title) or one of its headings
(``page.html#anchor``); a site built with directory URLs names a page by its folder
(``user-guide/``: ``user-guide/index.html``). A heading defines its title only where the
title names a thing (heading_names.py); a page's own entry is a chapter, a heading a section.
"""

from __future__ import annotations

import json
from pathlib import Path

from .entry import InventoryEntry
from .heading_names import CHAPTER, SECTION, heading_names


def _page(location: str) -> str:
    return location + "index.html" if not location or location.endswith("/") else location


def mkdocs_entries(path: Path) -> list[InventoryEntry]:
    """Every page and heading of the index whose title names a thing, on its page and anchor
    (pages relative to the site: the index sits in its ``search`` folder)."""
    docs = json.loads(path.read_text(encoding="utf-8")).get("docs", [])
    out = []
    for doc in docs:
        location, _, anchor = str(doc.get("location", "")).partition("#")
        kind = SECTION if anchor else CHAPTER
        out.extend(InventoryEntry(name, kind, _page(location), anchor) for name in heading_names(doc.get("title", "")))
    return out
