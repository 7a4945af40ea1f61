"""The zoo's Node.js family: the runtime's API pages (nodejs-doc), tuned on.

One project: its module pages (``all.html``, every page on one, and ``index.html``, the
contents, aside), sorted by path, every k-th so that at most ``PAGES_PER_PROJECT`` are kept,
each with the machine-readable copy the build writes beside it (``fs.json.gz``, data no page
reads: the bare copy leaves it out), and ``index.html`` beside them as the listing page.

Gold: the package ships no list of what it documents, so it is read from the pages
(``entries``) and committed (``golds/nodejs.json``, ``python -m bench.docs_zoo.write_golds``).
The rule: a section heading (``<h3>`` to ``<h6>``, each with its ``<a class="mark" id=...>``)
whose whole text is one ``<code>`` element, alone or after a label that names its kind
(``Class:``, ``Event:``, ``Static method:``, ``Class property:``, ``Constructor:``), defines
the thing the code names, on its page:

- the name is the code up to its arguments, index or value, less ``new`` and quotes:
  ``path.basename(path[, suffix])`` is ``path.basename``, ``new fs.Dir()`` is ``fs.Dir``,
  ``'close'`` is ``close``, ``--inspect[=[host:]port]`` is ``--inspect``,
  ``NODE_OPTIONS=options...`` is ``NODE_OPTIONS``;
- the kind is the label's (``class``, ``event``...), else ``constructor`` after ``new``,
  ``method`` where the code calls,
  ``option`` where it opens with ``-``, ``constant`` in capitals, ``property`` otherwise;
- one name once per page (a page's several ``'close'`` events are one name there).

Left out: headings of prose ("Windows vs. POSIX"), of prose around code ("`node:buffer`
module APIs"), of several code elements (``-C condition``, ``--conditions=condition``), and a
deprecation's heading (``DEP0005: Buffer() constructor``: a code of the notice, not a
definition of the thing, which is documented on its own page).
"""

from __future__ import annotations

import re
import sqlite3
from html import unescape
from pathlib import Path

from bench.docs_zoo.family_common import committed_gold, every_kth, keyed, score_gold, zoo_member

NAME = "nodejs"
PACKAGES = ("nodejs-doc",)
ROOT = Path("/usr/share/doc/nodejs/api")
RELATIONS = "off"  # ingested as LaTeX is: the relation pass writes claims, never the entities scored
INDEX_PAGES = ("index.html",)
WHOLE = "all.html"  # every page on one: a duplicate of the set, not copied
# <h3><code>path.basename(path[, suffix])</code><span><a class="mark" href="#pathbasename..." id="pathbasename...">#</a>
_HEADING = re.compile(r'<h([3-6])>(.*?)<span><a class="mark" href="#[^"]*" id="([^"]+)">#</a></span>', re.DOTALL)
_ONE_CODE = re.compile(r"(?:([A-Z][a-z]+(?: [a-z]+)?):\s*)?<code>([^<]*)</code>\s*")
_CUT = re.compile(r"[(\[=\s]")


def _name(code: str) -> str:
    text = unescape(code).strip().removeprefix("new ").strip("'\"`")
    cut = _CUT.search(text, 1)
    return text[:cut.start()] if cut else text


def _kind(label: str | None, code: str) -> str:
    if label:
        return label.lower()
    text = unescape(code).strip()
    if text.startswith("new "):
        return "constructor"
    if text.startswith("-"):
        return "option"
    if re.match(r"(?:new\s+)?[\w.$\[\]]+\(", text):
        return "method"
    return "constant" if re.fullmatch(r"[A-Z0-9_]+", _name(code)) else "property"


def page_entries(html: str) -> list[tuple[str, str, str]]:
    """(name, kind, anchor) of the things a page's headings define (the module's rule)."""
    out, seen = [], set()
    for _, inner, anchor in _HEADING.findall(html):
        found = _ONE_CODE.fullmatch(inner.strip())
        if not found or not _name(found.group(2)):
            continue
        name = _name(found.group(2))
        if name not in seen:
            seen.add(name)
            out.append((name, _kind(found.group(1), found.group(2)), anchor))
    return out


def entries(root: Path, pages: list[str]) -> list[tuple[str, str, str, str]]:
    """(name, kind, page, anchor) of the gold on ``pages`` of ``root``."""
    return sorted(keyed([(name, kind, page, anchor) for page in pages
                         for name, kind, anchor in page_entries((root / page).read_text(encoding="utf-8"))]))


def chosen_pages(root: Path = ROOT) -> list[str]:
    """The capped pages: every module page with a gold entry, every k-th."""
    pages = sorted(p.name for p in root.glob("*.html") if p.name not in (WHOLE, *INDEX_PAGES))
    return every_kth([p for p in pages if page_entries((root / p).read_text(encoding="utf-8"))])


def assemble(zoo: Path) -> list[dict]:
    if not (ROOT / "index.html").is_file():
        print(f"{NAME}: {PACKAGES[0]} not installed, left out")
        return []
    pages = chosen_pages()
    data = [f.name for p in pages for f in ROOT.glob(f"{Path(p).stem}.json*")]
    return [zoo_member(zoo, NAME, "node", PACKAGES[0], "tune", ROOT, pages, [*INDEX_PAGES, *data],
                       "golds/nodejs.json")]


def member_gold(member: dict) -> list[tuple[str, str, str, str]]:
    """(name, kind, page, anchor) of the gold on the member's pages."""
    pages = set(member["pages"])
    return [e for e in map(tuple, committed_gold(NAME)) if e[2] in pages]


def score(member: dict, db: sqlite3.Connection) -> dict:
    return score_gold(member_gold(member), set(member["pages"]), db)
