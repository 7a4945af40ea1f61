"""The authors' links to documented things, and how widely one name is defined.

A link in a page's content whose target is the anchor an inventory gives a documented thing
(``objects.inv``'s ``uri``, a ``*.devhelp2`` keyword's ``link``, a family module's
``anchors``: its gold's anchors), on a page of the member,
names that thing: the linking page should mention it (reference it, or define it when it
links to itself). And no name should be defined on many pages (a page header taken as every
page's subject, a parameter made one shelf-wide entity): the most pages any one entity is
defined on is printed beside.
"""

from __future__ import annotations

import posixpath
import sqlite3
from pathlib import Path
from urllib.parse import unquote

from bench.docs_zoo.scorers import forms
from crossbook.core.normalize import normalize_name


def anchors(member: dict) -> dict[str, str]:
    """page#anchor -> the documented name there, from the member's inventory (empty without one)."""
    gold = Path(member["path"]) / member.get("gold", "")
    if gold.name == "objects.inv":
        import sphobjinv

        return {o.uri_expanded: o.name for o in sphobjinv.Inventory(str(gold)).objects
                if "#" in o.uri_expanded and o.role not in ("doc", "label")}
    if gold.name.endswith(".devhelp2"):
        from bench.docs_zoo.gold import devhelp_entries

        return {link: name for name, _, link in devhelp_entries(gold) if "#" in link}
    return {}


def author_links(member: dict, anchored: dict[str, str]) -> set[tuple[str, str]]:
    """(linking page, documented name) of the links in the member's pages' content to an
    anchored thing on one of its pages."""
    from lxml import html as lxml_html

    folder, pages = Path(member["path"]), set(member.get("pages", ()))
    out = set()
    for page in pages:
        root = lxml_html.fromstring((folder / page).read_bytes())
        main = root.xpath('//*[@role="main"]') or root.xpath("//main") or root.xpath("//body") or [root]
        for href in main[0].xpath(".//a/@href"):
            address, _, anchor = href.partition("#")
            if not anchor or ":" in address:
                continue
            # a link names its page and id percent-encoded (Scribble's "#%28def._...", Scaladoc's "%24")
            address, anchor = unquote(address), unquote(anchor)
            target = posixpath.normpath(posixpath.join(posixpath.dirname(page), address)) if address else page
            name = anchored.get(f"{target}#{anchor}")
            if name and target in pages:
                out.add((page, name))
    return out


def mentioned_by_page(db: sqlite3.Connection) -> dict[str, set[str]]:
    """page -> the normalized names of every entity mentioned (defined or referenced) there."""
    out: dict[str, set[str]] = {}
    for name, canonical, page in db.execute(
            "SELECT m.name, e.name, c.source_file FROM entity_mentions m JOIN entities e ON e.id = m.entity_id"
            " JOIN chunks c ON c.id = m.chunk_id"):
        out.setdefault(page, set()).update({normalize_name(name), normalize_name(canonical)})
    return out


def most_defined(db: sqlite3.Connection) -> tuple[int, str]:
    """(pages, name) of the entity defined on the most pages of the shelf."""
    row = db.execute(
        "SELECT count(DISTINCT c.source_file) AS n, e.name FROM entity_mentions m JOIN entities e ON e.id = m.entity_id"
        " JOIN chunks c ON c.id = m.chunk_id WHERE m.mention_type = 'defines' GROUP BY e.id ORDER BY n DESC, e.name"
        " LIMIT 1").fetchone()
    return (row[0], row[1]) if row else (0, "")


def score(member: dict, db: sqlite3.Connection, anchored: dict[str, str] | None = None) -> dict:
    """The member's author links to documented things (to ``anchored``, page#anchor -> name;
    None: the anchors of its inventory) found as mentions on the linking page, and the
    widest-defined name."""
    links = author_links(member, anchors(member) if anchored is None else anchored)
    by_page = mentioned_by_page(db)
    found = [(page, name) for page, name in links if forms(name) & by_page.get(page, set())]
    missed = sorted(links - set(found))
    return {"found": len(found), "total": len(links), "misses": [f"{n} ({p})" for p, n in missed[:5]],
            "most_defined": most_defined(db)}
