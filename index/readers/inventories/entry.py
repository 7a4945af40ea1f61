"""One entry of an authors' inventory. Pure."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class InventoryEntry:
    name: str                    # as the tool names it ("json.dump", "g_main_loop_new", "tally")
    kind: str                    # the kind its role gives ("function", "method", "confkey"...)
    page: str                    # the page that holds it, relative to the set ("library/json.html")
    anchor: str = ""             # its anchor on that page ("json.dump"), "" for the page itself
    aliases: tuple[str, ...] = ()
