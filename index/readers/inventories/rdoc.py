"""An RDoc build's search index (``js/search_index.js``): its classes, modules, methods and
pages.

``search_data.index.info`` holds one row per entry: its name, its parent's full name, its
page (and anchor), its parameters and a snippet. A method's anchor says what it is
(``method-i-convert``: an instance method; ``method-c-``: a class method); a class, module or
file page is told by its page's heading (``<h1 class="module">``). A method is named as Ruby
writes it (``Asciidoctor::Document#convert``, a class method ``Asciidoctor.convert``), with its
own name (``convert``) to be found by in its section.
"""

from __future__ import annotations

import json
import re

from ..files import FolderFiles
from .entry import Inventory, InventoryEntry

FILE = "js/search_index.js"
# an entry's anchor prefix (or its page's heading class) -> its kind
_KINDS = {"method-i": "method", "method-c": "method", "attribute-i": "attribute", "attribute-c": "attribute",
          "class": "class", "module": "module", "file": "chapter"}
_HEADING_CLASS = re.compile(rb'<h1[^>]*\bclass="([\w-]+)"')


def _page_kind(files: FolderFiles, page: str) -> str:
    """A class's, module's or file's page, as the page's heading says (a class by default). The
    page is looked up among the set's walked pages: a name the index gives is never opened."""
    try:
        found = _HEADING_CLASS.search(files.read_bytes(page)) if files.has(page) else None
    except (OSError, ValueError):
        found = None
    kind = found.group(1).decode("ascii") if found else ""
    return _KINDS.get(kind, _KINDS["class"])


def _entry(files: FolderFiles, row: list) -> InventoryEntry | None:
    name, parent, url = (str(v) for v in row[:3])
    page, _, anchor = url.partition("#")
    if not name or not page:
        return None
    if not anchor:
        return InventoryEntry(name, _page_kind(files, page), page)
    prefix = "-".join(anchor.split("-")[:2])
    kind = _KINDS.get(prefix, "entry")
    if not parent:
        return InventoryEntry(name, kind, page, anchor)
    joined = f"{parent}#{name}" if prefix.endswith("-i") else f"{parent}.{name}"
    return InventoryEntry(joined, kind, page, anchor, (name,))


def rdoc_files(files: FolderFiles) -> list[str]:
    return [FILE] if files.has(FILE) else []


def rdoc_entries(files: FolderFiles, found: list[str]) -> list[InventoryEntry]:
    """Every row of the index, on its page (relative to the site, whose ``js`` holds the index)."""
    text = files.read_text(found[0])
    rows = json.loads(text[text.index("{"):text.rindex("}") + 1]).get("index", {}).get("info", [])
    entries = (_entry(files, row) for row in rows if isinstance(row, list) and len(row) >= 3)
    return list(dict.fromkeys(e for e in entries if e is not None))


INVENTORY = Inventory("rdoc", rdoc_files, rdoc_entries)
