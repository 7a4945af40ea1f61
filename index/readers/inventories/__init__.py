"""The authors' inventories: the machine-readable lists a documentation tool writes beside the
pages it built, taken as exact.

A Sphinx build's ``objects.inv`` (read with sphobjinv, the format's own library), a gtk-doc
build's ``*.devhelp2``, rustdoc's ``search-index.js``, RDoc's ``js/search_index.js``, a Javadoc
build's search indexes (else its member index), a Doxygen build's tag file or index pages and a Texinfo manual's index
nodes name every object the pages document, its role and the page and anchor that hold it;
mdBook's and MkDocs' search indexes list headings, of which those that name a thing count
(heading_names.py). Each entry defines its name in the section that holds its anchor, whatever
the markup around it, typed by its role (placing.py); a doc set (readers/docset.py) reads them.
"""

from __future__ import annotations

from pathlib import Path

from ...core.packs import genre_table
from .devhelp import devhelp_entries
from .doxygen import doxygen_entries, doxygen_files
from .entry import InventoryEntry
from .javadoc import javadoc_entries, javadoc_files
from .javadoc_index import javadoc_index_entries, javadoc_index_files
from .mdbook import mdbook_entries
from .mkdocs import mkdocs_entries
from .placing import placed_terms, with_terms
from .rdoc import rdoc_entries
from .rustdoc import rustdoc_entries
from .sphinx_inventory import sphinx_entries
from .texinfo import texinfo_entries, texinfo_files

# a tool's inventory files (documentation.toml's inventory_files: file -> tool) -> its reader
_READERS = {"rustdoc": rustdoc_entries, "mdbook": mdbook_entries, "rdoc": rdoc_entries, "mkdocs": mkdocs_entries}

__all__ = ["InventoryEntry", "has_inventory", "inventory_entries", "placed_terms", "with_terms"]

# a tool whose inventory is read whole from the set's root: (the files of it there, its entries)
WHOLE_SET_READERS = (
    (javadoc_files, javadoc_entries),
    (javadoc_index_files, javadoc_index_entries),
    (doxygen_files, doxygen_entries),
    (texinfo_files, texinfo_entries),
)


def _files(root: Path) -> list[tuple[Path, object]]:
    found = [(root / "objects.inv", sphinx_entries)] if (root / "objects.inv").is_file() else []
    found += [(path, devhelp_entries) for path in sorted(root.glob("*.devhelp2"))]
    return found + _tool_files(root)


def _tool_files(root: Path) -> list[tuple[Path, object]]:
    """The first inventory file of each tool of ``_READERS`` that ``root`` holds."""
    out, tools = [], set()
    for pattern, tool in genre_table("documentation", "inventory_files").items():
        path = next(iter(sorted(root.glob(pattern))), None)
        if path is not None and path.is_file() and tool in _READERS and tool not in tools:
            tools.add(tool)
            out.append((path, _READERS[tool]))
    return out


def has_inventory(root: Path) -> bool:
    """Whether ``root`` holds an inventory a documentation tool wrote (objects.inv, *.devhelp2,
    a search index of documentation.toml's inventory_files, a Javadoc, Doxygen or Texinfo index)."""
    return root.is_dir() and (bool(_files(root)) or any(files(root) for files, _ in WHOLE_SET_READERS))


def inventory_entries(root: Path, warnings: list[str]) -> dict[str, list[InventoryEntry]]:
    """Every inventory's entries by the page (relative POSIX path) that holds them; an
    inventory that cannot be read is one warning and left out."""
    out: dict[str, list[InventoryEntry]] = {}
    readers = [(path.name, lambda path=path, reader=reader: reader(path)) for path, reader in _files(root)]
    readers += [(found[0].name, lambda reader=reader: reader(root)) for files, reader in WHOLE_SET_READERS
                if (found := files(root))]
    for name, read in readers:
        try:
            entries = read()
        except Exception as exc:  # a damaged inventory costs its entries, never the doc set
            warnings.append(f"'{name}' cannot be read as an inventory ({type(exc).__name__}): left out")
            continue
        for entry in entries:
            out.setdefault(entry.page, []).append(entry)
    return out
