"""Plain vector search: the nearest child chunks, returned as their parent sections.

``search`` embeds the query (or takes its vector), asks the vector store for ``k *
OVERSAMPLE`` child chunks, keeps the best child of each parent section and joins the
sections to SQLite (``Passage``: book, heading path, text, pages or file). Multi-hop
``retrieve`` (retrieve.py) starts from the same hop-1 passages and reads the similarity
of other sections' children (``section_similarity``).
"""

from __future__ import annotations

from sqlite_utils import Database

from ..core.errors import BadInput
from ..core.models import page_range
from ..vectors.chroma import VectorHit, VectorStore
from . import entity_graph as graph
from .passage import Passage

# child chunks fetched per wanted section: several children of one section collapse to one
OVERSAMPLE = 4


# -- search ------------------------------------------------------------------------------------

def check_query(query: str, k: int) -> None:
    if not query or not query.strip():
        raise BadInput("the query is empty (give some words to search for)")
    if k < 1:
        raise BadInput(f"-k must be at least 1 (got {k})")


def parent_rows(db: Database, ids: set[str]) -> dict[str, dict]:
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    return {
        row["id"]: row
        for row in db.query(
            f"SELECT c.id, c.book, c.heading_path, c.text, c.page_start, c.page_end, c.source_file,"
            f" {graph.PLACE_SQL} AS place FROM chunks c"
            f" JOIN books b ON b.title = c.book WHERE c.kind = 'parent' AND c.id IN ({marks})",
            list(ids),
        )
    }


def source_location(parent: dict) -> dict:
    """A parent row's place in its source, as Passage fields."""
    return {"pages": page_range(parent["page_start"], parent["page_end"]), "file": parent["source_file"]}


def best_passages(db: Database, hits: list[VectorHit], hop: int, limit: int) -> list[Passage]:
    """Best hit per parent section, joined to SQLite (a vector whose chunk is gone is skipped:
    SQLite is the truth, and ``doctor`` reports the orphan)."""
    best: dict[str, VectorHit] = {}
    for hit in hits:
        if hit.parent_id not in best or hit.similarity > best[hit.parent_id].similarity:
            best[hit.parent_id] = hit
    parents = parent_rows(db, set(best))
    out = []
    for hit in sorted(best.values(), key=lambda h: -h.similarity):
        parent = parents.get(hit.parent_id)
        if parent is None:
            continue
        out.append(Passage(
            chunk_id=hit.parent_id, book=parent["book"], section=parent["heading_path"],
            score=hit.similarity, similarity=hit.similarity, hop_score=hit.similarity, hop=hop,
            child_id=hit.child_id,
            text=parent["text"], path_books=(parent["place"],), found_at=[hop], **source_location(parent),
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
    check_query(query, k)
    hits = vectors.query([query], k * OVERSAMPLE, books,
                         embeddings=[query_vector] if query_vector is not None else None)[0]
    return best_passages(db, hits, hop=1, limit=k)


def section_similarity(vectors: VectorStore, db: Database, question_vector: list[float],
                        parent_ids: list[str]) -> dict[str, tuple[float, str]]:
    """parent id -> (best cosine similarity of its children to the question, that child)."""
    children = graph.children_of(db, parent_ids)
    sims = vectors.similarities(question_vector, sorted(children))
    out: dict[str, tuple[float, str]] = {}
    for child, sim in sims.items():
        parent = children[child]
        if parent not in out or sim > out[parent][0]:
            out[parent] = (sim, child)
    return out
