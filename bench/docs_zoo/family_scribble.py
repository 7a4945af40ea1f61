"""The zoo's Scribble family: Racket's manuals (racket-doc), checked.

Members: a manual each (``MANUALS``). Per manual, its pages with a gold entry, sorted by
path, every k-th so that at most ``PAGES_PER_PROJECT`` are kept, with its listing pages
beside them (``doc-index.html``, the manual's index; ``index.html``, its first page and
contents). The installation's search index (``search/plt-index.js``, every manual's) lies
outside a manual's folder: no member holds it.

Gold: the package ships no list per page, so it is read from the pages (``entries``) and
committed (``golds/scribble.json``, ``python -m bench.docs_zoo.write_golds``). The rule: a
definition box (``<table class="boxed RBoxed">``, its label the kind: procedure, syntax,
parameter, value, struct, class, interface, constructor, method...) defines each name whose
anchor (``<a name="(def._((lib._racket/list..rkt)._first))">``) is followed by the link that
marks the defining occurrence (``class="RktValDef ..."``, ``RktStxDef``...): the link's text
on its page. A method is named with its class (``frame%.show``: the anchor's
``(meth._(((lib._mred/main..rkt)._frame~25)._show))``); one name once per page. A name of
symbols alone (``<=``, ``...``) has no key: left out.
"""

from __future__ import annotations

import re
import sqlite3
from html import unescape
from pathlib import Path

from bench.docs_zoo.family_common import committed_gold, every_kth, keyed, score_gold, zoo_member

NAME = "scribble"
PACKAGES = ("racket-doc",)
ROOT = Path("/usr/share/doc/racket")
MANUALS = ("reference", "gui", "net")
RELATIONS = "off"  # ingested as LaTeX is: the relation pass writes claims, never the entities scored
INDEX_PAGES = ("doc-index.html", "index.html")
_BOX = re.compile(r'<table cellspacing="0" cellpadding="0" class="boxed RBoxed">(.*?)</table></blockquote>',
                  re.DOTALL)
_LABEL = re.compile(r'<div class="RBackgroundLabelInner"><p>([^<]*)</p>')
# <a name="(def._((quote._~23~25kernel)._pair~3f))"></a><span ...><span class="RktSym"><a href="..."
#   class="RktValDef RktValLink" data-pltdoc="x">pair?</a>
_DEFINED = re.compile(r'<a name="(\([^"]+\))"></a>(?:<span[^>]*>)*<a [^>]*class="Rkt\w*Def[^"]*"[^>]*>(.*?)</a>',
                      re.DOTALL)
_METHOD_OWNER = re.compile(r"^\((?:x?meth)\._\(\(\([^)]*\)\._([^)]+)\)")


def _decode(part: str) -> str:
    """Scribble's anchor escapes: ``~25`` is ``%``, ``~3f`` is ``?``, ``~7e`` is ``~``."""
    return re.sub(r"~([0-9a-fA-F]{2})", lambda m: chr(int(m.group(1), 16)), part)


def page_entries(html: str) -> list[tuple[str, str, str]]:
    """(name, kind, anchor) of the things a page's definition boxes define (the module's rule)."""
    out, seen = [], set()
    for box in _BOX.findall(html):
        label = _LABEL.search(box)
        kind = label.group(1) if label else "definition"
        for anchor, text in _DEFINED.findall(box):
            name = unescape(re.sub(r"<[^>]+>", "", text)).strip()
            owner = _METHOD_OWNER.match(unescape(anchor))
            if owner:
                name = f"{_decode(owner.group(1))}.{name}"
            if name and name not in seen:
                seen.add(name)
                out.append((name, kind, unescape(anchor)))
    return out


def entries(root: Path, pages: list[str]) -> list[tuple[str, str, str, str]]:
    """(name, kind, page, anchor) of the gold on ``pages`` (relative to ``root``)."""
    return sorted(keyed([(name, kind, page, anchor) for page in pages
                         for name, kind, anchor in page_entries((root / page).read_text(encoding="utf-8"))]))


def chosen_pages(manual: str, root: Path = ROOT) -> list[str]:
    """The manual's capped pages (paths relative to ``root``): those with a gold entry, every k-th."""
    pages = sorted(p.relative_to(root).as_posix() for p in (root / manual).glob("*.html")
                   if p.name not in INDEX_PAGES)
    return every_kth([p for p in pages if page_entries((root / p).read_text(encoding="utf-8"))])


def assemble(zoo: Path) -> list[dict]:
    members = []
    for manual in MANUALS:
        if not (ROOT / manual / "index.html").is_file():
            print(f"{NAME}/{manual}: {PACKAGES[0]} not installed, left out")
            continue
        pages = [p.removeprefix(f"{manual}/") for p in chosen_pages(manual)]
        members.append(zoo_member(zoo, NAME, manual, PACKAGES[0], "check", ROOT / manual, pages,
                                  [p for p in INDEX_PAGES if (ROOT / manual / p).is_file()], "golds/scribble.json"))
    return members


def member_gold(member: dict) -> list[tuple[str, str, str, str]]:
    """(name, kind, page, anchor) of the gold on the member's pages: the committed gold of its
    manual, its pages relative to the member's folder."""
    prefix, pages = f"{member['project']}/", set(member["pages"])
    own = [(n, k, p.removeprefix(prefix), a) for n, k, p, a in committed_gold(NAME) if p.startswith(prefix)]
    return [e for e in own if e[2] in pages]


def score(member: dict, db: sqlite3.Connection) -> dict:
    return score_gold(member_gold(member), set(member["pages"]), db)
