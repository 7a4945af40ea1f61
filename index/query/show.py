"""What a hit points to: a section's text, book, heading path and pages, found by a chunk
id (as where-else, search and retrieve give it), by a page of a book, or by a heading path.

A long section is stored as several parent chunks (its parts, ``part`` 0, 1, ...); a
section shown is the whole of it, whichever part or child chunk named it.
"""

from __future__ import annotations

import difflib
from dataclasses import asdict, dataclass

from sqlite_utils import Database

from ..core.errors import BadInput, CrossbookError, SectionNotFound
from ..core.models import page_range
from ..core.normalize import fold_accents, normalize_name
from .naming import resolve_book

PARENT_COLUMNS = "id, book, ordinal, heading_path, part, text, page_start, page_end, source_file"


@dataclass
class ShownSection:
    """One section as ``show`` gives it (its JSON is ``to_dict()``)."""

    chunk_id: str                # the section's first parent chunk
    book: str
    heading_path: str
    pages: list[int] | None      # [first, last], None when the source has no pages
    file: str | None             # the chapter file or note it came from, when known
    text: str
    chunk_ids: list[str]         # every parent chunk of the section, in order

    def to_dict(self) -> dict:
        return asdict(self)


def _rows(db: Database, where: str, params: list) -> list[dict]:
    cursor = db.conn.execute(f"SELECT {PARENT_COLUMNS} FROM chunks WHERE kind = 'parent' AND {where}"
                             " ORDER BY book, ordinal", params)
    columns = [c[0] for c in cursor.description]
    return [dict(zip(columns, row)) for row in cursor]


def _section_of(db: Database, parent: dict) -> ShownSection:
    """The whole section ``parent`` is a part of: the parts from its part 0 on, in order."""
    cursor = db.conn.execute(
        f"SELECT {PARENT_COLUMNS} FROM chunks WHERE kind = 'parent' AND book = ? AND ordinal >= ? ORDER BY ordinal",
        [parent["book"], parent["ordinal"] - parent["part"]])
    columns = [c[0] for c in cursor.description]
    parts = []
    for values in cursor:
        row = dict(zip(columns, values))
        if row["part"] != len(parts) or row["heading_path"] != parent["heading_path"]:
            break
        parts.append(row)
    parts = parts or [parent]
    paged = [p for p in parts if p["page_start"] is not None]
    pages = page_range(min(p["page_start"] for p in paged),
                       max(p["page_end"] or p["page_start"] for p in paged)) if paged else None
    return ShownSection(
        chunk_id=parts[0]["id"], book=parent["book"], heading_path=parent["heading_path"], pages=pages,
        file=parts[0]["source_file"], text="\n\n".join(p["text"].strip("\n") for p in parts),
        chunk_ids=[p["id"] for p in parts],
    )


def _sections(db: Database, parents: list[dict]) -> list[ShownSection]:
    out: dict[str, ShownSection] = {}
    for parent in parents:
        section = _section_of(db, parent)
        out.setdefault(section.chunk_id, section)
    return list(out.values())


def show_chunk(db: Database, chunk_id: str) -> list[ShownSection]:
    """The section a chunk id (a parent's or a child's) belongs to. Raises SectionNotFound."""
    chunk_id = chunk_id.strip()
    row = db.conn.execute("SELECT coalesce(parent_id, id) FROM chunks WHERE id = ?", [chunk_id]).fetchone()
    if row is None:
        raise SectionNotFound(f"no chunk '{chunk_id}' in the index (give a chunk_id from where-else, search or"
                              " retrieve --json, or a book and --page N or a heading path)")
    return _sections(db, _rows(db, "id = ?", [row[0]]))


def show_page(db: Database, book: str, page: int) -> list[ShownSection]:
    """The sections of ``book`` (named as resolve_book() takes it) on page ``page``, in
    order. Raises BookNotFound, BadInput (a book without pages) or SectionNotFound."""
    title = resolve_book(db, book, "")
    first, last = db.conn.execute(
        "SELECT min(page_start), max(coalesce(page_end, page_start)) FROM chunks WHERE book = ? AND kind = 'parent'",
        [title]).fetchone()
    if first is None:
        raise BadInput(f"book '{title}' has no page numbers (pages come from PDFs);"
                       " name a section by its heading path instead")
    # a page past the book's (99999999999999999999 too: SQLite takes no such integer) is no query
    parents = _rows(db, "book = ? AND page_start <= ? AND coalesce(page_end, page_start) >= ?",
                    [title, page, page]) if first <= page <= last else []
    if not parents:
        raise SectionNotFound(f"no section of '{title}' is on page {page} (its sections are on pages {first}-{last})")
    return _sections(db, parents)


def _path_key(path: str) -> list[str]:
    return [fold_accents(normalize_name(part)) for part in path.split(">") if normalize_name(part)]


def show_heading(db: Database, book: str, heading_path: str) -> list[ShownSection]:
    """The sections of ``book`` whose heading path is ``heading_path`` (" > " between
    headings, any case, the book's own title optional), or, when none is, ends with it.
    Several sections can share a path. Raises BookNotFound, BadInput or SectionNotFound."""
    title = resolve_book(db, book, "")
    wanted = _path_key(heading_path)
    if not wanted:
        raise BadInput("the heading path is empty (give it as 'Chapter > Section')")
    paths: dict[str, list[str]] = {}
    for (path,) in db.conn.execute("SELECT DISTINCT heading_path FROM chunks WHERE book = ? AND kind = 'parent'", [title]):
        paths[path] = _path_key(path)
    exact = [p for p, key in paths.items() if key == wanted or key[1:] == wanted]
    matched = exact or [p for p, key in paths.items() if key[-len(wanted):] == wanted]
    if not matched:
        # compared with as many of each path's last headings as were given
        tails = {" > ".join(p.split(" > ")[-len(wanted):]).casefold(): p for p in paths}
        close = difflib.get_close_matches(" > ".join(h.strip() for h in heading_path.split(">")).casefold(),
                                          list(tails), n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(repr(tails[c]) for c in close)}?" if close else ""
        raise SectionNotFound(f"no section of '{title}' has the heading path '{heading_path}'{hint}")
    marks = ",".join("?" * len(matched))
    return _sections(db, _rows(db, f"book = ? AND part = 0 AND heading_path IN ({marks})", [title, *matched]))


def show_target(db: Database, target: str, *, heading_path: str | None = None,
                page: int | None = None) -> list[ShownSection]:
    """``show``'s one entry: a book (``target``) with a ``page`` or a ``heading_path``,
    else the chunk id ``target``. Raises BadInput for both at once, SectionNotFound (a
    book named without either says how to name its section), BookNotFound."""
    if heading_path is not None and page is not None:
        raise BadInput("give a page or a heading path, not both")
    if page is not None:
        return show_page(db, target, page)
    if heading_path is not None:
        return show_heading(db, target, heading_path)
    try:
        return show_chunk(db, target)
    except SectionNotFound:
        if db.conn.execute("SELECT 1 FROM chunks WHERE id = ?", [target.strip()]).fetchone() is None:
            title = _book_or_none(db, target)
            if title is not None:
                raise BadInput(f"'{title}' is a book: name its section with --page N or a heading path"
                               f" (crossbook show '{title}' 'Chapter > Section')") from None
        raise


def _book_or_none(db: Database, name: str) -> str | None:
    try:
        return resolve_book(db, name, "")
    except CrossbookError:
        return None
