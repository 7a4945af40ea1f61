"""The zoo's rustdoc family: cargo-doc's crates (the rustdoc build of cargo's dependencies).

Members: a crate each (crates.js's order), split by crate: the first half tuned on, the rest
checked. Gold: rustdoc's ``search-index.js``, decoded here independently of crossbook's reader
(its compact columns: types, names, paths, parents), every item rustdoc gives a page or an
anchor: its name defined on that page.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

from bench.docs_zoo.family_common import every_kth, score_gold, zoo_member

NAME = "rustdoc"
PACKAGES = ("cargo-doc",)
ROOT = Path("/usr/share/doc/cargo/doc")
# rustdoc's item types by number (the index's "t"): the prefix of their page or anchor
TYPES = ("mod externcrate import struct enum fn type static trait impl tymethod method structfield variant macro"
         " primitive associatedtype constant associatedconstant union foreigntype keyword opaque attr derive"
         " traitalias").split()
UNPAGED = {"externcrate", "import", "impl", "opaque"}


def _index(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    body = re.search(r"JSON\.parse\('((?:[^'\\]|\\.)*)'\)", text, re.DOTALL).group(1)
    return json.loads(re.sub(r"\\(.)", lambda m: "" if m.group(1) == "\n" else m.group(1), body, flags=re.DOTALL))


def gold(folder: Path) -> list[tuple[str, str, str]]:
    """(path::name, item type, page) of every item of every crate in the index."""
    out = []
    for crate, data in _index(next(folder.glob("search-index*.js"))).items():
        path = crate
        for i, name in enumerate(data["n"]):
            path = data["q"][i] or path
            kind = TYPES[data["t"][i]]
            folder_path = path.replace("::", "/")
            if kind in UNPAGED or name.isdigit():
                continue
            if data["i"][i]:
                ptype, parent = data["p"][data["i"][i] - 1]
                page = f"{folder_path}/{TYPES[ptype]}.{parent}.html"
                if TYPES[ptype] == "variant":
                    page = f"{folder_path.rpartition('/')[0]}/enum.{folder_path.rpartition('/')[2]}.html"
                out.append((f"{path}::{parent}::{name}", kind, page))
            elif kind == "mod":
                out.append((f"{path}::{name}", kind, f"{folder_path}/{name}/index.html"))
            else:
                out.append((f"{path}::{name}", kind, f"{folder_path}/{kind}.{name}.html"))
    return out


def assemble(zoo: Path) -> list[dict]:
    crates_js = ROOT / "crates.js"
    if not crates_js.is_file():
        print(f"{NAME}: {PACKAGES[0]} not installed, left out")
        return []
    crates = json.loads(re.search(r"\[.*\]", crates_js.read_text(encoding="utf-8")).group(0))
    entries = gold(ROOT)
    members = []
    for position, crate in enumerate(crates):
        linked = sorted({page for _, _, page in entries if page.startswith(f"{crate}/") and (ROOT / page).is_file()})
        pages = every_kth(linked)
        if not pages:
            continue
        members.append(zoo_member(zoo, NAME, crate, PACKAGES[0], "tune" if position < len(crates) // 2 else "check",
                              ROOT, pages, ["search-index.js", "crates.js"], "search-index.js"))
    return members


def score(member: dict, db: sqlite3.Connection) -> dict:
    return score_gold(gold(Path(member["path"])), set(member["pages"]), db)
