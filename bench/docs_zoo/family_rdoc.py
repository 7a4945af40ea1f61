"""The zoo's RDoc family: asciidoctor-doc (Asciidoctor's Ruby API, built by RDoc's darkfish).

One project, so split by page (as man is): the pages its index points at, capped, sorted by
path; even positions tuned on, odd ones checked, each half a member folder with the index.
Gold: ``js/search_index.js`` (read here with json): every class, module and method, its name
(a method ``Owner#name`` or ``Owner.name``) defined on the page it points at.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from bench.docs_zoo.family_common import halves_by_page, score_gold

NAME = "rdoc"
PACKAGES = ("asciidoctor-doc",)
ROOT = Path("/usr/share/doc/asciidoctor-doc/html")
INDEX = "js/search_index.js"


def gold(folder: Path) -> list[tuple[str, str, str]]:
    text = (folder / INDEX).read_text(encoding="utf-8")
    out = []
    for name, parent, url, *_ in json.loads(text[text.index("{"):text.rindex("}") + 1])["index"]["info"]:
        page, _, anchor = url.partition("#")
        if not anchor:
            out.append((name, "class or module", page))
        else:
            kind = "class method" if anchor.startswith("method-c-") else "method"
            out.append((f"{parent}{'.' if kind == 'class method' else '#'}{name}", kind, page))
    return out


def assemble(zoo: Path) -> list[dict]:
    if not (ROOT / INDEX).is_file():
        print(f"{NAME}: {PACKAGES[0]} not installed, left out")
        return []
    linked = sorted({page for _, _, page in gold(ROOT) if (ROOT / page).is_file()})
    return halves_by_page(zoo, NAME, PACKAGES[0], "asciidoctor", ROOT, linked, [INDEX], INDEX)


def score(member: dict, db: sqlite3.Connection) -> dict:
    return score_gold(gold(Path(member["path"])), set(member["pages"]), db)
