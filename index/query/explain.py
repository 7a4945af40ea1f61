"""Why a name is stored as it is: the rule that stored each mention of it, and the rules that
vetoed the headings, entries and guesses that could have defined it (the vetoes an ingest
records: storage m016). For people debugging a shelf; reads SQLite only."""

from __future__ import annotations

from collections import Counter

from sqlite_utils import Database

from ..core.errors import EntityNotFound
from ..core.models import page_range
from ..core.normalize import normalize_name
from .naming import resolve_entity

_MENTIONS = """
SELECT m.book, c.heading_path, m.chunk_id, m.mention_type, m.name, m.declared_type AS entity_type, m.source, m.rule,
       c.page_start, c.page_end, c.source_file
FROM entity_mentions m JOIN chunks c ON c.id = m.chunk_id
WHERE m.normalized IN ({keys}){books}
ORDER BY m.book, c.ordinal, m.mention_type DESC, m.rule
"""
_VETOES = """
SELECT v.book, c.heading_path, v.chunk_id, v.stage, v.name, v.rule, c.page_start, c.page_end, c.source_file
FROM rule_vetoes v JOIN chunks c ON c.id = v.chunk_id
WHERE v.normalized IN ({keys}){books}
ORDER BY v.book, c.ordinal, v.stage, v.rule
"""


def explain(db: Database, name: str, books: list[str] | None = None) -> dict:
    """For ``name`` (as written, or an alias): every stored mention with the rule that stored
    it, and every candidate a veto dropped, in ``books`` (every book when None), with the
    counts per rule. Raises EntityNotFound when the index neither stores nor vetoed the name."""
    keys = {normalize_name(name)} - {""}
    try:
        found, _ = resolve_entity(db, name)
        keys |= set(found)
    except EntityNotFound:
        pass
    if not keys:
        raise EntityNotFound(f"'{name}' names nothing crossbook can key (see: crossbook entities)")
    marks = ", ".join("?" for _ in keys)
    where_books = f" AND {{table}}.book IN ({', '.join('?' for _ in books)})" if books else ""
    params = [*sorted(keys), *(books or [])]
    mentions = [_located(r) for r in db.query(
        _MENTIONS.format(keys=marks, books=where_books.format(table="m")), params)]
    vetoes = [_located(r) for r in db.query(_VETOES.format(keys=marks, books=where_books.format(table="v")), params)]
    if not mentions and not vetoes:
        scope = f" in {', '.join(books)}" if books else ""
        raise EntityNotFound(f"'{name}' is neither stored nor vetoed{scope}: no rule met it "
                             "(see: crossbook entities, or ingest the book again to record its vetoes)")
    return {"query": name, "keys": sorted(keys), "mentions": mentions, "vetoes": vetoes,
            "stored_by": dict(Counter(m["rule"] for m in mentions).most_common()),
            "vetoed_by": dict(Counter(v["rule"] for v in vetoes).most_common())}


def _located(row: dict) -> dict:
    """A row with its section's pages or file as the answers give them."""
    out = {k: v for k, v in row.items() if k not in ("page_start", "page_end", "source_file")}
    return {**out, "pages": page_range(row["page_start"], row["page_end"]), "file": row["source_file"]}
