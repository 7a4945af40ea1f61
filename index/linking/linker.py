"""The corpus linker: references to entities defined anywhere in the index.

Every name (and alias) of every defined entity, in its singular and plural forms, goes into
one Aho-Corasick automaton; each chunk is scanned once, in its match view
(index/linking/matchview.py: markup dropped, whitespace and line breaks collapsed, quotes
straightened), and every match is mapped back to the stored text for its context.

A match counts when it is whole words (a possessive ``'s`` may follow) and its case fits:
- a multi-word name matches in any case ("fate points", "Create an Advantage");
- a single word written with capitals ("Fight", "Light") matches only with the same
  capitals, so the verb "fight" is not the skill Fight, unless the corpus shows the word is
  a **term**: its lowercase uses are far more frequent in these books than in ordinary
  English prose (``lowercase_terms``; "aspect", "stress" and "consequence" in the Fate books),
  or the book emphasizes that very occurrence ("it casts *fireball*": stat blocks write
  spell and item names in lowercase italics);
- an all-lowercase name matches any case;
- a documented thing named by a plain English word (the function ``open``, the option
  ``set``) matches only in code font (``code_only``);
- a state (a target filed or typed as a condition or status, ``files_as_state``) matches in
  lowercase where a state goes: "the target is weakened", "becomes dazed", "the stuck
  condition" (books write conditions in lowercase; a rare one is no corpus term).
Where matches overlap, the longest wins ("Greater Shield" over "Shield"). A name defined
with several types ("Shield" the spell and the armor) goes to the type whose cue words occur
in the sentence; on a tie, to the one defined in the chunk's own book; else to the kind
most of the chunk's other names resolve to ("Druid" in a table beside Cleric, Bard and Rogue
is the class; beside Succubus and Cloud Giant, the creature); otherwise it is skipped as
ambiguous.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

import ahocorasick

from ..core.genres import genres_now
from ..core.normalize import singular
from ..core.packs import genre_words
from ..extract.contract import first_rule
from ..extract.entry_kinds import rulebook_kinds
from ..extract.text import sentence_span
from ..readers.doc_kinds import DOC_KINDS
from .link_rules import FINDING, STATES, VETOES, LinkView, Occurrence, state_word
from .matchview import MatchView, match_view

EntityKey = tuple[str, str]  # (normalized name, entity type)
_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")
_LOWER_WORD = re.compile(r"(?<![\w'’])[a-z][a-z]+(?![\w])")
# a lowercase single word is a term when its rate in the corpus is this many times its rate
# in ordinary English (wordfreq), and it occurs at least TERM_MIN_COUNT times in lowercase
TERM_RATIO = 5.0
TERM_MIN_COUNT = 10
# a documented thing's one-word name at least this common in English (wordfreq's Zipf scale:
# "open" 5.6, "sorted" 4.2, "dict" 2.6) links only in code font
COMMON_ZIPF = 3.0


@dataclass
class LinkTarget:
    key: EntityKey
    names: set[str]                       # as written in definitions, plus aliases
    books: set[str] = field(default_factory=set)  # books that define it
    category: str = ""                    # where its definition is filed ("Conditions")

    @property
    def state(self) -> bool:
        """A condition, not the page of conditions ("Conditions" itself)."""
        return files_as_state(self.key[1], self.category) and not files_as_state("", self.key[0])


def files_as_state(entity_type: str, category: str) -> bool:
    """Typed or filed under a heading as a condition or status ("Conditions > Grappled")."""
    filed = f"{entity_type} {category}".lower()
    return any(w in filed for w in genre_words("rulebook", "state_words"))


@dataclass(frozen=True)
class LinkMatch:
    key: EntityKey
    name: str          # the text as it occurs in the chunk (match view: no markup)
    context: str
    origin_book: str   # the (first) book whose definition this reference was derived from
    rule: str = ""     # the linker's rule that made it (link_rules.py)


def _lower_same_length(text: str) -> str:
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


def plural(word: str) -> str:
    """An English plural by suffix rules (only used to add a matching variant)."""
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    return word + "s"


def name_variants(name: str) -> set[str]:
    """A name as written, with its last word in singular and plural form (hyphens between
    letters read as spaces, as in the match view: "Super-Speed" is "Super Speed")."""
    name = " ".join(_HYPHEN.sub(" ", name.replace("’", "'")).split())
    head, _, last = name.rpartition(" ")
    prefix = f"{head} " if head else ""
    variants = {name}
    if last.isalpha() and len(last) >= 3:
        lowered = last.lower()
        single = singular(lowered)
        for form in {single, plural(single)}:
            # keep the written capitalization of the word's first letter
            variants.add(prefix + (form[0].upper() + form[1:] if last[0].isupper() else form))
    return variants


_WORDS = re.compile(r"\w+", re.UNICODE)


def view_words(view_text: str) -> str:
    """A match view's words as the automaton compares them (lowercased, one space between):
    every name form the linker matches in a chunk is a run of these words
    (index/linking/link_state.py indexes them to find the chunks that can contain a name)."""
    return " ".join(_WORDS.findall(_lower_same_length(view_text)))


def name_words(name: str) -> set[tuple[str, ...]]:
    """The word sequence of each form of a name the linker matches (see ``view_words``); an
    empty sequence when a form has no word at all (it can only be found by scanning)."""
    return {tuple(_WORDS.findall(_lower_same_length(v))) for v in name_variants(name) if v.strip()}


def lowercase_word_counts(texts) -> tuple[Counter, int]:
    """(lowercase word -> count, total lowercase words) over some texts."""
    counts: Counter = Counter()
    for text in texts:
        counts.update(_LOWER_WORD.findall(text))
    return counts, sum(counts.values())


def lowercase_terms(single_words: set[str], counts: Counter, total: int) -> set[str]:
    """The single-word names (lowercase singular) the corpus uses as terms (see module doc)."""
    if not total:
        return set()
    from wordfreq import zipf_frequency

    terms = set()
    for word in single_words:
        used = counts.get(word, 0) + counts.get(plural(word), 0)
        if used < TERM_MIN_COUNT:
            continue
        english = 10 ** (zipf_frequency(word, "en") - 9) or 1e-9
        if used / total >= TERM_RATIO * english:
            terms.add(word)
    return terms


def _emphasized(text: str, lo: int, hi: int) -> bool:
    """Whether the stored span [lo, hi) is wrapped whole in emphasis (*x*, _x_, <em>x</em>)."""
    before, after = text[max(0, lo - 4):lo], text[hi:hi + 5]
    return (before.endswith(("*", "_")) and after.startswith(("*", "_"))) or \
        (before.lower().endswith(("<em>", "<i>")) and after.lower().startswith(("</em>", "</i>")))


@lru_cache(maxsize=65536)
def _common_word(word: str) -> bool:
    from wordfreq import zipf_frequency

    return zipf_frequency(word, "en") >= COMMON_ZIPF


def code_only(entity_type: str, found: str, documented: bool = True) -> bool:
    """A documented thing (a function, option, command...: doc_terms.DOC_KINDS) named by a
    plain English word ("open", "set", "sorted") is referenced only where the text writes it
    in code font (or sets it apart in bold or italics, as man pages write commands); in prose
    it is the word. A name that cannot be a word (``lru_cache``,
    ``--amend``, ``json.dump``) links in plain text too. A kind a rulebook has as well
    (``class``: a wizard's, not Python's) is code only where a documentation set defines the
    thing (``documented``): a rulebook's Wizard links in prose."""
    if entity_type in shared_kinds() and not documented:
        return False
    return entity_type in DOC_KINDS and found.isalpha() and _common_word(found.lower())


def shared_kinds() -> frozenset[str]:
    """The kinds documentation and rulebooks both give (a Python class, a wizard's class)."""
    return DOC_KINDS & frozenset(rulebook_kinds())


_FENCE = re.compile(r"(?m)^ {0,3}(?:```|~~~)")


@lru_cache(maxsize=4)
def _fence_starts(text: str) -> list[int]:
    """Where each code fence of a Markdown text starts (a fence lies on one line, so those
    before a line's start are the fences of the text up to it)."""
    return [m.start() for m in _FENCE.finditer(text)]


def in_code(text: str, offset: int) -> bool:
    """Whether ``offset`` of a Markdown text is inside a code span or a fenced code block."""
    line_start = text.rfind("\n", 0, offset) + 1
    if text.count("`", line_start, offset) % 2:
        return True
    return bisect_left(_fence_starts(text), line_start) % 2 == 1


class Linker:
    """Built once per set of definitions; ``link`` is pure over one chunk's text."""

    def __init__(
        self,
        targets: list[LinkTarget],
        cues: dict[str, tuple[str, ...]],
        terms: set[str] | frozenset = frozenset(),
        doc_books: set[str] | frozenset = frozenset(),
    ):
        self.targets = {t.key: t for t in targets}
        self.doc_books = set(doc_books)  # the books that are documentation sets (a page states its subject)
        self.cues = {k: {c.lower() for c in v} for k, v in cues.items()}
        self.terms = set(terms)
        self.automaton = ahocorasick.Automaton()
        by_pattern: dict[str, dict[str, set[EntityKey]]] = {}
        for target in targets:
            for name in target.names:
                for variant in name_variants(name):
                    if variant.strip():
                        by_pattern.setdefault(_lower_same_length(variant), {}).setdefault(variant, set()).add(
                            target.key
                        )
        for lowered, variants in by_pattern.items():
            # a pattern's written forms and their keys sorted: a key's rule is that of the first
            # form that links it, whatever order the names' sets were built in
            forms = tuple(sorted((written, tuple(sorted(keys))) for written, keys in variants.items()))
            self.automaton.add_word(lowered, (len(lowered), forms))
        self.empty = not by_pattern
        if not self.empty:
            self.automaton.make_automaton()
        self.ambiguous = Counter()
        self._code_only_cache: dict[tuple, bool] = {}

    def _code_only(self, key: EntityKey, found: str) -> bool:
        # code_only reads the genres in use (shared_kinds): kept for each set of them
        cache_key = (key, found, genres_now())
        known = self._code_only_cache.get(cache_key)
        if known is None:
            known = self._code_only_cache[cache_key] = code_only(
                key[1], found, bool(self.targets[key].books & self.doc_books))
        return known

    def _candidates(self, view: str, source: MatchView | None = None, text: str = ""):
        """Each occurrence of a name the rules link (link_rules.py): (start, stop, text found,
        {entity key: the rule that linked it})."""
        lowered = _lower_same_length(view)
        rules = LinkView(self.terms)
        for end_index, (length, forms) in self.automaton.iter(lowered):
            start, end = end_index - length + 1, end_index + 1
            # whole words only: str.isalnum() or "_" is exactly re's \w, without a regex call
            # for each of the automaton's hits (most are inside longer words)
            if start > 0 and ((before := view[start - 1]).isalnum() or before == "_"):
                continue
            stop = end
            if view.startswith("'s", end):
                stop = end + 2
            if stop < len(view) and ((after := view[stop]).isalnum() or after == "_"):
                continue
            found = view[start:end]
            emphasized = source is not None and _emphasized(text, *source.span(start, end))
            # where code is named: a code span or block, or emphasis (without the source text: nowhere)
            coded = source is not None and (emphasized or in_code(text, source.span(start, end)[0]))
            keys: dict[EntityKey, str] = {}
            if len(forms) > 1:  # the form written as found first (as_written), then the others in order
                forms = sorted(forms, key=lambda form: form[0] != found)
            for written, entity_keys in forms:
                rule = first_rule(FINDING, rules, Occurrence(written, found, view, start, end, emphasized))
                if rule is None:
                    continue
                for key in entity_keys:
                    occurrence = Occurrence(written, found, view, start, end, emphasized, coded,
                                            self._code_only(key, found))
                    if key not in keys and first_rule(VETOES, rules, occurrence) is None:
                        keys[key] = rule
            if not keys and first_rule(STATES, rules, Occurrence(found, found, view, start, end)) is not None:
                keys = {k: state_word.__name__ for _, entity_keys in forms for k in entity_keys
                        if self.targets[k].state}
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

    def link(self, text: str, book: str, skip: set[EntityKey], view: MatchView | None = None) -> list[LinkMatch]:
        """References in one chunk: one per entity (its first occurrence), none in ``skip``
        (``view``: the text's match view, when already built)."""
        if self.empty:
            return []
        view = view or match_view(text)
        spans = list(self._candidates(view.text, view, text))
        chosen = _longest_first(spans)
        out, seen = [], set(skip)
        picked = []
        for start, stop, found, keys in chosen:
            lo_text, hi_text = view.span(start, stop)
            lo, hi = sentence_span(text, lo_text, hi_text)
            sentence = text[lo:hi]
            picked.append((found, keys, sentence, self._choose(set(keys), sentence, lo_text - lo, book)))
        neighbours = Counter(key[1] for _, _, _, key in picked if key is not None)
        for found, keys, sentence, key in picked:
            key = key or _by_neighbours(set(keys), neighbours)
            if key is None:
                self.ambiguous[found] += 1
                continue
            if key in seen:
                continue
            seen.add(key)
            books = self.targets[key].books
            origin = book if book in books else min(books)
            out.append(LinkMatch(key, found, sentence, origin, keys[key]))
        return out


def _longest_first(spans: list[tuple]) -> list[tuple]:
    """Of spans (start, stop, ...), those kept when the longer wins at each overlap (the
    earlier on a tie), by start. The kept spans are disjoint, so the sorted starts and
    stops go up together: a span overlaps one of them only if it overlaps the last kept
    span starting at or before it, or the first starting after it."""
    starts: list[int] = []
    stops: list[int] = []
    chosen: list[tuple] = []
    for cand in sorted(spans, key=lambda c: (-(c[1] - c[0]), c[0])):
        at = bisect_right(starts, cand[0])
        if (at and stops[at - 1] > cand[0]) or (at < len(starts) and starts[at] < cand[1]):
            continue
        starts.insert(at, cand[0])
        stops.insert(at, cand[1])
        chosen.insert(at, cand)
    return chosen


def _by_neighbours(keys: set[EntityKey], neighbours: Counter) -> EntityKey | None:
    """The one of a name's entities whose kind most of the chunk's resolved names have, when
    one kind leads (a name among classes is the class), else None."""
    counts = sorted(((neighbours[k[1]], k) for k in keys), reverse=True)
    if counts[0][0] > 0 and (len(counts) == 1 or counts[0][0] > counts[1][0]):
        return counts[0][1]
    return None
