"""The zoo's Scaladoc family: Scala 2.11's API pages (scala-doc).

Members: a project of the build each (``PROJECTS``): the compiler's and scalap's pages tuned
on, the library's, reflect's and the actors' checked (the check half came first and stays). Per project, the pages its index links
a documented thing to, sorted by path, every k-th so that at most ``PAGES_PER_PROJECT`` are
kept, with the index pages beside them (``index/index-*.html``, and ``index.html``, the frame
whose package list ``index.js`` draws) and that search index (``index.js``).

Gold: Scaladoc's own index, ``index/index-*.html``: each entry names a thing and links the
page of each owner that declares it (a class, trait or object page for a member, the
package's page for a type), the thing defined on each page it links to (``List.map`` on
``scala/collection/immutable/List.html``). Its kind and anchor are those of the page's own
entry for it (``<li name="scala.io.AnsiColor#RED">``, its ``<span class="kind">``: def,
val, class, trait, object, type...), "member" where the page has none. A name of symbols
alone (``!=``, ``++``) has no key: left out.
"""

from __future__ import annotations

import re
import sqlite3
from html import unescape
from pathlib import Path

from bench.docs_zoo.family_common import every_kth, keyed, score_gold, zoo_member

NAME = "scaladoc"
PACKAGES = ("scala-doc",)
ROOT = Path("/usr/share/doc/scala-2.11/api")
PROJECTS = (("compiler", "tune"), ("scalap", "tune"), ("library", "check"), ("reflect", "check"), ("actors", "check"))
RELATIONS = "off"  # ingested as LaTeX is: the relation pass writes claims, never the entities scored
INDEX_PAGES = ("index/index-*.html", "index.html")
SEARCH = ("index.js",)
# <div class="entry"><div class="name">map</div><div class="occurrences"><a href="../scala/Option.html"
#   class="extype" name="scala.Option">Option</a> ...</div></div>
_ENTRY = re.compile(r'<div class="entry">\s*<div class="name">(.*?)</div>\s*<div class="occurrences">(.*?)</div>',
                    re.DOTALL)
_TAG = re.compile(r"<[^>]+>")  # a deprecated member's name is struck through: <strike>ArrayArgument</strike>
_OCCURRENCE = re.compile(r'<a href="(?:\.\./)?([^"#]+)" class="extype" name="([^"]+)">(.*?)</a>')
# <li name="scala.io.AnsiColor#RED" visbl="pub" ...> <a id="RED:String"></a> ... <span class="kind">val</span>
_MEMBER = re.compile(r'<li name="([^"]+)"[^>]*>\s*<a id="([^"]*)"></a>.*?<span class="kind">(\w+)</span>', re.DOTALL)


def index_entries(folder: Path) -> list[tuple[str, str, str]]:
    """(name, owner, page) of every occurrence in the project's index pages."""
    out = set()
    for path in sorted((folder / "index").glob("index-*.html")):
        for name, occurrences in _ENTRY.findall(path.read_text(encoding="utf-8", errors="replace")):
            for page, owner, _ in _OCCURRENCE.findall(occurrences):
                out.add((unescape(_TAG.sub("", name)), owner, page))
    return sorted(out)


def _page_members(path: Path) -> dict[str, tuple[str, str]]:
    """The page's own entries: "owner#name" or "package.name" -> (anchor, kind)."""
    if not path.is_file():
        return {}
    return {unescape(li): (unescape(anchor), kind)
            for li, anchor, kind in _MEMBER.findall(path.read_text(encoding="utf-8", errors="replace"))}


def entries(folder: Path, pages: set[str] | None = None) -> list[tuple[str, str, str, str]]:
    """(Owner.name, kind, page, anchor) of the index's occurrences (on ``pages`` only, if given)."""
    members: dict[str, dict] = {}
    out = []
    for name, owner, page in index_entries(folder):
        if pages is not None and page not in pages:
            continue
        if page not in members:
            members[page] = _page_members(folder / page)
        anchor, kind = members[page].get(f"{owner}#{name}") or members[page].get(f"{owner}.{name}") or ("", "member")
        out.append((f"{owner.rpartition('.')[2]}.{name}", kind, page, anchor))
    return sorted(keyed(out))


def assemble(zoo: Path, halves: tuple[str, ...] = ("tune", "check")) -> list[dict]:
    """The members of ``halves``: each project's pages copied into the zoo, and their entries."""
    members = []
    for project, half in PROJECTS:
        if half not in halves:
            continue
        source = ROOT / project
        if not (source / "index").is_dir():
            print(f"{NAME}/{project}: {PACKAGES[0]} not installed, left out")
            continue
        linked = sorted({page for _, _, page in index_entries(source) if (source / page).is_file()})
        keep = sorted(p.relative_to(source).as_posix() for p in (source / "index").glob("index-*.html")) \
            + ["index.html", *SEARCH]
        members.append(zoo_member(zoo, NAME, project, PACKAGES[0], half, source, every_kth(linked), keep,
                                  "index/index-*.html"))
    return members


def member_gold(member: dict) -> list[tuple[str, str, str, str]]:
    """(name, kind, page, anchor) of the gold on the member's pages."""
    pages = set(member["pages"])
    return [e for e in entries(Path(member["path"]), pages) if e[2] in pages]


def score(member: dict, db: sqlite3.Connection) -> dict:
    return score_gold(member_gold(member), set(member["pages"]), db)
