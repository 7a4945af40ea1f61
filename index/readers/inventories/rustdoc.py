"""A rustdoc build's ``search-index.js``: every item of every crate, its kind and the page
(and anchor) rustdoc writes it on.

The index is rustdoc's compact, versioned JSON, quoted in a JavaScript string: per crate,
item types ``t`` (numbers, or one letter each from 1.69), names ``n``, module paths ``q``
(an empty one repeats the last; from 1.69 sparse ``[position, path]`` pairs), parents ``i``
(1-based into ``p``, the ``[type, name]`` of each parent). An item's page follows rustdoc's
own rule: a module's ``path/name/index.html``, an item's ``path/type.name.html``, a member's
its parent's page at ``#type.name``. No Python library reads the format; it is decoded here.
"""

from __future__ import annotations

import json
import re

from ..files import FolderFiles
from .entry import Inventory, InventoryEntry

# rustdoc's item types in the order its search index numbers them ("t"), each the prefix of
# its page or anchor ("struct.Ident.html", "#method.new")
_TYPES = ("mod", "externcrate", "import", "struct", "enum", "fn", "type", "static", "trait", "impl", "tymethod",
          "method", "structfield", "variant", "macro", "primitive", "associatedtype", "constant",
          "associatedconstant", "union", "foreigntype", "keyword", "opaque", "attr", "derive", "traitalias")
# an item type -> the kind of its entry; a type listed but documented on no page of its own
# (an import, an impl) is left out
_KINDS = {"mod": "module", "struct": "struct", "enum": "enum", "fn": "function", "type": "type", "static": "static",
          "trait": "trait", "tymethod": "method", "method": "method", "structfield": "field", "variant": "variant",
          "macro": "macro", "primitive": "primitive", "associatedtype": "type", "constant": "constant",
          "associatedconstant": "constant", "union": "union", "foreigntype": "type", "keyword": "keyword",
          "attr": "macro", "derive": "macro", "traitalias": "trait"}
_OPEN = "JSON.parse('"
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)


def _crates(text: str) -> dict:
    """crate -> its index, from the JavaScript around the JSON (``JSON.parse('...')``, a
    ``new Map(...)`` of pairs, or an object literal of older versions). The literal is found
    with ``find`` in one pass over the text: it ends at its first quote no backslash escapes."""
    start = text.find(_OPEN)
    end = _literal_end(text, start + len(_OPEN)) if start >= 0 else -1
    if end >= 0:
        literal = text[start + len(_OPEN):end]
        data = json.loads(_ESCAPE.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), literal))
    else:
        data = json.loads(text[text.index("{"):text.rindex("}") + 1])
    return dict(data) if isinstance(data, list) else data


def _literal_end(text: str, at: int) -> int:
    """Where the single-quoted literal that starts at ``at`` ends (its closing quote), -1 for none."""
    while (quote := text.find("'", at)) >= 0:
        escapes = 0
        while quote - escapes - 1 >= at and text[quote - escapes - 1] == "\\":
            escapes += 1
        if escapes % 2 == 0:
            return quote
        at = quote + 1
    return -1


def _column(values, count: int) -> list:
    """A per-item column written whole, as one letter per item, or sparse as pairs."""
    if isinstance(values, str):
        return [ord(c) - ord("A") for c in values]
    if values and isinstance(values[0], list):  # [position, value] pairs; an unlisted position repeats
        out, last, given = [], "", dict((int(i), v) for i, v in values)
        for i in range(count):
            last = given.get(i, last)
            out.append(last)
        return out
    return list(values)


def _type(number: int) -> str:
    return _TYPES[number] if 0 <= number < len(_TYPES) else ""


def _crate_entries(crate: str, index: dict) -> list[InventoryEntry]:
    names = index.get("n", [])
    types = _column(index.get("t", []), len(names))
    paths = _column(index.get("q", []), len(names))
    parents = index.get("p", [])
    owners = index.get("i", [0] * len(names))
    out, path = [], crate
    for i, name in enumerate(names):
        path = (paths[i] if i < len(paths) else "") or path
        kind_of = _type(types[i]) if i < len(types) else ""
        if kind_of not in _KINDS or not name or name.isdigit():  # a tuple's field "0" is no name
            continue
        folder = path.replace("::", "/")
        owner = owners[i] if i < len(owners) else 0
        if owner and owner <= len(parents):
            parent_type, parent = _type(parents[owner - 1][0]), parents[owner - 1][1]
            page, anchor = f"{folder}/{parent_type}.{parent}.html", f"{kind_of}.{name}"
            if parent_type == "variant":  # a variant's field: on its enum's page (the path ends in the enum)
                enum_folder, _, enum = folder.rpartition("/")
                page, anchor = f"{enum_folder}/enum.{enum}.html", f"variant.{parent}.field.{name}"
            entry = InventoryEntry(f"{path}::{parent}::{name}", _KINDS[kind_of], page, anchor)
        elif kind_of == "mod":
            entry = InventoryEntry(f"{path}::{name}", _KINDS[kind_of], f"{folder}/{name}/index.html")
        else:
            entry = InventoryEntry(f"{path}::{name}", _KINDS[kind_of], f"{folder}/{kind_of}.{name}.html")
        out.append(entry)
    return out


def rustdoc_files(files: FolderFiles) -> list[str]:
    """The search index at the set's root (``search-index.js``, or a versioned ``search-index1.69.0.js``)."""
    return (["search-index.js"] if files.has("search-index.js") else files.at_root("search-index*.js"))[:1]


def rustdoc_entries(files: FolderFiles, found: list[str]) -> list[InventoryEntry]:
    """Every documented item of every crate the index holds (``index_entries``)."""
    return index_entries(files.read_text(found[0]))


def index_entries(text: str) -> list[InventoryEntry]:
    """Every documented item of every crate of a search index's text, named by its path
    (``syn::Ident``, ``proc_macro2::Span::call_site``), typed by its item type."""
    out = []
    for crate, index in _crates(text).items():
        if isinstance(index, dict):
            out.extend(_crate_entries(crate, index))
    return out


INVENTORY = Inventory("rustdoc", rustdoc_files, rustdoc_entries, markers=("search-index.js", "crates.js"),
                      tool_dirs=("static.files", "src"))
