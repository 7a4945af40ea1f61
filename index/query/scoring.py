"""The ranking rules of multi-hop retrieval (pure): how much an entity weighs, how a
reached section scores, and how the hops' lists fuse.

Every number here is measured with bench/eval_retrieval.py on the development shelves
(docs/retrieval.md); retrieve.py holds the numbers of how far a hop reaches.
"""

from __future__ import annotations

import math

PARENT_ONLY = 0.75           # an entity of the seed section that no matched child names
TYPE_BONUS = 1.0             # weight x (1 + TYPE_BONUS) when the question names its type
LOCAL_ONLY = 0.5             # weight x this for an entity only the seed's own books define
CATEGORY_BONUS = 1.0         # x (1 + this) when the question asks for the entity's category
EVIDENCE_BONUS = 0.5         # x (1 + this) when the seed's sentence the question describes names it
HOP_WEIGHT = 0.3             # how much a followed entity's weight adds to a section's hop score
DEFINES_BONUS = 0.15         # + this for a section that defines the entity it was reached by
REFERENCE_SHARE = 0.3        # the share of HOP_WEIGHT for a section that only mentions it
FUSION_K = 1                 # reciprocal rank fusion of the hops' lists: sum of 1 / (K + rank)


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


def bridge_factor(leads_elsewhere: bool, category: bool, in_evidence: bool) -> float:
    """The bridge signals (index/query/bridge.py) as one factor of an entity's weight: LOCAL_ONLY
    for an entity no other book defines, x (1 + CATEGORY_BONUS) when the question asks for
    its category, x (1 + EVIDENCE_BONUS) when the seed's sentence that the question
    describes names it."""
    factor = 1.0 if leads_elsewhere else LOCAL_ONLY
    if category:
        factor *= 1.0 + CATEGORY_BONUS
    if in_evidence:
        factor *= 1.0 + EVIDENCE_BONUS
    return factor


def hop_score(similarity: float, weight: float, defines: bool) -> float:
    """A reached section's score in its hop's list: its own similarity to the question
    (which by construction does not name the bridge) plus the weight of the entity that
    led to it, in full with a bonus when the section defines that entity, a share when it
    only mentions it."""
    if defines:
        return similarity + DEFINES_BONUS + HOP_WEIGHT * weight
    return similarity + HOP_WEIGHT * weight * REFERENCE_SHARE


def rank_fusion(lists: list[list[str]], k: float = FUSION_K) -> dict[str, float]:
    """Reciprocal rank fusion: item -> sum over the lists of 1 / (k + its rank there). The
    best of each hop's list lead the result (an answer needs the section the question is
    about and the one its bridge leads to), and a section both hops reach rises."""
    fused: dict[str, float] = {}
    for listed in lists:
        for rank, item in enumerate(listed, 1):
            fused[item] = fused.get(item, 0.0) + 1.0 / (k + rank)
    return fused
