"""A Sphinx build's ``objects.inv``, read with sphobjinv (the inventory format's own library,
which expands its ``$`` and ``-`` abbreviations). Its four header lines are plain text and its
body zlib: the body is inflated here, under the folder's decompression caps, and the library
reads the plain text."""

from __future__ import annotations

from ..doc_kinds import SPHINX_KINDS
from ..files import FolderFiles
from .entry import Inventory, InventoryEntry

FILE = "objects.inv"
_HEADER_LINES = 4
# the roles of an entry that is structure, not a thing documented: a page's title, a section's
# label, a function's parameter (part of its function's entry)
STRUCTURE_ROLES = frozenset({"std:doc", "std:label", "c:functionParam", "cpp:functionParam", "cpp:templateParam",
                             "js:param"})


def sphinx_files(files: FolderFiles) -> list[str]:
    return [FILE] if files.has(FILE) else []


def sphinx_entries(files: FolderFiles, found: list[str]) -> list[InventoryEntry]:
    """Every entry but structure (a page's title, a section's label, a function's parameter),
    typed by its role: a role Sphinx's own domains give by its kind (``py:classmethod``:
    method), a project's own role by its name (``std:confkey``: confkey)."""
    import sphobjinv

    data = files.read_bytes(found[0])
    parts = data.split(b"\n", _HEADER_LINES)
    if len(parts) <= _HEADER_LINES:
        raise ValueError(f"'{found[0]}' has no body")
    plain = b"\n".join(parts[:_HEADER_LINES]) + b"\n" + files.inflate(parts[_HEADER_LINES], found[0])
    out = []
    for obj in sphobjinv.Inventory(plaintext=plain).objects:
        role = f"{obj.domain}:{obj.role}"
        if role in STRUCTURE_ROLES:
            continue
        page, _, anchor = obj.uri_expanded.partition("#")
        display = obj.dispname_expanded
        aliases = (display,) if display and display != obj.name and len(display) <= 80 else ()
        out.append(InventoryEntry(obj.name, SPHINX_KINDS.get(obj.role, obj.role), page, anchor, aliases))
    return out


INVENTORY = Inventory("sphinx", sphinx_files, sphinx_entries, markers=(FILE, "searchindex.js"),
                      tool_dirs=("_static", "_sources", "_images", "_downloads"))
