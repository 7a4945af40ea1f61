"""The zoo's MkDocs family: mkdocs-doc (MkDocs' own documentation, built by MkDocs), and
three more projects built by MkDocs, tuned on whole: Python-Markdown's documentation
(python-markdown-doc, its own theme), Django REST framework's (python-djangorestframework-doc,
its own theme) and mkdocs-literate-nav's (mkdocs-literate-nav-doc, the Material theme).

mkdocs-doc is split by page (as man is): the pages its search index names a thing on,
capped, sorted by path; even positions tuned on, odd ones checked, each half a member folder
with the index (and the ``objects.inv`` mkdocstrings wrote for its API pages). Every other
project is a tune member of its capped pages (every k-th), with its index. Gold:
``search/search_index.json`` (read here with json), its pages and headings whose title names a
thing as code is written (crossbook's ``heading_names``, the rule of what such an index
defines): the name defined on its page.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from bench.docs_zoo.family_common import every_kth, halves_by_page, score_gold, zoo_member
from crossbook.readers.inventories.heading_names import heading_names

NAME = "mkdocs"
PACKAGES = ("mkdocs-doc", "python-markdown-doc", "python-djangorestframework-doc", "mkdocs-literate-nav-doc")
ROOT = Path("/usr/share/doc/mkdocs/html")
# (project, package, installed folder): tuned on whole
TUNE_PROJECTS = [("python-markdown", "python-markdown-doc", Path("/usr/share/doc/python-markdown-doc/docs")),
                 ("djangorestframework", "python-djangorestframework-doc",
                  Path("/usr/share/doc/python3-djangorestframework/html")),
                 ("mkdocs-literate-nav", "mkdocs-literate-nav-doc", Path("/usr/share/doc/mkdocs-literate-nav-doc/html"))]
INDEX = "search/search_index.json"
INVENTORY_FILES = ("objects.inv",)  # its search index goes as every search file does (family_common)


def gold(folder: Path) -> list[tuple[str, str, str]]:
    out = []
    for doc in json.loads((folder / INDEX).read_text(encoding="utf-8"))["docs"]:
        location, _, anchor = doc["location"].partition("#")
        page = location + "index.html" if not location or location.endswith("/") else location
        out.extend((name, "section" if anchor else "page", page) for name in heading_names(doc["title"]))
    return out


def _linked(folder: Path) -> list[str]:
    return sorted({page for _, _, page in gold(folder) if (folder / page).is_file() and page != "404.html"})


def assemble(zoo: Path) -> list[dict]:
    members = []
    if (ROOT / INDEX).is_file():
        members += halves_by_page(zoo, NAME, PACKAGES[0], "mkdocs", ROOT, _linked(ROOT), [INDEX, "objects.inv"], INDEX)
    else:
        print(f"{NAME}: {PACKAGES[0]} not installed, left out")
    for project, package, folder in TUNE_PROJECTS:
        if not (folder / INDEX).is_file():
            print(f"{NAME}/{project}: {package} not installed, left out")
            continue
        keep = [INDEX, *(f for f in INVENTORY_FILES if (folder / f).is_file())]
        members.append(zoo_member(zoo, NAME, project, package, "tune", folder, every_kth(_linked(folder)), keep, INDEX))
    return members


def score(member: dict, db: sqlite3.Connection) -> dict:
    return score_gold(gold(Path(member["path"])), set(member["pages"]), db)
