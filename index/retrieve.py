"""Search and multi-hop retrieval over child-chunk vectors and the entity index.

``search`` is plain vector search: the nearest child chunks, returned as their parent
sections. ``retrieve`` follows the entity index across books (the design's section 3):

1. hop 1 is a vector search for the question;
2. for the best sections of the previous hop, ``cross_book()`` finds the entities they
   mention and where those entities appear in books not yet on that path (definitions
   first): the index knows where to look before any vector search finds it;
3. a targeted query per (entity, book) - the entity name plus the question, filtered with
   ``where={"book": ...}`` - finds the sections of that book about the entity;
4. results are merged, de-duplicated by parent section and ranked; each says how it was
   reached (hop, via which entity, from which section) and with what score.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from sqlite_utils import Database

from .errors import BadInput
from .lookup import cross_book
from .vectors import VectorHit, VectorStore

# child chunks fetched per wanted section: several children of one section collapse to one
OVERSAMPLE = 4
SEEDS_PER_HOP = 5            # sections of a hop whose entities are followed
TARGETS_PER_SEED = 6         # (entity, book) pairs followed from one section
TARGET_HITS = 3              # sections kept per targeted query
# A section reached through the entity index is related to the question by a path the
# vectors cannot see; one that *defines* the entity followed is what a second hop is for.
# The bonuses are added to the cosine similarity to the question (bench/eval_retrieval.py).
LINK_BONUS = 0.02
DEFINES_BONUS = 0.12


@dataclass
class Via:
    """How a hop-2+ result was reached."""

    entity: str
    entity_type: str
    from_chunk: str              # the previous hop's section that mentions the entity
    from_book: str
    from_section: str
    mention_type: str            # how the target book mentions it: "defines" or "references"
    query: str                   # the targeted query that was embedded


@dataclass
class Passage:
    """One parent section in a result list."""

    chunk_id: str
    book: str
    section: str                 # heading path, " > "-joined
    score: float                 # the ranking score: similarity, + a bonus on hop 2+
    similarity: float            # cosine similarity of the matched child chunk to the question
    hop: int
    child_id: str                # the child chunk that matched
    text: str
    via: Via | None = None
    defines: bool = False        # hop 2+: this section defines the entity it was reached by
    found_at: list[int] = field(default_factory=list)  # every hop that reached this section
    path_books: tuple[str, ...] = field(default=(), repr=False)

    def to_dict(self) -> dict:
        out = asdict(self)
        out.pop("path_books")
        out["score"] = round(self.score, 4)
        out["similarity"] = round(self.similarity, 4)
        return out


def _check(query: str, k: int) -> None:
    if not query or not query.strip():
        raise BadInput("the query is empty (give some words to search for)")
    if k < 1:
        raise BadInput(f"-k must be at least 1 (got {k})")


def _parents(db: Database, ids: set[str]) -> dict[str, dict]:
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    return {
        row["id"]: row
        for row in db.query(
            f"SELECT id, book, heading_path, text FROM chunks WHERE kind = 'parent' AND id IN ({marks})",
            list(ids),
        )
    }


def _passages(db: Database, hits: list[VectorHit], hop: int, limit: int) -> list[Passage]:
    """Best hit per parent section, joined to SQLite (a vector whose chunk is gone is skipped:
    SQLite is the truth, and ``doctor`` reports the orphan)."""
    best: dict[str, VectorHit] = {}
    for hit in hits:
        if hit.parent_id not in best or hit.similarity > best[hit.parent_id].similarity:
            best[hit.parent_id] = hit
    parents = _parents(db, set(best))
    out = []
    for hit in sorted(best.values(), key=lambda h: -h.similarity):
        parent = parents.get(hit.parent_id)
        if parent is None:
            continue
        out.append(Passage(
            chunk_id=hit.parent_id, book=parent["book"], section=parent["heading_path"],
            score=hit.similarity, similarity=hit.similarity, hop=hop, child_id=hit.child_id,
            text=parent["text"], path_books=(parent["book"],), found_at=[hop],
        ))
        if len(out) == limit:
            break
    return out


def search(vectors: VectorStore, db: Database, query: str, k: int = 10, books: tuple[str, ...] = (),
           query_vector: list[float] | None = None) -> list[Passage]:
    """The ``k`` parent sections whose child chunks are nearest to ``query`` (all hop 1).

    ``books`` restricts the search to those books; ``query_vector`` is the query's
    embedding when the caller already has it. Raises BadInput for an empty query.
    """
    _check(query, k)
    hits = vectors.query([query], k * OVERSAMPLE, books,
                         embeddings=[query_vector] if query_vector is not None else None)[0]
    return _passages(db, hits, hop=1, limit=k)


@dataclass(frozen=True)
class _Target:
    entity_id: int
    book: str
    via: Via
    defines_chunks: frozenset[str]   # sections of ``book`` that define the entity
    path_books: tuple[str, ...]


def _targets(db: Database, seeds: list[Passage], question: str, books: tuple[str, ...]) -> list[_Target]:
    """(entity, book) pairs to follow from the seeds, best seed first, definitions first."""
    targets: dict[tuple[int, str], _Target] = {}
    for seed in seeds:
        per_seed = 0
        # "books not yet in the context": the books on the path that led to this seed
        mentions = cross_book(db, [seed.chunk_id], exclude_books=seed.path_books)
        defines: dict[tuple[int, str], set[str]] = {}
        for m in mentions:
            if m.mention_type == "defines":
                defines.setdefault((m.entity_id, m.book), set()).add(m.chunk_id)
        for m in mentions:
            key = (m.entity_id, m.book)
            if (books and m.book not in books) or key in targets or per_seed == TARGETS_PER_SEED:
                continue
            query = f"{m.name}: {question}"
            via = Via(
                entity=m.name, entity_type=m.entity_type, from_chunk=seed.chunk_id,
                from_book=seed.book, from_section=seed.section,
                mention_type="defines" if key in defines else "references", query=query,
            )
            targets[key] = _Target(m.entity_id, m.book, via, frozenset(defines.get(key, ())),
                                   (*seed.path_books, m.book))
            per_seed += 1
    return list(targets.values())


def _follow(vectors: VectorStore, db: Database, targets: list[_Target], hop: int) -> list[Passage]:
    """Run the targeted, book-filtered queries (one Chroma call per book)."""
    by_book: dict[str, list[_Target]] = {}
    for target in targets:
        by_book.setdefault(target.book, []).append(target)
    found: list[Passage] = []
    for book, group in by_book.items():
        results = vectors.query([t.via.query for t in group], TARGET_HITS * OVERSAMPLE, (book,))
        for target, hits in zip(group, results):
            for passage in _passages(db, hits, hop=hop, limit=TARGET_HITS):
                passage.via = target.via
                passage.path_books = target.path_books
                passage.defines = passage.chunk_id in target.defines_chunks
                found.append(passage)
    return found


def retrieve(
    vectors: VectorStore,
    db: Database,
    question: str,
    hops: int = 2,
    k: int = 10,
    books: tuple[str, ...] = (),
) -> dict:
    """Multi-hop retrieval (see the module docstring). Returns
    {"question", "hops", "k", "queries": [...], "results": [Passage...]} with at most ``k``
    results, best first. ``hops=1`` is plain search. Raises BadInput on bad arguments.

    Every result is scored against the *question* (cosine similarity of its matched child
    chunk), so hop-1 and hop-2 scores compare; a section reached through the entity index
    gets a bonus, larger when that section defines the entity it was reached by.
    """
    _check(question, k)
    if hops < 1:
        raise BadInput(f"--hops must be at least 1 (got {hops})")
    question_vector = vectors.embedder.embed([question])[0]
    frontier = search(vectors, db, question, k, books, query_vector=question_vector)
    queries = [{"hop": 1, "query": question, "book": None}]
    merged: dict[str, Passage] = {p.chunk_id: p for p in frontier}
    for hop in range(2, hops + 1):
        targets = _targets(db, frontier[:SEEDS_PER_HOP], question, books)
        if not targets:
            break
        queries.extend({"hop": hop, "query": t.via.query, "book": t.book, "entity": t.via.entity} for t in targets)
        found = _follow(vectors, db, targets, hop)
        to_question = vectors.similarities(question_vector, sorted({p.child_id for p in found}))
        for passage in found:
            passage.similarity = to_question.get(passage.child_id, passage.similarity)
            passage.score = passage.similarity + (DEFINES_BONUS if passage.defines else LINK_BONUS)
        frontier = []
        # a section found by several paths is scored and reported by its best one (the
        # index agreeing with the vectors is evidence); ``found_at`` lists every hop
        for passage in sorted(found, key=lambda p: (-p.score, p.book, p.section)):
            current = merged.get(passage.chunk_id)
            if current is None:
                frontier.append(passage)
            elif passage.score > current.score:
                passage.found_at = sorted({*current.found_at, hop})
            else:
                current.found_at = sorted({*current.found_at, hop})
                continue
            merged[passage.chunk_id] = passage
    ranked = sorted(merged.values(), key=lambda p: (-p.score, p.hop, p.book, p.section))
    return {"question": question, "hops": hops, "k": k, "queries": queries, "results": ranked[:k]}
