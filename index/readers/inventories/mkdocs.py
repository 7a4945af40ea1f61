"""A MkDocs build's search index (``search/search_index.json``): its pages and headings.

Each entry is a page (``location`` its path, ``title`` its title) or one of its headings
(``page.html#anchor``); a site built with directory URLs names a page by its folder
(``user-guide/``: ``user-guide/index.html``). A heading defines its title only where the
title names a thing (heading_names.py); a page's own entry is a chapter, a heading a section.
"""

from __future__ import annotations

import json

from ..files import FolderFiles
from .entry import Inventory, InventoryEntry
from .heading_names import CHAPTER, SECTION, heading_names

FILE = "search/search_index.json"


def _page(location: str) -> str:
    return location + "index.html" if not location or location.endswith("/") else location


def mkdocs_files(files: FolderFiles) -> list[str]:
    return [FILE] if files.has(FILE) else []


def mkdocs_entries(files: FolderFiles, found: list[str]) -> list[InventoryEntry]:
    """Every page and heading of the index whose title names a thing, on its page and anchor
    (pages relative to the site: the index sits in its ``search`` folder)."""
    docs = json.loads(files.read_text(found[0])).get("docs", [])
    out = []
    for doc in docs:
        location, _, anchor = str(doc.get("location", "")).partition("#")
        kind = SECTION if anchor else CHAPTER
        out.extend(InventoryEntry(name, kind, _page(location), anchor) for name in heading_names(doc.get("title", "")))
    return out


INVENTORY = Inventory("mkdocs", mkdocs_files, mkdocs_entries)
