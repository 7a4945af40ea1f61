"""How two entity mentions of one parsed sentence are linked by a verb: the dependency-tree walk.

Direction comes from dependency labels: ``nsubj`` is the source; ``dobj``/``attr``/
``nsubjpass`` and prepositional objects are the target; in the passive, the ``agent``
("by ...") object is the source, so "Deep Freeze is cast by the Frost Wyrm" gives
``Frost Wyrm CASTS Deep Freeze``. Conjuncts share their head's role ("inflicts Chilled and
Frightened"), a subject is shared by conjoined and ``xcomp`` verbs without their own,
relative clauses ("a spell that counters X") and participles ("Frost Lance, cast by Y")
attach to the noun they modify, and "X is a variant of Y" gives ``VARIANT_OF``.

The relation type is the verb lemma in UPPER_SNAKE third person (``CASTS``), with a phrasal
particle and the preposition of a prepositional target appended (``REPORTS_TO``), then
the design's replacements (``HAS`` -> ``HAS_ONE``...). Its non-verb filter drops a
link whose verb is not tagged VERB, is an auxiliary, or is a listed noun. The vocabulary
is data: ``verbs.toml`` (``verbs.py`` reads it).

Confidence (a heuristic, not a probability): 0.8 for the subject and direct object of
one verb, passive included; minus 0.1 for each indirect step: a prepositional target, a
subject shared across conjoined/xcomp verbs, a relative clause or participle, a "the
breath of X" or "such as X" climb, a repaired mis-parse (a name read as an adverbial noun
or a compound of the verb); 0.7 for a copular "X is a variant of Y"; never below 0.1. A
negated verb gives polarity "denied" and a ``may``/``might``/``could`` modal "uncertain";
polarity does not change the confidence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable

from .verbs import VerbVocabulary

BASE_CONFIDENCE = 0.8
STEP_PENALTY = 0.1
COPULAR_CONFIDENCE = 0.7

SUBJ = "subj"
OBJ = "obj"


@dataclass(frozen=True)
class Link:
    """One relation between two mentions of a sentence, by their ordinals."""

    source: int          # mention ordinal in the sentence
    target: int
    relation_type: str
    confidence: float
    polarity: str


@dataclass(frozen=True)
class _Attachment:
    verb: Any            # spaCy Token
    role: str            # SUBJ or OBJ
    prep: str | None     # the preposition of a prepositional target
    steps: int           # indirect steps taken (each costs STEP_PENALTY)
    label: str | None = None   # a fixed label (copular "VARIANT_OF")


def _third_person(lemma: str) -> str:
    lemma = lemma.lower()
    if lemma == "have":
        return "has"
    if lemma == "be":
        return "is"
    if re.search(r"(s|sh|ch|x|z|o)$", lemma):
        return lemma + "es"
    if re.search(r"[^aeiou]y$", lemma):
        return lemma[:-1] + "ies"
    return lemma + "s"


def _is_copula(token: Any) -> bool:
    return token.lemma_.lower() == "be"


def _subject_verbs(verb: Any, steps: int) -> Iterable[tuple[Any, int]]:
    """The verb and the verbs that share its subject: conjoined verbs and xcomp/advcl
    participles that have no subject of their own ("casts X as it dives, then climbs")."""
    yield verb, steps
    for child in verb.children:
        if child.dep_ in ("conj", "xcomp") or (child.dep_ == "advcl" and child.tag_ == "VBG"):
            if child.pos_ in ("VERB", "AUX") and not any(
                c.dep_ in ("nsubj", "nsubjpass", "csubj", "expl") for c in child.children
            ):
                yield from _subject_verbs(child, steps + 1)


def _attachments(token: Any, depth: int = 0) -> list[_Attachment]:
    """How a mention's root token attaches to verbs: as subject or object, and how."""
    out: list[_Attachment] = []
    steps = depth
    head_token = token
    # conjuncts and appositions take their first conjunct's role: "Chilled and Frightened"
    while head_token.dep_ in ("conj", "appos") and head_token.head is not head_token:
        if head_token.head.pos_ == "VERB" and _has_object(head_token.head):
            # gapping parsed as a verb conjunct: "casts Shield on itself and then Greater Shield"
            out.append(_Attachment(head_token.head, OBJ, None, steps + 1))
            break
        head_token = head_token.head
    dep, head = head_token.dep_, head_token.head
    if out:
        dep = "gapped"   # attached above; no role from the conjunct's own label
    if dep == "npadvmod" and head.pos_ == "VERB" and not _has_object(head) and head_token.i > head.i:
        # the small model reads "counters Cinder Wall" as counters + adverbial noun phrase
        out.append(_Attachment(head, OBJ, None, steps + 1))
    elif dep == "compound" and head.pos_ == "VERB" and head_token.i < head.i:
        # "A cornered Cinder Imp casts ...": a name glued to the verb as a compound
        out.extend(_Attachment(v, SUBJ, None, s) for v, s in _subject_verbs(head, steps + 1))
    elif dep == "compound" and head.pos_ == "NOUN" and head.dep_ == "compound" and head.head.pos_ == "VERB":
        # "The Hearthglow spell counters ...": name + noun, both glued to the verb
        out.extend(_Attachment(v, SUBJ, None, s) for v, s in _subject_verbs(head.head, steps + 1))
    elif dep in ("nsubj", "csubj"):
        if _is_copula(head):
            out.extend(_copular_subject(head, steps))
        else:
            out.extend(_Attachment(v, SUBJ, None, s) for v, s in _subject_verbs(head, steps))
    elif dep == "nsubjpass":
        out.append(_Attachment(head, OBJ, None, steps))
    elif dep in ("dobj", "dative", "oprd") or (dep == "attr" and not _is_copula(head)):
        out.append(_Attachment(head, OBJ, None, steps))
    elif dep == "pobj":
        prep = head
        while prep.dep_ == "conj" and prep.head.pos_ == "ADP":   # "by X and by Y"
            prep = prep.head
        governor = prep.head
        if prep.dep_ == "agent":
            out.append(_Attachment(governor, SUBJ, None, steps))
        elif prep.dep_ in ("prep", "dative"):
            if governor.pos_ in ("VERB", "AUX") and not _is_copula(governor):
                out.append(_Attachment(governor, OBJ, prep.lower_, steps + 1))
            elif governor.dep_ in ("attr", "acomp") and _is_copula(governor.head):
                label = f"{governor.lemma_}_{prep.lower_}".upper()
                out.append(_Attachment(governor.head, OBJ, None, steps, label=label))
            elif prep.lower_ == "of" and governor.pos_ in ("NOUN", "PROPN") and depth < 2:
                # "by the breath of the Frost Wyrm": the Wyrm takes the role of its breath
                out.extend(_attachments(governor, depth + 1))
            elif _is_such_as(prep) and depth < 2:
                # "Spells such as Shadow Step require Stealth": the example takes the role
                out.extend(_attachments(governor, depth + 1))
    # relative clauses and participles modifying the mention
    for child in head_token.children:
        if child.dep_ == "relcl" and child.pos_ == "VERB":
            for rel in child.children:
                if rel.tag_ in ("WDT", "WP") or rel.lower_ in ("that", "which", "who"):
                    if rel.dep_ in ("nsubj", "csubj"):
                        out.extend(_Attachment(v, SUBJ, None, s) for v, s in _subject_verbs(child, steps + 1))
                    elif rel.dep_ in ("nsubjpass", "dobj"):
                        out.append(_Attachment(child, OBJ, None, steps + 1))
        elif child.dep_ == "acl" and child.pos_ == "VERB":
            if child.tag_ == "VBN":
                out.append(_Attachment(child, OBJ, None, steps + 1))
            elif child.tag_ == "VBG":
                out.extend(_Attachment(v, SUBJ, None, s) for v, s in _subject_verbs(child, steps + 1))
    return out


def _has_object(verb: Any) -> bool:
    return any(c.dep_ in ("dobj", "attr", "oprd") for c in verb.children)


def _is_such_as(prep: Any) -> bool:
    if prep.lower_ == "including":
        return True
    return prep.lower_ == "as" and any(
        t.lower_ == "such" for t in (*prep.children, *prep.head.children, prep.nbor(-1) if prep.i > 0 else prep)
    )


def _copular_subject(copula: Any, steps: int) -> list[_Attachment]:
    """"X is a variant of Y": X is the subject of the copula, labelled by the attr's noun."""
    out = []
    for child in copula.children:
        if child.dep_ in ("attr", "acomp"):
            for prep in child.children:
                if prep.dep_ == "prep":
                    label = f"{child.lemma_}_{prep.lower_}".upper()
                    out.append(_Attachment(copula, SUBJ, None, steps, label=label))
                elif prep.dep_ == "relcl" and prep.pos_ == "VERB" and any(
                    r.dep_ == "nsubj" and (r.tag_ in ("WDT", "WP") or r.lower_ in ("that", "which", "who"))
                    for r in prep.children
                ):
                    # "Frost Lance is a spell that inflicts Chilled"
                    out.extend(_Attachment(v, SUBJ, None, s) for v, s in _subject_verbs(prep, steps + 1))
    return out


def _polarity(verb: Any, vocab: VerbVocabulary) -> str:
    children = list(verb.children)
    if any(c.dep_ == "neg" for c in children):
        return "denied"
    if any(c.dep_ == "aux" and c.lower_ in vocab.uncertain_modals for c in children):
        return "uncertain"
    return "asserted"


def verb_ok(verb: Any, vocab: VerbVocabulary) -> bool:
    """The non-verb filter: a link whose verb is not tagged VERB, is an auxiliary or a listed noun."""
    return (
        verb.pos_ == "VERB"
        and verb.dep_ not in ("aux", "auxpass")
        and verb.lemma_.lower() not in vocab.aux_lemmas
        and verb.lemma_.lower() not in vocab.non_verbs
        and verb.lower_ not in vocab.non_verbs
    )


def _label(verb: Any, attachment: _Attachment) -> str:
    if attachment.label:
        return attachment.label
    words = [_third_person(verb.lemma_)]
    words += [c.lower_ for c in verb.children if c.dep_ == "prt"]
    if attachment.prep:
        words.append(attachment.prep)
    return "_".join(re.sub(r"\W+", "_", w) for w in words).upper().strip("_")


def sentence_links(doc: Any, spans: list[tuple[int, int]], owners: list[tuple[int, ...]], vocab: VerbVocabulary) -> tuple[list[Link], int, int]:
    """Links between mentions of one parsed (masked) sentence; returns (links, pairs
    examined, links dropped by the non-verb filter)."""
    attached: list[list[_Attachment]] = []
    for start, end in spans:
        span = doc.char_span(start, end, alignment_mode="expand")
        attached.append(_attachments(span.root) if span is not None else [])
    links: dict[tuple[int, int, str], Link] = {}
    pairs = filtered = 0
    for i in range(len(spans)):
        for j in range(len(spans)):
            if i == j or set(owners[i]) == set(owners[j]):
                continue
            if i < j:
                pairs += 1
            for a in attached[i]:
                if a.role != SUBJ:
                    continue
                for b in attached[j]:
                    if b.role != OBJ or b.verb.i != a.verb.i or (a.label or None) != (b.label or None):
                        continue
                    verb = a.verb
                    copular = a.label is not None
                    if not copular and not verb_ok(verb, vocab):
                        filtered += 1
                        continue
                    relation_type = _label(verb, b)
                    source, target = i, j
                    replacement = vocab.replacements.get(relation_type)
                    if replacement is not None:
                        relation_type = replacement.relation_type
                        if replacement.swap:
                            source, target = j, i
                    if copular:
                        confidence = COPULAR_CONFIDENCE
                    else:
                        confidence = BASE_CONFIDENCE - STEP_PENALTY * (a.steps + b.steps)
                    confidence = round(max(confidence, 0.1), 2)
                    key = (source, target, relation_type)
                    link = Link(source, target, relation_type, confidence, _polarity(verb, vocab))
                    if key not in links or links[key].confidence < confidence:
                        links[key] = link
    return sorted(links.values(), key=lambda e: (e.source, e.target, e.relation_type)), pairs, filtered
