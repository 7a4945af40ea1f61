"""Read and review relationships; export the graph (JSON Lines, GraphML with the stdlib).

Review is human-in-the-loop: a suggested relationship is accepted, rejected or
adjusted (another type, or the other direction). The decision is stored by fingerprint
(see resolver.py) and the relationships of its chunk are re-derived at once, so the decision shows now
and after any later re-derivation of the same relationship.
"""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from collections import defaultdict

from sqlite_utils import Database

from ..changes.door import Door
from ..core.errors import BadInput, CrossbookError
from ..relations import edges
from ..relations.index_ontology import index_ontology
from ..relations.normalize import normalize_type, orient
from ..storage.store import now_iso
from .naming import resolve_entity

STATUSES = ("ready", "invalid", "pending_entities")
DECISIONS = {"accept": "accepted", "reject": "rejected", "adjust": "adjusted"}
EXPORT_FORMATS = ("jsonl", "graphml")
GRAPHML_NS = "http://graphml.graphdrawing.org/xmlns"


class RelationshipNotFound(CrossbookError):
    """No relationship with that id."""


ROW_SQL = """
SELECT r.id, r.relation_type, r.mapped_from, s.id AS source_id, s.name AS source, s.entity_type AS source_type,
       t.id AS target_id, t.name AS target, t.entity_type AS target_type, r.book, c.heading_path AS section,
       r.chunk_id, r.evidence, r.confidence, r.polarity, r.implicit, r.status, r.status_reason,
       r.review_state, r.extractor, r.claims, r.fingerprint
FROM entity_relationships r
JOIN entities s ON s.id = r.source_id
JOIN entities t ON t.id = r.target_id
JOIN chunks c ON c.id = r.chunk_id
"""


def _row(row: dict) -> dict:
    row = dict(row)
    row["implicit"] = bool(row["implicit"])
    if "section" in row:  # the key every result uses; "section" stays one release
        row["heading_path"] = row["section"]
    return row


def list_relationships(
    db: Database,
    *,
    relation_type: str | None = None,
    status: str | None = None,
    book: str | None = None,
    review_state: str | None = None,
    exclude_books: tuple[str, ...] = (),
    source: str | None = None,
) -> list[dict]:
    """Stored relationships, filtered (``exclude_books``: titles whose relationships are
    left out); ``status='pending_entities'`` lists the claims whose endpoints are not (yet)
    in the index instead. ``relation_type`` (a type, its mirror or an alias) picks the
    relationships of that pair of mirrors, each read in the direction the name given reads
    (``has_member``: from the owner's side); ``source`` (an entity's name) those of which it
    is an end, each read from its side: ``relation_type="member_of", source="frob"`` lists
    what frob has as members ("frob has_member --all") and what it is a member of. Raises
    BadInput for an unknown status, EntityNotFound for a ``source`` the index does not hold."""
    rows = _relationships(db, relation_type, status, book, review_state, source)
    return [r for r in rows if r["book"] not in exclude_books] if exclude_books else rows


def _relationships(db: Database, relation_type: str | None, status: str | None, book: str | None,
                   review_state: str | None, source: str | None = None) -> list[dict]:
    if status is not None and status not in STATUSES:
        raise BadInput(f"unknown status '{status}' (choose one of: {', '.join(STATUSES)})")
    if status == "pending_entities":
        where, params = ["status = 'pending_entities'"], []
        if book:
            where.append("book = ?"); params.append(book)
        if relation_type:
            where.append("relation_type = ?"); params.append(relation_type)
        return [
            {**r, "status": "pending_entities", "status_reason": "unresolved_endpoint", "implicit": bool(r["implicit"])}
            for r in db.query(
                "SELECT relation_type, source_name AS source, target_name AS target, book, chunk_id, evidence,"
                " confidence, polarity, implicit, extractor FROM relation_claims WHERE " + " AND ".join(where)
                + " ORDER BY book, chunk_id, extractor, ordinal", params)
        ]
    where, params = [], []
    ontology = index_ontology(db) if relation_type or source else None
    read_backwards = False  # a mirror's name: the rows read from their targets' side
    if relation_type:
        wanted = normalize_type(relation_type, ontology) or relation_type
        declared = ontology.types.get(wanted)
        pair = {relation_type, wanted, *([declared.mirror] if declared is not None and declared.mirror else [])}
        where.append("r.relation_type IN (SELECT value FROM json_each(?))"); params.append(json.dumps(sorted(pair)))
        read_backwards = declared is not None and not declared.canonical
    ends: set[int] | None = None
    if source:
        keys, _ = resolve_entity(db, source)
        ends = {r[0] for r in db.execute("SELECT id FROM entities WHERE normalized IN (SELECT value FROM json_each(?))",
                                         [json.dumps(keys)])}
        where.append("(r.source_id IN (SELECT value FROM json_each(?)) OR r.target_id IN (SELECT value FROM json_each(?)))")
        params += [json.dumps(sorted(ends))] * 2
    if status:
        where.append("r.status = ?"); params.append(status)
    if book:
        where.append("r.book = ?"); params.append(book)
    if review_state:
        where.append("r.review_state = ?"); params.append(review_state)
    sql = ROW_SQL + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY r.book, c.ordinal, r.id"
    rows = [_row(r) for r in db.query(sql, params)]
    if ends is not None:
        return [_read_from_target(r, ontology) if r["source_id"] not in ends else r for r in rows]
    return [_read_from_target(r, ontology) for r in rows] if read_backwards else rows


def _read_from_target(row: dict, ontology) -> dict:
    """A relationship read from its target's side: its ends swapped, its type's mirror
    (itself for a symmetric type); its id, evidence and status are the relationship's."""
    flipped = dict(row)
    for a, b in (("source", "target"), ("source_id", "target_id"), ("source_type", "target_type")):
        flipped[a], flipped[b] = row[b], row[a]
    flipped["relation_type"] = ontology.inverse_name(row["relation_type"])
    return flipped


def get_relationship(db: Database, relationship_id: int) -> dict:
    rows = list(db.query(ROW_SQL + " WHERE r.id = ?", [relationship_id]))
    if not rows:
        raise RelationshipNotFound(
            f"no relationship with id {relationship_id} (see: crossbook relations, crossbook review)"
        )
    return _row(rows[0])


def review(
    db: Database, relationship_id: int, action: str, *, relation_type: str | None = None, flip: bool = False
) -> dict:
    """Record a decision ('accept', 'reject', 'adjust') for a relationship and re-derive.

    'adjust' takes a new ``relation_type`` (an ontology type, an inverse or alias of one, or
    an explicit ``custom:<name>``) and/or ``flip``, both read from the relationship as it is
    shown now, so decisions add up: a flip keeps an earlier type change. Accepting or
    rejecting an adjusted relationship keeps the adjustment. The relationship keeps its id;
    it is validated against the ontology like any other (its ``status`` may become
    'invalid'). Returns the relationship as it is afterwards. Raises RelationshipNotFound,
    BadInput (unknown action or type, adjust with nothing to change)."""
    if action not in DECISIONS:
        raise BadInput(f"unknown review action '{action}' (choose one of: {', '.join(DECISIONS)})")
    row = get_relationship(db, relationship_id)
    if action != "adjust" and (relation_type or flip):
        raise BadInput("--type and --flip go with adjust only")
    previous = db.execute("SELECT relation_type, flipped FROM relation_reviews WHERE fingerprint = ?",
                          [row["fingerprint"]]).fetchone()
    stored_type, flipped = (previous[0], bool(previous[1])) if previous else (None, False)
    if action == "adjust":
        if not relation_type and not flip:
            raise BadInput("adjust needs --type TYPE and/or --flip")
        stored_type, flipped = _adjusted(db, row, relation_type, flip, flipped)

    def decide() -> None:
        db.execute(
            "INSERT INTO relation_reviews (fingerprint, decision, relation_type, flipped, decided_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT(fingerprint) DO UPDATE SET decision = excluded.decision,"
            " relation_type = excluded.relation_type, flipped = excluded.flipped, decided_at = excluded.decided_at",
            [row["fingerprint"], DECISIONS[action], stored_type, int(flipped), now_iso()],
        )
        edges.refresh_relationships(db, chunks={row["chunk_id"]})  # a decision changes its own chunk's rows only

    Door(db).record(decide)  # the shelf's one door: one transaction, one generation
    rows = list(db.query(ROW_SQL + " WHERE r.fingerprint = ? ORDER BY r.id", [row["fingerprint"]]))
    return _row(rows[0]) if rows else {**row, "review_state": DECISIONS[action]}


def _adjusted(db: Database, row: dict, relation_type: str | None, flip: bool, flipped: bool) -> tuple[str, bool]:
    """The (canonical type, flipped) to store for adjusting ``row`` as shown: ``flipped`` is
    relative to the relationship as extracted, and the stored one already applies to
    ``row``, so a new flip toggles it and an inverse type (``cast_by``) turns it too."""
    ontology = index_ontology(db)
    wanted = row["relation_type"]
    if relation_type:
        wanted = normalize_type(relation_type, ontology)
        if wanted is None:
            raise BadInput(f"relation type '{relation_type}' has no letters or digits")
        if wanted.startswith("custom:") and not relation_type.strip().casefold().startswith("custom:"):
            known = sorted({t for t in ontology.types})
            raise BadInput(
                f"unknown relation type '{relation_type}' (known: {', '.join(known)}; "
                f"or custom:{relation_type.strip()} for one outside the ontology)"
            )
    keys = {r[0]: (r[1], r[2]) for r in db.execute(
        "SELECT id, normalized, entity_type FROM entities WHERE id IN (?, ?)", [row["source_id"], row["target_id"]])}
    source, target = keys[row["source_id"]], keys[row["target_id"]]
    ends = (target, source) if flip else (source, target)
    oriented = orient(wanted, *ends, ontology)
    return oriented.relation_type, flipped ^ flip ^ oriented.flipped


# -- export -----------------------------------------------------------------------------------

def _exported(db: Database, include_invalid: bool) -> list[dict]:
    rows = [r for r in list_relationships(db) if r["review_state"] != "rejected"]
    if not include_invalid:
        rows = [r for r in rows if r["status"] == "ready" or r["review_state"] == "accepted"]
    return rows


def _graph(rows: list[dict]) -> tuple[dict, dict]:
    nodes: dict[int, dict] = {}
    edges: dict[tuple, dict] = {}
    for r in rows:
        nodes[r["source_id"]] = {"id": r["source_id"], "name": r["source"], "entity_type": r["source_type"]}
        nodes[r["target_id"]] = {"id": r["target_id"], "name": r["target"], "entity_type": r["target_type"]}
        # a denied statement is its own edge: it must never merge into (or read as) an assertion
        edge = edges.setdefault((r["source_id"], r["target_id"], r["relation_type"], r["polarity"]), {
            "source": r["source_id"], "target": r["target_id"], "relation_type": r["relation_type"],
            "polarity": r["polarity"], "count": 0, "books": set(), "evidence": r["evidence"], "confidence": 0.0,
            "status": r["status"], "review_state": r["review_state"],
        })
        edge["count"] += 1
        edge["books"].add(r["book"])
        edge["confidence"] = max(edge["confidence"], r["confidence"])
    return nodes, edges


def export_graph(db: Database, include_invalid: bool = False) -> dict:
    """The graph as one document: {"nodes": [{id, name, entity_type}], "edges": [one per
    chunk that states a relationship: id, source, target, relation_type, book, ...]}."""
    rows = _exported(db, include_invalid)
    nodes, _ = _graph(rows)
    edges = [
        {"id": r["id"], "source": r["source_id"], "target": r["target_id"],
         **{k: r[k] for k in ("relation_type", "book", "section", "chunk_id", "evidence", "confidence",
                              "polarity", "implicit", "status", "review_state", "extractor")}}
        for r in rows
    ]
    return {"nodes": sorted(nodes.values(), key=lambda n: n["id"]), "edges": edges}


def export_jsonl(db: Database, include_invalid: bool = False) -> tuple[str, dict]:
    """One JSON object per line: every node ({"kind": "node", ...}), then every relationship
    row ({"kind": "edge", ...}, one per chunk that states it). Returns (text, counts)."""
    graph = export_graph(db, include_invalid)
    out = io.StringIO()
    for kind, items in (("node", graph["nodes"]), ("edge", graph["edges"])):
        for item in items:
            out.write(json.dumps({"kind": kind, **item}, ensure_ascii=False) + "\n")
    return out.getvalue(), {"nodes": len(graph["nodes"]), "edges": len(graph["edges"])}


_NODE_KEYS = (("name", "string"), ("entity_type", "string"))
_EDGE_KEYS = (("relation_type", "string"), ("polarity", "string"), ("count", "int"), ("books", "string"), ("evidence", "string"),
              ("confidence", "double"), ("status", "string"), ("review_state", "string"))


def export_graphml(db: Database, include_invalid: bool = False) -> tuple[str, dict]:
    """GraphML (directed; one edge per (source, target, type, polarity), with how many
    chunks state it) for networkx, Gephi or Neo4j. Returns (text, counts)."""
    nodes, edges = _graph(_exported(db, include_invalid))
    ET.register_namespace("", GRAPHML_NS)
    q = lambda tag: f"{{{GRAPHML_NS}}}{tag}"  # noqa: E731
    root = ET.Element(q("graphml"))
    for i, (name, kind) in enumerate(_NODE_KEYS):
        ET.SubElement(root, q("key"), {"id": f"n{i}", "for": "node", "attr.name": name, "attr.type": kind})
    for i, (name, kind) in enumerate(_EDGE_KEYS):
        ET.SubElement(root, q("key"), {"id": f"e{i}", "for": "edge", "attr.name": name, "attr.type": kind})
    graph = ET.SubElement(root, q("graph"), {"id": "crossbook", "edgedefault": "directed"})
    for node in sorted(nodes.values(), key=lambda n: n["id"]):
        element = ET.SubElement(graph, q("node"), {"id": f"entity:{node['id']}"})
        for i, (name, _) in enumerate(_NODE_KEYS):
            ET.SubElement(element, q("data"), {"key": f"n{i}"}).text = str(node[name])
    for n, (key, edge) in enumerate(sorted(edges.items(), key=lambda kv: kv[0])):
        element = ET.SubElement(graph, q("edge"), {
            "id": f"rel:{n}", "source": f"entity:{edge['source']}", "target": f"entity:{edge['target']}"})
        values = {**edge, "books": "; ".join(sorted(edge["books"]))}
        for i, (name, _) in enumerate(_EDGE_KEYS):
            ET.SubElement(element, q("data"), {"key": f"e{i}"}).text = str(values[name])
    ET.indent(root)
    text = ET.tostring(root, encoding="unicode", xml_declaration=False)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + text + "\n", {"nodes": len(nodes), "edges": len(edges)}


def export(db: Database, fmt: str, include_invalid: bool = False) -> tuple[str, dict]:
    """The graph as text in ``fmt`` ('jsonl' or 'graphml'); raises BadInput for another."""
    if fmt == "jsonl":
        return export_jsonl(db, include_invalid)
    if fmt == "graphml":
        return export_graphml(db, include_invalid)
    raise BadInput(f"unknown export format '{fmt}' (choose one of: {', '.join(EXPORT_FORMATS)})")


def review_summary(db: Database) -> dict:
    """Counts by review state and status (for `crossbook review` with nothing to review)."""
    counts = defaultdict(int)
    for state, n in db.execute("SELECT review_state, count(*) FROM entity_relationships GROUP BY 1"):
        counts[state] = n
    return dict(counts)
