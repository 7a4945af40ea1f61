"""The authors' inventories: the machine-readable lists a documentation tool writes beside the
pages it built, taken as exact.

A Sphinx build's ``objects.inv`` (read with sphobjinv, the format's own library), a gtk-doc
build's ``*.devhelp2``, rustdoc's ``search-index.js``, RDoc's ``js/search_index.js``, a Javadoc
build's search indexes (else its member index), a Doxygen build's tag file or index pages and a
Texinfo manual's index nodes name every object the pages document, its role and the page and
anchor that hold it; mdBook's and MkDocs' search indexes list headings, of which those that
name a thing count (heading_names.py). Each entry defines its name in the section that holds
its anchor, whatever the markup around it, typed by its role (placing.py); a doc set
(readers/docset) reads them.

**The registry.** Each tool is one module that describes itself in an ``Inventory`` (its
files, its entries, the files that mark its builds, its own folders: entry.py), listed once in
``INVENTORY_MODULES``, in the order their entries are placed. A new tool's inventory is one
module and one line here; its file names and facts live in its module, a pack holds only
words. Every file comes from the set's ``FolderFiles`` (readers/files.py), never opened by an
inventory itself.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module

from ...core.rule_guard import guarded
from ..files import FolderFiles
from .entry import Inventory, InventoryEntry
from .placing import placed_terms, with_terms

__all__ = ["INVENTORY_MODULES", "Inventory", "InventoryEntry", "has_inventory", "inventories", "inventory_entries",
           "placed_terms", "tool_dirs", "tool_markers", "with_terms"]

# one line per tool: the module (in this package) whose ``INVENTORY`` describes it
INVENTORY_MODULES = (
    "sphinx_inventory",
    "devhelp",
    "rustdoc",
    "mdbook",
    "rdoc",
    "mkdocs",
    "javadoc",
    "javadoc_index",
    "doxygen",
    "texinfo",
)
# an inventory holds at most this many entries; past it, it is left out with one line
MAX_ENTRIES = 400_000


def _input_errors() -> tuple[type[BaseException], ...]:
    """What a damaged or oversized inventory file raises: bad text, JSON, zlib or XML (lxml's
    errors are SyntaxErrors), a cap, the objects.inv library's own."""
    import zlib

    from sphobjinv.error import SphobjinvError

    return ValueError, OSError, zlib.error, SyntaxError, SphobjinvError


@cache
def inventories() -> tuple[Inventory, ...]:
    """Every registered inventory, in ``INVENTORY_MODULES``' order (imported when first asked)."""
    return tuple(import_module(f"{__name__}.{name}").INVENTORY for name in INVENTORY_MODULES)


def tool_markers() -> frozenset[str]:
    """The files (at a set's root) that mark a documentation tool's build."""
    return frozenset(marker for inventory in inventories() for marker in inventory.markers)


def tool_dirs() -> frozenset[str]:
    """The tools' own folders: they hold no pages of the documentation."""
    return frozenset(folder for inventory in inventories() for folder in inventory.tool_dirs)


def has_inventory(files: FolderFiles) -> bool:
    """Whether the set holds an inventory a documentation tool wrote."""
    return any(inventory.find(files) for inventory in inventories())


def inventory_entries(files: FolderFiles, warnings: list[str]) -> dict[str, list[InventoryEntry]]:
    """Every inventory's entries by the page (relative POSIX path) that holds them; an
    inventory that cannot be read, or holds more than ``MAX_ENTRIES``, is one warning and
    left out (a damaged one costs its entries, never the doc set)."""
    out: dict[str, list[InventoryEntry]] = {}
    for inventory in inventories():
        found = inventory.find(files)
        if not found:
            continue
        entries: list[InventoryEntry] = []
        with guarded(files.root.name, found[0], warnings=warnings):  # a reader's bug: raised in strict mode
            try:
                entries = inventory.entries(files, found)
            except _input_errors() as exc:  # a damaged file, or one past a cap: input, not a bug
                warnings.append(f"'{found[0]}' cannot be read as an inventory ({type(exc).__name__}): left out")
                continue
        if len(entries) > MAX_ENTRIES:
            warnings.append(f"'{found[0]}' lists {len(entries):,} entries, over the {MAX_ENTRIES:,} an inventory "
                            "may hold: left out")
            continue
        for entry in entries:
            out.setdefault(entry.page, []).append(entry)
    return out
