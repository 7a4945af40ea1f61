"""Pure, deterministic normalization and validation of a relationship (no I/O).

Normalization (in this order):
1. the type: an ontology type as is; an alias (or an UPPER_SNAKE verb: case is folded, so
   ``CASTS`` is the alias ``casts``) -> its official type; anything else -> ``custom:<snake>``
   (``custom:x`` given by the model is looked up as ``x`` first);
2. the direction: an inverse type is stored as its canonical mirror with the endpoints
   swapped (``owned_by(A, B)`` -> ``owns(B, A)``); a symmetric type is stored once, with the
   endpoints in ascending (normalized name, entity type) order.

Validation, on the canonical form and the endpoints' entity types: the ontology's
type-pair constraints (a type with constraints accepts only the listed pairs; the inverse
reading is implied), then the per-source-type relation maps (checked from the source's
side for the type and from the target's side for its mirror): ``pair_candidates``,
``min_confidence``, ``allow_implicit``, ``requires_evidence``. The result is ``ready`` or
``invalid`` with a reason; ``pending_entities`` is decided by endpoint resolution, before
this module is called.
"""

from __future__ import annotations

from dataclasses import dataclass

from .ontology import Ontology, snake

EntityKey = tuple[str, str]  # (normalized name, entity type)

READY, PENDING, INVALID = "ready", "pending_entities", "invalid"


def normalize_type(raw: str, ontology: Ontology) -> str | None:
    """The official (possibly inverse) type for a raw type, ``custom:<snake>``, or None when
    the raw type has no letters or digits."""
    body = raw.strip()
    if body.casefold().startswith("custom:"):
        body = body[len("custom:"):]
    name = snake(body)
    if not name:
        return None
    if name in ontology.types:
        return name
    if name in ontology.aliases:
        return ontology.aliases[name]
    return f"custom:{name}"


@dataclass(frozen=True)
class Oriented:
    relation_type: str
    source: EntityKey
    target: EntityKey
    flipped: bool        # the endpoints were swapped


def orient(relation_type: str, source: EntityKey, target: EntityKey, ontology: Ontology) -> Oriented:
    """The canonical direction of a (normalized) relationship."""
    t = ontology.types.get(relation_type)
    flipped = False
    if t is not None and not t.canonical and t.mirror:
        relation_type, source, target, flipped = t.mirror, target, source, True
        t = ontology.types.get(relation_type)
    if t is not None and t.symmetric and target < source:
        source, target, flipped = target, source, not flipped
    return Oriented(relation_type, source, target, flipped)


def validate(
    relation_type: str,
    source_type: str,
    target_type: str,
    ontology: Ontology,
    *,
    confidence: float = 1.0,
    implicit: bool = False,
    evidence: str = "",
    same_entity: bool = False,
) -> tuple[str, str | None]:
    """(status, reason) of a canonical relationship between entities of these types:
    ('ready', None) or ('invalid', 'invalid_type_pair' | 'below_min_confidence' |
    'implicit_not_allowed' | 'missing_evidence' | 'self_relation')."""
    if same_entity:
        return INVALID, "self_relation"
    src, tgt = ontology.equivalents(source_type), ontology.equivalents(target_type)
    t = ontology.types.get(relation_type)
    allowed = ontology.pairs.get(relation_type)
    if allowed is not None:
        ok = any((s, g) in allowed for s in src for g in tgt)
        if not ok and t is not None and t.symmetric:
            ok = any((g, s) in allowed for s in src for g in tgt)
        if not ok:
            return INVALID, "invalid_type_pair"
    # map entries that speak about this relationship: from the source's side (the type) and
    # from the target's side (its mirror; for a symmetric type, the type itself)
    entries = [(e, tgt) for s in sorted(src) if (e := ontology.maps.get((s, relation_type)))]
    mirror = t.mirror if t is not None else None
    if mirror:
        entries += [(e, src) for g in sorted(tgt) if (e := ontology.maps.get((g, mirror)))]
    for entry, other in entries:
        if entry.pair_candidates and not other & set(entry.pair_candidates):
            return INVALID, "invalid_type_pair"
    for entry, _ in entries:
        if entry.min_confidence is not None and confidence < entry.min_confidence:
            return INVALID, "below_min_confidence"
        if entry.allow_implicit is False and implicit:
            return INVALID, "implicit_not_allowed"
        if entry.requires_evidence and not evidence.strip():
            return INVALID, "missing_evidence"
    return READY, None
