"""Derived state, in one place: entities, linker references, relationships and garbage
collection, kept a function of the stored books after every change.

``begin_change`` (before a book's rows are replaced or deleted) notes what the book held;
``refresh`` (after, in the same write transaction) updates what the change can affect and
nothing else, so a book's ingest costs about the same on a shelf of 1 book or 100:

1. the book's chunk words and lowercase word counts are indexed (index/linking/link_state.py), and
   the shelf's corpus terms recomputed from the per-book counts;
2. entity resolution runs over the mentions of the normalized names the book had or has;
3. the link targets of those names are recomputed and compared with the stored ones; the
   chunks that can contain a name whose target changed (added, removed, another alias),
   or a word whose term status changed, are found through the FTS5 index of chunk words,
   and only they (with the book's own chunks and those whose entities were re-resolved) are
   relinked, with a linker built from the targets their words can match; a target that only
   gained or lost a defining book relinks the chunks of that book that name it, and the
   chunks that link it when its first book (their references' origin) changed;
4. relationships are derived again for those chunks, the chunks whose entities were renamed
   or re-filed, and the chunks holding claims that name one of the book's names whose
   entities changed (one appeared or went, or gained or lost its definition);
5. entities of those names left with no mention are garbage-collected.

The index's state (storage/index_state.py: the settings, the shelf's lowercase word count
and corpus terms) is read once, when the change begins (``begin_change``), handed to every
phase that needs it, and written once, when the refresh returns it (``replacing_book``).
A change of the index's pack, link switch, relations mode or ontology, and the first write
to an index made before m006, refresh everything (``refresh_all``). Because all of it is a
function of the stored books, the index equals a fresh build of the books it holds after any
sequence of ingest, re-ingest and delete-book (tests/changes/test_index_invariant.py, and
tests/changes/test_index_incremental_refresh.py: the incremental refresh equals the full one).

Entity resolution (tested in tests/storage/test_storage.py): a mention names an entity by (normalized
name, type). A ``defines`` mention is its own entity. A ``references`` mention attaches to the
definition of the same name and type when there is one; when its type disagrees with the
*only* definition of that name, it attaches to that definition (LLM types are noisy; no
near-duplicate is created); when several definitions of that name exist and none has its
type, or there is no definition, it keeps its own type. So "Shield" the spell and "Shield" the
armor, each defined, stay two entities. A definition of no stated kind (``other``) joins the
definition of the one kind the other definitions of its name state: a kind one book states
does not split a name from the same name in a book that states none ("Stealth" a skill in one
book, of no kind in another, is one skill); with two stated kinds it stays on its own.
Linker references are not resolved: the linker
points them at a defined entity, and relinking replaces them when that changes.
Before resolution, a table row's definition yields to any other kind of definition of its
name on the shelf and is a reference while that one is stored (``_catalog_rows_yield``).
"""

from __future__ import annotations

from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Iterator, TypeVar

from sqlite_utils import Database

from ..core.genres import genres_in_use
from ..core.normalize import normalize_name
from ..core.packs import DomainPack
from ..core.rule_guard import guarded
from ..core.steps import step
from ..extract import KnownEntity
from ..linking import link_state
from ..linking.linker import Linker, LinkTarget, lowercase_terms, lowercase_word_counts, view_words
from ..linking.matchview import match_view
from ..relations import edges
from ..relations.claims import insert_claims, pending_claims, set_book_drops, skip_warning
from ..relations.index_ontology import store_relation_types
from ..relations.ontology import Ontology
from ..storage.book_genres import books_genres
from ..storage.index_state import IndexState, read_state, write_state
from ..storage.store import delete_book_rows, ensure_entity, get_book, in_values
from ..vectors.sync_notes import forget_synced

# crossbook_meta 'link_state': the version of the derived state the index holds; any other
# value (an index made before m006, or before table rows yielded to other definitions and
# states linked in lowercase: "1"; before a linker mention named its rule: "2") makes the
# next refresh a full one
LINK_STATE_VERSION = "3"
T = TypeVar("T")


def resolve_entities(db: Database, normalized: Iterable[str] | None = None) -> tuple[set[str], set[int]]:
    """Point every mention (of ``normalized`` names, or all) at its entity by the rule in this
    module's docstring. Returns (chunks whose mentions changed entity, entities renamed)."""
    condition, params = in_values("m.normalized", normalized)
    rows = db.execute(
        "SELECT m.id, m.entity_id, m.normalized, m.declared_type, m.mention_type, m.name,"
        " m.book, c.ordinal, m.chunk_id, m.source FROM entity_mentions m JOIN chunks c ON c.id = m.chunk_id"
        f" WHERE m.source != 'linker' AND {condition}", params,
    ).fetchall()
    rows = _catalog_rows_yield(db, rows)
    defined: dict[str, set[str]] = defaultdict(set)
    for _, _, name_key, declared, mention_type, *_ in rows:
        if mention_type == "defines":
            defined[name_key].add(declared)
    joined = {key[0]: kind for key, (_, kind) in link_state.joined_kinds(
        (name_key, t) for name_key, types in defined.items() for t in types).items()}
    targets: dict[int, tuple[str, str]] = {}
    names: dict[tuple[str, str], tuple] = {}
    for mention_id, _, name_key, declared, mention_type, name, book, ordinal, *_ in rows:
        types = defined.get(name_key, set())
        if name_key in joined:  # a book that states no kind joins the one that does
            types = {joined[name_key]}
            declared = joined[name_key] if declared == "other" else declared
        if mention_type == "defines" or declared in types or len(types) != 1:
            key = (name_key, declared)
        else:
            key = (name_key, next(iter(types)))
        targets[mention_id] = key
        # the entity's display name: its first definition, else its first extracted reference
        # (linker references are not read: they follow definitions, and one that named the
        # entity could be about to go with the definition it followed)
        rank = (mention_type != "defines", book, ordinal, name)
        if key not in names or rank < names[key]:
            names[key] = rank
    condition, params = in_values("normalized", normalized)
    existing = {
        (r[1], r[2]): (r[0], r[3])
        for r in db.execute(f"SELECT id, normalized, entity_type, name FROM entities WHERE {condition}", params)
    }
    ids: dict[tuple[str, str], int] = {}
    renamed = set()
    for key, rank in names.items():
        name = rank[-1]
        if key in existing:
            entity_id, old_name = existing[key]
            if old_name != name:
                db.execute("UPDATE entities SET name = ? WHERE id = ?", [name, entity_id])
                renamed.add(entity_id)
            ids[key] = entity_id
        else:
            ids[key] = ensure_entity(db, key[0], key[1], name)
    updates = [
        (ids[targets[row[0]]], row[0], row[8]) for row in rows if ids[targets[row[0]]] != row[1]
    ]
    db.conn.executemany("UPDATE entity_mentions SET entity_id = ? WHERE id = ?", [u[:2] for u in updates])
    return {u[2] for u in updates}, renamed


def _catalog_rows_yield(db: Database, rows: list) -> list:
    """A table row's definition (``source = 'table'``, always extracted as ``defines``) is a
    reference when the shelf defines the same name otherwise (a heading, a lead, a note, the
    model), with the same type or ``other`` on either side: a class's spell table or a gear
    list names what a spell chapter or an equipment chapter defines (rows naming
    entities defined elsewhere on the shelf are references). Rows of two catalogs both stay
    definitions. It is derived from the stored books, so the row defines again when that
    other definition goes. Updates the rows that change; returns ``rows`` as they are now."""
    full: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        if row[9] != "table" and row[4] == "defines":
            full[row[2]].add(row[3])
    out, changed = [], []
    for row in rows:
        if row[9] == "table":
            declared = row[3]
            kinds = full.get(row[2], ())
            derived = "references" if any(k == declared or "other" in (k, declared) for k in kinds) else "defines"
            if derived != row[4]:
                changed.append((derived, row[0]))
                row = (*row[:4], derived, *row[5:])
        out.append(row)
    db.conn.executemany("UPDATE entity_mentions SET mention_type = ? WHERE id = ?", changed)
    return out


def index_terms(db: Database) -> set[str]:
    """The defined single-word names the corpus uses in lowercase as terms (linker.py),
    counted from every book's text (the reference for link_state.shelf_terms)."""
    single = {
        row[0] for row in db.execute(
            "SELECT DISTINCT normalized FROM entity_mentions WHERE mention_type = 'defines'"
        )
        if row[0].isalpha()  # one word: no "_" joins
    }
    if not single:
        return set()
    counts, total = lowercase_word_counts(
        row[0] for row in db.execute("SELECT text FROM chunks WHERE kind = 'parent'")
    )
    return lowercase_terms(single, counts, total)


def build_linker(db: Database, pack: DomainPack, terms: set[str] | None = None) -> Linker:
    """A linker over every defined entity's names (as written), the pack's and the books'
    aliases, and the corpus terms (``index_terms(db)`` unless given), from the stored rows."""
    targets = [LinkTarget(key, set(state.names), set(state.books), state.category)
               for key, state in sorted(link_state.target_states(db, pack).items())]
    return Linker(targets, _cues(pack), index_terms(db) if terms is None else terms, link_state.doc_books(db))


def _cues(pack: DomainPack) -> dict:
    return {t.name: t.cues for t in pack.entity_types}


def relink_chunks(db: Database, pack: DomainPack, chunk_ids: set[str] | None, terms: set[str],
                  tell: Callable[[int, int], None] | None = None) -> int:
    """Recompute the linker references of some parent chunks (all when None), with a linker
    over the link targets their words can match; ``tell(done, total)`` hears the chunks
    linked as it goes. Each chunk's match view is built when it is linked and let go after:
    the views of a shelf's chunks, held together, take about 36 bytes a character."""
    condition, params = in_values("chunk_id", chunk_ids)
    db.execute(f"DELETE FROM entity_mentions WHERE source = 'linker' AND {condition}", params)
    condition, params = in_values("id", chunk_ids)
    chunks = db.execute(
        f"SELECT id, book, text FROM chunks WHERE kind = 'parent' AND {condition} ORDER BY book, ordinal", params
    ).fetchall()
    if chunk_ids is None:
        words = None
    else:
        words, unindexed = link_state.words_of_chunks(db, chunk_ids)
        for chunk_id, _, text in chunks:
            if chunk_id in unindexed:
                words.update(view_words(match_view(text).text).split())
    linker = Linker(link_state.candidate_targets(db, words), _cues(pack), terms, link_state.doc_books(db))
    if linker.empty or not chunks:
        return 0
    present = defaultdict(set)
    condition, params = in_values("m.chunk_id", chunk_ids)
    for chunk_id, key_normalized, entity_type in db.execute(
        "SELECT m.chunk_id, e.normalized, e.entity_type FROM entity_mentions m"
        f" JOIN entities e ON e.id = m.entity_id WHERE {condition}", params
    ):
        present[chunk_id].add((key_normalized, entity_type))
    genres, found = books_genres(db), []
    for done, (chunk_id, book, text) in enumerate(chunks, 1):
        # each chunk linked with its own book's genres; a rule that raises costs this chunk's links
        with genres_in_use(genres.get(book)), guarded(book, chunk_id):
            found.extend((chunk_id, book, match) for match in linker.link(text, book, present[chunk_id]))
        if tell is not None:
            tell(done, len(chunks))
    condition, params = in_values("normalized", {match.key[0] for _, _, match in found})
    ids = {(r[1], r[2]): r[0] for r in db.execute(
        f"SELECT id, normalized, entity_type FROM entities WHERE {condition}", params)}
    db.conn.executemany(
        "INSERT INTO entity_mentions (entity_id, book, chunk_id, mention_type, name, normalized,"
        " declared_type, context, source, origin_book, rule) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(ids[match.key], book, chunk_id, "references", match.name, match.key[0], match.key[1],
          match.context, "linker", match.origin_book, match.rule) for chunk_id, book, match in found],
    )
    return len(found)


def gc_entities(db: Database, normalized: Iterable[str] | None = None) -> int:
    """Delete entities (of ``normalized`` names, or all) no mention points at; returns how many went."""
    condition, params = in_values("normalized", normalized)
    cursor = db.execute(
        f"DELETE FROM entities WHERE {condition} AND NOT EXISTS"
        " (SELECT 1 FROM entity_mentions m WHERE m.entity_id = entities.id)", params
    )
    return cursor.rowcount


@dataclass(frozen=True)
class Change:
    """What a book held before a change (``begin_change``): the normalized names of its
    mentions and aliases, its word counts, and the index's state (read once, when the change
    began: storage/index_state.py)."""

    book: str | None
    names: frozenset[str]
    words: tuple[dict, int] | None
    state: IndexState
    resolution: dict  # _resolution(db, names) before the change

    @property
    def settings(self) -> tuple:
        """The settings derived state depends on, before the change."""
        return self.state.derived_settings


def _book_names(db: Database, book: str | None) -> set[str]:
    """The normalized names of a book's definitions, extracted references and aliases. Its
    linker references are left out: they name entities defined elsewhere (their definitions
    are in the names of the books that define them) and decide no resolution."""
    if book is None:
        return set()
    names = {r[0] for r in db.execute(
        "SELECT DISTINCT normalized FROM entity_mentions WHERE book = ? AND source != 'linker'", [book])}
    for alias, canonical in db.execute("SELECT normalized, canonical FROM entity_aliases WHERE book = ?", [book]):
        names.update((alias, canonical))
    return names


def _resolution(db: Database, names: Iterable[str], without_book: str | None = None) -> dict[str, frozenset]:
    """For each normalized name: its entities that have mentions, and whether each has a
    definition: all a relationship endpoint of that name is resolved against."""
    condition, params = in_values("normalized", names)
    where = f"{condition} AND book != ?" if without_book is not None else condition
    state = defaultdict(set)
    for name, entity_id, defined in db.execute(
        f"SELECT normalized, entity_id, max(mention_type = 'defines') FROM entity_mentions WHERE {where}"
        " GROUP BY normalized, entity_id", params + ([without_book] if without_book is not None else [])
    ):
        state[name].add((entity_id, defined))
    return {name: frozenset(entities) for name, entities in state.items()}


def begin_change(db: Database, book: str | None) -> Change:
    """Note what ``book`` holds now and the index's state; call before its rows are replaced
    or deleted, in the write transaction, and pass the result to ``refresh``."""
    words = link_state.book_word_counts(db, book) if book is not None else None
    names = frozenset(_book_names(db, book))
    return Change(book, names, words, read_state(db), _resolution(db, names))


def refresh(
    db: Database, pack: DomainPack, before: Change, state: IndexState, book: str | None, events=None, refiner=None
) -> IndexState:
    """After a book changed (``before`` from ``begin_change``; ``state``: the index's, with the
    settings the change stores; ``book`` is the title whose new rows are stored, None after a
    delete): update the derived state the change can affect (this module's docstring). Returns
    the index's state as the refresh leaves it, for the caller to write once.

    Linking is an index-level switch (``--no-link`` with the openai extractor turns it off
    for the whole index, so every book is linked the same way). Relationships are derived
    from the stored claims against the entities as they are now (index/relations/edges.py),
    before entity GC, and only ever point at entities that keep a mention, so GC never
    leaves a dangling edge; ``events`` receives ``relation.normalized`` for ``book``'s rows.
    """
    events = events or (lambda event: None)
    if state.link_state != LINK_STATE_VERSION or before.settings != state.derived_settings:
        return refresh_all(db, pack, state, book, events, refiner)
    names = set(before.names) | _book_names(db, book)
    lowercase_words = state.lowercase_words
    if before.words is not None:
        lowercase_words = (lowercase_words or 0) + link_state.subtract_words(db, *before.words)
    new_ids: set[str] = set()
    if book is not None:
        new_chunks = link_state.unindexed_chunks(db, book)
        new_ids = {chunk_id for chunk_id, _, _ in new_chunks}
        link_state.index_chunk_words(db, ((chunk_id, view_words(match_view(text).text)) for chunk_id, _, text in new_chunks))
        lowercase_words = (lowercase_words or 0) + link_state.add_book_words(
            db, book, (text for _, _, text in new_chunks))
    retargeted, renamed = resolve_entities(db, names)
    changes = link_state.update_targets(db, pack, names)
    terms_before, terms = state.link_terms, link_state.shelf_terms(db, lowercase_words or 0)
    state = state.with_terms(lowercase_words, terms)
    relinked: set[str] | None = set()
    if state.link_on:
        linking, coded = _moved_targets(db, changes.moved, book)
        search = changes.names | coded | _term_names(db, pack, terms ^ terms_before)
        relinked = link_state.chunks_naming(db, search) if search else set()
        if relinked is not None:
            relinked |= link_state.chunks_linking(db, linking)
        if relinked is not None and changes.local_names:
            local = link_state.chunks_naming(db, changes.local_names)
            relinked = None if local is None else relinked | link_state.chunks_of_books(db, local, changes.local_books)
        if relinked is not None:
            relinked |= new_ids | retargeted
        with step(events, "link", book, None if relinked is None else len(relinked), "sections") as tell:
            relink_chunks(db, pack, relinked, terms, tell)
    dirty = None if relinked is None else (
        relinked | new_ids | retargeted | _chunks_mentioning(db, renamed, changes.categories))
    # claims elsewhere are resolved again only when the entities of a name they use changed
    resolved_before = before.resolution | _resolution(db, names - before.names, without_book=book)
    resolved_after = _resolution(db, names)
    unsettled = {n for n in names if resolved_before.get(n) != resolved_after.get(n)}
    with step(events, "relations", book, None if dirty is None else len(dirty), "sections") as tell:
        edges.refresh(db, events, book, refiner, chunks=dirty, names=unsettled, state=state, tell=tell)
    gc_entities(db, names)
    return state


def _moved_targets(db: Database, moved: list, book: str | None) -> tuple[set[tuple[str, str]], set[str]]:
    """Of the targets whose first defining book changed (``TargetChanges.moved``): the keys
    whose references only change origin (relink the chunks that link them), and the names
    of those a documentation set defines now and did not before, or the reverse (a common
    word's link in prose depends on it: relink every chunk that names them). Which books are
    documentation sets changes only for ``book``, the book that changed."""
    if not moved:
        return set(), set()
    others = link_state.doc_books(db) - {book}
    linking, coded = set(), set()
    for key, names, before, after in moved:
        stable = bool(others & set(before)) and bool(others & set(after))
        if stable or not (set(before) | set(after)) & (others | {book}):
            linking.add(key)
        else:
            coded.update(names)
    return linking, coded


def refresh_all(db: Database, pack: DomainPack, state: IndexState, book: str | None, events,
                refiner=None) -> IndexState:
    """Recompute all derived state from the stored books (the reference ``refresh`` keeps);
    ``state`` as ``refresh`` takes it, and returns it."""
    link_state.index_chunk_words(db, (
        (chunk_id, view_words(match_view(text).text)) for chunk_id, _, text in link_state.unindexed_chunks(db)))
    lowercase_words = link_state.rebuild_shelf_words(db)
    resolve_entities(db)
    db.execute("DELETE FROM link_targets")
    db.execute("DELETE FROM link_names")
    link_state.update_targets(db, pack)
    terms = link_state.shelf_terms(db, lowercase_words)
    state = state.with_terms(lowercase_words, terms)
    if not state.link_on:
        db.execute("DELETE FROM entity_mentions WHERE source = 'linker'")
    else:
        with step(events, "link", book, unit="sections") as tell:
            relink_chunks(db, pack, None, terms, tell=tell)
    with step(events, "relations", book, unit="sections") as tell:
        edges.refresh(db, events, book, refiner, state=state, tell=tell)
    gc_entities(db)
    return state.with_link_state(LINK_STATE_VERSION)


def rederive(db: Database, pack: DomainPack, events=None) -> None:
    """Every derived state recomputed from the stored books as one change (``refresh_all``,
    the index's state read and written once), in the caller's transaction."""
    state = read_state(db)
    write_state(db, refresh_all(db, pack, state, None, events or (lambda event: None)), since=state)


def _term_names(db: Database, pack: DomainPack, words: set[str]) -> set[str]:
    """Every name whose linking a change of these words' term status can change: the words,
    and the names and aliases of entities named by them."""
    if not words:
        return set()
    names = set(words)
    for state in link_state.stored_targets(db, words).values():
        names.update(state.names)
    condition, params = in_values("normalized", words)
    names.update(r[0] for r in db.execute(f"SELECT alias FROM entity_aliases WHERE {condition}", params))
    names.update(a for aliases in pack.aliases.values() for a in aliases if normalize_name(a) in words)
    return names


def _chunks_mentioning(db: Database, entity_ids: set[int], keys: set[tuple[str, str]]) -> set[str]:
    """The chunks that mention these entities, or the entities of these keys."""
    condition, params = in_values("normalized", {k[0] for k in keys})
    ids = set(entity_ids) | {
        r[0] for r in db.execute(f"SELECT id, normalized, entity_type FROM entities WHERE {condition}", params)
        if (r[1], r[2]) in keys}
    if not ids:
        return set()
    condition, params = in_values("entity_id", ids)
    return {r[0] for r in db.execute(f"SELECT DISTINCT chunk_id FROM entity_mentions WHERE {condition}", params)}


def known_entities(db: Database, book: str, parents, pack, limit: int = 40) -> dict:
    """For each parent chunk: entities defined in *other* books whose names occur in it
    (the corpus linker's matching), at most ``limit``, sorted by name then type."""
    state = read_state(db)
    if state.link_state == LINK_STATE_VERSION:
        words = {w for parent in parents for w in view_words(match_view(parent.text).text).split()}
        linker = Linker(link_state.candidate_targets(db, words), _cues(pack), set(state.link_terms),
                        link_state.doc_books(db))
    else:  # an index made before m006: until its next write
        linker = build_linker(db, pack)
    if linker.empty:
        return {}
    condition, params = in_values("normalized", {t[0] for t in linker.targets})
    ids = {(r[1], r[2]): (r[0], r[3]) for r in db.execute(
        f"SELECT id, normalized, entity_type, name FROM entities WHERE {condition}", params)}
    out = {}
    for parent in parents:
        found = []
        for match in linker.link(parent.text, book, set()):
            if not (linker.targets[match.key].books - {book}) or match.key not in ids:
                continue
            entity_id, name = ids[match.key]
            found.append(KnownEntity(entity_id, name, match.key[1]))
        if found:
            out[parent.id] = sorted(found, key=lambda k: (k.name, k.entity_type))[:limit]
    return out


def refresh_vocabulary(db: Database, ontology: Ontology) -> bool:
    """When the index's relation vocabulary differs from ``ontology`` (an unchanged book
    ingested with another ontology): store it and re-derive the relationships (nothing else
    changes). Returns whether it did."""
    state = read_state(db)
    text = ontology.to_json()
    if state.ontology == text:
        return False
    store_relation_types(db, ontology)
    write_state(db, replace(state, ontology=text), since=state)
    edges.refresh_relationships(db, ontology=ontology)
    return True


@dataclass(frozen=True)
class IndexSettings:
    """The settings derived state is a function of, as an ingest stores them."""

    pack: DomainPack
    link: bool
    relations: str
    ontology: Ontology


    def stored_in(self, db: Database, state: IndexState) -> IndexState:
        """``state`` with these settings; the ontology's types stored when it changed."""
        text = self.ontology.to_json()
        if state.ontology != text:
            store_relation_types(db, self.ontology)
        return state.with_settings(self.pack.text, self.link, self.relations, text)


@contextmanager
def replacing_book(db: Database, book: str, pack: DomainPack, *, settings: IndexSettings | None = None,
                   events=None, refiner=None) -> Iterator[Change]:
    """A book's rows replaced and what derives from them refreshed, inside the caller's
    ``db.atomic()`` (the door's transaction, index/changes/door.py): notes what
    ``book`` holds (``begin_change``), deletes its rows and its vectors' synced notes, lets
    the block store its new rows (or none: a delete), stores ``settings`` when given, then
    refreshes the derived state (``refresh``; a full one when a setting changed). Yields the
    ``Change``. An exception in the block skips the refresh (the transaction rolls back)."""
    before = begin_change(db, book)
    delete_book_rows(db, book)
    forget_synced(db, book)  # the book's vectors are synced again after the commit
    yield before
    state = settings.stored_in(db, before.state) if settings is not None else before.state
    stored = book if get_book(db, book) is not None else None
    write_state(db, refresh(db, pack, before, state, stored, events=events, refiner=refiner), since=before.state)


def remove(db: Database, book: str, pack: DomainPack, refiner=None) -> None:
    """``replacing_book`` that stores nothing: the book goes, with what was derived from it."""
    with replacing_book(db, book, pack, refiner=refiner):
        pass


def store_book_claims(db: Database, book: str, claims: dict, dropped) -> int:
    """Store one book's relationship claims (per chunk) and its claim drop counts."""
    count = insert_claims(db, book, claims)
    set_book_drops(db, book, dropped)
    return count


def pending_warnings(db: Database, book: str) -> list[str]:
    """The warning for each claim of ``book`` whose endpoint the index cannot resolve."""
    return [skip_warning(claim) for claim in pending_claims(db, book)]


class _RefinementsMissing(Exception):
    """Rolls back a write whose refresh needed model answers the cache did not hold."""


def write_refined(db: Database, refiner, write: Callable[[Callable[[dict], None]], T],
                  events: Callable[[dict], None]) -> T:
    """Run ``write(emit)`` in one ``db.atomic()`` with no model call inside it. Without a
    ``refiner`` it is just that. With one, the write runs with the refiner answering from its
    cache only; when the refresh needed refinements the cache lacks, the write is rolled
    back, the missing ones are asked for with no transaction open, and the write runs again
    (it then finds them all in the cache, but for chunks the model gave no valid answer: those
    keep their offline candidates, as a model failure always did). ``emit`` holds the write's
    events until its transaction commits, so a rolled-back try tells nothing."""
    if refiner is None:
        with db.atomic():
            return write(events)
    refiner.cache_only = True
    try:
        for last in (False, True):
            held: list[dict] = []

            def hold(event: dict) -> None:  # progress is shown as it goes; what a write found, once it commits
                (events if event.get("event") == "phase.progress" else held.append)(event)

            try:
                with db.atomic():
                    out = write(hold)
                    if refiner.missed and not last:
                        raise _RefinementsMissing
                    refiner.missed.clear()
            except _RefinementsMissing:
                refiner.cache_only = False
                refiner.ask_missed()
                refiner.cache_only = True
                continue
            for event in held:
                events(event)
            return out
    finally:
        refiner.cache_only = False
        refiner.missed.clear()
