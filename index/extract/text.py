"""Small pure helpers over chunk text: sentence windows and heading-line detection."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from functools import lru_cache

_SENTENCE_BREAK = re.compile(r"(?<=[.!?])[\"')\]]*\s+|\n\s*\n|\n(?=\s*(?:#|[-*+] |\d+\. |\|))")
CONTEXT_LIMIT = 300


_HEADING_LINE = re.compile(r"^ {0,3}#{1,6}(?: [^\n]*)?$|^ {0,3}(?:=+|-+) *$", re.MULTILINE)


@lru_cache(maxsize=4)
def _breaks(text: str) -> list[tuple[int, int]]:
    """(start, end) of every sentence separator; a heading line is a sentence of its own."""
    spans = [(m.start(), m.end()) for m in _SENTENCE_BREAK.finditer(text)]
    for m in _HEADING_LINE.finditer(text):
        spans.append((m.end(), m.end() + 1))  # the newline after a heading line
        spans.append((max(m.start() - 1, 0), m.start()))  # and the one before it
    return sorted(spans)


@lru_cache(maxsize=4)
def _break_index(text: str) -> tuple[list[int], list[int]]:
    """The starts of ``_breaks(text)`` (sorted) and the highest end among each prefix of them."""
    starts, highest, top = [], [], 0
    for b_start, b_end in _breaks(text):
        starts.append(b_start)
        top = max(top, b_end)
        highest.append(top)
    return starts, highest


def _sentence_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """(left, right): the end of the last separator before ``text[start:end]`` (0 if none),
    the start of the first after it (the text's length if none), separators that overlap
    it skipped. A separator after a span starts at or after ``end``, so the first of them is
    found by bisection; one before it ends at or before ``start``, which the highest end
    among the separators starting at or before ``start`` tells unless one of those overlaps."""
    starts, highest = _break_index(text)
    after = bisect_left(starts, end)
    before = bisect_right(starts, start, 0, after)
    if end > start and (not before or highest[before - 1] <= start):
        return (highest[before - 1] if before else 0), (starts[after] if after < len(starts) else len(text))
    left, right = 0, len(text)
    for b_start, b_end in _breaks(text):  # an empty span, or a separator over its start
        if b_end <= start:
            left = max(left, b_end)
        elif b_start >= end:
            right = b_start
            break
    return left, right


def sentence_span(text: str, start: int, end: int, limit: int = CONTEXT_LIMIT) -> tuple[int, int]:
    """(lo, hi) of the sentence of ``text`` that holds ``text[start:end]``: at most ``limit``
    characters, cut on whitespace around the mention when the sentence is longer, stripped."""
    left, right = _sentence_bounds(text, start, end)
    if right - left > limit:
        # a window around the mention, cut on whitespace so words stay whole
        mid = (start + end) // 2
        lo = max(left, mid - limit // 2)
        hi = min(right, lo + limit)
        lo = max(left, hi - limit)
        if lo > left:
            space = text.find(" ", lo, start)
            lo = space + 1 if space >= 0 else lo
        if hi < right:
            space = text.rfind(" ", end, hi)
            hi = space if space >= 0 else hi
        left, right = lo, hi
    while left < right and text[left].isspace():
        left += 1
    while right > left and text[right - 1].isspace():
        right -= 1
    return left, right


def sentence_around(text: str, start: int, end: int, limit: int = CONTEXT_LIMIT) -> str:
    """The sentence of ``text`` that holds ``text[start:end]``, verbatim (see sentence_span)."""
    lo, hi = sentence_span(text, start, end, limit)
    return text[lo:hi]


def first_body_sentence(text: str, limit: int = CONTEXT_LIMIT) -> str:
    """The first sentence after the heading line(s) of a section, or '' when there is none."""
    lines = text.splitlines(keepends=True)
    offset, i = 0, 0
    # skip ATX heading, or setext heading text + underline, and blank lines
    if lines and lines[0].lstrip().startswith("#"):
        offset += len(lines[0])
        i = 1
    elif len(lines) > 1 and re.fullmatch(r"\s*(=+|-+)\s*", lines[1]):
        offset += len(lines[0]) + len(lines[1])
        i = 2
    while i < len(lines) and not lines[i].strip():
        offset += len(lines[i])
        i += 1
    if i >= len(lines):
        return ""
    start = offset + (len(lines[i]) - len(lines[i].lstrip()))
    return sentence_around(text, start, start, limit)
