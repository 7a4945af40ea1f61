"""A chunk's text cut into sentences, Markdown-aware, with character offsets kept.

Paragraphs, list items, headings and table rows are blocks; code fences are skipped (text
in a code block belongs to no entity); a block is cut after ``.``, ``!`` or ``?`` followed
by space and a capital or digit. The offline relationship path (``svo.py``) parses only the
sentences in which two different entities occur, and quotes them verbatim as evidence.
"""

from __future__ import annotations

import re

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
