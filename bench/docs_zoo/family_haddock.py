"""The zoo's Haddock family: GHC's library pages (ghc-doc), tuned on.

Members: a library each (``LIBRARIES``). Per library, the module pages its index links a
documented thing to, sorted by path, every k-th so that at most ``PAGES_PER_PROJECT`` are
kept, with the library's index pages beside them (``doc-index*.html``, and ``index.html``,
its list of modules) and its search index (``doc-index.json.gz``, the quick-jump data).

Gold: Haddock's own index, ``doc-index-All.html`` (or, in a small library, ``doc-index.html``
and its letter pages): every row names a thing and links each module page that documents
it (``Data-Set.html#v:insert``), the thing defined on each page it links to. Its kind is the
row's own ("Function", "Type/Class", "Data Constructor"...), else the anchor's namespace
(``v:`` a value, ``t:`` a type or class). A module the row names without a link only
re-exports it: no page of it. A name of symbols alone (``!!``, ``//``) has no key: left out.
"""

from __future__ import annotations

import re
import sqlite3
from html import unescape
from pathlib import Path

from bench.docs_zoo.family_common import every_kth, keyed, score_gold, zoo_member

NAME = "haddock"
PACKAGES = ("ghc-doc",)
ROOT = Path("/usr/share/doc/ghc-doc/html/libraries")
LIBRARIES = ("containers-0.6.4.1", "parsec-3.1.14.0", "text-1.2.5.0")
RELATIONS = "off"  # ingested as LaTeX is: the relation pass writes claims, never the entities scored
INDEX_PAGES = ("doc-index*.html", "index.html")
SEARCH = ("doc-index.json.gz",)
# <tr><td class="src">adjust</td><td class="module"><a href="Data-Set.html#v:adjust" ...>Data.Set</a></td></tr>
# <tr><td class="alt">1 (Function)</td><td class="module">...</td></tr>
_ROW = re.compile(r'<tr><td class="(src|alt)">(.*?)</td><td(?: class="module")?>(.*?)</td></tr>', re.DOTALL)
_LINK = re.compile(r'<a href="([^"#]+)#([^"]+)"')
_NAMESPACE = {"v": "value", "t": "type"}


def _index_files(folder: Path) -> list[Path]:
    whole = folder / "doc-index-All.html"
    return [whole] if whole.is_file() else sorted(folder.glob("doc-index*.html"))


def entries(folder: Path) -> list[tuple[str, str, str, str]]:
    """(name, kind, page, anchor) of every link of the library's index, once each."""
    out = set()
    for path in _index_files(folder):
        name, kind = "", None
        for cls, cell, links in _ROW.findall(path.read_text(encoding="utf-8", errors="replace")):
            if cls == "src":
                name, kind = unescape(re.sub(r"<[^>]+>", "", cell)).strip(), None
            else:
                said = re.search(r"\((.+?)\)", cell)
                kind = said.group(1) if said else None
            for page, anchor in _LINK.findall(links):
                out.add((name, kind or _NAMESPACE.get(anchor[:1], "other"), page, anchor))
    return sorted(keyed(out))


def assemble(zoo: Path) -> list[dict]:
    members = []
    for library in LIBRARIES:
        source = ROOT / library
        if not (source / "doc-index.html").is_file():
            print(f"{NAME}/{library}: {PACKAGES[0]} not installed, left out")
            continue
        linked = sorted({page for _, _, page, _ in entries(source) if (source / page).is_file()})
        keep = sorted(p.name for p in source.glob("doc-index*.html")) + ["index.html"] \
            + [s for s in SEARCH if (source / s).is_file()]
        members.append(zoo_member(zoo, NAME, library.rpartition("-")[0], PACKAGES[0], "tune", source,
                                  every_kth(linked), keep, "doc-index.html"))
    return members


def member_gold(member: dict) -> list[tuple[str, str, str, str]]:
    """(name, kind, page, anchor) of the gold on the member's pages."""
    pages = set(member["pages"])
    return [e for e in entries(Path(member["path"])) if e[2] in pages]


def score(member: dict, db: sqlite3.Connection) -> dict:
    return score_gold(member_gold(member), set(member["pages"]), db)
