"""Which of a seed section's entities is the question's bridge: pure ranking signals.

A two-book question ("The Lich's Paralyzing Touch makes it cast a spell: which school is
that spell?") reaches a seed section that mentions a dozen entities; the bridge is one of
them and the question never names it. Three signals say which one, none of them tied to a
book or a game (retrieve.weigh_entities multiplies them into the entity's weight):

- ``leads_elsewhere``: an entity the seed's own book defines (the power, monster or
  stat block the question is about) is the topic, not the bridge; an entity defined in
  another book is what following the index is for;
- ``category_match``: the question asks for a kind of thing ("that spell", "which
  condition", "a social skill"), and a book files its entries under headings of their
  kind ("Spells > Fireball", "Conditions > Blinded", "Equipment > Weapons" with its table
  rows). The words of the headings above an entity's definitions are its category; a
  category word the question uses, and the seed's own headings do not explain, is a match;
- ``evidence_sentence``: the sentences of the seed that share the most content words with
  the question ("you gain a +2 bonus to Rapport when asking an animal for a favor")
  name the bridge; entities named there are preferred to the rest of the section.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..core.normalize import normalize_name, normalized_tokens, normalized_words, singular
from ..core.words import WORD_OR_STOP, letter_runs

# words that say nothing about what a question asks for
STOPWORDS = frozenset("""
a about above after again against all also an and another any are as at be because been
before being below between both but by can cannot could did do does doing down during each
either else even every few for from further get gets give gives given had has have having he
her here hers him his how however i if in into is it its itself just let lets like made make
makes many may me might more most much must my no nor not now of off on once one only or
other others our out over own per same she should so some such than that the their them then
there these they this those through to too two under until up upon use used uses using very
was we were what when where whether which while who whom whose why will with within without
would you your yours according kind kinds certain particular named called describe described
say says said way ways thing things well still rule rules game games book books
""".split())
# a sentence ends at . ! ? followed by space, or at a line break (list items, table rows)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
MIN_WORD = 3


@lru_cache(maxsize=1 << 16)
def _content_word(word: str) -> str | None:
    word = singular(word)
    return word if len(word) >= MIN_WORD and word not in STOPWORDS else None


def content_words(text: str) -> set[str]:
    """The text's content words: case-folded, singular, no stopwords, at least 3 letters
    (a possessive "'s" and hyphens split off)."""
    return {w for w in map(_content_word, letter_runs(text.casefold())) if w}


@lru_cache(maxsize=1 << 14)
def _heading_words(heading: str) -> frozenset[str]:
    return frozenset(content_words(heading))


_heading_key = lru_cache(maxsize=1 << 14)(normalize_name)


@lru_cache(maxsize=1 << 14)
def category_words(heading_paths: tuple[str, ...], entity_name: str, depth: int = 2) -> frozenset[str]:
    """The content words of the ``depth`` headings nearest above an entity in each of its
    defining sections' heading paths: the path without its first element (the book's
    title) and without the headings that are the entity's own name."""
    own = normalize_name(entity_name)
    out: set[str] = set()
    for path in heading_paths:
        parts = [p for p in path.split(" > ")[1:] if _heading_key(p) != own]
        for part in parts[-depth:]:
            out |= _heading_words(part)
    return frozenset(out - content_words(entity_name))


def leads_elsewhere(defining_books: set[str], path_books: tuple[str, ...]) -> bool:
    """Whether the entity is defined in a book the seed's path has not visited."""
    return bool(defining_books - set(path_books))


def category_match(categories: set[str], asked: set[str]) -> bool:
    """Whether a category word of the entity is among the question's asked-for words."""
    return bool(categories & asked)


def asked_words(question_words: set[str], seed_heading_path: str) -> set[str]:
    """The question's content words that the seed section's own headings do not explain
    ("Venture City's Influence power" is the seed "Powers Catalog > Influence"; what is
    left, "skill", is what the question asks about)."""
    return question_words - content_words(seed_heading_path)


def shared_sentences(text: str, question_words: set[str]) -> list[tuple[frozenset[str], str]]:
    """(the question's content words it uses, ``normalized_tokens`` of the sentence) for
    every sentence or line of ``text`` (a list item, a table row) sharing at least one."""
    scored = []
    for sentence in _SENTENCE.split(text):
        shared = content_words(sentence) & question_words
        if shared:
            scored.append((frozenset(shared), normalized_tokens(sentence)))
    return scored


def evidence_sentences(text: str, question_words: set[str], min_shared: int = 2) -> list[str]:
    """The sentences (or lines) of ``text`` sharing the most content words with the
    question, as ``normalized_tokens`` strings to look names up in; none when the best
    shares fewer than ``min_shared`` words (a section the question does not describe)."""
    scored = [(len(shared), tokens) for shared, tokens in shared_sentences(text, question_words)]
    best = max((shared for shared, _ in scored), default=0)
    if best < min_shared:
        return []
    return [tokens for shared, tokens in scored if shared == best]


def best_sentences(sentences: list[tuple[int, float, str]], min_shared: int = 2) -> list[str]:
    """Of many sections' sentences, given as (content words shared with the question, the
    similarity of the child chunk holding it to the question, its ``normalized_tokens``),
    the ones that match the question best: the most shared words, and of those the ones
    in the child chunk most similar to the question (three sections may each share two
    words; the one the question describes is the one that matched). None when the best
    shares fewer than ``min_shared`` words."""
    top = max(((shared, similarity) for shared, similarity, _ in sentences), default=(0, 0.0))
    if top[0] < min_shared:
        return []
    return [tokens for shared, similarity, tokens in sentences if (shared, similarity) == top]


def sentence_evidence(children: dict[str, list[tuple[str, float]]], question_words: set[str],
                      min_shared: int = 2) -> tuple[dict[str, list[str]], list[str]]:
    """The sentences the question describes, given each seed's matched child chunks as
    (text, similarity to the question): per seed, its sentences sharing the most content
    words (at least ``min_shared``); and over every seed, ``best_sentences``. All as
    ``normalized_tokens`` strings."""
    per_seed: dict[str, list[str]] = {}
    every: list[tuple[int, float, str]] = []
    for seed, texts in children.items():
        found = [(len(shared), similarity, tokens) for text, similarity in texts
                 for shared, tokens in shared_sentences(text, question_words)]
        most = max((shared for shared, _, _ in found), default=0)
        per_seed[seed] = [tokens for shared, _, tokens in found if shared == most >= min_shared]
        every.extend(found)
    return per_seed, best_sentences(every, min_shared)


# a list line's label: "At will: ...", "- **6th level (1 slot):** ...", "3/day each: ..."
_LABEL = re.compile(r"^[\s>*_|-]*([^:\n]{2,40}?)[*_\s]*:")
_PARENTHESIS = re.compile(r"\([^)]*\)")


def labelled_lines(text: str, question_tokens: str) -> list[str]:
    """The lines of a labelled list ("At will: *detect magic*", "6th level (1 slot): *true
    seeing*") whose label the question repeats ("can cast one spell at will", "as a 6th
    level spell"): the items it means, as ``normalized_tokens`` of what follows the label.
    A label's parenthesis is no part of it; a label of one word must be a content word.
    ``question_tokens``: the question's ``normalized_tokens``."""
    out = []
    for line in text.splitlines():
        match = _LABEL.match(line)
        if match is None:
            continue
        label = normalized_words(_PARENTHESIS.sub(" ", match.group(1)))
        if label and ("_" in label or content_words(label)) and f"_{label}_" in question_tokens:
            out.append(normalized_tokens(line[match.end():]))
    return out


def named_category_words(question: str) -> set[str]:
    """Content words the question only uses right after a name: "the Horse's Mighty
    ability", "the Corruption theme". They say what kind of thing the named topic is, not
    what the question asks for, unless the question also uses them on their own ("Bold
    approach replaces ... that replaced approach" asks for an approach)."""
    after_name: set[str] = set()
    free: set[str] = set()
    previous_is_name, sentence_start = False, True
    for token in WORD_OR_STOP.findall(question):
        if token in ".!?;:":
            previous_is_name, sentence_start = False, True
            continue
        words = content_words(token)
        (after_name if previous_is_name else free).update(words)
        # a capitalized word names something, unless it only opens the sentence ("Which")
        previous_is_name = token[0].isupper() and not (sentence_start and not words)
        sentence_start = False
    return after_name - free
