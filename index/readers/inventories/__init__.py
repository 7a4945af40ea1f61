"""The authors' inventories: the machine-readable lists a documentation tool writes beside the
pages it built, taken as exact.

A Sphinx build's ``objects.inv`` (read with sphobjinv, the format's own library) and a gtk-doc
build's ``*.devhelp2`` name every object the pages document, its role and the page and anchor
that hold it. Each entry defines its name in the section that holds its anchor, whatever the
markup around it, typed by its role (placing.py); a doc set (readers/docset.py) reads them.
"""

from __future__ import annotations

from pathlib import Path

from .devhelp import devhelp_entries
from .entry import InventoryEntry
from .placing import placed_terms, with_terms
from .sphinx_inventory import sphinx_entries

__all__ = ["InventoryEntry", "has_inventory", "inventory_entries", "placed_terms", "with_terms"]


def _files(root: Path) -> list[tuple[Path, object]]:
    found = [(root / "objects.inv", sphinx_entries)] if (root / "objects.inv").is_file() else []
    return found + [(path, devhelp_entries) for path in sorted(root.glob("*.devhelp2"))]


def has_inventory(root: Path) -> bool:
    """Whether ``root`` holds an inventory a documentation tool wrote (objects.inv, *.devhelp2)."""
    return root.is_dir() and bool(_files(root))


def inventory_entries(root: Path, warnings: list[str]) -> dict[str, list[InventoryEntry]]:
    """Every inventory's entries by the page (relative POSIX path) that holds them; an
    inventory that cannot be read is one warning and left out."""
    out: dict[str, list[InventoryEntry]] = {}
    for path, reader in _files(root):
        try:
            entries = reader(path)
        except Exception as exc:  # a damaged inventory costs its entries, never the doc set
            warnings.append(f"'{path.name}' cannot be read as an inventory ({type(exc).__name__}): left out")
            continue
        for entry in entries:
            out.setdefault(entry.page, []).append(entry)
    return out
