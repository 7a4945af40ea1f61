"""A gtk-doc (DocBook) build's ``*.devhelp2``: its keywords, each a name, a type and a link."""

from __future__ import annotations

import re

from ..doc_kinds import SPHINX_KINDS
from ..files import FolderFiles
from .entry import Inventory, InventoryEntry
from .xml import parse_xml

# a keyword's name carries its kind: "g_main_loop_new ()", "struct GList", "enum GIOCondition"
_DECORATION = re.compile(r"^(?:struct|union|enum|typedef)\s+|\s*\(\)$")
# a property's or signal's keyword: "The “label” property" (its anchor: "GtkButton--label")
_QUOTED = re.compile(r"^The “(.+)” (?:child |style )?(?:property|signal)$")


def devhelp_files(files: FolderFiles) -> list[str]:
    return files.at_root("*.devhelp2")


def devhelp_entries(files: FolderFiles, found: list[str]) -> list[InventoryEntry]:
    """Every keyword of every devhelp file, in order (``devhelp_keywords``)."""
    return [entry for name in found for entry in devhelp_keywords(files.read_bytes(name))]


def devhelp_keywords(data: bytes) -> list[InventoryEntry]:
    """Every keyword, typed by its ``type`` (a struct is a type, a member an attribute); a
    property or signal is named as its heading quotes it, with ``Owner:name`` (a signal
    ``Owner::name``) as an alias."""
    out = []
    for element in parse_xml(data).iter("{*}keyword"):
        name, link, kind = element.get("name", ""), element.get("link", ""), element.get("type", "other")
        page, _, anchor = link.partition("#")
        quoted = _QUOTED.match(name)
        aliases: tuple[str, ...] = ()
        if quoted:
            name = quoted.group(1)
            owner = anchor.split("-", 1)[0]
            aliases = (f"{owner}{'::' if kind == 'signal' else ':'}{name}",) if owner else ()
        else:
            name = _DECORATION.sub("", name).strip()
        if kind == "member":  # a C struct's field, which the keyword writes as its anchor ("tv-sec": tv_sec)
            owner, dot, field = name.rpartition(".")
            name = owner + dot + field.replace("-", "_")
        if name and page:
            out.append(InventoryEntry(name, SPHINX_KINDS.get(kind, kind), page, anchor, aliases))
    return out


INVENTORY = Inventory("gtk-doc", devhelp_files, devhelp_entries)
