"""What a page's anchors define: each name its anchors spell that is a thing's. Pure.

An anchor names a place or a thing (readers/docset/anchors.py finds the name each spells).
Many generators give every heading an id: the slug of a heading in words ("Getting
Started", ``#getting-started``) marks a place, not a thing. A name is defined where:

- it is an index's marker (an empty anchor whose id, less a prefix the page's ids share,
  spells a term of the text after it: ``<span id="index-arithmetic-evaluation">``);
- it looks like code (rule ``anchor_name``): set as code (``<code>``, ``<tt>``, ``<kbd>``,
  a preformatted block), a signature's (``blend(a, b) → mix``), or spelled as no word is (``frob_path``, ``shapes.blend``,
  ``FileHandle``, ``'close'``, ``attribute_locked?``, ``<Zone>``, ``--all``); a name of
  several words only when set as code (``<code>job control</code>``);
- or it stands in a run of siblings of one shape (rule ``sibling_run``,
  readers/docset/sibling_runs.py): a word-like name too (``Harbor`` of "Harbor Knob").

A name shown as a link to another thing (``impl <a href="…">Debug</a> for Span``) is that
thing's, referenced here, unless arguments follow it (a method implementing an interface's:
``fn <a href="…#tymethod.clone">clone</a>(&self)``). The kind is the run's affix, else the
label before the name ("Class:", "fn"), else a function where arguments follow, else an
entry. Code keeps its case: the name is stored as the page writes it.
"""

from __future__ import annotations

import re

from ...core.models import DocTerm
from ...core.packs import genre_table
from .anchors import SEPARATORS, Anchored
from .sibling_runs import affix_kind, run_key, set_runs, shape

# the rules an anchored term is stated by (DocTerm.rule; stored under, switched off by: extract/marks.py)
ANCHOR_NAME = "anchor_name"  # a name set as code
SIBLING_RUN = "sibling_run"  # a name in a run of siblings of one shape

# spelled as no word of prose is: an identifier, a qualified or called name, an option, a
# quoted or bracketed form, a TeX command, a predicate
_CODE_SPELLING = re.compile(
    r"\w_\w|^_\w|\w[.:#%]\w|::|\(\)|^--?\w|^:\w|[a-z\d][A-Z]|^[A-Z]{2,}[a-z]|^'[^']+'$|^<[^<>]+>$|\w[?!]$|^\\[A-Za-z@]")
MAX_NAME_WORDS = 4
MAX_INDEXED_WORDS = 6  # an index's term is the authors' ("Portable C and C++ programming"), a heading's words are not


def looks_like_code(anchor: Anchored) -> bool:
    """Whether an anchored name is set as code or spelled as code (module doc)."""
    if anchor.code:
        return True
    return " " not in anchor.name and (bool(_CODE_SPELLING.search(anchor.name)) or _called(anchor, glued=True))


def may_define(anchor: Anchored) -> bool:
    """Whether an anchor may define its name, as its page alone tells (code, or a shape a
    run may share): the doc set's boilerplate never takes it out (readers/docset/boilerplate.py)."""
    return looks_like_code(anchor) or run_key(anchor) is not None


def _kind(anchor: Anchored, run_shape) -> str:
    """A run's kind (its affix), else the kind the label before the name says ("Class:",
    "fn"), else a function where arguments follow, else an entry."""
    if run_shape is not None:
        return affix_kind(run_shape)
    before, after = shape(anchor)
    known = genre_table("documentation", "affix_kinds")
    label = before.rstrip(":")
    return known.get(label) or ("function" if after.startswith("()") else "entry")


def anchor_terms(anchors: list[Anchored], runs: set[tuple] | None = None) -> list[tuple[str, DocTerm]]:
    """(id, term) of each anchor of a page that defines its name (module doc), in order;
    ``runs``: the doc set's runs (``sibling_runs.set_runs``; None: the page's own). An
    anchor that names what another before it does (two ids on one heading) maps to the
    same term."""
    runs = set_runs([anchors]) if runs is None else runs
    commands = {anchor.name for anchor in anchors if anchor.code or anchor.name.islower()}
    out: list[tuple[str, DocTerm]] = []
    by_element: dict = {}
    for anchor in anchors:
        key = run_key(anchor)
        run_shape = key[1] if key in runs else None
        indexed = _indexed(anchor)
        code = looks_like_code(anchor) or indexed
        if not (code or (run_shape is not None and _names_entries(anchor, run_shape, commands))):
            continue
        if len(anchor.name.split()) > (MAX_INDEXED_WORDS if indexed else MAX_NAME_WORDS):
            continue
        if anchor.linked_away and not _called(anchor):
            continue
        term = by_element.get((anchor.element, anchor.name))
        if term is None:
            term = DocTerm(anchor.name, _kind(anchor, run_shape), aliases=anchor.also, target=anchor.ident,
                           rule=ANCHOR_NAME if code else SIBLING_RUN)
            by_element[(anchor.element, anchor.name)] = term
        out.append((anchor.ident, term))
    return out


def _indexed(anchor: Anchored) -> bool:
    """Whether an anchor is an index's marker: an empty element whose id, less a prefix the
    page's ids share, spells a term of the text after it (``<span id="index-arithmetic-evaluation">``
    before the paragraph on it): the authors indexed the term there."""
    prefix = anchor.prefix[:-1]
    return anchor.marks and bool(prefix) and not any(c in SEPARATORS for c in prefix) and not anchor.by_links


def _names_entries(anchor: Anchored, run_shape, commands: set[str]) -> bool:
    """Whether a word-like name of a run is an entry's: one word, after nothing, a label
    ("Class:") or a kind's word ("data"), never after a word of prose ("File descriptors");
    or after the name of a command the page's anchors define as typed (lower case or code),
    its subcommands ("frob build", "frob serve" under ``<h1 id="frob">frob</h1>``), even
    where the id is the heading's slug (else a slug marks a place, not a thing)."""
    before = run_shape[0]
    if " " in anchor.name:
        return False
    if anchor.slug:
        return before in commands
    return (not before.isalpha() or before.endswith(":") or before in commands
            or before in genre_table("documentation", "affix_kinds"))


def _called(anchor: Anchored, glued: bool = False) -> bool:
    """Whether arguments follow the name in its line (a signature; ``glued``: with no space
    between, ``blend(a, b)``, not "Blending (old)")."""
    at = anchor.line.find(anchor.name)
    after = anchor.line[at + len(anchor.name):] if at >= 0 else ""
    after = after if glued else after.lstrip()
    if after.startswith("<"):  # type parameters first: "extend<I: IntoIterator>(&mut self)"
        depth = 0
        for end, char in enumerate(after):
            depth += (char == "<") - (char == ">")
            if depth == 0:
                after = after[end + 1:]
                break
    return after.startswith("(")
