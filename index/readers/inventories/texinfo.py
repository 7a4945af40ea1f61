"""A Texinfo HTML manual's index nodes (``makeinfo --html``): each ``@printindex`` is a table
``<table class="index-fn">`` (Texinfo 6: the index's short name after ``index-``; Texinfo 7
writes ``fn-entries-printindex``) whose rows link an entry to the anchor Texinfo set where it
was indexed (``<a href="#index-BASH_005fVERSION"><code>BASH_VERSION</code></a>``), on the same
page (a manual on one page) or another node's. The entry is a row's second cell (Texinfo 6),
or its cell of class ``printindex-index-entry`` (Texinfo 7, first in its row from 7.1); the
cell after it names the section, not an entry.

An entry is typed by its index: a standard one by its name (``fn``: function, ``vr``:
variable...), a manual's own by the words of its heading ("Autoconf Macro Index": macro;
"Builtin Index": command), else an index entry."""

from __future__ import annotations

import posixpath
import re
from urllib.parse import unquote

from ...core.packs import genre_table
from ..files import FolderFiles
from .entry import Inventory, InventoryEntry

# a standard index's short name -> its entries' kind (a manual's own index: the words of its
# heading, the documentation pack's index_heading_kinds)
_CODES = {"fn": "function", "vr": "variable", "ky": "key", "pg": "program", "tp": "type", "cp": "index entry"}

# the class of an index table, Texinfo 6's "index-cp" or Texinfo 7's "cp-entries-printindex"
_INDEX_CLASS = re.compile(r"^index-(\w+)$|^(\w+)-entries-printindex$")


def _index_code(classes: str) -> str | None:
    """The short name of the index a table of these classes prints, None for another table."""
    for token in classes.split():
        found = _INDEX_CLASS.match(token)
        if found and (found.group(1) or found.group(2)) not in ("entries", "index"):
            return found.group(1) or found.group(2)
    return None


def _holds_index(files: FolderFiles, name: str) -> bool:
    if b"Texinfo" not in files.head(name, 4096):
        return False
    tables = re.findall(rb'<table class="([^"]*)"', files.read_bytes(name))
    return any(_index_code(t.decode("ascii", "replace")) for t in tables)


def texinfo_files(files: FolderFiles) -> list[str]:
    """The pages of the set a Texinfo manual's index nodes are on."""
    return sorted(name for name in files.named("*.htm*") if _holds_index(files, name))


def _kind(code: str, heading: str, kinds: dict[str, str]) -> str:
    if code.lower() in _CODES:
        return _CODES[code.lower()]
    words = heading.lower()
    found = [(words.find(word), kind) for word, kind in kinds.items()
             if word != "index" and re.search(rf"\b{re.escape(word)}s?\b", words)]
    return min(found)[1] if found else kinds["index"]


def texinfo_entries(files: FolderFiles, found: list[str]) -> list[InventoryEntry]:
    """Every entry of every index node of the set (module doc); an entry's page is the one its
    link names, relative to the set's root."""
    from lxml import html

    kinds = genre_table("documentation", "index_heading_kinds")
    out, seen = [], set()
    for here in found:
        tree = html.fromstring(files.read_bytes(here))
        for table in tree.xpath("//table[@class]"):
            code = _index_code(table.get("class"))
            if code is None:
                continue
            heading = " ".join(table.xpath("string(preceding::*[self::h1 or self::h2 or self::h3 or self::h4][1])").split())
            kind = _kind(code, heading, kinds)
            cells = table.xpath(".//td[contains(@class, 'printindex-index-entry')]") or table.xpath(".//tr/td[2]")
            for link in (found for cell in cells for found in cell.xpath(".//a[@href][1]")):
                name = " ".join(link.text_content().split())
                address, _, anchor = link.get("href").partition("#")
                page = posixpath.normpath(posixpath.join(posixpath.dirname(here), unquote(address))) if address else here
                if name and (name, page, anchor) not in seen:
                    seen.add((name, page, anchor))
                    out.append(InventoryEntry(name, kind, page, anchor))
    return out


INVENTORY = Inventory("texinfo", texinfo_files, texinfo_entries)
