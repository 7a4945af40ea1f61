"""Multi-hop retrieval over child-chunk vectors and the entity index.

Plain vector search is ``search.search`` (the nearest child chunks, returned as their parent
sections: ``Passage``). ``retrieve`` follows the entity index across books (the design's
section 3), with the ranking rules of ``scoring.py`` and what ``question.py`` reads in the
question:

1. hop 1 is a vector search for the question: its best sections are the seeds, and the
   child chunks that matched inside them are the evidence. Sections that define an
   entity the question names ("the Frost Wyrm") join the seeds, and so do the few it
   quotes (quoted.py: "fade from view", a run of its words that few sections contain);
2. every entity a seed mentions gets a weight (``entity_weight``): the similarity of the
   matched child chunk that names it (a seed section mentions about a dozen entities; the
   one the question is about is usually in the passage that matched), times its
   specificity (an IDF over sections: "Fate Point", mentioned everywhere, says little),
   times a bonus when the question names its type ("that spell", "which condition"), by
   the index's pack type names and cue words, times the bridge signals of index/query/bridge.py
   (is it defined off the seed's path, does the question ask for its heading category, is
   it in the sentence the question describes, is it named in the sentence that best
   matched the question over every seed while the question does not name it);
3. the best-weighted entities (overall, and the best of each seed) that lead somewhere are
   followed into the sections of other books (or other notes of a vault, pages of a doc set) that define or
   mention them, hop-1 sections included: the index knows where to look, so no extra
   embedding is computed. So is what the question names and a seed lists without a
   stored mention (lowercase, a table row: ``listed_names``). What a seed's own entry
   states a relationship with is followed too (``lift_stated``), and leads when the question
   names that entry, as written, in lower case or loosely (named_entry.py); and so is what
   the best entities lead to by a relationship of a type the ontology marks ``leads`` (an
   item to the spell it casts, a creature to its gear and what it summons: ``with_led``);
4. a reached section's hop score is its own similarity to the question plus the weight
   of the entity that led to it (``hop_score``). The final order fuses the two hops'
   lists by reciprocal rank (``rank_fusion``): the best of each hop lead, and a section
   both reach rises. Each result says how it was reached (hop, via which entity, from
   which section) and with what scores.

``ranking="ppr"`` replaces step 4's single best path by personalized PageRank over the
section-entity graph around the seeds (every path counts); bench/eval_retrieval.py
compares the two.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from sqlite_utils import Database

from ..core.errors import BadInput
from ..core.normalize import normalize_name, normalized_tokens, normalized_words
from ..relations.index_ontology import index_ontology
from ..vectors.chroma import VectorStore
from . import bridge, quoted
from . import entity_graph as graph
from .loose_names import heading_sections, loose_links
from .named_entry import INSIDE, LOOSE, OWN, lift_named, named_keys
from .passage import Passage, Via
from .question import Question, index_pack, parse_question
from .scoring import (
    FUSION_K,
    HOP_WEIGHT,
    REFERENCE_SHARE,
    bridge_factor,
    entity_weight,
    hop_score,
    rank_fusion,
    specificity,
)
from .search import (
    OVERSAMPLE,
    best_passages,
    check_query,
    parent_rows,
    section_similarity,
    source_location,
)

# Every number below is measured with bench/eval_retrieval.py on the three shelves (docs/retrieval.md).
SEEDS_PER_HOP = 7            # sections of a hop whose entities are followed
LINKED_SEEDS = 3             # + sections defining an entity the question names
ENTITIES_PER_HOP = 8         # entities followed from one hop (the best weighted) ...
ENTITIES_PER_SEED = 3        # ... plus the best of each seed
REFERENCES_PER_ENTITY = 6    # sections of one book that only mention a followed entity
REACHED_SECTIONS = 40        # hop-2 sections scored (the best paths first)
REFERENCED_UP_TO = 20        # follow references only of entities at most this many sections mention
STATED_PER_SEED = 16         # entities a seed's entry states a relationship with, followed
CANDIDATES = 2               # entities looked up in the index: this many times those followed
EVIDENCE_MIN_SHARED = 2      # a sentence describes the question when it shares this many content words
BEST_BONUS = 0.5             # x (1 + this) when the sentence that best matched the question names it
                             # and the question does not (it describes the bridge, "that spell")
LED_SHARE = 0.8              # what a followed entity leads to (the ontology's ``leads`` types): this share of its weight
PPR_DAMPING = 0.5
RANKINGS = ("simple", "ppr")


# -- following entities ------------------------------------------------------------------------

@dataclass
class Followed:
    """An entity to follow, with its best weight and the seed that gave it."""

    entity_id: int
    name: str
    entity_type: str
    weight: float
    seed: Passage
    sections: int = 0            # sections of the index that mention the entity
    described: bool = False      # the best-matched sentence names it, the question does not
    named: bool = False          # the question names it, the seed lists it unlinked (listed_names)
    stated: bool = False         # the seed's own entry states a relationship with it (lift_stated)
    named_source: int = 0        # ... and the question names that entry (named_entry: LOOSE, OWN, INSIDE)
    asked_kind: bool = False     # the question names its type ("which creature", by the pack)


@lru_cache(maxsize=1 << 14)
def _name_keys(name: str) -> tuple[str, str]:
    """A name as the matched text is searched for: plural-folded, and as written."""
    return normalize_name(name), normalized_words(name)


def listed_names(db: Database, seeds: list[Passage], mentions: list[graph.SeedMention],
                 question: Question) -> list[graph.SeedMention]:
    """What the question names and a seed lists, though the index stores no mention of it
    there: entities of the index (defined somewhere) whose name is a phrase of the
    question in any case (its ``phrases``) and occurs in the seed's text, a table row
    or a lowercase "frightened" included (the extractor links capitalized names in prose).
    Returns them as mentions of those seeds, to be followed (``_hop``)."""
    stored = {(m.chunk_id, m.entity_id) for m in mentions}
    named = graph.named_entities(db, list(question.phrases))
    unlinked: list[graph.SeedMention] = []
    for seed in seeds if named else ():
        tokens = normalized_tokens(seed.text)
        for entity_id, name, entity_type, _, sections in named:
            if (seed.chunk_id, entity_id) not in stored and any(
                    f"_{key}_" in tokens for key in _name_keys(name) if key):
                unlinked.append(graph.SeedMention(entity_id, name, entity_type, seed.chunk_id, name, sections))
    return unlinked


def weigh_entities(db: Database, seeds: list[Passage], matched: dict[str, list[tuple[str, float]]],
                   question: Question, named: frozenset[str] = frozenset(),
                   loosely: frozenset[str] = frozenset()) -> list[Followed]:
    """Every entity the seeds mention, weighted by ``entity_weight`` (with the bonus of a
    type the question asks for: its ``kinds``) times the bridge signals of
    index/query/bridge.py (``bridge_factor``: its evidence sentences include the list lines
    whose label the question repeats); per entity and seed path the best
    seed wins. An entity an entry of ``named`` (normalized names the question uses) or of
    ``loosely`` (the names a part of a name stands for) states is marked ``named_source``.
    Best first."""
    mentions = graph.seed_mentions(db, [s.chunk_id for s in seeds])
    total = graph.section_count(db)
    types = question.kinds
    unlinked = listed_names(db, seeds, mentions, question)
    unlinked_pairs = {(m.chunk_id, m.entity_id) for m in unlinked}
    stated = graph.stated_mentions(db, [s.chunk_id for s in seeds])
    stated_pairs = {(m.chunk_id, m.entity_id) for m in stated}
    named_pairs = named_stated(seeds, stated, named, loosely)
    stored = {(m.chunk_id, m.entity_id) for m in mentions} | unlinked_pairs
    mentions = mentions + unlinked + [m for m in stated if (m.chunk_id, m.entity_id) not in stored]
    child_text = graph.chunk_texts(db, [c for s in seeds for c, _ in matched.get(s.chunk_id, ())])
    child_tokens = {child: normalized_tokens(text) for child, text in child_text.items()}
    defined_at = graph.definitions(db, sorted({m.entity_id for m in mentions}))
    names: dict[tuple[str, int], set[str]] = {}
    for m in mentions:
        names.setdefault((m.chunk_id, m.entity_id), set(_name_keys(m.name))).update(_name_keys(m.surface))
    by_seed = {s.chunk_id: s for s in seeds}
    asked = {s.chunk_id: bridge.asked_words(question.asked_words, s.section) for s in seeds}
    # the sentences the question describes, within the child chunks it matched: each
    # seed's best, and the best over every seed (the one sentence that matched the question)
    sentences, best_sentences = bridge.sentence_evidence(
        {s.chunk_id: [(child_text.get(child, ""), sim) for child, sim in matched.get(s.chunk_id, ())] for s in seeds},
        question.content_words, EVIDENCE_MIN_SHARED)
    question_tokens = question.tokens
    # a list line whose label the question repeats ("at will", "as a 6th level spell") names its items
    for s in seeds:
        sentences.setdefault(s.chunk_id, []).extend(bridge.labelled_lines(s.text, question_tokens))
    # per entity and path: followed from a seed of another book, it leads to other books
    best: dict[tuple[int, tuple[str, ...]], Followed] = {}
    for m in mentions:
        seed = by_seed[m.chunk_id]
        wanted = [name for name in names[(m.chunk_id, m.entity_id)] if name]
        in_child = [sim for child, sim in matched.get(seed.chunk_id, ())
                    if any(f"_{name}_" in child_tokens.get(child, "") for name in wanted)]
        evidence = max(in_child) if in_child else seed.similarity
        weight = entity_weight(evidence, bool(in_child), specificity(m.sections, total),
                               types.get(m.entity_type, 0.0))
        defs = defined_at.get(m.entity_id, [])
        category = bridge.category_match(bridge.category_words(tuple(d.heading_path for d in defs), m.name),
                                         asked[seed.chunk_id])
        weight *= bridge_factor(
            leads_elsewhere=bridge.leads_elsewhere({d.place for d in defs}, seed.path_books),
            category=category,
            in_evidence=any(f"_{name}_" in sentence for sentence in sentences[seed.chunk_id] for name in wanted),
        )
        # the sentence that best matched the question names it, and the question does not:
        # the question describes it ("that attack move"), so it is the bridge
        described = (any(f"_{name}_" in sentence for sentence in best_sentences for name in wanted)
                     and not any(f"_{name}_" in question_tokens for name in wanted))
        if described:
            weight *= 1.0 + BEST_BONUS
        key = (m.entity_id, seed.path_books)
        current = best.get(key)
        pair = (m.chunk_id, m.entity_id)
        if current is None or (named_pairs.get(pair, 0), weight) > (current.named_source, current.weight):
            best[key] = Followed(m.entity_id, m.name, m.entity_type, weight, seed, m.sections, described,
                                 pair in unlinked_pairs, pair in stated_pairs, named_pairs.get(pair, 0),
                                 types.get(m.entity_type, 0.0) >= 1.0)
    return sorted(best.values(), key=lambda f: (-f.weight, f.name))


def named_stated(seeds: list[Passage], stated: list[graph.SeedMention], named: frozenset[str],
                 loosely: frozenset[str] = frozenset()) -> dict[tuple[str, int], int]:
    """(seed, entity) -> how surely and how narrowly the question names the entry that
    states it (named_entry's levels): INSIDE for an entry ``named`` inside the seed's
    section (the otyugh's Tentacle Slam), OWN for the entry of the section's own heading (the
    otyugh), LOOSE for one of the entries a part of a name stands for (``loosely``: "sight"
    for Devil's, Eldritch, Witch Sight)."""
    own = {s.chunk_id: normalize_name(s.section.rpartition(" > ")[2]) for s in seeds}
    out: dict[tuple[str, int], int] = {}
    for m in stated:
        if m.stated_by in named:
            level = OWN if m.stated_by == own.get(m.chunk_id) else INSIDE
        elif m.stated_by in loosely:
            level = LOOSE
        else:
            continue
        pair = (m.chunk_id, m.entity_id)
        out[pair] = max(out.get(pair, 0), level)
    return out


def lift_stated(weighted: list[Followed]) -> list[Followed]:
    """What a seed's own entry states a relationship with ("casts one of the following
    spells: ... *water breathing*", "... or be stunned") is at least as good a bridge as
    anything else the seed mentions: its weight is raised to the best weight of the seed's
    other entities, so a spell of a list the question describes (and never names) is not
    outweighed by the section's common words, and among the stated ones the usual signals
    still order them. Best first."""
    floor: dict[str, float] = {}
    for f in weighted:
        if not f.stated:
            floor[f.seed.chunk_id] = max(floor.get(f.seed.chunk_id, 0.0), f.weight)
    for f in weighted:
        if f.stated:
            f.weight = max(f.weight, floor.get(f.seed.chunk_id, 0.0))
    return sorted(weighted, key=lambda f: (-f.weight, f.name))


def with_led(db: Database, weighted: list[Followed], types: list[str]) -> list[Followed]:
    """``weighted`` and what its best entities (the ENTITIES_PER_HOP best, and those the
    question names) lead to by a stated relationship of ``types`` (the ontology's ``leads``:
    an item to the spell it casts, a creature to its gear and to what it summons), each at
    LED_SHARE of its source's weight, from the same seed; an entity the seed already gives
    keeps its own weight. Best first."""
    sources = weighted[:ENTITIES_PER_HOP] + [f for f in weighted[ENTITIES_PER_HOP:] if f.named or f.named_source]
    by_id: dict[int, list[Followed]] = {}
    for f in sources:
        by_id.setdefault(f.entity_id, []).append(f)
    have = {(f.entity_id, f.seed.path_books) for f in weighted}
    added: dict[tuple[int, tuple[str, ...]], Followed] = {}
    for source_id, target_id, name, entity_type, sections in graph.led_to(db, sorted(by_id), types):
        for f in by_id[source_id]:
            key, weight = (target_id, f.seed.path_books), f.weight * LED_SHARE
            if key not in have and (key not in added or weight > added[key].weight):
                added[key] = Followed(target_id, name, entity_type, weight, f.seed, sections)
    return sorted([*weighted, *added.values()], key=lambda f: (-f.weight, f.name))


def linked_names(db: Database, question: Question) -> tuple[list[str], list[str]]:
    """(the normalized names the question links to the index, the part of them that a part
    of a name stands for): capitalized runs, then what it names loosely ("the pounce of
    lion", "levitation boots", "mephit": loose_names.py)."""
    names = list(question.names)
    whole, parts = loose_links(db, question, set(names))
    return names + whole + parts, parts


def linked_seeds(vectors: VectorStore, db: Database, question: Question, question_vector: list[float],
                 books: tuple[str, ...], skip: set[str],
                 names: tuple[list[str], list[str]] | None = None
                 ) -> tuple[list[Passage], dict[str, list[tuple[str, float]]]]:
    """Sections that define an entity the question names (the question is linked to the
    entity index, as HippoRAG links query entities to graph nodes; ``names``: linked_names):
    at most LINKED_SEEDS, longer and more specific names first; of the entries a part of a
    name stands for ("sight": Devil's, Eldritch, Witch Sight), the ones whose sections are
    most similar to the question. Returns them as hop-1 passages scored by their similarity
    to the question, and their best child as the matched evidence."""
    names, parts = linked_names(db, question) if names is None else names
    order = {name: i for i, name in enumerate(names)}
    total = graph.section_count(db)
    rows = [r for r in graph.defining_sections(db, names) + heading_sections(db, names) if r[2] not in skip]
    parents = parent_rows(db, {r[2] for r in rows})
    rows = [r for r in rows if r[2] in parents and not (books and parents[r[2]]["book"] not in books)]
    similarity = section_similarity(vectors, db, question_vector, sorted({r[2] for r in rows}))
    part_set = set(parts)
    rows.sort(key=lambda r: (len(names) if r[0] in part_set else order[r[0]],
                             -similarity.get(r[2], (0.0, ""))[0] if r[0] in part_set else 0.0,
                             -specificity(r[3], total), r[2]))
    chosen: list[str] = []
    for _, _, chunk_id, _ in rows:
        if chunk_id not in chosen:
            chosen.append(chunk_id)
        if len(chosen) == LINKED_SEEDS:
            break
    return seed_passages(parents, similarity, chosen)


def quoted_seeds(vectors: VectorStore, db: Database, question: Question, question_vector: list[float],
                 books: tuple[str, ...], skip: set[str]) -> tuple[list[Passage], dict[str, list[tuple[str, float]]]]:
    """The sections the question quotes (quoted.py: a run of its words that few sections
    contain): at most QUOTED_SEEDS, none of ``skip`` and only of ``books`` when given, as
    ``linked_seeds`` returns its seeds."""
    chosen = quoted.quoted_sections(db, question.text, skip)
    parents = parent_rows(db, set(chosen))
    chosen = [c for c in chosen if c in parents and not (books and parents[c]["book"] not in books)]
    chosen = chosen[:quoted.QUOTED_SEEDS]
    return seed_passages(parents, section_similarity(vectors, db, question_vector, chosen), chosen)


def seed_passages(parents: dict[str, dict], similarity: dict[str, tuple[float, str]], chosen: list[str]
                  ) -> tuple[list[Passage], dict[str, list[tuple[str, float]]]]:
    """The ``chosen`` parent sections as hop-1 passages scored by their ``similarity`` to
    the question, and each one's best child as its matched evidence."""
    out, matched = [], {}
    for chunk_id in chosen:
        parent = parents[chunk_id]
        sim, child = similarity.get(chunk_id, (0.0, ""))
        out.append(Passage(chunk_id=chunk_id, book=parent["book"], section=parent["heading_path"],
                           score=sim, similarity=sim, hop_score=sim, hop=1, child_id=child,
                           text=parent["text"], **source_location(parent),
                           path_books=(parent["place"],), found_at=[1]))
        if child:
            matched[chunk_id] = [(child, sim)]
    return out, matched


def stated_followed(weighted: list[Followed], leading: set[int], followed: list[Followed]) -> list[Followed]:
    """The entities each seed's entry states a relationship with (``lift_stated``) that lead
    somewhere and are not followed yet: at most STATED_PER_SEED per seed, best first (a
    creature's whole spell list, not the three its weights favour)."""
    out: list[Followed] = []
    per_seed: dict[str, int] = {}
    for f in weighted:
        if f.stated and id(f) in leading and f not in followed:
            per_seed[f.seed.chunk_id] = per_seed.get(f.seed.chunk_id, 0) + 1
            if per_seed[f.seed.chunk_id] <= STATED_PER_SEED:
                out.append(f)
    return out


def _reach(db: Database, followed: list[Followed],
           books: tuple[str, ...]) -> list[tuple[Followed, graph.EntitySection]]:
    """(entity, section) pairs: the sections of books not yet on the seed's path that
    define or mention a followed entity. Another seed is reached too: a section both hops
    reach rises in the fusion (on a small shelf, or for a question close to both books,
    the bridge's definition is already a hop-1 seed)."""
    by_id: dict[int, list[Followed]] = {}
    for f in followed:
        by_id.setdefault(f.entity_id, []).append(f)
    out = []
    # the sections that only mention a common entity are not worth reading
    referenced = [entity_id for entity_id, fs in by_id.items() if fs[0].sections <= REFERENCED_UP_TO]
    for section in graph.entity_sections(db, list(by_id), referenced, REFERENCES_PER_ENTITY):
        if books and section.book not in books:
            continue
        out.extend((entity, section) for entity in by_id[section.entity_id]
                   if section.place not in entity.seed.path_books)
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
         matched: dict[str, list[tuple[str, float]]], question: Question, books: tuple[str, ...],
         hop: int, ranking: str, leading: list[str], named: frozenset[str] = frozenset(),
         loosely: frozenset[str] = frozenset()) -> tuple[list[Followed], list[Passage]]:
    """One hop from ``seeds``: the entities followed (and what they lead to by ``leading``
    types) and the sections they reach, scored."""
    weighted = [f for f in lift_named(lift_stated(weigh_entities(db, seeds, matched, question, named, loosely)))
                if f.weight > 0]
    weighted = with_led(db, weighted, leading)
    # an entity no other book mentions leads nowhere: follow the best ones that lead somewhere
    # the candidates: a few times what is followed, overall and per seed (an entity that
    # leads nowhere is skipped, and reading every mention of every entity costs time)
    per_seed_seen: dict[str, int] = {}
    candidates = []
    for rank, f in enumerate(weighted):
        per_seed_seen[f.seed.chunk_id] = per_seed_seen.get(f.seed.chunk_id, 0) + 1
        if (rank < CANDIDATES * ENTITIES_PER_HOP or per_seed_seen[f.seed.chunk_id] <= CANDIDATES * ENTITIES_PER_SEED
                or f.named or f.stated):
            candidates.append(f)
    reached = _reach(db, candidates, books)
    leading = {id(f) for f, _ in reached}
    followed = [f for f in weighted if id(f) in leading][:ENTITIES_PER_HOP]
    # every seed's best entities too: one seed's weights do not crowd out another's (a
    # seed the question names may match it less well than a chapter about the same words)
    per_seed: dict[str, int] = {}
    for f in weighted:
        if id(f) in leading and per_seed.get(f.seed.chunk_id, 0) < ENTITIES_PER_SEED:
            per_seed[f.seed.chunk_id] = per_seed.get(f.seed.chunk_id, 0) + 1
            if f not in followed:
                followed.append(f)
    # and what the question names that a seed lists, however low its weight
    followed.extend(f for f in weighted if f.named and id(f) in leading and f not in followed)
    followed.extend(stated_followed(weighted, leading, followed))
    kept = {id(f) for f in followed}
    reached = [(f, section) for f, section in reached if id(f) in kept]
    if len(reached) > REACHED_SECTIONS:
        # the sections whose vectors are read: definitions, then by the entity's weight
        reached.sort(key=lambda pair: (pair[1].mention_type != "defines", -pair[0].weight))
        reached = reached[:REACHED_SECTIONS]
    if not reached:
        return followed, []
    similarity = section_similarity(vectors, db, question_vector, sorted({s.chunk_id for _, s in reached}))
    parents = parent_rows(db, {s.chunk_id for _, s in reached})
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
        if current is not None and current.hop_score >= score:
            continue
        best[section.chunk_id] = Passage(
            chunk_id=section.chunk_id, book=parent["book"], section=parent["heading_path"],
            score=score, similarity=sim, hop_score=score, hop=hop, child_id=child, text=parent["text"],
            via=Via(entity=entity.name, entity_type=entity.entity_type, from_chunk=entity.seed.chunk_id,
                    from_book=entity.seed.book, from_section=entity.seed.section,
                    mention_type=section.mention_type, weight=entity.weight),
            defines=defines, found_at=[hop], path_books=(*entity.seed.path_books, parent["place"]),
            **source_location(parent),
        )
    return followed, sorted(best.values(), key=lambda p: (-p.hop_score, p.book, p.section))


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
    check_query(question, k)
    if hops < 1:
        raise BadInput(f"--hops must be at least 1 (got {hops})")
    if ranking not in RANKINGS:
        raise BadInput(f"unknown ranking '{ranking}' (choose one of: {', '.join(RANKINGS)})")
    question_vector = vectors.embedder.embed([question])[0]
    hits = vectors.query([question], k * OVERSAMPLE, books, embeddings=[question_vector])[0]
    asked = parse_question(question, index_pack(db) if hops > 1 else None)
    frontier = best_passages(db, hits, hop=1, limit=k)
    matched: dict[str, list[tuple[str, float]]] = {}
    for hit in hits:
        matched.setdefault(hit.parent_id, []).append((hit.child_id, hit.similarity))
    merged: dict[str, Passage] = {p.chunk_id: p for p in frontier}
    linked: list[Passage] = []
    names = linked_names(db, asked) if hops > 1 else ([], [])
    # what a part of a name stands for is named loosely: several entries may share the part
    named = named_keys(asked, [n for n in names[0] if n not in names[1]])
    loosely = frozenset(names[1]) - named
    if hops > 1 and LINKED_SEEDS:
        linked, linked_matched = linked_seeds(vectors, db, asked, question_vector, books,
                                              {p.chunk_id for p in frontier[:SEEDS_PER_HOP]}, names)
        quotes, quoted_matched = quoted_seeds(vectors, db, asked, question_vector, books,
                                              {p.chunk_id for p in frontier[:SEEDS_PER_HOP] + linked})
        # a section the question quotes is a seed as one it names is
        linked, linked_matched = linked + quotes, {**quoted_matched, **linked_matched}
        for passage in linked:
            matched.setdefault(passage.chunk_id, []).extend(linked_matched.get(passage.chunk_id, ()))
            merged.setdefault(passage.chunk_id, passage)
    seeds_used: list[str] = []
    hop_lists: list[list[str]] = [[p.chunk_id for p in sorted(merged.values(), key=lambda p: -p.hop_score)]]
    followed_out: list[dict] = []
    leading = index_ontology(db).leading_types() if hops > 1 else []  # the index's ontology, read once
    for hop in range(2, hops + 1):
        seeds = frontier[:SEEDS_PER_HOP] + (linked if hop == 2 else [])
        if not seeds:
            break
        seeds_used.extend(s.chunk_id for s in seeds)
        followed, found = _hop(vectors, db, question_vector, seeds, matched, asked, books, hop, ranking, leading,
                               *((named, loosely) if hop == 2 else ()))
        hop_lists.append([p.chunk_id for p in found])
        followed_out.extend({"hop": hop, "entity": f.name, "entity_type": f.entity_type,
                             "weight": round(f.weight, 4), "from_chunk": f.seed.chunk_id} for f in followed)
        frontier = []
        # a section found by several paths is reported by its best one; ``found_at`` lists
        # every hop (the fusion below counts each hop that reached it)
        for passage in found:
            current = merged.get(passage.chunk_id)
            if current is None:
                frontier.append(passage)
            elif passage.hop_score > current.hop_score:
                passage.found_at = sorted({*current.found_at, hop})
            else:
                current.found_at = sorted({*current.found_at, hop})
                continue
            merged[passage.chunk_id] = passage
        # the next hop's evidence is the matched child of each reached section
        matched = {p.chunk_id: [(p.child_id, p.similarity)] for p in frontier if p.child_id}
    if hops > 1:
        fused = rank_fusion(hop_lists, FUSION_K)
        for passage in merged.values():
            passage.score = fused.get(passage.chunk_id, 0.0)
    ranked = sorted(merged.values(), key=lambda p: (-p.score, -p.hop_score, p.hop, p.book, p.section))
    return {"question": question, "hops": hops, "k": k, "ranking": ranking,
            "queries": [{"hop": 1, "query": question, "book": None}],
            "seeds": seeds_used, "followed": followed_out, "results": ranked[:k]}
