"""A Sphinx build's ``objects.inv``, read with sphobjinv (the inventory format's own library,
which decodes its zlib body and expands its ``$`` and ``-`` abbreviations)."""

from __future__ import annotations

from pathlib import Path

from ...core.packs import genre_words
from ..doc_kinds import SPHINX_KINDS
from .entry import InventoryEntry


def sphinx_entries(path: Path) -> list[InventoryEntry]:
    """Every entry but structure (a page's title, a section's label, a function's parameter),
    typed by its role: a role Sphinx's own domains give by its kind (``py:classmethod``:
    method), a project's own role by its name (``std:confkey``: confkey)."""
    import sphobjinv

    structure = genre_words("documentation", "inventory_structure_roles")
    out = []
    for obj in sphobjinv.Inventory(str(path)).objects:
        role = f"{obj.domain}:{obj.role}"
        if role in structure:
            continue
        page, _, anchor = obj.uri_expanded.partition("#")
        display = obj.dispname_expanded
        aliases = (display,) if display and display != obj.name and len(display) <= 80 else ()
        out.append(InventoryEntry(obj.name, SPHINX_KINDS.get(obj.role, obj.role), page, anchor, aliases))
    return out
