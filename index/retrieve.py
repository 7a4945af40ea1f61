"""Search and multi-hop retrieval over child-chunk vectors and the entity index.

``search`` is plain vector search: the nearest child chunks, returned as their parent
sections. ``retrieve`` follows the entity index across books (the design's section 3):

1. hop 1 is a vector search for the question: its best sections are the seeds, and the
   child chunks that matched inside them are the evidence;
2. every entity a seed mentions gets a weight (``entity_weight``): the similarity of the
   matched child chunk that names it (a seed section mentions about a dozen entities; the
   one the question is about is usually in the passage that matched), times its
   specificity (an IDF over sections: "Fate Point", mentioned everywhere, says little),
   times a bonus when the question names its type ("that spell", "which condition"), by
   the index's pack type names and cue words;
3. the best-weighted entities are followed into the sections of other books that define
   or mention them (the index knows where to look: no extra embedding call);
4. a reached section scores its own similarity to the question plus the weight of the
   entity that led to it, all of it for a definition and a share for a mere reference
   (``hop_score``); results are merged by section, ranked, and each says how it was
   reached (hop, via which entity, from which section) and with what score.

``ranking="ppr"`` replaces step 4's single best path by personalized PageRank over the
section-entity graph around the seeds (every path counts); bench/eval_retrieval.py
compares the two.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass, field

from sqlite_utils import Database

from . import entity_graph as graph
from . import store
from .errors import BadInput
from .normalize import normalize_name, normalized_tokens
from .packs import DomainPack
from .vectors import VectorHit, VectorStore

# child chunks fetched per wanted section: several children of one section collapse to one
OVERSAMPLE = 4
SEEDS_PER_HOP = 5            # sections of a hop whose entities are followed
ENTITIES_PER_HOP = 8         # entities followed from one hop (the best weighted)
REFERENCES_PER_ENTITY = 12   # sections that only mention a followed entity, per entity
# The weights below are measured with bench/eval_retrieval.py (both shelves).
PARENT_ONLY = 0.5            # an entity of the seed section that no matched child names
TYPE_BONUS = 1.0             # weight x (1 + TYPE_BONUS) when the question names its type
CUE_SHARE = 0.3              # ... x (1 + TYPE_BONUS * CUE_SHARE) when it only uses a cue word
HOP_WEIGHT = 0.6             # how much a followed entity's weight adds to a section's score
REFERENCE_SHARE = 0.3        # the share of it for a section that only references the entity
PPR_DAMPING = 0.5
RANKINGS = ("simple", "ppr")


@dataclass
class Via:
    """How a hop-2+ result was reached."""

    entity: str
    entity_type: str
    from_chunk: str              # the previous hop's section that mentions the entity
    from_book: str
    from_section: str
    mention_type: str            # how this section mentions it: "defines" or "references"
    weight: float = 0.0          # the entity's weight (entity_weight)


@dataclass
class Passage:
    """One parent section in a result list."""

    chunk_id: str
    book: str
    section: str                 # heading path, " > "-joined
    score: float                 # the ranking score (hop_score for hop 2+)
    similarity: float            # cosine similarity of the best child chunk to the question
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
        if out["via"] is not None:
            out["via"]["weight"] = round(out["via"]["weight"], 4)
        return out


# -- the ranking rules (pure) ------------------------------------------------------------------

def question_types(question: str, pack: DomainPack | None) -> dict[str, float]:
    """Entity types the question asks about: 1.0 when it names the type ("which spell"),
    CUE_SHARE when it only uses one of the type's cue words (longer than 3 letters: short
    cues such as "in" or "he" say nothing). The catch-all type ``other`` is never asked."""
    if pack is None:
        return {}
    words = set(re.findall(r"[^\W\d_]+", question.casefold()))
    out: dict[str, float] = {}
    for entity_type in pack.entity_types:
        name = entity_type.name.casefold()
        if name == "other":
            continue
        if {name, name + "s", name + "es"} & words:
            out[entity_type.name] = 1.0
        elif any(cue.casefold() in words for cue in entity_type.cues if len(cue) > 3):
            out[entity_type.name] = CUE_SHARE
    return out


def specificity(sections_mentioning: int, total_sections: int) -> float:
    """IDF over sections, scaled to [0, 1]: 1 for an entity only one section mentions,
    0 for one every section mentions."""
    if total_sections <= 1:
        return 1.0
    ratio = total_sections / max(sections_mentioning, 1)
    return max(0.0, min(1.0, math.log(ratio) / math.log(total_sections)))


def entity_weight(evidence: float, in_matched_child: bool, spec: float, type_match: float) -> float:
    """The weight of following an entity from a seed: the hop-1 evidence (the similarity
    of the matched child chunk naming it, else the seed's, discounted by PARENT_ONLY),
    times its specificity, times the question-type bonus."""
    return evidence * (1.0 if in_matched_child else PARENT_ONLY) * spec * (1.0 + TYPE_BONUS * type_match)


def hop_score(similarity: float, weight: float, defines: bool) -> float:
    """A reached section's score: its own similarity to the question (which by
    construction does not name the bridge) plus the hop-1 evidence that led to it."""
    return similarity + HOP_WEIGHT * weight * (1.0 if defines else REFERENCE_SHARE)


def names_in(text: str, names: set[str]) -> bool:
    """Whether the text names any of ``names`` (normalized names) as whole words."""
    tokens = normalized_tokens(text)
    return any(name and f"_{name}_" in tokens for name in names)


# -- search ------------------------------------------------------------------------------------

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


# -- following entities ------------------------------------------------------------------------

@dataclass
class Followed:
    """An entity to follow, with its best weight and the seed that gave it."""

    entity_id: int
    name: str
    entity_type: str
    weight: float
    seed: Passage


def weigh_entities(db: Database, seeds: list[Passage], matched: dict[str, list[tuple[str, float]]],
                    types: dict[str, float]) -> list[Followed]:
    """Every entity the seeds mention, weighted by ``entity_weight`` (best seed wins),
    best first."""
    mentions = graph.seed_mentions(db, [s.chunk_id for s in seeds])
    total = graph.section_count(db)
    child_text = graph.chunk_texts(db, [c for s in seeds for c, _ in matched.get(s.chunk_id, ())])
    names: dict[tuple[str, int], set[str]] = {}
    for m in mentions:
        names.setdefault((m.chunk_id, m.entity_id), {normalize_name(m.name)}).add(normalize_name(m.surface))
    by_seed = {s.chunk_id: s for s in seeds}
    best: dict[int, Followed] = {}
    for m in mentions:
        seed = by_seed[m.chunk_id]
        wanted = names[(m.chunk_id, m.entity_id)]
        in_child = [sim for child, sim in matched.get(seed.chunk_id, ())
                    if names_in(child_text.get(child, ""), wanted)]
        evidence = max(in_child) if in_child else seed.similarity
        weight = entity_weight(evidence, bool(in_child), specificity(m.sections, total),
                               types.get(m.entity_type, 0.0))
        current = best.get(m.entity_id)
        if current is None or weight > current.weight:
            best[m.entity_id] = Followed(m.entity_id, m.name, m.entity_type, weight, seed)
    return sorted(best.values(), key=lambda f: (-f.weight, f.name))


def _section_similarity(vectors: VectorStore, db: Database, question_vector: list[float],
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


def _reach(db: Database, followed: list[Followed], books: tuple[str, ...],
           skip: set[str]) -> list[tuple[Followed, graph.EntitySection]]:
    """(entity, section) pairs: the sections of books not yet on the seed's path that
    define or mention a followed entity."""
    by_id = {f.entity_id: f for f in followed}
    out = []
    for section in graph.entity_sections(db, list(by_id), REFERENCES_PER_ENTITY):
        entity = by_id[section.entity_id]
        if section.book in entity.seed.path_books or section.chunk_id in skip:
            continue
        if books and section.book not in books:
            continue
        out.append((entity, section))
    return out


def _ppr_weights(seeds: list[Passage], followed: list[Followed],
                 reached: list[tuple[Followed, graph.EntitySection]]) -> dict[str, float]:
    """Personalized PageRank over seeds -> entities -> reached sections, seeded by the
    seeds' similarities; returns section -> its PageRank, scaled so the best is 1."""
    edges: dict[str, dict[str, float]] = {}

    def link(a: str, b: str, w: float) -> None:
        if w > 0:
            edges.setdefault(a, {})[b] = edges.setdefault(a, {}).get(b, 0.0) + w
            edges.setdefault(b, {})[a] = edges.setdefault(b, {}).get(a, 0.0) + w

    for f in followed:
        link(f"s:{f.seed.chunk_id}", f"e:{f.entity_id}", f.weight)
    for f, section in reached:
        link(f"e:{f.entity_id}", f"s:{section.chunk_id}",
             1.0 if section.mention_type == "defines" else REFERENCE_SHARE)
    rank = graph.personalized_pagerank(edges, {f"s:{s.chunk_id}": s.similarity for s in seeds},
                                       damping=PPR_DAMPING)
    seeded = {s.chunk_id for s in seeds}
    scores = {node[2:]: p for node, p in rank.items() if node.startswith("s:") and node[2:] not in seeded}
    top = max(scores.values(), default=0.0)
    return {chunk: p / top for chunk, p in scores.items()} if top > 0 else {}


def _hop(vectors: VectorStore, db: Database, question_vector: list[float], seeds: list[Passage],
         matched: dict[str, list[tuple[str, float]]], types: dict[str, float], books: tuple[str, ...],
         hop: int, ranking: str) -> tuple[list[Followed], list[Passage]]:
    """One hop from ``seeds``: the entities followed and the sections they reach, scored."""
    weighted = weigh_entities(db, seeds, matched, types)
    followed = [f for f in weighted if f.weight > 0][:ENTITIES_PER_HOP]
    reached = _reach(db, followed, books, {s.chunk_id for s in seeds})
    if not reached:
        return followed, []
    similarity = _section_similarity(vectors, db, question_vector, sorted({s.chunk_id for _, s in reached}))
    parents = _parents(db, {s.chunk_id for _, s in reached})
    ppr = _ppr_weights(seeds, followed, reached) if ranking == "ppr" else {}
    best: dict[str, Passage] = {}
    for entity, section in reached:
        parent = parents.get(section.chunk_id)
        if parent is None:
            continue
        sim, child = similarity.get(section.chunk_id, (0.0, ""))
        defines = section.mention_type == "defines"
        if ranking == "ppr":
            score = sim + HOP_WEIGHT * ppr.get(section.chunk_id, 0.0)
        else:
            score = hop_score(sim, entity.weight, defines)
        current = best.get(section.chunk_id)
        if current is not None and current.score >= score:
            continue
        best[section.chunk_id] = Passage(
            chunk_id=section.chunk_id, book=parent["book"], section=parent["heading_path"],
            score=score, similarity=sim, hop=hop, child_id=child, text=parent["text"],
            via=Via(entity=entity.name, entity_type=entity.entity_type, from_chunk=entity.seed.chunk_id,
                    from_book=entity.seed.book, from_section=entity.seed.section,
                    mention_type=section.mention_type, weight=entity.weight),
            defines=defines, found_at=[hop], path_books=(*entity.seed.path_books, parent["book"]),
        )
    return followed, sorted(best.values(), key=lambda p: (-p.score, p.book, p.section))


def retrieve(
    vectors: VectorStore,
    db: Database,
    question: str,
    hops: int = 2,
    k: int = 10,
    books: tuple[str, ...] = (),
    ranking: str = "simple",
) -> dict:
    """Multi-hop retrieval (see the module docstring). Returns {"question", "hops", "k",
    "ranking", "queries", "seeds", "followed", "results": [Passage...]} with at most ``k``
    results, best first; ``seeds`` are the sections each hop followed entities from and
    ``followed`` the entities, with their weights. ``hops=1`` is plain search. Raises
    BadInput on bad arguments.
    """
    _check(question, k)
    if hops < 1:
        raise BadInput(f"--hops must be at least 1 (got {hops})")
    if ranking not in RANKINGS:
        raise BadInput(f"unknown ranking '{ranking}' (choose one of: {', '.join(RANKINGS)})")
    question_vector = vectors.embedder.embed([question])[0]
    hits = vectors.query([question], k * OVERSAMPLE, books, embeddings=[question_vector])[0]
    frontier = _passages(db, hits, hop=1, limit=k)
    matched: dict[str, list[tuple[str, float]]] = {}
    for hit in hits:
        matched.setdefault(hit.parent_id, []).append((hit.child_id, hit.similarity))
    types = question_types(question, store.index_pack(db)) if hops > 1 else {}
    merged: dict[str, Passage] = {p.chunk_id: p for p in frontier}
    seeds_used: list[str] = []
    followed_out: list[dict] = []
    for hop in range(2, hops + 1):
        seeds = frontier[:SEEDS_PER_HOP]
        if not seeds:
            break
        seeds_used.extend(s.chunk_id for s in seeds)
        followed, found = _hop(vectors, db, question_vector, seeds, matched, types, books, hop, ranking)
        followed_out.extend({"hop": hop, "entity": f.name, "entity_type": f.entity_type,
                             "weight": round(f.weight, 4), "from_chunk": f.seed.chunk_id} for f in followed)
        frontier = []
        # a section found by several paths is scored and reported by its best one (the
        # index agreeing with the vectors is evidence); ``found_at`` lists every hop
        for passage in found:
            current = merged.get(passage.chunk_id)
            if current is None:
                frontier.append(passage)
            elif passage.score > current.score:
                passage.found_at = sorted({*current.found_at, hop})
            else:
                current.found_at = sorted({*current.found_at, hop})
                continue
            merged[passage.chunk_id] = passage
        # the next hop's evidence is the matched child of each reached section
        matched = {p.chunk_id: [(p.child_id, p.similarity)] for p in frontier if p.child_id}
    ranked = sorted(merged.values(), key=lambda p: (-p.score, p.hop, p.book, p.section))
    return {"question": question, "hops": hops, "k": k, "ranking": ranking,
            "queries": [{"hop": 1, "query": question, "book": None}],
            "seeds": seeds_used, "followed": followed_out, "results": ranked[:k]}
