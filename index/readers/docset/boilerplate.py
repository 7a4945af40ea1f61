"""A doc set's boilerplate, found by repetition across its pages. Pure over parsed pages.

A documentation generator writes the same navigation on every page: a header and a footer
("Prev", "Up", "Home", "Next"), a site header (``<h1>Acme documentation</h1>``), a sidebar,
a copyright line. No list of words or class names finds them all (each generator and each
language names them its own way); their repetition does. A page's element is placed by its
path from the body (each ancestor's tag and classes, never its id); what stands at the same
place with the same text on most pages of the set is boilerplate:

- a link or a block of text (a paragraph, a list item, a ``<div>``) repeated so is left out;
- a container repeated at the same place (a ``<div class="navheader">``, a navigation table
  or row) is left out whole when most of what it holds is repeated and the rest is a few
  words (the neighbouring pages' titles a navigation footer shows);
- a repeated heading is left out only when nothing but boilerplate follows it before the next
  heading: a man page's NAME and OPTIONS headings open each page's own text and stay.

Table cells are never left out one by one (a table's columns would shift); their row or
table is. A set of fewer than ``MIN_PAGES`` pages has no boilerplate to tell.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

from ..html_markdown import HEADINGS, body_of, parse_html, tag_of

MIN_PAGES = 4
SAMPLE_PAGES = 60     # pages learned from, evenly spaced: what most of them repeat, most pages do
SHARE = 0.6           # "most pages": at least this share of the set's pages
FEW_WORDS = 20        # a container's own (unrepeated) words at most, to be left out whole
_CONTAINERS = {"div", "table", "tbody", "thead", "tfoot", "tr", "ul", "ol", "header", "footer", "aside",
               "center", "section", "span", "dl"}
_INLINE = {"a", "span", "b", "strong", "em", "i", "code", "tt", "small", "kbd", "samp", "var", "font", "sup", "sub"}
SHORT_UNIT = 6        # words of a container's unrepeated unit at most (a neighbour's title, a label)
_ALONE = {"a", "p", "div", "span", "li", "center", "small", "address", "blockquote", *HEADINGS}
_UNITS = {"a", "p", "li", "td", "th", "dt", "dd", "caption", "div", "span", "center", "small", "address",
          "blockquote", "pre", "b", "strong", "em", "i", "code", "tt", *HEADINGS}
_SPACES = re.compile(r"\s+")
_WORD = re.compile(r"\w")

Place = tuple[str, ...]
UnitKey = tuple[Place, str]


def _text(element) -> str:
    return _SPACES.sub(" ", "".join(element.itertext()).replace("\u00b6", " ")).strip()


def _step(element, tag: str) -> str:
    classes = " ".join(sorted((element.get("class") or "").split()))
    return f"{tag}.{classes}" if classes else tag


def _word_chars(text: str) -> int:
    """How many characters of ``text`` are word characters (``\\w``)."""
    return len(_WORD.findall(text))


def _own_text(element) -> bool:
    """Whether an element holds text itself (not only in its children): a unit."""
    if (element.text or "").strip():
        return True
    return any((child.tail or "").strip() for child in element)


@dataclass
class _PageView:
    """One page's kept elements, each with its place and, for a unit, its key."""
    elements: list
    places: dict = field(default_factory=dict)    # element -> Place
    units: dict = field(default_factory=dict)     # element -> UnitKey
    bare_blocks: dict = field(default_factory=dict)  # block -> no word left but repeated runs'

    @classmethod
    def of(cls, root, wanted: set | None = None) -> "_PageView":
        """The view of a page's body (all its elements: what the Markdown drops anyway counts
        for nothing); ``wanted``: the only places whose units matter (None: all)."""
        view = cls([])
        steps: dict = {}
        for element in body_of(root).iterdescendants():
            tag = tag_of(element)
            if tag is None:
                continue
            view.elements.append(element)
            key = (tag, element.get("class"))
            step = steps.get(key) or steps.setdefault(key, _step(element, tag))
            place = view.places.get(element.getparent(), ()) + (step,)
            view.places[element] = place
            if tag in _UNITS and (wanted is None or place in wanted) and (tag == "a" or _own_text(element)):
                text = _text(element)
                if text:
                    view.units[element] = (place, text)
        return view


@dataclass
class Boilerplate:
    """What repeats on most pages of one doc set (``learn`` each page, then ``strip`` each)."""
    pages: int = 0
    unit_counts: Counter = field(default_factory=Counter)
    place_counts: Counter = field(default_factory=Counter)
    title_counts: Counter = field(default_factory=Counter)
    _unit_places: set | None = field(default=None, repr=False)   # the places of repeated units
    # what each page asks again, kept while no page is learned: (pages learned, the answer)
    _headings: tuple[int, frozenset] | None = field(default=None, repr=False)
    _site: tuple[int, frozenset] | None = field(default=None, repr=False)

    def learn(self, root) -> None:
        """Count one page's units, places and title parts."""
        view = _PageView.of(root)
        self.pages += 1
        self.unit_counts.update(set(view.units.values()))
        self.place_counts.update({place for element, place in view.places.items()
                                  if tag_of(element) in _CONTAINERS})
        self.title_counts.update(set(title_parts(_title(root))))

    @property
    def need(self) -> int:
        """Pages a thing must stand on to be boilerplate (more than the set holds when it is too small)."""
        return max(3, math.ceil(SHARE * self.pages)) if self.pages >= MIN_PAGES else self.pages + 1

    def repeated_unit(self, key: UnitKey) -> bool:
        return self.unit_counts.get(key, 0) >= self.need

    def repeated_headings(self) -> frozenset[str]:
        """The headings most pages repeat at one place: a site's header, a man page's NAME
        (found once for the pages learned: each page read asks, and a set's units are many)."""
        if self._headings is None or self._headings[0] != self.pages:
            self._headings = (self.pages, frozenset(text for (place, text), count in self.unit_counts.items()
                                                    if count >= self.need and place[-1].partition(".")[0] in HEADINGS))
        return self._headings[1]

    def site_parts(self) -> frozenset[str]:
        """The parts of the pages' titles most pages repeat: the site's name ("Acme 2.1 documentation")."""
        if self._site is None or self._site[0] != self.pages:
            self._site = (self.pages, frozenset(part for part, count in self.title_counts.items()
                                                if count >= self.need))
        return self._site[1]

    def strip(self, root, keep: frozenset[str] = frozenset()) -> int:
        """Leave the boilerplate out of a parsed page (in place); the number of elements left
        out. An element whose id is in ``keep`` (an anchor the authors' inventory names: a
        documented thing, however alike its text is on every page) stays, with what it holds
        and what holds it."""
        if self.pages < MIN_PAGES:
            return 0
        if self._unit_places is None:
            self._unit_places = {place for (place, _), count in self.unit_counts.items() if count >= self.need}
        view = _PageView.of(root, self._unit_places)
        repeated = [e for e, key in view.units.items() if self.repeated_unit(key)]
        if not repeated:
            return 0
        # a container can only be chrome around two repeated units or more
        around: Counter = Counter(a for e in repeated for a in e.iterancestors())
        gone: set = set()
        headings = []
        for element in view.elements:
            if element.getparent() in gone:
                gone.add(element)  # inside one left out: goes with it
                continue
            tag = tag_of(element)
            if tag in _CONTAINERS and around[element] >= 2 and self.place_counts.get(view.places[element], 0) >= \
                    self.need and self._mostly_repeated(element, view):
                gone.add(element)
            elif element in view.units and self.repeated_unit(view.units[element]):
                if tag in HEADINGS:
                    headings.append(element)
                elif tag in _ALONE and (tag not in _INLINE or self._alone_in_block(element, view)):
                    gone.add(element)
        kept = _holding(root, keep)
        gone = {e for e in gone if e.getparent() not in gone and e not in kept}
        headings = [h for h in headings if h not in kept]
        for element in gone:
            _remove(element)
        emptied = [h for h in headings if _opens_nothing(h, root)]
        for element in emptied:
            _remove(element)
        return len(gone) + len(emptied)

    def _alone_in_block(self, element, view: _PageView) -> bool:
        """Whether a repeated link (or run) is all its block shows, less other repeated runs:
        "Next" in a navigation cell, not "see frob-add(1)" in a page's own sentence."""
        block = next((a for a in element.iterancestors() if tag_of(a) not in _INLINE), None)
        if block is None or _on_its_own_line(element):
            return True
        # the answer is the block's, whichever of its runs asks: found once per block (a block
        # of thousands of repeated links asked again for each made a page cost their square)
        if block not in view.bare_blocks:
            view.bare_blocks[block] = self._bare_block(block, view)
        return view.bare_blocks[block]

    def _bare_block(self, block, view: _PageView) -> bool:
        """Whether no word is left of a block's text once each repeated inline run's text is
        taken out of it (its first occurrence, in document order)."""
        text = _text(block)
        keys = [key[1] for inner in block.iter() if inner is not block and tag_of(inner) in _INLINE
                and (key := view.units.get(inner)) is not None and self.repeated_unit(key)]
        # taking a run out takes at most its own word characters: when they are fewer than the
        # block's, a word is left whatever the runs match (no replacement needed to know it)
        if sum(_word_chars(k) for k in keys) < _word_chars(text):
            return False
        for key in keys:
            text = text.replace(key, " ", 1)
        return not re.search(r"\w", text)

    def _mostly_repeated(self, container, view: _PageView) -> bool:
        """A container of chrome: at least two repeated units, as many as the others, and
        those few short ones; never one that holds a page's own heading or paragraph. A unit
        is counted whole (what it holds is counted with it)."""
        repeated, other_words, others = 0, 0, 0
        if _own_text(container):
            own = (container.text or "") + "".join(c.tail or "" for c in container)
            other_words, others = len(own.split()), 1
        stack = [c for c in reversed(container) if isinstance(c.tag, str)]
        while stack:
            element = stack.pop()
            tag = tag_of(element)
            key = view.units.get(element)
            if key is None and tag in _UNITS and (tag == "a" or _own_text(element)):
                text = _text(element)  # a unit where no repeated one stands: the page's own
                key = ((), text) if text else None
            if key is None:
                stack.extend(c for c in reversed(element) if isinstance(c.tag, str))
                continue
            if self.repeated_unit(key):
                repeated += 1
                continue
            words = len(key[1].split())
            if tag in HEADINGS or tag in ("p", "pre", "dd") or words > SHORT_UNIT:
                return False  # a page's own heading or paragraph sits in it: content, not chrome
            others += 1
            other_words += words
        return repeated >= 2 and repeated >= others and other_words <= FEW_WORDS


def _holding(root, ids: frozenset[str]) -> set:
    """The elements of ``ids``, what they hold and what holds them."""
    out: set = set()
    if ids:
        for element in root.iter():
            if isinstance(element.tag, str) and element.get("id") in ids and element not in out:
                out.update(element.iter())
                out.update(element.iterancestors())
    return out


def _on_its_own_line(element) -> bool:
    """A link between line breaks (or other links) with no words beside it: a list of links
    a page writes at its top ("NAME<br>SYNOPSIS<br>...")."""
    previous, following = element.getprevious(), element.getnext()
    before = previous.tail if previous is not None else element.getparent().text
    if re.search(r"\w", (before or "") + (element.tail or "")):
        return False
    return all(e is None or tag_of(e) == "a" or tag_of(e) not in _INLINE for e in (previous, following))


def _title(root) -> str:
    element = next(root.iter("title"), None)
    return _text(element) if element is not None else ""


_TITLE_SEPARATORS = re.compile(r"\s+[\u2014\u2013|\u00b7:-]+\s+|\s+[\u00bb\u203a]\s+")


def title_parts(title: str) -> list[str]:
    """A page title's parts, split where a site joins its name to the page's
    ("json — JSON encoder — Python 3.11 documentation", "Foo | Acme")."""
    return [p.strip() for p in _TITLE_SEPARATORS.split(title) if p.strip()]


def page_subject_title(title: str, site: set[str]) -> str:
    """A page title less the site's name (its parts most pages repeat); the title itself when
    nothing is left."""
    parts = [p for p in title_parts(title) if p not in site]
    if not parts or len(parts) == len(title_parts(title)):
        return title if parts else ""
    return " \u2014 ".join(parts)


def _opens_nothing(heading, root) -> bool:
    """Whether no text follows a heading before the next heading (or the page's end)."""
    started = False
    inside: set = set()
    for element in root.iter():
        if element is heading:
            started = True
            inside = set(heading.iter())
            if (heading.tail or "").strip():
                return False
            continue
        if not started or element in inside or not isinstance(element.tag, str):
            continue
        if tag_of(element) in HEADINGS:
            return True
        if tag_of(element) in ("script", "style", "nav", "head", "title"):
            continue
        if (element.text or "").strip() or (element.tail or "").strip():
            return False
    return started


def _remove(element) -> None:
    """Take an element out of its tree, keeping the text that follows it."""
    parent = element.getparent()
    if parent is None:
        return
    tail = element.tail or ""
    if tail:
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(element)


def learn_boilerplate(files: list[str], read_bytes) -> Boilerplate:
    """The boilerplate of the pages ``files``, learned from at most ``SAMPLE_PAGES`` of them,
    each read by ``read_bytes(rel)``; a page that cannot be read is skipped (the reader says so
    when it reads it)."""
    boiler = Boilerplate()
    step = max(1, len(files) // SAMPLE_PAGES)
    for rel in files[::step][:SAMPLE_PAGES]:
        try:
            data = read_bytes(rel)
            root = parse_html(data)
        except Exception:  # told by the page reader, with its reason
            continue
        boiler.learn(root)
    return boiler
