"""An index's markers named by their own ids, where the text after them does not show the term. Pure.

An index marker is an empty anchor whose id spells the term it indexes after a prefix the
page's ids share (``<span id="index-alias-expansion"></span>`` before the section on
aliases; readers/docset/anchors.py names it when the text after it shows the term). An
author often indexes a term under words the text never writes ("alias expansion" before a
paragraph that says "Aliases allow a string..."), or inverts it ("expansion, tilde"). Such a
marker spells its term in its id alone: once ``MIN_CONFIRMED`` markers of the page with the
same prefix, and ``SHARE`` of them, are confirmed by the text after them, the prefix is an
index's, and each other empty anchor with it names the words its id spells: separators as
spaces, escapes of punctuation decoded (``commands_002c-compound``: "commands, compound"),
the id's case kept. An entry the index inverts at a comma names its thing as prose writes
it ("tilde expansion"), the inverted form an alias.
"""

from __future__ import annotations

import re
from collections import defaultdict

from ..html_markdown import HEADINGS, tag_of
from .anchors import SEPARATORS, Anchored, PageIds, Shown, is_ordinal, place, read_anchors
from .terms import MAX_TERM

MIN_CONFIRMED = 5
SHARE = 0.5
# an escape (a separator, then a code's four or two hex digits), else a bare separator
# a word of prose, no code: a capital at most first ("Build", "C++", "one-shot"; never "frob_path", "OpenMP")
_PLAIN_WORD = re.compile(r"[^\W_][^\W_A-Z]*(?:-[^\W_A-Z]+)*\+*")
_PART = re.compile(r"[-_.%:]([0-9A-Fa-f]{4}|[0-9A-Fa-f]{2})|[-_./:]")


def marker_prefix(ident: str, prefixes: tuple[str, ...]) -> str:
    """The longest of ``prefixes`` that ``ident`` goes on after and that is one word and its
    separator (``index-``: never ``a.b.``), or ""."""
    fitting = [p for p in prefixes if ident.startswith(p) and len(ident) > len(p)
               and not any(c in SEPARATORS for c in p[:-1])]
    return max(fitting, key=len, default="")


def id_words(rest: str) -> str:
    """The words an id spells (module doc): ``Bash-configuration``: "Bash configuration";
    ``commands_002c-compound``: "commands, compound"."""
    def part(match: re.Match) -> str:
        code = match.group(1)
        if code is None:
            return " "
        char = chr(int(code, 16))
        return char if char.isascii() and not char.isalnum() and char.isprintable() else " " + code

    return " ".join(_PART.sub(part, rest).split())


def uninverted(name: str) -> tuple[str, tuple[str, ...]]:
    """(the name as prose writes it, the index's inverted form as its alias) of an index's
    entry inverted at one comma ("expansion, tilde": "tilde expansion", ("expansion, tilde",));
    any other name as it is, with no alias."""
    head, comma, tail = name.partition(", ")
    if not comma or "," in tail or not head or not tail:
        return name, ()
    return f"{tail} {head}", (name,)


def as_written(name: str, text: str) -> str:
    """``name`` as ``text`` writes it where the two differ only in the case of their words'
    first letters or in a word's plural (an index's "Build directories" under the title
    "Build Directories", "Header template" under "Header Templates"); else ``name`` (a text
    that writes it as it is, any case of a name in lower case, or not at all). A word of code
    or an acronym is only as written (``frob_path``, ``VPATH``): code keeps its case."""
    words = name.split()
    if not words or re.search(_bounded(r"\s+".join(map(re.escape, words))), text,
                              re.IGNORECASE if name == name.lower() else 0):
        return name
    found = re.search(_bounded(r"\s+".join(map(_loose, words))), text)
    return " ".join(found.group(0).split()) if found else name


def _bounded(pattern: str) -> str:
    return r"(?<![\w-])" + pattern + r"(?![\w-])"


def _loose(word: str) -> str:
    """A pattern of ``word`` with its first letter in either case and its plural either way;
    a word of code or an acronym as written."""
    if not _PLAIN_WORD.fullmatch(word):
        return re.escape(word)
    stem = word[:-1] if word.endswith("s") and not word.endswith("ss") and len(word) > 3 else word
    return f"[{stem[0].upper()}{stem[0].lower()}]{re.escape(stem[1:])}(?:e?s)?"


def unspelled_markers(known: PageIds, found: list[Anchored], shown: Shown) -> list[Anchored]:
    """The markers of a page's ids (``known``; ``found`` the anchors named already) that
    name the words of their ids (module doc), each marking (``Anchored.marks``)."""
    # a marker named after a longer prefix ("index-arithmetic-" of two ids: "Evaluation") is no index's term
    # a marker whose name the text after it shows only as a link to another thing is named by its id
    named = {a.ident: a.prefix for a in found if not a.marks or not a.prefix
             or (marker_prefix(a.ident, (a.prefix,)) and not a.linked_away)}
    confirmed: dict[str, int] = defaultdict(int)
    waiting: dict[str, list] = defaultdict(list)
    for prefix in named.values():
        confirmed[prefix] += 1
    for element, ident in known.ids:
        if ident in named or tag_of(element) in HEADINGS or shown.text(element) or len(element):
            continue
        prefix = marker_prefix(ident, known.prefixes)
        if prefix:
            waiting[prefix].append((element, ident))
    out = []
    for prefix, markers in waiting.items():
        sure = confirmed[prefix]
        if sure < MIN_CONFIRMED or sure < SHARE * (sure + len(markers)):
            continue
        for element, ident in markers:
            name = id_words(known.repeats.get(ident, ident)[len(prefix):])
            if name and len(name) <= MAX_TERM and not is_ordinal(name):
                name, also = uninverted(name)
                out.append(Anchored(ident, name, place(element), name, False, prefix, shown.number(element),
                                    also=also, marks=True))
    return out


def marked_anchors(root, skip: frozenset = frozenset(), shared: tuple[str, ...] = (), own: str = "") -> list[Anchored]:
    """A page's anchors (readers/docset/anchors.py ``page_anchors``, the same arguments) and
    its index's markers named by their ids alone (module doc), in the page's order."""
    found, shown, known = read_anchors(root, skip, shared, own)
    unspelled = unspelled_markers(known, found, shown)
    if not unspelled:
        return found
    renamed = {a.ident for a in unspelled}
    order = {ident: n for n, (_, ident) in enumerate(known.ids)}
    return sorted([*(a for a in found if a.ident not in renamed), *unspelled], key=lambda a: order.get(a.ident, -1))
