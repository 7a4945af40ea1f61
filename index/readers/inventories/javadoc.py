"""A Javadoc build's search indexes: ``type-search-index.js`` (its classes, interfaces, enums)
and ``member-search-index.js`` (their methods, constructors and fields), each a JSON array
behind a JavaScript assignment. An entry names its package (``p``), its class (``c``), its
label (``l``: ``isBlank(CharSequence)``) and, where the label is not it, its anchor (``u``);
the page is the class's (``org/apache/commons/lang3/StringUtils.html``). Javadoc writes no
kind: a label with a parameter list is a method (a constructor where it is the class's own
name), else a field; a type is a class."""

from __future__ import annotations

import json
from urllib.parse import unquote

from ..files import FolderFiles
from .entry import Inventory, InventoryEntry

FILES = ("type-search-index.js", "member-search-index.js")
MARKERS = ("element-list", "package-list")
TOOL_DIRS = ("resources", "jquery", "script-dir")
# an entry, by its form (module doc), -> its kind
KINDS = {"type": "class", "method": "method", "constructor": "constructor", "field": "field"}


def javadoc_files(files: FolderFiles) -> list[str]:
    """The search indexes of a Javadoc build (none where it has no ``element-list`` or
    ``package-list`` beside them: another tool's ``*-search-index.js``)."""
    if not any(files.has(marker) for marker in MARKERS):
        return []
    return [name for name in FILES if files.has(name)]


def _items(files: FolderFiles, name: str) -> list[dict]:
    text = files.read_text(name)
    start, end = text.index("["), text.rindex("]")
    return [item for item in json.loads(text[start:end + 1]) if isinstance(item, dict)]


def _page(item: dict, owner: str) -> str:
    module = f"{item['m']}/" if item.get("m") else ""
    return f"{module}{item['p'].replace('.', '/')}/{owner}.html"


def javadoc_entries(files: FolderFiles, found: list[str]) -> list[InventoryEntry]:
    """Every type or member of the build's search indexes (module doc), named as its page
    shows it (``StringUtils.isBlank``, ``Processor.Arch``) with its qualified name and its
    label as aliases."""
    kinds = KINDS
    out = []
    for item in (item for name in found for item in _items(files, name)):
        label, package = item.get("l", ""), item.get("p", "")
        if not label or not package:  # "All Classes and Interfaces": a page of the tool's
            continue
        if "c" not in item:  # a type
            out.append(InventoryEntry(label, kinds["type"], _page(item, label), "", (f"{package}.{label}",)))
            continue
        owner = item["c"]
        member, paren, _ = label.partition("(")
        role = ("constructor" if member == owner.rpartition(".")[2] else "method") if paren else "field"
        name = f"{owner}.{member}"
        aliases = tuple(dict.fromkeys(a for a in (f"{package}.{name}", label) if a != name))
        out.append(InventoryEntry(name, kinds[role], _page(item, owner), unquote(item.get("u", label)), aliases))
    return out


INVENTORY = Inventory("javadoc", javadoc_files, javadoc_entries, markers=MARKERS, tool_dirs=TOOL_DIRS)
