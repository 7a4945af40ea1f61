"""The entry a question names, however it names it, states the bridge: its stated
relationships lead the hop.

A question about "the tentacle slam of otyugh", "Calm Emotions" or "the spell astral
projection" is about one entry; the relationships that entry's own text states ("Tentacle
Slam inflicts Stunned", "Calm Emotions ... charmed") are what the question asks to follow.
Another seed that only mentions the same words (a chapter on curing madness that lists
*calm emotions* among its cures, a sibling stat block) must not outweigh them. The entry is
named when its normalized name is one the question uses as written (``question_names``),
in any case (``question_phrases``) or loosely (``loose_names``: a part of its name, its
words in another order): the same rule for every way of naming it.
"""

from __future__ import annotations

from typing import Protocol

from .question import Question

NAMED_LIFT = 0.25   # the best end a named entry states weighs this much more than any other entity
# how surely and narrowly the question names the entry that states an end: one of the entries
# a part of its name stands for, the section's own entry, an entry inside the section
LOOSE, OWN, INSIDE = 1, 2, 3
UNNAMED_SHARE = 0.5  # x this for what an entry the question does not name states, when one it names does


class Weighted(Protocol):
    weight: float
    name: str
    stated: bool                 # the seed's own entry states a relationship with it
    named_source: int            # a named entry states it: LOOSE, OWN or INSIDE; 0: none
    asked_kind: bool             # the question names its type ("the creature", by the index's pack)


def named_keys(question: Question, loose: list[str] = ()) -> frozenset[str]:
    """Every normalized name the question may name an entry by: capitalized runs, runs of
    two words or more in any case ("tentacle slam"), and the loose names it was linked to (a
    single lowercase word only when it names a specific entry: loose_names.py; "spell" or
    "creature" name no entry)."""
    phrases = {p for p in question.phrases if "_" in p}
    return frozenset(question.names) | frozenset(phrases) | frozenset(loose)


def lift_named(weighted: list[Weighted]) -> list[Weighted]:
    """The ends a named entry states (``named_source``) scaled together so the best of them
    weighs (1 + NAMED_LIFT) times the best entity of any seed: they lead, in the order their
    own signals give them (the evidence sentence, a list line the question repeats). The
    ends of a named entry inside the section lead those of the section's own entry ("the
    tentacle slam of Otyugh": what Tentacle Slam inflicts, then what the otyugh does), which
    lead those of an entry a part of a name may stand for. When the question
    names the type of some entity ("the creature", by the pack's type names), only named
    ends of a type it names lead: the maneuver the question names requires a shield, but
    the question asks for a creature. What the entries the question does not name state (a
    sibling stat block's spells) then weighs UNNAMED_SHARE of itself, when an entry is named
    whole (a part of a name may stand for the wrong one). Best first."""
    kind_asked = any(f.asked_kind for f in weighted)
    lifted = [f for f in weighted if f.named_source and (f.asked_kind or not kind_asked)]
    if any(f.named_source >= OWN for f in lifted):
        for f in weighted:
            if f.stated and not f.named_source:
                f.weight *= UNNAMED_SHARE
    for level in sorted({f.named_source for f in lifted}):
        named = [f for f in lifted if f.named_source == level]
        top = max(f.weight for f in named)
        if top <= 0:
            continue
        scale = max(f.weight for f in weighted) * (1.0 + NAMED_LIFT) / top
        if scale > 1.0:
            for f in named:
                f.weight *= scale
    return sorted(weighted, key=lambda f: (-f.weight, f.name))
