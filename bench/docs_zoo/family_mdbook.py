"""The zoo's mdBook family: the books rust-doc installs.

Members: a book each, split by book: sorted by name, the first half tuned on, the rest checked.
Gold: each book's ``searchindex.js`` (its headings, read here with json), the headings whose
title names a thing as code is written (crossbook's ``heading_names``: the rule of what such an
index defines; a book whose headings are all prose, like The Rust Programming Language, has
no gold and is left out): the name defined on the heading's page.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from bench.docs_zoo.family_common import every_kth, score_gold, zoo_member
from crossbook.readers.inventories.heading_names import heading_names

NAME = "mdbook"
PACKAGES = ("rust-doc",)
ROOT = Path("/usr/share/doc/rust-doc/html")
BOOKS = ("book", "edition-guide", "embedded-book", "nomicon", "reference", "rust-by-example", "rustc", "rustdoc",
         "unstable-book")


def gold(folder: Path) -> list[tuple[str, str, str]]:
    """(name, "heading", page) of each heading of the index whose title names a thing."""
    text = (folder / "searchindex.js").read_text(encoding="utf-8")
    index = json.loads(text[text.index("{"):text.rindex("}") + 1])
    docs = index["index"]["documentStore"]["docs"]
    out = []
    for i, url in enumerate(index["doc_urls"]):
        title = docs.get(str(i), {}).get("title", "")
        out.extend((name, "heading", url.partition("#")[0]) for name in heading_names(title))
    return out


def assemble(zoo: Path) -> list[dict]:
    members = []
    for position, book in enumerate(BOOKS):
        source = ROOT / book
        if not (source / "searchindex.js").is_file():
            print(f"{NAME}/{book}: {PACKAGES[0]} not installed, left out")
            continue
        linked = sorted({page for _, _, page in gold(source) if (source / page).is_file()})
        if not linked:
            print(f"{NAME}/{book}: no heading names a thing, left out")
            continue
        members.append(zoo_member(zoo, NAME, book, PACKAGES[0], "tune" if position < len(BOOKS) // 2 else "check",
                              source, every_kth(linked), ["searchindex.js", "book.js"], "searchindex.js"))
    return members


def score(member: dict, db: sqlite3.Connection) -> dict:
    return score_gold(gold(Path(member["path"])), set(member["pages"]), db)
