"""The zoo's Texinfo HTML family: the Bash Reference Manual (bash-doc, tuned on) and the
Autoconf manual (autoconf-doc, checked), each one page ``makeinfo --html --no-split`` wrote.

A manual on one page is kept whole (the cap of pages has nothing to choose). The gold is the
manual's index nodes (``@printindex``: a table ``<table class="index-vr">`` whose rows link an
entry to its anchor and name the node it is in): each entry defined in a section of the node
it names (an entry of symbols alone, Bash's ``$!`` or ``[[``, has no name crossbook keys:
left out of the gold). Ignoring the inventory is reading the page without its index tables.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
from html import unescape
from pathlib import Path

from bench.docs_zoo import families as F
from bench.eval_docs import definitions
from crossbook.core.normalize import normalize_name

HERE = Path(__file__).resolve().parent

NAME = "texinfo"
PACKAGES = ("bash-doc", "autoconf-doc")
PROJECTS = [("bash", "bash-doc", F.DOC / "bash" / "bashref.html", "tune"),
            ("autoconf", "autoconf-doc", F.DOC / "autoconf" / "autoconf.html", "check")]
_TABLE = re.compile(r'<table class="index-(\w+)".*?</table>', re.DOTALL)
# <a href="#index-BASH_005fVERSION"><code>BASH_VERSION</code></a>:</td><td>&nbsp;</td><td valign="top"><a href="#Bash-Variables">Bash Variables</a>
_ROW = re.compile(r'<a href="#index-[^"]*">(.*?)</a>:?</td><td>&nbsp;</td><td[^>]*><a href="#([^"]*)">(.*?)</a>', re.DOTALL)
# a node's element and the heading that titles it: <div class="subsection" id="Node-Name"> ... <h4 ...>8.4.8 Title</h4>
_NODE = re.compile(r'<div class="[a-z]+" id="([^"]+)">\s*(?:<div class="header">.*?</div>\s*)?(?:<span id="[^"]*"></span>)?'
                   r'<h\d[^>]*>(.*?)</h\d>', re.DOTALL)
_NUMBER = re.compile(r"^(?:[A-Z]|\d+)(?:\.\d+)*\.?\s+")


def _text(markup: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", "", markup)).split())


def index_nodes(page: Path) -> list[tuple[str, str, str]]:
    """(name, index, section) of every entry of a manual page's index tables: the section is
    the title of the node the row links to (node "Miscellaneous Commands" is titled "8.4.8
    Some Miscellaneous Commands")."""
    html = page.read_text(encoding="utf-8", errors="replace")
    titles = {node: _text(title) for node, title in _NODE.findall(html)}
    return [(name, index, titles.get(node, shown)) for name, index, node, shown in index_rows(html)]


def index_rows(html: str) -> list[tuple[str, str, str, str]]:
    """(name, index, node id, node as the row shows it) of every row of a page's index tables."""
    return [(_text(name), table.group(1), node, _text(shown)) for table in _TABLE.finditer(html)
            for name, node, shown in _ROW.findall(table.group(0))]


def without_indexes(html: str) -> str:
    """A manual's page less its index tables."""
    return _TABLE.sub("", html)


def assemble(zoo: Path) -> list[dict]:
    members = []
    for project, package, page, half in PROJECTS:
        if not page.is_file():
            print(f"{NAME}/{project}: {package} not installed, left out")
            continue
        target = zoo / NAME / project
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy(page, target / page.name)
        members.append({"family": NAME, "project": project, "package": package, "half": half,
                        "path": str(target), "gold": page.name, "pages": [page.name]})
    return members


def bare_copy(folder: Path, target: Path) -> Path:
    """The manual without its index tables."""
    target.mkdir(parents=True)
    for page in folder.glob("*.html"):
        (target / page.name).write_text(without_indexes(page.read_text(encoding="utf-8", errors="replace")),
                                        encoding="utf-8")
    return target


def _node(heading: str) -> str:
    return _NUMBER.sub("", heading.strip()).casefold()


def score(member: dict, db: sqlite3.Connection) -> dict:
    """Each entry defined in a section under the node its index row names."""
    by_node: dict[str, set[str]] = {}
    for name, entity, _, _, _, path, _, _ in definitions(db):
        for heading in (path or "").split(" > "):
            by_node.setdefault(_node(heading), set()).update({normalize_name(name), normalize_name(entity)})
    for alias, path in db.execute("SELECT a.alias, c.heading_path FROM entity_aliases a JOIN chunks c"
                                  " ON c.id = a.chunk_id"):
        for heading in (path or "").split(" > "):
            by_node.setdefault(_node(heading), set()).add(normalize_name(alias))
    out = {"found": 0, "total": 0, "by_kind": {}, "misses": []}
    for name, index, node in index_nodes(Path(member["path"]) / member["gold"]):
        if not normalize_name(name):  # a symbol ("$!", "[["): no name crossbook can key, left out
            continue
        hit = normalize_name(name) in by_node.get(_node(node), set())
        counts = out["by_kind"].setdefault(index, [0, 0])
        counts[0] += hit
        counts[1] += 1
        out["found"] += hit
        out["total"] += 1
        if not hit and len(out["misses"]) < 8:
            out["misses"].append(f"{index} {name} ({node})")
    return out
