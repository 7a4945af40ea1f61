"""Chunking is linear in the size of the text.

The work is counted, not timed: the number of characters handed to the tokenizer must grow
like the text, not like its square.
"""

from __future__ import annotations

import random

import tiktoken

from crossbook.chunk.chunking import child_chunks, parent_chunks, split_sections
from crossbook.core.tokens import count_tokens

WORDS = "the frost wyrm casts a lance of ice at chilled foes while ember burns low in the hearth".split()


def one_paragraph(size: int, separator: str = ", ") -> str:
    """A book whose body is a single paragraph of ``size`` characters with no sentence end."""
    rng = random.Random(size)
    parts, length = [], 0
    while length < size:
        clause = " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 25))) + separator
        parts.append(clause)
        length += len(clause)
    return "# Big\n\n" + "".join(parts) + "\n"


def encoded_characters(monkeypatch, text: str, parent_tokens: int = 1500) -> tuple[int, list]:
    seen = [0]
    original = tiktoken.Encoding.encode

    def counting(self, text, *args, **kwargs):
        seen[0] += len(text)
        return original(self, text, *args, **kwargs)

    monkeypatch.setattr(tiktoken.Encoding, "encode", counting)
    parents = parent_chunks("Big", split_sections(text), parent_tokens)
    children = [c for p in parents for c in child_chunks(p)]
    monkeypatch.setattr(tiktoken.Encoding, "encode", original)
    return seen[0], parents, children


def test_tokenizer_work_grows_linearly_on_one_huge_paragraph(monkeypatch):
    small_text, big_text = one_paragraph(150_000), one_paragraph(300_000)
    small, _, _ = encoded_characters(monkeypatch, small_text)
    big, parents, children = encoded_characters(monkeypatch, big_text)
    # linear: twice the text is about twice the work (quadratic would be four times), and
    # each character is tokenized a bounded number of times
    assert big / small < 2.5
    assert big < 16 * len(big_text)
    # and the result is still a valid chunking: parts join back to the text, within budget
    assert "".join(p.text for p in parents) == big_text
    assert all(count_tokens(p.text) <= 1500 for p in parents)
    assert all(p.token_count <= 1500 for p in parents) and children


def test_cut_inside_a_multibyte_character_keeps_the_text():
    text = "# T\n\n" + "é" * 5000 + "🙂" * 3000 + "\n"
    parents = parent_chunks("T", split_sections(text), 100)
    assert "".join(p.text for p in parents) == text
    # (pack_units appends a whitespace-only tail to the last part, hence the rstrip)
    assert all(count_tokens(p.text.rstrip()) <= 100 for p in parents)
