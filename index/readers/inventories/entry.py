"""One entry of an authors' inventory, and what an inventory is. Pure."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..files import FolderFiles


@dataclass(frozen=True)
class InventoryEntry:
    name: str                    # as the tool names it ("json.dump", "g_main_loop_new", "tally")
    kind: str                    # the kind its role gives ("function", "method", "confkey"...)
    page: str                    # the page that holds it, relative to the set ("library/json.html")
    anchor: str = ""             # its anchor on that page ("json.dump"), "" for the page itself
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Inventory:
    """One documentation tool's inventory, described by its module (one registry line in
    ``inventories.INVENTORY_MODULES``): the files of it a doc set holds (``find``: relative
    paths, none when the set has no such inventory), the entries they give (``entries``), the
    files that mark a build of the tool even without its inventory (``markers``) and the
    tool's own folders, which hold no pages of the documentation (``tool_dirs``). Every file
    comes from the set's ``FolderFiles``: an inventory opens nothing of its own."""

    tool: str
    find: Callable[[FolderFiles], list[str]]
    entries: Callable[[FolderFiles, list[str]], list[InventoryEntry]]
    markers: tuple[str, ...] = ()
    tool_dirs: tuple[str, ...] = ()
