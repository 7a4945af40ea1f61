"""What the MCP tools answer, sized for an assistant: the structured content is one page of
the library's document (deprecated key aliases left out, long texts cut at a budget); the
text content is a short summary a person can read, one line per hit, saying how to get
the rest. Pure functions over the API's ``to_dict()`` documents."""

from __future__ import annotations

from typing import Any

from crossbook.api.shapes import DEPRECATED_KEYS
from crossbook.cli.mcp_paging import cut, mentions_page
from crossbook.cli.output import location, section_in_book

CONTEXT_BUDGET = 240          # characters of a mention's context sentence
PASSAGES_TEXT_BUDGET = 3000   # characters of passage text in one search/retrieve answer, shared by its passages
RETRIEVE_TEXT_BUDGET = 2000   # ... in one retrieve answer (its trace and hops' reasons take room too)
PASSAGE_TEXT_MIN = 200        # ... but never fewer than this per passage
FOLLOWED_LIMIT = 10           # the entities retrieve followed, listed on its first page
SHOW_TEXT_BUDGET = 4000       # characters of section text in one show answer (its summary carries them too)
RELATED_LIMIT = 20            # related entities (and definitions) an entity answer lists


def without_aliases(value: Any) -> Any:
    """``value`` without the deprecated keys whose replacement is beside them."""
    if isinstance(value, list):
        return [without_aliases(v) for v in value]
    if isinstance(value, dict):
        return {k: without_aliases(v) for k, v in value.items()
                if not (k in DEPRECATED_KEYS and DEPRECATED_KEYS[k] in value)}
    return value


def _place(book: str, heading_path: str | None, pages: list[int] | None, file: str | None) -> str:
    where = location(pages, file)
    return f"{book} > {section_in_book(book, heading_path)}" + (f" ({where})" if where else "")


def _more(tool: str, next_cursor: str | None) -> str:
    return f'\nMore: call {tool} with cursor="{next_cursor}".' if next_cursor else ""


# -- where_else --------------------------------------------------------------------------------

def where_else_page(doc: dict, offset: int, limit: int) -> dict:
    """Mentions ``offset`` to ``offset + limit`` of a where_else document (with no limit of
    its own), contexts cut; ``sub_entries``, ``defined_under`` and ``book_counts`` (every book
    that holds the entity, with its counts) on the first page only."""
    entities = mentions_page(doc["entities"], offset, limit)
    for entity in entities:
        if offset:
            entity.pop("defined_under", None)
        for group in entity["books"]:
            for mention in group["mentions"]:
                if mention.get("context"):
                    mention["context"] = cut(mention["context"], CONTEXT_BUDGET)[0]
    first_only = ("sub_entries", "book_counts")
    page = {k: v for k, v in doc.items() if k != "entities" and (k not in first_only or not offset)}
    page.update(entities=entities, limit=limit, offset=offset)
    return without_aliases(page)


def where_else_summary(page: dict) -> str:
    shown = [(e, g, m) for e in page["entities"] for g in e["books"] for m in g["mentions"]]
    names = ", ".join(f"{e['name']} ({e['entity_type']})" for e in page["entities"]) or page["query"]
    if page.get("matched_by") not in (None, "name"):
        names += f" (found by {page['matched_by']}: {page['query']!r})"
    total = page["total_mentions"]
    if not shown:
        head = f"{names}: no mentions" + (" on this page." if page["offset"] else " with these filters.")
    else:
        first = page["offset"] + 1
        head = (f"{names}: {total} mention{'s' * (total != 1)}; {first}-{first + len(shown) - 1} below, "
                "definitions first (show takes a chunk_id for the full section).")
    lines = [f"- {_place(g['book'], m['heading_path'], m.get('pages'), m.get('file'))}: {m['mention_type']}"
             f" [{m['chunk_id']}]" for _, g, m in shown]
    return "\n".join([head, *_held_in(page.get("book_counts")), *lines]) + _more("where_else", page.get("next_cursor"))


def _held_in(counts: list[dict] | None) -> list[str]:
    """The first page's line that names every book holding each entity, with its counts."""
    if not counts:
        return []
    several = len({c["entity_id"] for c in counts}) > 1

    def one(c: dict) -> str:
        whose = f" ({c['entity']}, {c['entity_type']})" if several else ""
        return (f"{c['book']}{whose}: {c['defines']} definition{'s' * (c['defines'] != 1)},"
                f" {c['references']} reference{'s' * (c['references'] != 1)}")

    books = len({c["book"] for c in counts})
    return [f"In {books} book{'s' * (books != 1)}: " + "; ".join(one(c) for c in counts) + "."]


# -- search and retrieve -----------------------------------------------------------------------

def passages_page(doc: dict, offset: int, limit: int, budget: int | None = None) -> dict:
    """Results ``offset`` to ``offset + limit`` of a search or retrieve document, each text
    cut to its share of ``budget``; the retrieval trace (queries, seeds, followed) on the
    first page only."""
    results = doc["results"][offset:offset + limit]
    budget = budget or PASSAGES_TEXT_BUDGET
    share = max(PASSAGE_TEXT_MIN, budget // max(1, len(results)))
    cut_ids = []
    for passage in results:
        passage["text"], was_cut = cut(passage["text"], share)
        if was_cut:
            cut_ids.append(passage["chunk_id"])
    page = {k: v for k, v in doc.items() if k == "results" or not offset or k not in ("queries", "seeds", "followed")}
    page.update(results=results, offset=offset, texts_cut=cut_ids)
    if "followed" in page and len(page["followed"]) > FOLLOWED_LIMIT:
        page["followed_total"] = len(page["followed"])
        page["followed"] = page["followed"][:FOLLOWED_LIMIT]
    if cut_ids:
        page["note"] = f"texts cut at {share} characters: show with a chunk_id gives the whole section"
    return without_aliases(page)


def passages_summary(page: dict, tool: str) -> str:
    results = page["results"]
    asked = page.get("query", page.get("question", ""))
    if not results:
        head = f"No sections {'on this page' if page['offset'] else 'found'} for {asked!r}."
    else:
        first = page["offset"] + 1
        head = f"Sections {first}-{first + len(results) - 1} for {asked!r}, best first:"
    lines = [f"{page['offset'] + i}. {_place(p['book'], p['heading_path'], p.get('pages'), p.get('file'))}"
             f" score {p['score']} [{p['chunk_id']}]" for i, p in enumerate(results, 1)]
    note = f"\n({page['note']}.)" if page.get("note") else ""
    return "\n".join([head, *lines]) + note + _more(tool, page.get("next_cursor"))


# -- show --------------------------------------------------------------------------------------

def sections_page(doc: dict, start: list[int], budget: int | None = None) -> tuple[dict, list[int] | None]:
    """The sections of a show document from ``start`` ([section, character]) on, their text
    cut when the page's ``budget`` runs out; and where the next page starts (None: the end)."""
    sections, left = [], budget or SHOW_TEXT_BUDGET
    index, char = start
    texts_cut = []
    for i, section in enumerate(doc["sections"][index:], index):
        text = section["text"][char:] if i == index else section["text"]
        begin = char if i == index else 0
        if len(text) > left and sections:  # a later section that does not fit starts the next page
            return _shown(sections, texts_cut), [i, 0]
        piece, was_cut = cut(text, left)
        end = begin + len(piece.removesuffix(" …")) if was_cut else begin + len(text)
        sections.append({**section, "text": piece})
        if begin or was_cut:
            texts_cut.append({"chunk_id": section["chunk_id"], "start": begin, "end": end,
                              "length": len(section["text"])})
        if was_cut:
            return _shown(sections, texts_cut), [i, end]
        left -= len(piece)
    return _shown(sections, texts_cut), None


def _shown(sections: list[dict], texts_cut: list[dict]) -> dict:
    page: dict[str, Any] = {"sections": sections}
    if texts_cut:
        page["texts_cut"] = texts_cut
    return without_aliases(page)


def sections_summary(page: dict) -> str:
    lines = []
    for section in page["sections"]:
        place = _place(section["book"], section["heading_path"], section.get("pages"), section.get("file"))
        lines.append(f"## {place} [{section['chunk_id']}]\n\n{section['text']}")
    cuts = page.get("texts_cut", [])
    note = "".join(f"\n(characters {c['start']}-{c['end']} of {c['length']} of {c['chunk_id']})" for c in cuts)
    return "\n\n".join(lines) + note + _more("show", page.get("next_cursor"))


# -- books and entity --------------------------------------------------------------------------

def books_summary(page: dict) -> str:
    books = page["books"]
    lines = [f"- [{b['id']}] {b['title']}: {b['sections']} sections, {b['entities_defined']} entities defined"
             + ("" if b.get("vectors_complete", True) else " (vectors missing)") for b in books]
    first = page["offset"] + 1
    head = (f"{page['total']} book{'s' * (page['total'] != 1)} in the index"
            + (f"; {first}-{first + len(books) - 1} below:" if books else "."))
    note = f"\n{page['note']}." if page.get("note") else ""
    return "\n".join([head, *lines]) + note + _more("books", page.get("next_cursor"))


def relations_summary(page: dict) -> str:
    rows = page["relationships"]
    lines = [f"- {r['source']} {r['relation_type']} {r['target']} ({_place(r['book'], r['heading_path'], None, None)}"
             f" [{r['chunk_id']}]: \"{r['evidence']}\")" for r in rows]
    first = page["offset"] + 1
    head = (f"{page['total']} relationship{'s' * (page['total'] != 1)}"
            + (f"; {first}-{first + len(rows) - 1} below:" if rows else "."))
    return "\n".join([head, *lines]) + _more("relations", page.get("next_cursor"))


def entity_answer(doc: dict, limit: int = RELATED_LIMIT) -> dict:
    """An entity document with at most ``limit`` definitions and related entities each
    (``definitions_total`` and ``related_total`` count them all), contexts cut."""
    entities = []
    for entity in doc["entities"]:
        definitions, related = entity["definitions"], entity["related"]
        for definition in definitions[:limit]:
            if definition.get("context"):
                definition["context"] = cut(definition["context"], CONTEXT_BUDGET)[0]
        entities.append({**entity, "definitions": definitions[:limit], "definitions_total": len(definitions),
                         "related": related[:limit], "related_total": len(related)})
    return without_aliases({**doc, "entities": entities})


def entity_summary(page: dict) -> str:
    parts = []
    for e in page["entities"]:
        defined = "; ".join(_place(d["book"], d["heading_path"], d.get("pages"), d.get("file"))
                            for d in e["definitions"]) or "not defined in any book"
        refs = sum(e["references_by_book"].values())
        related = ", ".join(f"{r['arrow']} ({r['relationship']})" for r in e["related"][:8])
        parts.append(f"{e['name']} ({e['entity_type']}): defined in {defined}; referenced in {refs} sections"
                     f" of {len(e['references_by_book'])} books" + (f"; related: {related}" if related else "") + ".")
    return "\n".join(parts) or f"No entity for {page['query']!r}."
