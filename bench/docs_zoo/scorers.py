"""One scorer per gold kind. Each takes a member of the zoo (zoo.json) and the shelf built
from it, and returns (found, total) pairs; rows of detail go in "misses" (a few, to read)."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from bench.docs_zoo.gold import back_index, devhelp_keywords, sphinx_inventory
from bench.eval_docs import names_by_page
from crossbook.core.normalize import normalize_name

HERE = Path(__file__).resolve().parent

# structure, not things documented: a page's title, its sections' labels, a function's parameters
SPHINX_STRUCTURE = {"std:doc", "std:label", "c:functionParam", "cpp:functionParam", "cpp:templateParam", "js:param"}


def forms(name: str) -> set[str]:
    """The name, and its last part after a dot, ``::`` or ``#`` (a method by its own name)."""
    last = re.split(r"\.|::|#", name.rstrip("()"))[-1]
    return {normalize_name(name), normalize_name(last)} - {""}


def score_entries(entries, pages: set[str], by_page: dict[str, set[str]], key_of) -> dict:
    out = {"found": 0, "total": 0, "by_kind": {}, "misses": []}
    for name, kind, page in entries:
        if page not in pages:
            continue
        hit = bool(forms(name) & by_page.get(page, set()))
        group = key_of(kind)
        counts = out["by_kind"].setdefault(group, [0, 0])
        counts[0] += hit
        counts[1] += 1
        out["found"] += hit
        out["total"] += 1
        if not hit and len(out["misses"]) < 8:
            out["misses"].append(f"{kind} {name} ({page})")
    return out


def sphinx(member: dict, db: sqlite3.Connection) -> dict:
    """objects.inv: every entry but the pages' and labels' own, on its page."""
    entries = [e for e in sphinx_inventory(Path(member["path"]) / member["gold"]) if e[1] not in SPHINX_STRUCTURE]
    code = ("py:", "c:", "cpp:", "js:")
    return score_entries(entries, set(member["pages"]), names_by_page(db),
                          lambda role: "code" if role.startswith(code) or role == "std:cmdoption" else "own roles")


def devhelp(member: dict, db: sqlite3.Connection) -> dict:
    """A gtk-doc build's devhelp2 keywords, each on the page it links to."""
    entries = devhelp_keywords(Path(member["path"]) / member["gold"])
    return score_entries(entries, set(member["pages"]), names_by_page(db), lambda kind: kind)


def name_lines(member: dict, db: sqlite3.Connection) -> dict:
    """A man page's NAME line: the first name it gives defined on the page."""
    by_page = names_by_page(db)
    out = {"found": 0, "total": 0, "by_kind": {}, "misses": []}
    for page, names in member["names"].items():
        hit = normalize_name(names[0]) in by_page.get(page, set())
        out["found"] += hit
        out["total"] += 1
        if not hit and len(out["misses"]) < 8:
            out["misses"].append(f"{names[0]} ({page})")
    return out


def back_indexes(members: list[dict], db: sqlite3.Connection) -> dict:
    """A manual's back index: each entry found as an entity of its book (by its name or an
    alias), and mentioned in a section on a page it lists (a code-line index: found only)."""
    titles = {Path(p).name: t for t, p in db.execute("SELECT title, path FROM books")}
    out = {"found": 0, "total": 0, "placed": 0, "placed_total": 0, "books": {}, "misses": []}
    for member in members:
        pdf = Path(member["path"])
        book = titles.get(pdf.name)
        gold = back_index(pdf)
        if book is None or not gold:
            continue
        spans: dict[str, list[tuple[int, int]]] = {}
        for key, start, end in db.execute(
                "SELECT e.normalized, c.page_start, c.page_end FROM entity_mentions m JOIN entities e"
                " ON e.id = m.entity_id JOIN chunks c ON c.id = m.chunk_id WHERE m.book = ?", [book]):
            spans.setdefault(key, []).append((start or 0, end or 0))
        # an entity's aliases are its names too (the index's "\\layerwidth" of the text's "layerwidth")
        for key, start, end in db.execute(
                "SELECT a.normalized, c.page_start, c.page_end FROM entity_aliases a JOIN chunks c"
                " ON c.id = a.chunk_id WHERE a.book = ?", [book]):
            spans.setdefault(key, []).append((start or 0, end or 0))
        found = placed = 0
        for name, _, pages in gold:
            where = spans.get(normalize_name(name), [])
            found += bool(where)
            placed += any(lo <= p <= hi for lo, hi in where for p in pages)
            if not where and len(out["misses"]) < 12:
                out["misses"].append(f"{name} ({pdf.stem})")
        code_lines = member.get("code_lines", False)
        out["books"][pdf.stem] = (found, None if code_lines else placed, len(gold))
        out["found"] += found
        out["total"] += len(gold)
        if not code_lines:
            out["placed"] += placed
            out["placed_total"] += len(gold)
    return out


# the families in their own modules (family_*.py) score their entries on their pages alike
