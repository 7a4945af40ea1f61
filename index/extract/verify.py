"""Verify proposed mentions against the text of their chunk (nothing invented is stored).

A mention survives when its name occurs in the chunk as written (whole words; a capitalised
name must match its case, a lower-case one matches any case) and its context is a verbatim
part of the chunk that holds the name. "Verbatim" forgives whitespace, Unicode composition
(NFD vs NFC) and curly vs straight quotes; the context stored is the chunk's own text.

A definition whose context is not verbatim, or lacks the name, keeps its place with the
sentence of the chunk that holds the name (counted as ``context_repaired``); a context
longer than MAX_CONTEXT is cut to the sentence of the name (``context_trimmed``). Everything
else that fails is dropped with a reason, and the reasons are counted per book.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field, replace

from ..core.models import MENTION_TYPES, SUB_ENTRY_SEPARATOR, RawMention
from ..core.normalize import collapse_whitespace, normalize_name, written_as_code
from .text import CONTEXT_LIMIT, sentence_span

MAX_CONTEXT = 2 * CONTEXT_LIMIT
_ARTICLES = ("the", "a", "an")
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201b": "'", "\u02bc": "'", "\u2032": "'",
                         "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"'})
_HEADING = re.compile(r"^ {0,3}#{1,6} ", re.MULTILINE)


@dataclass
class Verified:
    mentions: list[RawMention] = field(default_factory=list)
    dropped: Counter = field(default_factory=Counter)
    repaired: Counter = field(default_factory=Counter)
    vetoed: list[tuple[str, str]] = field(default_factory=list)  # (a definition's name, the veto that dropped it)


_RUNS = re.compile(r"\s+|\S+")  # re's \s is str.isspace's whitespace


def _canonical_ascii(text: str) -> tuple[str, list[int]]:
    """``canonical`` of an ASCII text (no marks to compose, no curly quotes): its whitespace
    runs as one space, found by runs rather than character by character (a doc set's chunks
    are mostly ASCII, and the loop was a third of their extraction's time)."""
    out: list[str] = []
    origin: list[int] = []
    for run in _RUNS.finditer(text):
        start, end = run.span()
        if text[start].isspace():
            out.append(" ")
            origin.append(start)
        else:
            out.append(run.group())
            origin.extend(range(start, end))
    origin.append(len(text))
    return "".join(out), origin


def canonical(text: str) -> tuple[str, list[int]]:
    """``text`` with whitespace runs as one space, each base character composed with its marks
    (NFC per character cluster) and curly quotes straight; and for each canonical character
    the offset in ``text`` it came from (plus one entry for the end)."""
    if text.isascii():
        return _canonical_ascii(text)
    out: list[str] = []
    origin: list[int] = []
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            j = i
            while j < n and text[j].isspace():
                j += 1
            out.append(" ")
            origin.append(i)
            i = j
            continue
        j = i + 1
        while j < n and unicodedata.combining(text[j]):
            j += 1
        cluster = unicodedata.normalize("NFC", text[i:j]).translate(_QUOTES)
        out.append(cluster)
        origin.extend([i] * len(cluster))
        i = j
    origin.append(n)
    return "".join(out), origin


def _opening(form: str) -> str:
    """What may not stand before a name: a word character, but for a TeX command, whose
    backslash opens it wherever it stands (``\\def\\@Friday``, ``\\let\\x``): another backslash."""
    return r"(?<!\\)" if form.startswith("\\") else r"(?<!\w)"


def _closing(form: str) -> str:
    """What may not follow a name: a word character, but for a TeX command a letter or an @
    (its name's characters: a digit or an underscore ends it, ``\\ht0``, ``\\fontdimen6``)."""
    return r"(?![^\W\d_]|@)" if form.startswith("\\") and form[-1:].isalpha() else r"(?!\w)"


def _case_ok(form: str, found: str) -> bool:
    """A lower-case name matches any case; otherwise the case must agree (or the text shouts).
    A name written as code (``-s``, ``\\rangeHSB``) matches only as written: code is case-sensitive."""
    if written_as_code(form):
        return found == form
    return found == form or form == form.lower() or (found.isupper() and len(found) > 1)


class ChunkText:
    """A chunk's text prepared once for many checks."""

    def __init__(self, text: str):
        self.text = text
        self.canon, self._origin = canonical(text)

    def _span(self, lo: int, hi: int) -> tuple[int, int]:
        """Offsets in ``text`` of canonical ``[lo, hi)``."""
        return self._origin[lo], self._origin[hi] if hi < len(self._origin) else len(self.text)

    def name_spans(self, name: str, within: tuple[int, int] | None = None) -> list[tuple[int, int]]:
        """Where ``name`` occurs as written (see module doc), as offsets in ``text``; a leading
        article of a longer name may be absent from the text."""
        form = canonical(name)[0].strip()
        forms = [form]
        first, _, rest = form.partition(" ")
        if rest and first.lower() in _ARTICLES:
            forms.append(rest)
        lo, hi = (0, len(self.canon)) if within is None else within
        for candidate in forms:
            if not candidate:
                continue
            pattern = re.compile(_opening(candidate) + re.escape(candidate) + _closing(candidate), re.IGNORECASE)
            spans = [self._span(m.start(), m.end()) for m in pattern.finditer(self.canon, lo, hi)
                     if _case_ok(candidate, m.group(0))]
            if spans:
                return spans
        return []

    def has_name(self, name: str) -> bool:
        return bool(normalize_name(name)) and bool(self.name_spans(name))

    def find_quote(self, quote: str) -> tuple[int, int] | None:
        """Canonical ``(lo, hi)`` of ``quote`` in the chunk, or None when it is not verbatim."""
        form = canonical(quote)[0].strip()
        at = self.canon.find(form) if form else -1
        return (at, at + len(form)) if at >= 0 else None

    def has_quote(self, quote: str) -> bool:
        return self.find_quote(quote) is not None

    def quote_text(self, found: tuple[int, int]) -> str:
        start, end = self._span(*found)
        return collapse_whitespace(self.text[start:end])

    def sentence_of(self, name: str, within: tuple[int, int] | None = None) -> str | None:
        """The sentence holding the first occurrence of ``name`` outside a heading line (a
        heading only when the name occurs nowhere else), verbatim; None when it is absent."""
        spans = self.name_spans(name, within)
        if not spans:
            return None
        body = [s for s in spans if not _in_heading(self.text, s[0])]
        start, end = (body or spans)[0]
        lo, hi = sentence_span(self.text, start, end)
        return collapse_whitespace(self.text[lo:hi])


def _in_heading(text: str, offset: int) -> bool:
    line_start = text.rfind("\n", 0, offset) + 1
    return bool(_HEADING.match(text, line_start))


def grounding_sentence(chunk_text: str, name: str) -> str | None:
    """The verbatim sentence of a chunk a repaired context uses for ``name`` (see ChunkText)."""
    return ChunkText(chunk_text).sentence_of(name)


def verify_mentions(
    mentions: list[RawMention], chunk: ChunkText, entity_types: tuple[str, ...]
) -> Verified:
    """Keep the mentions grounded in the chunk; one per (normalized name, type, mention_type)."""
    out = Verified()
    seen: set[tuple[str, str, str]] = set()
    for mention in mentions:
        context = _grounded_context(mention, chunk, out)
        if context is None:
            continue
        entity_type = mention.entity_type if mention.entity_type in entity_types else "other"
        key = (normalize_name(mention.name), entity_type, mention.mention_type)
        if key in seen:
            continue  # the same claim twice is one mention, not a failure
        seen.add(key)
        out.mentions.append(RawMention(
            name=collapse_whitespace(mention.name), entity_type=entity_type,
            mention_type=mention.mention_type, context=context, source=mention.source,
            # an alias is kept only when the chunk gives it too
            aliases=tuple(a for a in mention.aliases if chunk.has_name(a)), rule=mention.rule,
        ))
    return out


def _grounded_context(mention: RawMention, chunk: ChunkText, out: Verified) -> str | None:
    """The context to store for ``mention`` (the chunk's own text), or None after counting
    why it is dropped. A scoped sub-entry ("Ember Drake › Bite") is grounded by its own name:
    its owner is the heading the chunk sits under."""
    mention = replace(mention, name=mention.name.rsplit(SUB_ENTRY_SEPARATOR, 1)[-1])
    if not normalize_name(mention.name):
        out.dropped["empty_name"] += 1
        return None
    if mention.mention_type not in MENTION_TYPES:
        out.dropped["bad_mention_type"] += 1
        return None
    if not chunk.name_spans(mention.name):
        out.dropped["name_not_in_chunk"] += 1
        return None
    found = chunk.find_quote(mention.context or "")
    problem = None
    if found is None:
        problem = "context_not_verbatim"
    elif not chunk.name_spans(mention.name, within=found):
        problem = "name_not_in_context"
    if problem is not None:
        if mention.mention_type != "defines":
            out.dropped[problem] += 1
            return None
        out.repaired["context_repaired"] += 1
        return chunk.sentence_of(mention.name)
    context = chunk.quote_text(found)
    if len(context) > MAX_CONTEXT:
        out.repaired["context_trimmed"] += 1
        return chunk.sentence_of(mention.name, within=found)
    return context
