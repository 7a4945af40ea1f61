"""The zoo's Javadoc family: Apache Commons Lang's API pages (libcommons-lang3-java-doc).

One project, so split by page (the man pages' rule): the pages Javadoc's ``index-all.html``
links a documented thing to, sorted by path, every k-th so that at most ``PAGES_PER_PROJECT``
are kept; of those, even positions tuned on, odd ones checked. Each half is a folder of its
pages with the build's inventories beside them (``member-search-index.js``,
``type-search-index.js``, ``element-list``) and ``index-all.html``, the gold: every class,
interface, enum, method, constructor, field and constant it lists, its name defined on the
page it links to.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
from pathlib import Path
from urllib.parse import unquote

from bench.docs_zoo import families as F
from bench.docs_zoo.family_common import halves_by_page, score_gold

HERE = Path(__file__).resolve().parent

NAME = "javadoc"
PACKAGES = ("libcommons-lang3-java-doc",)
ROOT = F.DOC / "libcommons-lang3-java" / "api"
GOLD = "index-all.html"
INVENTORY = ("member-search-index.js", "type-search-index.js")
MARKERS = ("element-list",)

# <dt><a href="org/x/StringUtils.html#isBlank(...)" class="member-name-link">isBlank(CharSequence)</a> - Static method in
_DT = re.compile(r'<dt><a href="([^"#]+)(?:#([^"]*))?" class="(?:member|type)-name-link"[^>]*>([^<]+)</a>'
                 r'(?:&lt;.*?&gt;)?\s*-\s*([A-Za-z ]+?)\s+(?:in|for)\s')


def index_all(path: Path) -> list[tuple[str, str, str]]:
    """(name, kind, page) of every entry of ``index-all.html``: a member named with its
    class (``StringUtils.isBlank``), a type by its own name; the kind is what the index calls
    it ("Static method": method; "Enum constant": enum constant)."""
    out = []
    for page, anchor, label, said in _DT.findall(path.read_text(encoding="utf-8", errors="replace")):
        kind = said.lower().removeprefix("static ")
        if page.endswith("package-summary.html"):
            continue
        own = label.partition("(")[0].strip()
        owner = Path(page).stem
        name = f"{owner}.{own}" if anchor or "(" in label else own
        out.append((name, kind, unquote(page)))
    return out


def assemble(zoo: Path) -> list[dict]:
    if not (ROOT / GOLD).is_file():
        print(f"{NAME}: {PACKAGES[0]} not installed, left out")
        return []
    linked = sorted({page for _, _, page in index_all(ROOT / GOLD) if (ROOT / page).is_file()})
    return halves_by_page(zoo, NAME, PACKAGES[0], "lang3", ROOT, linked, [GOLD, *INVENTORY, *MARKERS], GOLD)


def bare_copy(folder: Path, target: Path) -> Path:
    """The half without its inventories: the search indexes, and the member index that
    crossbook reads where they are missing (the gold is read from the member's own folder)."""
    shutil.copytree(folder, target, ignore=shutil.ignore_patterns(*INVENTORY, GOLD))
    return target


def score(member: dict, db: sqlite3.Connection) -> dict:
    return score_gold(index_all(Path(member["path"]) / member["gold"]), set(member["pages"]), db)
