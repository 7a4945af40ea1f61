"""A Javadoc build's member index, read where the build has no search indexes (Javadoc 8 and
older wrote none): ``index-all.html``, or ``index-files/index-N.html`` (``-splitindex``), a ``<dl>`` whose
terms each link a documented thing, a type (``StringUtils - Class in org.x``) or a member
(``isBlank(CharSequence) - Static method in class org.x.StringUtils``), to its page and anchor.

What an entry is comes from its link, not the index's words: a link to a package's summary is
a package (left out: its page is a list); a link to a page without an anchor is a type; one with
an anchor is a member of the type of that page, a method where its label has a parameter list
(a constructor where the method is named as its type), else a field. A member is named as its
page shows it, with its type (``StringUtils.isBlank``), the qualified name the index gives and
its label as aliases, as the search-index reader (javadoc.py) names it."""

from __future__ import annotations

import posixpath
import re
from urllib.parse import unquote

from ..files import FolderFiles
from .entry import Inventory, InventoryEntry
from .javadoc import KINDS, MARKERS, TOOL_DIRS, javadoc_files

INDEX_PAGES = ("index-all.html", "index-files/index-*.html")
_QUALIFIED = re.compile(r"([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)\s*$")


def javadoc_index_files(files: FolderFiles) -> list[str]:
    """The member index pages of a Javadoc build that has no search indexes."""
    if javadoc_files(files) or not any(files.has(marker) for marker in MARKERS):
        return []
    return [name for pattern in INDEX_PAGES for name in files.matching(pattern)]


def _said(term) -> str:
    """The index's words after the link: "Static method in class org.x.StringUtils"."""
    text = " ".join(term.text_content().split())
    return text.partition(" - ")[2]


def _entry(term, here: str, kinds: dict[str, str]) -> InventoryEntry | None:
    link = next(iter(term.xpath(".//a[@href]")), None)
    if link is None:
        return None
    address, _, anchor = link.get("href").partition("#")
    if not address or address.endswith("package-summary.html") or "://" in address:
        return None
    page = posixpath.normpath(posixpath.join(posixpath.dirname(here), unquote(address)))
    label = " ".join(link.text_content().split())
    owner = posixpath.basename(page).removesuffix(".html")
    qualified = _QUALIFIED.search(_said(term))
    if not anchor:  # a type: its qualified name is its package's and its own
        package = qualified.group(1) if qualified else ""
        return InventoryEntry(label, kinds["type"], page, "", (f"{package}.{label}",) if package else ())
    member, paren, _ = label.partition("(")
    role = ("constructor" if member == owner.rpartition(".")[2] else "method") if paren else "field"
    name = f"{owner}.{member}"
    full = f"{qualified.group(1)}.{member}" if qualified else ""
    aliases = tuple(dict.fromkeys(a for a in (full, label) if a and a != name))
    return InventoryEntry(name, kinds[role], page, unquote(anchor), aliases)


def javadoc_index_entries(files: FolderFiles, found: list[str]) -> list[InventoryEntry]:
    """Every type and member of the build's member index pages (module doc)."""
    from lxml import html

    kinds = KINDS
    out, seen = [], set()
    for here in found:
        for term in html.fromstring(files.read_bytes(here)).xpath("//dl//dt"):
            entry = _entry(term, here, kinds)
            if entry is not None and (entry.name, entry.page, entry.anchor) not in seen:
                seen.add((entry.name, entry.page, entry.anchor))
                out.append(entry)
    return out


INVENTORY = Inventory("javadoc", javadoc_index_files, javadoc_index_entries, markers=MARKERS, tool_dirs=TOOL_DIRS)
