"""A Doxygen build's inventories: its tag file (``GENERATE_TAGFILE``: an XML list of every
compound and member with the page and anchor that document it), read where the build has
one, else its index pages (``annotated.html``: the classes; ``functions*.html``,
``globals*.html``, ``namespacemembers*.html``: the members, each ``name : <a href=page#anchor>
owner</a>``), found anywhere below the set's root (a build is often its folder's ``html/``).

A member is named with its scope as the text shows it (``std::vector::push_back``,
``Autolink_Test::member``), typed by its kind (a function in a class is a method); a page,
group, directory or example is structure, not a thing documented."""

from __future__ import annotations

import re
from pathlib import Path

from ...core.packs import genre_list, genre_table
from .entry import InventoryEntry

_LISTINGS = genre_list("documentation", "doxygen_index_pages")
_INDEX_PAGE = re.compile(rf"({'|'.join(_LISTINGS)})(?:_([a-z]+))?(?:_[a-z0-9~]+)?\.html")
_NAME = re.compile(r"^\s*(.+?)\s*(?:\(\))?\s*:\s*$")


def _is_tag_file(path: Path) -> bool:
    with path.open("rb") as handle:
        return b"<tagfile" in handle.read(512)


def doxygen_files(root: Path) -> list[Path]:
    """A tag file at the root, else the index pages of every build below it."""
    tags = [p for p in sorted(root.glob("*.tag")) if _is_tag_file(p)]
    if tags:
        return tags
    return sorted(p for p in root.rglob("*.html") if _INDEX_PAGE.fullmatch(p.name) and _doxygen_page(p))


def _doxygen_page(path: Path) -> bool:
    with path.open("rb") as handle:
        return b"Doxygen" in handle.read(2048)


def doxygen_entries(root: Path) -> list[InventoryEntry]:
    """Every entry of the build's tag file or index pages (module doc), pages relative to
    ``root``; a member the typed index pages list (``functions_func.html``) is not listed again
    by the page of all members."""
    out, seen = [], set()
    files = doxygen_files(root)
    # the typed pages first (functions_func.html before functions.html): they give the kind
    for path in sorted(files, key=lambda p: _INDEX_PAGE.fullmatch(p.name) is None or not _typed(p)):
        for entry in (_tag_entries if path.suffix == ".tag" else _index_page_entries)(path, root):
            if (entry.name, entry.page, entry.anchor) not in seen:
                seen.add((entry.name, entry.page, entry.anchor))
                out.append(entry)
    return out


def _typed(path: Path) -> bool:
    part = _INDEX_PAGE.fullmatch(path.name).group(2)
    return part is not None and part in genre_table("documentation", "doxygen_kinds")


def _page(base: Path, root: Path, filename: str) -> str:
    filename = filename if filename.endswith(".html") else f"{filename}.html"
    return (base / filename).relative_to(root).as_posix()


def _tag_entries(path: Path, root: Path) -> list[InventoryEntry]:
    from lxml import etree

    kinds = genre_table("documentation", "doxygen_kinds")
    in_scope = genre_table("documentation", "doxygen_member_kinds")
    scopes = set(genre_list("documentation", "doxygen_scopes"))
    structure = set(genre_list("documentation", "doxygen_structure_kinds"))
    out, seen = [], set()
    for compound in etree.parse(str(path)).getroot().iterfind("compound"):
        kind = compound.get("kind", "")
        name, filename = compound.findtext("name", ""), compound.findtext("filename", "")
        if kind in structure or not name:
            continue
        if filename:
            out.append(InventoryEntry(name, kinds.get(kind, kind), _page(path.parent, root, filename)))
        scope = f"{name}::" if kind in scopes or kind == "namespace" else ""
        for member in compound.iterfind("member"):
            role = member.get("kind", "")
            own, page, anchor = member.findtext("name", ""), member.findtext("anchorfile", ""), member.findtext("anchor", "")
            key = (scope + own, page, anchor)
            if not own or not page or key in seen:
                continue
            seen.add(key)
            typed = in_scope.get(role) if kind in scopes else None
            out.append(InventoryEntry(scope + own, typed or kinds.get(role, role), _page(path.parent, root, page),
                                      anchor, (own,) if scope else ()))
    return out


def _index_page_entries(path: Path, root: Path) -> list[InventoryEntry]:
    from lxml import html

    kinds = genre_table("documentation", "doxygen_kinds")
    listing, part = _INDEX_PAGE.fullmatch(path.name).groups()
    tree = html.fromstring(path.read_bytes())
    out = []
    if listing == _LISTINGS[0]:  # the classes
        for link in tree.xpath('//td[contains(@class, "entry")]//a[@class="el"][@href]'):
            page, _, anchor = link.get("href").partition("#")
            out.append(InventoryEntry(link.text_content().strip(), kinds["class"], _page(path.parent, root, page), anchor))
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
            out.append(InventoryEntry(name, kind, _page(path.parent, root, page), anchor, (own,) if scoped else ()))
    return out
