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

_PARTS = re.compile(r"\.|::|->|:")
# an index's plain words, one or two groups ("command timing", "commands, compound"), no code
_WORDS = re.compile(r"[^\W\d_][^\W_]*(?:[ '-][^\W_]+)*(?:, [^\W\d_][^\W_]*(?:[ '-][^\W_]+)*)?")


def _shows(plain: str, name: str) -> bool:
    return re.search(r"(?<![\w.])" + re.escape(name) + r"(?!\w)", plain) is not None


def _suffixes(name: str) -> list[str]:
    """``Basket.tally`` and ``tally`` of ``basket.Basket.tally``: its qualified name's tails."""
    cuts = [m.end() for m in _PARTS.finditer(name)]
    return [name[cut:] for cut in cuts]


def _as_written(plain: str, name: str) -> str | None:
    """An index's plain words as the text writes them: in any case, and an inverted entry
    ("commands, compound") in its reading order ("compound commands"); None for a name of
    code or words the text does not show."""
    if not _WORDS.fullmatch(name):
        return None
    head, comma, rest = name.partition(", ")
    plain = " ".join(plain.split())
    for form in (name, f"{rest} {head}") if comma else (name,):
        found = re.search(r"(?<![\w.-])" + re.escape(form) + r"(?![\w-])", plain, re.IGNORECASE)
        if found:
            return found.group(0)
    return None


def _shown(plain: str, entry: InventoryEntry) -> DocTerm | None:
    """The term ``entry`` is in a section whose text (Markdown's escapes read) is ``plain``."""
    target = f"{entry.page}#{entry.anchor}" if entry.anchor else entry.page
    # the inventory's own name may be one character (a class ``A``, Bash's ``.``); a tail must be more
    for name in (entry.name, *entry.aliases, *_suffixes(entry.name)):
        if name and (len(name) > 1 or name == entry.name) and _shows(plain, name):
            # its qualified name, and its own (``tally``: what a method is called by inside its class)
            aliases = tuple(a for a in dict.fromkeys((entry.name, *entry.aliases, *_suffixes(name)[-1:])) if a != name)
            return DocTerm(name, entry.kind, aliases=aliases, target=target)
    written = _as_written(plain, entry.name)
    if written is not None:  # an index's words as the text writes them, the index's form an alias
        return DocTerm(written, entry.kind, aliases=(entry.name,) if entry.name != written else (), target=target)
    return None


def with_terms(placed: list[DocTerm], found: list[DocTerm]) -> list[DocTerm]:
    """A section's inventory terms, then the terms its markup gave (``found``) that name
    something else; a found term of the same name lends its aliases to the inventory's."""
    out = []
    for term in placed:
        same = [t for t in found if t.name == term.name]
        aliases = tuple(dict.fromkeys(a for t in (term, *same) for a in t.aliases if a != term.name))
        out.append(replace(term, aliases=aliases))
    names = {t.name for t in out}
    return out + [t for t in found if t.name not in names]


def placed_terms(entries: list[InventoryEntry], sections: list[Section],
                 anchors: dict[str, int]) -> dict[int, list[DocTerm]]:
    """Section index -> the terms of ``entries`` (one page's) that section defines."""
    first = next((i for i, s in enumerate(sections) if s.heading is not None), 0)
    out: dict[int, list[DocTerm]] = {}
    by_target: dict[str, tuple[int, str]] = {}  # an anchor -> the section and name of its term
    unshown = []
    plain: dict[int, str] = {}  # a section's text with Markdown's escapes read, made once
    for entry in entries:
        where = anchors.get(entry.anchor) if entry.anchor else first
        # its anchor's section, else a neighbour (an empty anchor is filed under the heading
        # that follows it, which for one set in a table cell is the next section's); an
        # anchor the page does not hold: the page's sections in order
        order = [where, where - 1, where + 1] if where is not None else range(len(sections))
        order = [i for i in order if 0 <= i < len(sections)]
        for i in order:
            if i not in plain:
                plain[i] = unescape_markdown(sections[i].text)
            term = _shown(plain[i], entry)
            if term is not None:
                by_target.setdefault(term.target, (i, _add_term(out.setdefault(i, []), term).name))
                break
        else:
            unshown.append(entry)
    # a second name at one anchor (Sphinx's ``click.core.Group`` beside ``click.Group``) is an
    # alias; another, the first section of the page that shows it
    for entry in unshown:
        placed = by_target.get(f"{entry.page}#{entry.anchor}" if entry.anchor else entry.page)
        if placed is None:
            _place_anywhere(entry, sections, out)
        else:
            where, name = placed
            held = next(t for t in out[where] if t.name == name)
            _add_term(out[where], replace(held, aliases=(entry.name,)))
    return out


def _add_term(terms: list[DocTerm], term: DocTerm) -> DocTerm:
    """``term`` added to a section's ``terms``; where the text shows two entries as one name
    in any case (the index's "expansion, arithmetic", found as the heading's "Arithmetic
    Expansion", beside its "arithmetic expansion"), that one term, with the other entry's
    names among its aliases. Returns the term the section holds."""
    for at, known in enumerate(terms):
        if known.name.casefold() == term.name.casefold() and known.kind == term.kind:
            aliases = tuple(a for a in dict.fromkeys((*known.aliases, term.name, *term.aliases))
                            if a.casefold() != known.name.casefold())
            terms[at] = replace(known, aliases=aliases)
            return terms[at]
    terms.append(term)
    return term


def _place_anywhere(entry: InventoryEntry, sections: list[Section], out: dict[int, list[DocTerm]]) -> None:
    for i, section in enumerate(sections):
        term = _shown(section.text, entry)
        if term is not None:
            _add_term(out.setdefault(i, []), term)
            return
