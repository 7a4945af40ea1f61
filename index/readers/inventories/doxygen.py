"""A Doxygen build's inventories: its tag file (``GENERATE_TAGFILE``: an XML list of every
compound and member with the page and anchor that document it), read where the build has
one, else its index pages (``annotated.html``: the classes; ``functions*.html``,
``globals*.html``, ``namespacemembers*.html``: the members, each ``name : <a href=page#anchor>
owner</a>``), found anywhere below the set's root (a build is often its folder's ``html/``).

A member is named with its scope as the text shows it (``std::vector::push_back``,
``Autolink_Test::member``), typed by its kind (a function in a class is a method); a page,
group, directory or example is structure, not a thing documented."""

from __future__ import annotations

import posixpath
import re

from ..files import FolderFiles
from .entry import Inventory, InventoryEntry
from .xml import parse_xml

_LISTINGS = ("annotated", "functions", "globals", "namespacemembers")
_INDEX_PAGE = re.compile(rf"({'|'.join(_LISTINGS)})(?:_([a-z]+))?(?:_[a-z0-9~]+)?\.html")
_NAME = re.compile(r"^\s*(.+?)\s*(?:\(\))?\s*:\s*$")
# a tag file's compound or member kind, or an index page's part (functions_func.html: func), -> its kind
KINDS = {"class": "class", "struct": "class", "union": "type", "interface": "class", "protocol": "class",
         "namespace": "namespace", "concept": "concept", "file": "file", "function": "function",
         "variable": "variable", "typedef": "type", "enumeration": "type", "enumvalue": "data", "define": "macro",
         "friend": "function", "signal": "signal", "slot": "method", "property": "attribute", "event": "event",
         "func": "function", "vars": "variable", "type": "type", "enum": "type", "eval": "data", "defs": "macro",
         "rela": "function", "prop": "attribute", "evnt": "event", "member": "member"}
# a member's kind inside a class, struct or union -> its kind there
_IN_SCOPE = {"function": "method", "variable": "field", "slot": "method"}
# the compounds that are scopes of their members (``std::vector::push_back``), and those that
# are structure, not a thing documented
_SCOPES = {"class", "struct", "union", "interface", "protocol"}
_STRUCTURE = {"page", "group", "dir", "example"}


def doxygen_files(files: FolderFiles) -> list[str]:
    """A tag file at the root, else the index pages of every build below it."""
    tags = [name for name in files.at_root("*.tag") if b"<tagfile" in files.head(name, 512)]
    if tags:
        return tags
    return sorted(name for name in files.named("*.html")
                  if _INDEX_PAGE.fullmatch(posixpath.basename(name)) and b"Doxygen" in files.head(name, 2048))


def doxygen_entries(files: FolderFiles, found: list[str]) -> list[InventoryEntry]:
    """Every entry of the build's tag file or index pages (module doc), pages relative to the
    set's root; a member the typed index pages list (``functions_func.html``) is not listed
    again by the page of all members."""
    out, seen = [], set()
    # the typed pages first (functions_func.html before functions.html): they give the kind
    for name in sorted(found, key=lambda n: _INDEX_PAGE.fullmatch(posixpath.basename(n)) is None or not _typed(n)):
        for entry in (_tag_entries if name.endswith(".tag") else _index_page_entries)(files, name):
            if (entry.name, entry.page, entry.anchor) not in seen:
                seen.add((entry.name, entry.page, entry.anchor))
                out.append(entry)
    return out


def _typed(name: str) -> bool:
    part = _INDEX_PAGE.fullmatch(posixpath.basename(name)).group(2)
    return part is not None and part in KINDS


def _page(at: str, filename: str) -> str:
    """A page a file at ``at`` names, relative to the set's root."""
    filename = filename if filename.endswith(".html") else f"{filename}.html"
    return posixpath.normpath(posixpath.join(posixpath.dirname(at), filename))


def _tag_entries(files: FolderFiles, at: str) -> list[InventoryEntry]:
    kinds, in_scope, scopes, structure = KINDS, _IN_SCOPE, _SCOPES, _STRUCTURE
    out, seen = [], set()
    for compound in parse_xml(files.read_bytes(at)).iterfind("compound"):
        kind = compound.get("kind", "")
        name, filename = compound.findtext("name", ""), compound.findtext("filename", "")
        if kind in structure or not name:
            continue
        if filename:
            out.append(InventoryEntry(name, kinds.get(kind, kind), _page(at, filename)))
        scope = f"{name}::" if kind in scopes or kind == "namespace" else ""
        for member in compound.iterfind("member"):
            role = member.get("kind", "")
            own, page, anchor = member.findtext("name", ""), member.findtext("anchorfile", ""), member.findtext("anchor", "")
            key = (scope + own, page, anchor)
            if not own or not page or key in seen:
                continue
            seen.add(key)
            typed = in_scope.get(role) if kind in scopes else None
            out.append(InventoryEntry(scope + own, typed or kinds.get(role, role), _page(at, page),
                                      anchor, (own,) if scope else ()))
    return out


def _index_page_entries(files: FolderFiles, at: str) -> list[InventoryEntry]:
    from lxml import html

    kinds = KINDS
    listing, part = _INDEX_PAGE.fullmatch(posixpath.basename(at)).groups()
    tree = html.fromstring(files.read_bytes(at))
    out = []
    if listing == _LISTINGS[0]:  # the classes
        for link in tree.xpath('//td[contains(@class, "entry")]//a[@class="el"][@href]'):
            page, _, anchor = link.get("href").partition("#")
            out.append(InventoryEntry(link.text_content().strip(), kinds["class"], _page(at, page), anchor))
        return out
    kind = kinds.get(part or "", kinds["member"])
    for item in tree.xpath('//div[@class="contents"]//li'):
        found = _NAME.match(item.text or "")
        if not found:
            continue
        own = found.group(1)
        for link in item.xpath('a[@class="el"][@href]'):
            page, _, anchor = link.get("href").partition("#")
            owner = link.text_content().strip()
            # a global's owner is the file that declares it, no scope
            scoped = listing != _LISTINGS[2] and owner and not re.search(r"\.\w+$", owner)
            name = f"{owner}::{own}" if scoped else own
            out.append(InventoryEntry(name, kind, _page(at, page), anchor, (own,) if scoped else ()))
    return out


INVENTORY = Inventory("doxygen", doxygen_files, doxygen_entries)
