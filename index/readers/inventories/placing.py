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
from dataclasses import replace

from ...core.models import DocTerm, Section
from ...core.titles import unescape_markdown
from .entry import InventoryEntry
from .shown import ShownNames, WrittenWords

_PARTS = re.compile(r"\.|::|->|:")
# an index's plain words, one or two groups ("command timing", "commands, compound"), no code
_WORDS = re.compile(r"[^\W\d_][^\W_]*(?:[ '-][^\W_]+)*(?:, [^\W\d_][^\W_]*(?:[ '-][^\W_]+)*)?")


def _suffixes(name: str) -> list[str]:
    """``Basket.tally`` and ``tally`` of ``basket.Basket.tally``: its qualified name's tails."""
    cuts = [m.end() for m in _PARTS.finditer(name)]
    return [name[cut:] for cut in cuts]


def _forms(entry: InventoryEntry) -> list[str]:
    """The names an entry may be shown by: its own, its aliases, its qualified name's tails
    (a tail of one character is none: the inventory's own name may be, a class ``A``)."""
    return [n for n in (entry.name, *entry.aliases, *_suffixes(entry.name)) if n and (len(n) > 1 or n == entry.name)]


def _word_forms(name: str) -> list[str]:
    """An index's plain words in the forms the text may write them: as listed, and an
    inverted entry ("commands, compound") in its reading order; none for a name of code."""
    if not _WORDS.fullmatch(name):
        return []
    head, comma, rest = name.partition(", ")
    return [name, f"{rest} {head}"] if comma else [name]


class _Page:
    """One page's sections as the placing asks about them: which names each shows."""

    def __init__(self, entries: list[InventoryEntry], texts: list[str]):
        self.names = ShownNames({n for entry in entries for n in _forms(entry)}, texts.__getitem__)
        self.words = WrittenWords({f for entry in entries for f in _word_forms(entry.name)}, texts.__getitem__)

    def shown(self, i: int, entry: InventoryEntry) -> DocTerm | None:
        """The term ``entry`` is in section ``i``, or None where the section does not show it."""
        target = f"{entry.page}#{entry.anchor}" if entry.anchor else entry.page
        for name in _forms(entry):
            if self.names.shows(i, name):
                # its qualified name, and its own (``tally``: what a method is called by inside its class)
                aliases = tuple(a for a in dict.fromkeys((entry.name, *entry.aliases, *_suffixes(name)[-1:])) if a != name)
                return DocTerm(name, entry.kind, aliases=aliases, target=target)
        for form in _word_forms(entry.name):
            written = self.words.written(i, form)
            if written is not None:  # an index's words as the text writes them, the index's form an alias
                return DocTerm(written, entry.kind, aliases=(entry.name,) if entry.name != written else (), target=target)
        return None


def with_terms(placed: list[DocTerm], found: list[DocTerm]) -> list[DocTerm]:
    """A section's inventory terms, then the terms its markup gave (``found``) that name
    something else; a found term of the same name lends its aliases to the inventory's."""
    by_name: dict[str, list[DocTerm]] = {}
    for t in found:
        by_name.setdefault(t.name, []).append(t)
    out = []
    for term in placed:
        same = by_name.get(term.name, [])
        aliases = tuple(dict.fromkeys(a for t in (term, *same) for a in t.aliases if a != term.name))
        out.append(replace(term, aliases=aliases))
    names = {t.name for t in out}
    return out + [t for t in found if t.name not in names]


def placed_terms(entries: list[InventoryEntry], sections: list[Section],
                 anchors: dict[str, int]) -> dict[int, list[DocTerm]]:
    """Section index -> the terms of ``entries`` (one page's) that section defines."""
    first = next((i for i, s in enumerate(sections) if s.heading is not None), 0)
    out: dict[int, _Terms] = {}
    by_target: dict[str, tuple[int, DocTerm]] = {}  # an anchor -> the section and its term
    unshown = []
    # each section's text with Markdown's escapes read, scanned once for every entry's names
    page = _Page(entries, [unescape_markdown(section.text) for section in sections])
    for entry in entries:
        where = anchors.get(entry.anchor) if entry.anchor else first
        # its anchor's section, else a neighbour (an empty anchor is filed under the heading
        # that follows it, which for one set in a table cell is the next section's); an
        # anchor the page does not hold: the page's sections in order
        order = [where, where - 1, where + 1] if where is not None else range(len(sections))
        order = [i for i in order if 0 <= i < len(sections)]
        for i in order:
            term = page.shown(i, entry)
            if term is not None:
                by_target.setdefault(term.target, (i, out.setdefault(i, _Terms()).add(term)))
                break
        else:
            unshown.append(entry)
    # a second name at one anchor (Sphinx's ``click.core.Group`` beside ``click.Group``) is an
    # alias; another, the first section of the page that shows it
    raw = _Page(unshown, [section.text for section in sections]) if unshown else None
    for entry in unshown:
        placed = by_target.get(f"{entry.page}#{entry.anchor}" if entry.anchor else entry.page)
        if placed is None:
            _place_anywhere(entry, len(sections), raw, out)
        else:
            where, term = placed
            held = out[where].named(term.name, term.kind)
            out[where].add(replace(held, aliases=(entry.name,)))
    return {i: terms.terms for i, terms in out.items()}


class _Terms:
    """One section's terms in the order they were placed, found by name in constant time."""

    def __init__(self):
        self.terms: list[DocTerm] = []
        self._at: dict[tuple[str, str], int] = {}  # (name in any case, kind) -> its place

    def add(self, term: DocTerm) -> DocTerm:
        """``term`` added; where the text shows two entries as one name in any case (the
        index's "expansion, arithmetic", found as the heading's "Arithmetic Expansion", beside
        its "arithmetic expansion"), that one term, with the other entry's names among its
        aliases. Returns the term the section holds."""
        key = (term.name.casefold(), term.kind)
        at = self._at.get(key)
        if at is None:
            self._at[key] = len(self.terms)
            self.terms.append(term)
            return term
        known = self.terms[at]
        aliases = tuple(a for a in dict.fromkeys((*known.aliases, term.name, *term.aliases))
                        if a.casefold() != known.name.casefold())
        self.terms[at] = replace(known, aliases=aliases)
        return self.terms[at]

    def named(self, name: str, kind: str) -> DocTerm:
        return self.terms[self._at[(name.casefold(), kind)]]


def _place_anywhere(entry: InventoryEntry, count: int, raw: _Page, out: dict[int, _Terms]) -> None:
    """``entry`` in the first of the page's sections whose text (as written) shows it."""
    for i in range(count):
        term = raw.shown(i, entry)
        if term is not None:
            out.setdefault(i, _Terms()).add(term)
            return
