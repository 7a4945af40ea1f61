"""An inventory's entries placed on the sections of their page. Pure.

An entry defines its name in the section that holds its anchor (an entry without one: the
page's first titled section), whatever the markup around it. The name is the one the text
shows: the inventory's (``json.dump``), else its longest tail the text shows (``Basket.tally``
or ``tally`` of ``basket.Basket.tally``) with the inventory's as an alias; an entry whose name the
section does not show is looked for in the page's other sections, and left out where none
shows it (nothing is stored that the text does not bear out).
"""

from __future__ import annotations

import re

from ...core.models import DocTerm, Section
from .entry import InventoryEntry

_PARTS = re.compile(r"\.|::|->|:")


def _shows(text: str, name: str) -> bool:
    return re.search(r"(?<![\w.])" + re.escape(name) + r"(?!\w)", text) is not None


def _suffixes(name: str) -> list[str]:
    """``Basket.tally`` and ``tally`` of ``basket.Basket.tally``: its qualified name's tails."""
    cuts = [m.end() for m in _PARTS.finditer(name)]
    return [name[cut:] for cut in cuts]


def _shown(text: str, entry: InventoryEntry) -> DocTerm | None:
    target = f"{entry.page}#{entry.anchor}" if entry.anchor else entry.page
    for name in (entry.name, *entry.aliases, *_suffixes(entry.name)):
        if name and len(name) > 1 and _shows(text, name):
            aliases = tuple(a for a in (entry.name, *entry.aliases) if a != name)
            return DocTerm(name, entry.kind, aliases=aliases, target=target)
    return None


def placed_terms(entries: list[InventoryEntry], sections: list[Section],
                 anchors: dict[str, int]) -> dict[int, list[DocTerm]]:
    """Section index -> the terms of ``entries`` (one page's) that section defines."""
    first = next((i for i, s in enumerate(sections) if s.heading is not None), 0)
    out: dict[int, list[DocTerm]] = {}
    for entry in entries:
        where = anchors.get(entry.anchor) if entry.anchor else first
        # its anchor's section, else a neighbour (an empty anchor is filed under the heading
        # that follows it, which for one set in a table cell is the next section's); an
        # anchor the page does not hold: the page's sections in order
        order = [where, where - 1, where + 1] if where is not None else range(len(sections))
        order = [i for i in order if 0 <= i < len(sections)]
        for i in order:
            term = _shown(sections[i].text, entry)
            if term is not None:
                out.setdefault(i, []).append(term)
                break
    return out
