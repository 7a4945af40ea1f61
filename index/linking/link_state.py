"""The indexes that let a change relink only what it touches (tables of m006_incremental_relink).

- **Chunk words** (``link_chunks`` + FTS5 ``link_words``): each parent chunk's words as the
  linker reads them (``linker.view_words``). Every form of a name the linker can match in a
  chunk is a run of those words, so an FTS5 phrase query per name form finds every chunk that
  can contain the name (and a few that cannot: relinking those changes nothing).
- **Word counts** (``book_words``, ``shelf_words``): each book's lowercase word counts and
  their shelf totals. The corpus-term rule (index/linking/linker.py) needs shelf-wide counts;
  a book's change adds or subtracts its own counts.
- **Link targets** (``link_targets``, ``link_names``): every defined entity's linker names
  (its definitions' names, the pack's and the books' aliases), the books that define it and
  its category (where its first definition is filed, for the relationship patterns); and the
  first word of each name form, the inverted index from a chunk's words to the targets that
  may occur in it. Recomputed per normalized name (everything about a target depends only
  on the rows of its normalized name), compared with what is stored, and the difference is
  what must be relinked.

All of it is a function of the stored books, like the rest of the derived state.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Iterable

from sqlite_utils import Database

from ..core.normalize import normalize_name
from ..core.packs import DomainPack
from ..readers.doc_kinds import DOC_KINDS
from ..storage.store import in_values
from .linker import LinkTarget, lowercase_terms, lowercase_word_counts, name_words, plural, shared_kinds

EntityKey = tuple[str, str]
_PHRASES_PER_QUERY = 200


# -- chunk words --------------------------------------------------------------------------------

def index_chunk_words(db: Database, words_by_chunk: Iterable[tuple[str, str]]) -> None:
    """Store the words of parent chunks: (chunk id, ``linker.view_words`` of its match view)."""
    last = db.execute("SELECT coalesce(max(id), 0) FROM link_chunks").fetchone()[0]
    db.conn.executemany("INSERT INTO link_chunks (chunk_id, words) VALUES (?, ?)", words_by_chunk)
    db.execute("INSERT INTO link_words (rowid, words) SELECT id, words FROM link_chunks WHERE id > ?", [last])


def unindexed_chunks(db: Database, book: str | None = None) -> list[tuple[str, str, str]]:
    """(id, book, text) of the parent chunks (of ``book``, or all) whose words are not stored."""
    where, params = ("c.book = ?", [book]) if book is not None else ("1", [])
    return db.execute(
        "SELECT c.id, c.book, c.text FROM chunks c LEFT JOIN link_chunks l ON l.chunk_id = c.id"
        f" WHERE c.kind = 'parent' AND l.id IS NULL AND {where} ORDER BY c.book, c.ordinal", params,
    ).fetchall()


def words_of_chunks(db: Database, chunk_ids: Iterable[str]) -> tuple[set[str], set[str]]:
    """The words stored for these parent chunks (``index_chunk_words``), all in one set, and
    those of the chunks that have none stored."""
    condition, params = in_values("chunk_id", chunk_ids)
    words: set[str] = set()
    indexed = set()
    for chunk_id, chunk_words in db.execute(f"SELECT chunk_id, words FROM link_chunks WHERE {condition}", params):
        words.update(chunk_words.split())
        indexed.add(chunk_id)
    return words, set(chunk_ids) - indexed


def chunks_naming(db: Database, names: Iterable[str]) -> set[str] | None:
    """The parent chunks whose words contain some form of one of ``names``; None when a name
    has a form with no word at all (only a scan of every chunk can find it)."""
    phrases = set()
    for name in names:
        for words in name_words(name):
            if not any(w.strip("_") for w in words):  # no word FTS5 indexes ("_" separates)
                return None
            phrases.add('"' + " ".join(words) + '"')
    found: set[str] = set()
    ordered = sorted(phrases)
    for start in range(0, len(ordered), _PHRASES_PER_QUERY):
        found.update(chunks_matching(db, " OR ".join(ordered[start:start + _PHRASES_PER_QUERY])))
    return found


def chunks_matching(db: Database, query: str, limit: int | None = None) -> list[str]:
    """The parent chunks whose words match the FTS5 ``query`` (the chunk words above), at
    most ``limit``. Raises sqlite3.OperationalError on an index without the word index."""
    sql = "SELECT l.chunk_id FROM link_words w JOIN link_chunks l ON l.id = w.rowid WHERE link_words MATCH ?"
    params: list = [query]
    if limit is not None:
        sql, params = sql + " LIMIT ?", [query, limit]
    return [row[0] for row in db.execute(sql, params)]


def chunks_linking(db: Database, keys: Iterable[EntityKey]) -> set[str]:
    """The chunks holding a linker reference to one of these entity keys."""
    keys = set(keys)
    if not keys:
        return set()
    condition, params = in_values("normalized", {k[0] for k in keys})
    return {chunk_id for chunk_id, n, t in db.execute(
        f"SELECT DISTINCT chunk_id, normalized, declared_type FROM entity_mentions WHERE source = 'linker' AND {condition}",
        params) if (n, t) in keys}


def chunks_of_books(db: Database, chunk_ids: set[str], books: set[str]) -> set[str]:
    """Those of ``chunk_ids`` that belong to one of ``books``."""
    if not chunk_ids or not books:
        return set()
    condition, params = in_values("book", books)
    return {r[0] for r in db.execute(f"SELECT id FROM chunks WHERE {condition}", params)} & chunk_ids


# -- word counts and the corpus terms -----------------------------------------------------------

def add_book_words(db: Database, book: str, texts: Iterable[str]) -> int:
    """Count a book's lowercase words (its parent chunks' texts) into its row and the shelf's
    counts; returns how many words it adds to the shelf's total (the index's state holds it)."""
    counts, total = lowercase_word_counts(texts)
    db.execute("INSERT INTO book_words (book, total, counts) VALUES (?, ?, ?)",
               [book, total, json.dumps(counts, sort_keys=True)])
    db.conn.executemany(
        "INSERT INTO shelf_words (word, count) VALUES (?, ?)"
        " ON CONFLICT(word) DO UPDATE SET count = count + excluded.count", counts.items())
    return total


def book_word_counts(db: Database, book: str) -> tuple[dict[str, int], int] | None:
    """A stored book's (lowercase word counts, total), None when it has none."""
    row = db.execute("SELECT counts, total FROM book_words WHERE book = ?", [book]).fetchone()
    return (json.loads(row[0]), row[1]) if row else None


def subtract_words(db: Database, counts: dict[str, int], total: int) -> int:
    """Take a removed book's counts (``book_word_counts``, read before it went) off the shelf;
    returns the change of the shelf's total (``-total``)."""
    db.conn.executemany("UPDATE shelf_words SET count = count - ? WHERE word = ?",
                        [(n, w) for w, n in counts.items()])
    condition, params = in_values("word", counts)
    db.execute(f"DELETE FROM shelf_words WHERE count <= 0 AND {condition}", params)
    return -total


def rebuild_shelf_words(db: Database) -> int:
    """Shelf counts from every book's counts (counting the books that have none first);
    returns the shelf's total of lowercase words."""
    for book, in db.execute(
        "SELECT title FROM books WHERE title NOT IN (SELECT book FROM book_words)").fetchall():
        add_book_words(db, book, (r[0] for r in db.execute(
            "SELECT text FROM chunks WHERE book = ? AND kind = 'parent'", [book])))
    db.execute("DELETE FROM shelf_words")
    totals: Counter = Counter()
    total = 0
    for counts, book_total in db.execute("SELECT counts, total FROM book_words"):
        totals.update(json.loads(counts))
        total += book_total
    db.conn.executemany("INSERT INTO shelf_words (word, count) VALUES (?, ?)", totals.items())
    return total


def shelf_terms(db: Database, total: int) -> set[str]:
    """The defined single-word names the shelf uses in lowercase as terms (linker.py's rule),
    from the shelf counts and ``total`` (its lowercase words, as the index's state holds
    them): one look-up per single-word name."""
    single = {row[0] for row in db.execute("SELECT DISTINCT normalized FROM link_targets") if row[0].isalpha()}
    if not single:
        return set()
    words = single | {plural(w) for w in single}
    condition, params = in_values("word", words)
    counts = Counter(dict(db.execute(f"SELECT word, count FROM shelf_words WHERE {condition}", params).fetchall()))
    return lowercase_terms(single, counts, total)


# -- link targets -------------------------------------------------------------------------------

@dataclass(frozen=True)
class TargetState:
    names: tuple[str, ...]
    books: tuple[str, ...]
    category: str


def doc_books(db: Database) -> set[str]:
    """The books that document code: each defines a thing of a documentation kind that no
    rulebook has (a function, a command, an option); their classes are code (linker.code_only)."""
    kinds = sorted(DOC_KINDS - shared_kinds())
    marks = ", ".join("?" for _ in kinds)
    return {row[0] for row in db.execute(
        f"SELECT DISTINCT book FROM entity_mentions WHERE mention_type = 'defines' AND declared_type IN ({marks})",
        kinds)}


# a part of an entry ("**Strength.**", an Ioun Stone's option) is no kind a book states of a name
_PART_KINDS = frozenset({"feature"})


def joined_kinds(keys) -> dict[EntityKey, EntityKey]:
    """(name, "other") -> (name, kind) where the name's other definitions state one kind, not
    a part of an entry (a feature): a definition of no stated kind is an entity of that kind
    (changes/derived.resolve_entities)."""
    by_name: dict[str, set[str]] = defaultdict(set)
    for normalized, entity_type in keys:
        by_name[normalized].add(entity_type)
    return {(n, "other"): (n, next(iter(types - {"other"}))) for n, types in by_name.items()
            if "other" in types and len(types - {"other"}) == 1 and not types & _PART_KINDS}


def target_states(db: Database, pack: DomainPack, normalized: Iterable[str] | None = None) -> dict[EntityKey, TargetState]:
    """What the linker and the relationship patterns know of each defined entity whose
    normalized name is in ``normalized`` (all when None), computed from the stored rows."""
    condition, params = in_values("m.normalized", normalized)
    names: dict[EntityKey, set[str]] = defaultdict(set)
    books: dict[EntityKey, set[str]] = defaultdict(set)
    category: dict[EntityKey, str] = {}
    for key_normalized, entity_type, name, book, path, source in db.execute(
        "SELECT m.normalized, m.declared_type, m.name, m.book, c.heading_path, m.source"
        " FROM entity_mentions m JOIN chunks c ON c.id = m.chunk_id"
        f" WHERE m.mention_type = 'defines' AND {condition} ORDER BY m.book, c.ordinal, m.id", params,
    ):
        key = (key_normalized, entity_type)
        names[key].add(name)
        books[key].add(book)
        if key not in category:
            # where the definition is filed: the parent heading of a defining section, the
            # section itself for a glossary or table entry ("Conditions" for Grappled)
            parts = path.split(" > ")
            category[key] = parts[-2] if source == "heading" and len(parts) > 1 else parts[-1]
    for key, joined in joined_kinds(names).items():  # as entity resolution joins them (changes/derived.py)
        names[joined] |= names.pop(key)
        books[joined] |= books.pop(key)
        category.setdefault(joined, category.pop(key))
    by_normalized: dict[str, list[EntityKey]] = defaultdict(list)
    for key in names:
        by_normalized[key[0]].append(key)
    for canonical, aliases in pack.aliases.items():
        for key in by_normalized.get(normalize_name(canonical), []):
            names[key].update(aliases)
    condition, params = in_values("canonical", normalized)
    for alias, canonical, entity_type in db.execute(
        f"SELECT alias, canonical, entity_type FROM entity_aliases WHERE {condition}", params
    ):
        keys = by_normalized.get(canonical, [])
        for key in keys:
            if key[1] == entity_type or len(keys) == 1:
                names[key].add(alias)
    return {key: TargetState(tuple(sorted(names[key])), tuple(sorted(books[key])), category[key]) for key in names}


def stored_targets(db: Database, normalized: Iterable[str] | None = None) -> dict[EntityKey, TargetState]:
    condition, params = in_values("normalized", normalized)
    return {
        (n, t): TargetState(tuple(json.loads(names)), tuple(json.loads(books)), category)
        for n, t, names, books, category in db.execute(
            f"SELECT normalized, entity_type, names, books, category FROM link_targets WHERE {condition}", params)
    }


@dataclass
class TargetChanges:
    names: set[str]            # every name (old and new) of the targets whose names or first book changed
    categories: set[EntityKey]  # targets whose category changed (or that appeared or went)
    # targets that only gained or lost defining books, their first book unchanged: the linker
    # reads a target's books only as "is the chunk's own book one of them" and "the first of
    # them" (linker.py: _choose, origin_book), so only the chunks of the books that came or
    # went can link differently; a shelf of pages that each define "Examples" relinks one
    # page per change, not every page that says "examples"
    local_names: set[str] = field(default_factory=set)
    local_books: set[str] = field(default_factory=set)
    # targets whose first defining book changed, their names unchanged: the first book is
    # only the origin of the references that link them, so beside the chunks of the books
    # that came or went (in local_names and local_books), only chunks that link them now can
    # link differently, unless whether a documentation set defines them changed
    # (linker.code_only): (key, its names, its books before, after)
    moved: list[tuple[EntityKey, tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = field(default_factory=list)


def update_targets(db: Database, pack: DomainPack, normalized: Iterable[str] | None = None) -> TargetChanges:
    """Recompute the targets of ``normalized`` names (all when None), store the difference and
    return it."""
    normalized = None if normalized is None else set(normalized)
    new = target_states(db, pack, normalized)
    old = stored_targets(db, normalized)
    changes = TargetChanges(set(), set())
    changed = [key for key in old.keys() | new.keys() if old.get(key) != new.get(key)]
    for key in changed:
        before, after = old.get(key), new.get(key)
        if before and after and before.names == after.names and before.books != after.books:
            changes.local_names.update(after.names)
            changes.local_books.update(set(before.books) ^ set(after.books))
            if before.books[:1] != after.books[:1]:
                changes.moved.append((key, after.names, before.books, after.books))
        elif (before and before.names, before and before.books) != (after and after.names, after and after.books):
            changes.names.update((before.names if before else ()) + (after.names if after else ()))
        if (before and before.category) != (after and after.category):
            changes.categories.add(key)
            # a state links in lowercase where a state goes (linker.files_as_state): relink
            changes.names.update((before.names if before else ()) + (after.names if after else ()))
    db.conn.executemany("DELETE FROM link_targets WHERE normalized = ? AND entity_type = ?", changed)
    db.conn.executemany("DELETE FROM link_names WHERE normalized = ? AND entity_type = ?", changed)
    db.conn.executemany(
        "INSERT INTO link_targets (normalized, entity_type, names, books, category) VALUES (?, ?, ?, ?, ?)",
        [(*key, json.dumps(new[key].names), json.dumps(new[key].books), new[key].category)
         for key in changed if key in new])
    db.conn.executemany(
        "INSERT INTO link_names (token, words, normalized, entity_type) VALUES (?, ?, ?, ?)",
        [(words[0] if words else "", " ".join(words), *key)
         for key in changed if key in new
         for words in sorted({w for name in new[key].names for w in name_words(name)})])
    return changes


def candidate_targets(db: Database, words: set[str] | None) -> list[LinkTarget]:
    """The link targets that can occur in text made of ``words`` (``view_words``): those with
    a name form all of whose words are among them. None: every target."""
    if words is None:
        keys = None
    else:
        condition, params = in_values("token", words | {""})
        keys = {
            (n, t) for token, name, n, t in db.execute(
                f"SELECT token, words, normalized, entity_type FROM link_names WHERE {condition}", params)
            if words.issuperset(name.split())
        }
    targets = []
    condition, params = in_values("normalized", None if keys is None else {k[0] for k in keys})
    for n, t, names, books, category in db.execute(
        f"SELECT normalized, entity_type, names, books, category FROM link_targets WHERE {condition}", params
    ):
        if keys is None or (n, t) in keys:
            targets.append(LinkTarget((n, t), set(json.loads(names)), set(json.loads(books)), category))
    return sorted(targets, key=lambda t: t.key)


def categories(db: Database, normalized: Iterable[str] | None = None) -> dict[EntityKey, str]:
    """Where each defined entity (of ``normalized`` names, or all) is filed (``target_states``)."""
    condition, params = in_values("normalized", normalized)
    return {(n, t): c for n, t, c in db.execute(
        f"SELECT normalized, entity_type, category FROM link_targets WHERE {condition}", params)}
