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
from pathlib import Path

from ...core.packs import genre_table
from .entry import InventoryEntry

_KINDS = genre_table("documentation", "rdoc_kinds")
_HEADING_CLASS = re.compile(rb'<h1[^>]*\bclass="([\w-]+)"')


def _page_kind(root: Path, page: str) -> str:
    """A class's, module's or file's page, as the page's heading says (a class by default)."""
    try:
        found = _HEADING_CLASS.search((root / page).read_bytes())
    except OSError:
        found = None
    kind = found.group(1).decode("ascii") if found else ""
    return _KINDS.get(kind, _KINDS.get("class", "class"))


def _entry(root: Path, row: list) -> InventoryEntry | None:
    name, parent, url = (str(v) for v in row[:3])
    page, _, anchor = url.partition("#")
    if not name or not page:
        return None
    if not anchor:
        return InventoryEntry(name, _page_kind(root, page), page)
    prefix = "-".join(anchor.split("-")[:2])
    kind = _KINDS.get(prefix, "entry")
    if not parent:
        return InventoryEntry(name, kind, page, anchor)
    joined = f"{parent}#{name}" if prefix.endswith("-i") else f"{parent}.{name}"
    return InventoryEntry(joined, kind, page, anchor, (name,))


def rdoc_entries(path: Path) -> list[InventoryEntry]:
    """Every row of the index, on its page (relative to the site: the index sits in ``js``)."""
    text = path.read_text(encoding="utf-8")
    rows = json.loads(text[text.index("{"):text.rindex("}") + 1]).get("index", {}).get("info", [])
    root = path.parent.parent
    found = (_entry(root, row) for row in rows if isinstance(row, list) and len(row) >= 3)
    return list(dict.fromkeys(e for e in found if e is not None))
