"""An HTML index: rows of entries, each linking the anchors where it is documented. Pure.

Generators write a back index as rows (a table's, a list's, a definition list's): each row an
entry and its links to the anchors that document it (``adjust | Data.Set, Data.Map``; a
linked entry and its section, ``BASH_VERSION: | Bash Variables``; a term and the page it is on, ``--verbose,
<a href="git-add.html#id12">git-add</a>``). An index is placed as a printed index is
(readers/docset/index_page.py): each entry in the section that holds its anchor.

**An index, or a contents list.** Both are rows of links. A block of rows is an index when
``MIN_ENTRIES`` or more of them (and ``SHARE`` of its rows) link an entry to an anchor, its
entries are distinct and its rows hold no anchors of their own (rows that do document what
they list: a reference), and
it is ordered for a reader who looks a name up: sorted (case, punctuation and a letter's
heading aside), grouped under single letters, or given a section column (a second link,
where the entry is). A contents list keeps the order of the document, or nests its items
under their parents: it is the set's navigation, and defines nothing (readers/docset/: its
links are references). A block whose same-page targets follow the page's order is a
contents list even when sorted.
"""

from __future__ import annotations

import re
from html import unescape

from ..html_markdown import HEADINGS, tag_of
from .terms import MAX_TERM, text_of

MIN_ENTRIES = 5
SHARE = 0.6
SORTED = 0.85           # the share of neighbouring entries in order for a block to be sorted
DISTINCT = 0.7          # an index names each entry once (or a few times, "1 (Function)")
_TRAILING = re.compile(r"[\s,;:.\u2014\u2013-]+$")
_CONTINUED = re.compile(r"^\d+\s*(?:\([^()]*\))?$")  # "1 (Function)": the entry above, again
_LETTER = re.compile(r"^\W*[^\W\d_]\W*$")
_BLOCKS = ("table", "ul", "ol", "dl")

Entry = tuple[str, list[str]]


def _anchor_links(element) -> list:
    """The links of an element to a place of the set: an anchor, or another page."""
    return [a for a in element.iter("a") if (a.get("href") or "").strip() not in ("", "#")
            and ":" not in (a.get("href") or "").partition("#")[0]]


def _clean(text: str) -> str:
    """An entry's text: an entity the page escaped twice read (``link&nbsp;``), spaces
    collapsed, trailing punctuation gone."""
    return _TRAILING.sub("", " ".join(unescape(text).split()))


def _lead_text(row, first) -> str:
    """A row's text before its first link."""
    parts = [row.text or ""]
    for child in row:
        if child is first or first in child.iterdescendants():
            break
        shown = text_of(child) if tag_of(child) is not None else ""  # a comment shows nothing, its tail does
        parts.append(shown + " " + (child.tail or ""))
    return _clean(" ".join(parts))


def row_entry(row) -> Entry | None:
    """(entry, hrefs) of one row: the text before its first link and its links, or a linked
    entry (the first link's text) and its own link; None for a row with no anchor link."""
    links = _anchor_links(row)
    if not links:
        return None
    cells = [c for c in row if tag_of(c) in ("td", "th")] if tag_of(row) == "tr" else []
    first_cell = next((c for c in cells if text_of(c)), None)
    if first_cell is not None and not _anchor_links(first_cell):
        return _clean(text_of(first_cell)), [a.get("href") for a in links]
    lead = _lead_text(row, links[0])
    if lead:
        return lead, [a.get("href") for a in links]
    return _clean(text_of(links[0])), [links[0].get("href")]


def _row_or_name(row) -> Entry | None:
    """``row_entry``, or a row's first cell alone (an entry whose places follow it, one row
    each: "link", then "1 (Function)", "2 (Function)")."""
    found = row_entry(row)
    if found is None and tag_of(row) == "tr":
        first = next((c for c in row if tag_of(c) in ("td", "th") and text_of(c)), None)
        return (_clean(text_of(first)), []) if first is not None else None
    return found


def _rows(block) -> list:
    tag = tag_of(block)
    if tag == "table":
        return [tr for tr in block.iter("tr") if next((a for a in tr.iterancestors() if tag_of(a) == "table"), None)
                is block]
    if tag == "dl":
        return [c for c in block if tag_of(c) == "dt"]
    return [c for c in block if tag_of(c) == "li"]


def _key(entry: str) -> str:
    return "".join(c for c in entry.casefold() if c.isalnum())


def _sorted(entries: list[str]) -> bool:
    keys = [k for k in map(_key, entries) if k]
    pairs = list(zip(keys, keys[1:]))
    return bool(pairs) and sum(a <= b for a, b in pairs) >= SORTED * len(pairs)


def _nested(block) -> bool:
    return tag_of(block) in ("ul", "ol") and any(tag_of(d) in ("ul", "ol") for li in _rows(block) for d in li.iter()
                                                 if d is not li)


def _page_order(hrefs: list[str], positions: dict[str, int]) -> bool:
    """Whether the block's links to its own page's anchors follow the page's order."""
    at = [positions[h[1:]] for h in hrefs if h.startswith("#") and h[1:] in positions]
    pairs = list(zip(at, at[1:]))
    return len(pairs) >= MIN_ENTRIES - 1 and sum(a < b for a, b in pairs) >= SORTED * len(pairs)  # MIN_ENTRIES links


def index_block(block, positions: dict[str, int]) -> list[Entry] | None:
    """The entries of a block that is an index (module doc), or None. ``positions``: the
    page's ids in its order (a contents list of the page follows it)."""
    if _nested(block):
        return None
    grouped = any(_LETTER.match(text_of(h)) for h in _letter_headings(block))
    return _index_rows(_rows(block), positions, grouped)


def _index_rows(rows: list, positions: dict[str, int], grouped: bool) -> list[Entry] | None:
    """The entries of rows that make an index, or None (``index_block``); ``grouped``: the
    rows stand under a letter's heading."""
    if len(rows) < MIN_ENTRIES:
        return None
    entries: list[Entry] = []
    letters = sections = counted = 0
    for row in rows:
        text = text_of(row)
        if not text:
            continue
        if _LETTER.match(text):
            letters += 1
            continue
        found = _row_or_name(row)
        if found is None or len(found[0]) > MAX_TERM:
            continue
        if _CONTINUED.match(found[0]):
            if entries:
                entries[-1][1].extend(found[1])  # "1 (Function)": the entry above, another of its places
            continue
        counted += 1
        if not _key(found[0]):
            continue  # symbols alone ("!", "<"): a letter bar's, or no name crossbook keys
        links = _anchor_links(row)
        sections += len(links) >= 2 and text_of(links[-1]) != found[0]
        entries.append((found[0], list(found[1])))
    entries = [e for e in entries if e[1]]
    if sum(any("#" in h for h in hrefs) for _, hrefs in entries) < SHARE * len(entries):
        return None  # a list of pages (a site's home, its modules): links to no anchors, no index
    if len(entries) < max(MIN_ENTRIES, SHARE * counted) or len({e for e, _ in entries}) < DISTINCT * len(entries):
        return None
    if sum(_anchored(row) for row in rows) * 2 >= len(entries):
        return None  # rows that hold their own anchors document what they list: a reference, no index
    if _page_order([h for _, hrefs in entries for h in hrefs[:1]], positions):
        return None
    if not (_sorted([e for e, _ in entries]) or grouped or letters >= 2 or sections >= SHARE * len(entries)):
        return None
    return entries


def _anchored(row) -> bool:
    """Whether a row holds an anchor of its own (an id on it or inside it)."""
    return any(e.get("id") or (tag_of(e) == "a" and e.get("name")) for e in row.iter() if isinstance(e.tag, str))


def _letter_headings(block):
    """The headings right before a block (a letter over its group of entries)."""
    node = block.getprevious()
    return [node] if node is not None and tag_of(node) in HEADINGS else []


def index_blocks(root, kept) -> list[tuple[object, list[Entry]]]:
    """(block, entries) of each index a page holds (module doc), outermost blocks only;
    ``kept``: the page's elements its Markdown shows, in order. Blocks under letters'
    headings (``<h3>B</h3><dl>…</dl>``, a few entries each) are read as one index."""
    positions: dict[str, int] = {}
    for n, element in enumerate(kept):
        ident = element.get("id") or (element.get("name") if tag_of(element) == "a" else None)
        if ident:
            positions.setdefault(ident, n)
    out = []
    inside: set = set()
    lettered = []
    for element in kept:
        if tag_of(element) not in _BLOCKS or element in inside:
            continue
        entries = index_block(element, positions)
        if entries:
            out.append((element, entries))
            inside.update(element.iterdescendants())
        elif not _nested(element) and any(_LETTER.match(text_of(h)) for h in _letter_headings(element)):
            lettered.append(element)
            inside.update(element.iterdescendants())
    return out + _lettered_index(lettered, positions)


def _lettered_index(blocks: list, positions: dict[str, int]) -> list[tuple[object, list[Entry]]]:
    """(block, its entries) of blocks under letters' headings that are one index together
    (each too short to tell alone), or nothing."""
    if len(blocks) < 2:
        return []
    rows = {id(block): _rows(block) for block in blocks}
    entries = _index_rows([row for block in blocks for row in rows[id(block)]], positions, True)
    if not entries:
        return []
    out = []
    for block in blocks:
        own = [found for found in map(_row_or_name, rows[id(block)]) if found is not None and found[1]]
        names = {name for name, _ in own}
        placed = [entry for entry in entries if entry[0] in names]
        if placed:
            out.append((block, placed))
    return out


_NUMBERED = re.compile(r"^(?:[A-Z]|\d+)(?:\.\d+)*\.?\s+(?=\w)")  # "D.5 Concept Index": its number


def index_title(block) -> str:
    """The title the authors give an index block: the heading before it (among its
    siblings', then its ancestors' siblings'), less its section number ("Concept Index");
    "" when none is found."""
    node = block
    for _ in range(4):
        for sibling in node.itersiblings(preceding=True):
            inner = [h for h in sibling.iter() if tag_of(h) in HEADINGS] if tag_of(sibling) in ("div", "header") else []
            heading = sibling if tag_of(sibling) in HEADINGS else (inner[-1] if inner else None)
            if heading is not None and text_of(heading):
                return _NUMBERED.sub("", text_of(heading))
        node = node.getparent()
        if node is None:
            break
    return ""

