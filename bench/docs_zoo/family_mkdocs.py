"""The zoo's MkDocs family: mkdocs-doc (MkDocs' own documentation, built by MkDocs).

One project, so split by page (as man is): the pages its search index names a thing on,
capped, sorted by path; even positions tuned on, odd ones checked, each half a member folder
with the index (and the ``objects.inv`` mkdocstrings wrote for its API pages). Gold:
``search/search_index.json`` (read here with json), its pages and headings whose title names a
thing as code is written (crossbook's ``heading_names``, the rule of what such an index
defines): the name defined on its page.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from bench.docs_zoo.family_common import halves_by_page, score_gold
from crossbook.readers.inventories.heading_names import heading_names

NAME = "mkdocs"
PACKAGES = ("mkdocs-doc",)
ROOT = Path("/usr/share/doc/mkdocs/html")
INDEX = "search/search_index.json"
INVENTORY_FILES = ("objects.inv",)  # its search index goes as every search file does (family_common)


def gold(folder: Path) -> list[tuple[str, str, str]]:
    out = []
    for doc in json.loads((folder / INDEX).read_text(encoding="utf-8"))["docs"]:
        location, _, anchor = doc["location"].partition("#")
        page = location + "index.html" if not location or location.endswith("/") else location
        out.extend((name, "section" if anchor else "page", page) for name in heading_names(doc["title"]))
    return out


def assemble(zoo: Path) -> list[dict]:
    if not (ROOT / INDEX).is_file():
        print(f"{NAME}: {PACKAGES[0]} not installed, left out")
        return []
    linked = sorted({page for _, _, page in gold(ROOT) if (ROOT / page).is_file() and page != "404.html"})
    return halves_by_page(zoo, NAME, PACKAGES[0], "mkdocs", ROOT, linked, [INDEX, "objects.inv"], INDEX)


def score(member: dict, db: sqlite3.Connection) -> dict:
    return score_gold(gold(Path(member["path"])), set(member["pages"]), db)
