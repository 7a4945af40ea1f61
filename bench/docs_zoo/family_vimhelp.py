"""The zoo's Vim help family: Vim's help files as HTML (vim-doc), tuned on.

One project: the pages the gold points at of at most ``MAX_BYTES`` (a help file is one
``<pre>`` block, and the reader's boilerplate pass costs about the square of a block's
repeated links: with ``todo.html``'s 495 KB the set took 15 minutes), sorted by path, every
k-th so that at most ``PAGES_PER_PROJECT`` are kept, with the help's listing pages beside
them (``tags.html``, the list of every tag; ``index.html``, help.txt's contents).

Gold: ``tags.html`` (``|<A HREF="options.html#'autoindent'">'autoindent'</A>|``), each tag
linked to the page and ``<A NAME>`` that define it, kept when it names a thing of Vim's
script and settings by its form:

- an option ``'name'``; a command ``:name``; a function ``name()``; a variable with its
  scope (``v:count``, ``g:var``); an autocommand event, a CamelCase tag of ``autocmd.html``;
- on one line of a page (Vim's ``*tag* *tag*`` line), the tags of one kind are one thing:
  an option's ``'no'`` forms are left out and its longest tag kept (``'autoindent'``, not
  ``'ai'``); a command's abbreviations, the tags another of the line starts with, are left out
  (``:s`` beside ``:substitute``).

Left out: error numbers (``E123``), keys and Normal-mode commands (``CTRL-W_j``, ``dd``),
topic tags (``object-motions``), features (``+clipboard``) and file names (``usr_01.txt``).
"""

from __future__ import annotations

import re
import sqlite3
from html import unescape
from pathlib import Path

from bench.docs_zoo.family_common import every_kth, keyed, score_gold, zoo_member

NAME = "vimhelp"
PACKAGES = ("vim-doc",)
ROOT = Path("/usr/share/doc/vim/html")
GOLD = "tags.html"
RELATIONS = "off"  # ingested as LaTeX is: the relation pass writes claims, never the entities scored
INDEX_PAGES = ("tags.html", "index.html")
MAX_BYTES = 160_000
ENCODING = "latin-1"  # the pages say charset=ISO-8859-1
_TAG = re.compile(r'\|<A HREF="([^"#]+)#([^"]*)">(.*?)</A>\|')
_NAME = re.compile(r'<A NAME="([^"]*)"></A>')
KINDS = (
    ("option", re.compile(r"'[a-z][a-z0-9]+'")),
    ("command", re.compile(r":[A-Za-z][A-Za-z0-9]*")),
    ("function", re.compile(r"[A-Za-z_][\w.#]*\(\)")),
    ("variable", re.compile(r"[bwtglsav]:[A-Za-z_]\w*")),
)
_EVENT = re.compile(r"[A-Z][a-z]+(?:[A-Z][a-z]+)+")


def _kind(tag: str, page: str) -> str | None:
    for kind, form in KINDS:
        if form.fullmatch(tag):
            return kind
    return "event" if page == "autocmd.html" and _EVENT.fullmatch(tag) else None


def _lines(folder: Path, page: str) -> dict[str, int]:
    """anchor -> the number of the page's line that holds it."""
    text = (folder / page).read_text(encoding=ENCODING)
    return {unescape(a): i for i, line in enumerate(text.splitlines()) for a in _NAME.findall(line)}


def _one_thing(kind: str, tags: list[str]) -> list[str]:
    """The tags of one kind on one line of a page, less the other forms of one thing."""
    if kind == "option":
        full = [t for t in tags if not (t.startswith("'no") and f"'{t[3:]}" in tags)]
        return [max(full or tags, key=len)]
    return [t for t in tags if not any(o != t and o.startswith(t.removesuffix("()")) for o in tags)]


def entries(folder: Path) -> list[tuple[str, str, str, str]]:
    """(tag, kind, page, anchor) of the gold: the tags that name a thing, one per thing."""
    groups: dict[tuple, list[tuple[str, str]]] = {}
    lines: dict[str, dict[str, int]] = {}
    for page, anchor, label in _TAG.findall((folder / GOLD).read_text(encoding=ENCODING)):
        tag, anchor = unescape(label), unescape(anchor)
        kind = _kind(tag, page)
        if kind is None or not (folder / page).is_file():
            continue
        if page not in lines:
            lines[page] = _lines(folder, page)
        if anchor in lines[page]:
            groups.setdefault((page, lines[page][anchor], kind), []).append((tag, anchor))
    out = []
    for (page, _, kind), tags in groups.items():
        anchor_of = dict(tags)
        out.extend((tag, kind, page, anchor_of[tag]) for tag in _one_thing(kind, [t for t, _ in tags]))
    return sorted(keyed(out))


def assemble(zoo: Path) -> list[dict]:
    if not (ROOT / GOLD).is_file():
        print(f"{NAME}: {PACKAGES[0]} not installed, left out")
        return []
    linked = sorted(page for page in {page for _, _, page, _ in entries(ROOT)} - set(INDEX_PAGES)
                    if (ROOT / page).stat().st_size <= MAX_BYTES)
    keep = [p for p in INDEX_PAGES if (ROOT / p).is_file()]
    return [zoo_member(zoo, NAME, "vim", PACKAGES[0], "tune", ROOT, every_kth(linked), keep, GOLD)]


def member_gold(member: dict) -> list[tuple[str, str, str, str]]:
    """(name, kind, page, anchor) of the gold on the member's pages."""
    pages = set(member["pages"])
    return [e for e in entries(Path(member["path"])) if e[2] in pages]


def score(member: dict, db: sqlite3.Connection) -> dict:
    return score_gold(member_gold(member), set(member["pages"]), db)
