"""The corpus linker: references to entities defined anywhere in the index.

Every name (and declared alias) of every defined entity goes into one Aho-Corasick
automaton; each chunk is scanned once. A match counts when it is whole words (an English
plural "s"/"es" may follow), case-aware (a name written with capitals only matches with
the same capitals, so the word "light" is not the spell "Light"; an all-lowercase name
matches any case), and, where matches overlap, the longest wins ("Greater Shield" over
"Shield"). A name defined with several types ("Shield" the spell and the armor) goes to
the type whose cue words occur in the sentence; on a tie, to the one defined in the
chunk's own book; otherwise it is skipped as ambiguous.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

import ahocorasick

from .text import sentence_span

EntityKey = tuple[str, str]  # (normalized name, entity type)
_WORD = re.compile(r"\w", re.UNICODE)


@dataclass
class LinkTarget:
    key: EntityKey
    names: set[str]                       # as written in definitions, plus aliases
    books: set[str] = field(default_factory=set)  # books that define it


@dataclass(frozen=True)
class LinkMatch:
    key: EntityKey
    name: str          # the text as it occurs in the chunk
    context: str
    origin_book: str   # the (first) book whose definition this reference was derived from


def _lower_same_length(text: str) -> str:
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


def _case_ok(pattern: str, found: str) -> bool:
    return found == pattern or pattern == pattern.lower() or (found.isupper() and len(found) > 1)


class Linker:
    """Built once per set of definitions; ``link`` is pure over one chunk's text."""

    def __init__(self, targets: list[LinkTarget], cues: dict[str, tuple[str, ...]]):
        self.targets = {t.key: t for t in targets}
        self.cues = {k: {c.lower() for c in v} for k, v in cues.items()}
        self.automaton = ahocorasick.Automaton()
        by_pattern: dict[str, dict[str, set[EntityKey]]] = {}
        for target in targets:
            for name in target.names:
                if name.strip():
                    by_pattern.setdefault(_lower_same_length(name), {}).setdefault(name, set()).add(
                        target.key
                    )
        for lowered, variants in by_pattern.items():
            self.automaton.add_word(lowered, (len(lowered), variants))
        self.empty = not by_pattern
        if not self.empty:
            self.automaton.make_automaton()
        self.ambiguous = Counter()

    def _candidates(self, text: str):
        lowered = _lower_same_length(text)
        for end_index, (length, variants) in self.automaton.iter(lowered):
            start, end = end_index - length + 1, end_index + 1
            if start > 0 and _WORD.match(text[start - 1]):
                continue
            stop = end
            for suffix in ("", "s", "es"):
                tail = text[end:end + len(suffix)]
                if tail == suffix and not (end + len(suffix) < len(text) and _WORD.match(text[end + len(suffix)])):
                    stop = end + len(suffix)
                    break
            else:
                continue
            found = text[start:end]
            keys = set()
            for written, entity_keys in variants.items():
                if _case_ok(written, found):
                    keys |= entity_keys
            if keys:
                yield start, stop, found, keys

    def _choose(self, keys: set[EntityKey], sentence: str, at: int, book: str) -> EntityKey | None:
        if len(keys) == 1:
            return next(iter(keys))
        # cue words score by closeness to the name: "wields a Shield and casts Greater Shield"
        words = [(m.start(), m.group().lower()) for m in re.finditer(r"\w+", sentence)]
        scores = {
            k: sum(1.0 / (1 + abs(pos - at) / 8) for pos, w in words if w in self.cues.get(k[1], ()))
            for k in keys
        }
        best = max(scores.values())
        top = [k for k, s in scores.items() if s == best]
        if len(top) == 1 and best > 0:
            return top[0]
        local = [k for k in top if book in self.targets[k].books]
        if len(local) == 1:
            return local[0]
        return None

    def link(self, text: str, book: str, skip: set[EntityKey]) -> list[LinkMatch]:
        """References in one chunk: one per entity (its first occurrence), none in ``skip``."""
        if self.empty:
            return []
        spans = sorted(self._candidates(text), key=lambda c: (c[0], -(c[1] - c[0])))
        chosen = []
        # longest non-overlapping: prefer, at each overlap, the longer span
        for cand in sorted(spans, key=lambda c: -(c[1] - c[0])):
            if all(cand[1] <= s[0] or cand[0] >= s[1] for s in chosen):
                chosen.append(cand)
        chosen.sort()
        out, seen = [], set(skip)
        for start, stop, found, keys in chosen:
            lo, hi = sentence_span(text, start, stop)
            sentence = text[lo:hi]
            key = self._choose(keys, sentence, start - lo, book)
            if key is None:
                self.ambiguous[found] += 1
                continue
            if key in seen:
                continue
            seen.add(key)
            books = self.targets[key].books
            origin = book if book in books else min(books)
            out.append(LinkMatch(key, found, sentence, origin))
        return out
