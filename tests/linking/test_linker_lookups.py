"""The linker's per-occurrence look-ups (code fences, sentence bounds, overlapping names) give
what a plain walk over the text gives, on random texts full of the separators they look for."""

from __future__ import annotations

import random
import re

from crossbook.extract.text import sentence_span
from crossbook.linking.linker import Linker, LinkTarget, in_code

_BREAK = re.compile(r"(?<=[.!?])[\"')\]]*\s+|\n\s*\n|\n(?=\s*(?:#|[-*+] |\d+\. |\|))")
_HEADING = re.compile(r"^ {0,3}#{1,6}(?: [^\n]*)?$|^ {0,3}(?:=+|-+) *$", re.MULTILINE)


def walked_in_code(text: str, offset: int) -> bool:
    line_start = text.rfind("\n", 0, offset) + 1
    if text.count("`", line_start, offset) % 2:
        return True
    return len(re.findall(r"(?m)^ {0,3}(?:```|~~~)", text[:line_start])) % 2 == 1


def walked_sentence(text: str, start: int, end: int) -> tuple[int, int]:
    """sentence_span's bounds with no length limit, every separator read in order."""
    spans = [(m.start(), m.end()) for m in _BREAK.finditer(text)]
    for m in _HEADING.finditer(text):
        spans += [(m.end(), m.end() + 1), (max(m.start() - 1, 0), m.start())]
    left, right = 0, len(text)
    for b_start, b_end in sorted(spans):
        if b_end <= start:
            left = max(left, b_end)
        elif b_start >= end:
            right = b_start
            break
    while left < right and text[left].isspace():
        left += 1
    while right > left and text[right - 1].isspace():
        right -= 1
    return left, right


def test_in_code_agrees_with_counting_the_fences_before_each_line():
    rng = random.Random(3)
    pieces = ["word", " ", "`", "```", "~~~", "\n", "   ", "    ", "\n```\n", "\n~~~ py\n"]
    for _ in range(400):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        assert [in_code(text, o) for o in range(len(text) + 1)] == \
            [walked_in_code(text, o) for o in range(len(text) + 1)], text


def test_sentence_bounds_agree_with_reading_every_separator():
    rng = random.Random(5)
    pieces = ["a", "bc", " ", ".", "!", "\n", "\n\n", "# h\n", "- x", "1. y", "|", '"', ")", "  ", "==\n", "\n#"]
    for _ in range(400):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 40)))
        for _ in range(20):
            start = rng.randint(0, len(text))
            end = rng.randint(0, len(text) + 1)
            assert sentence_span(text, start, end, limit=10**6) == walked_sentence(text, start, end), (text, start, end)


def test_the_longest_of_overlapping_names_wins_and_the_earlier_on_a_tie():
    names = ["Shield", "Greater Shield", "Shield Wall", "Wall", "Greater"]
    linker = Linker([LinkTarget((n.lower(), "spell"), {n}, {"Book"}) for n in names], {})
    text = "Greater Shield Wall, then Shield Wall and Wall; Greater Shield."
    found = [(m.name, m.key[0]) for m in linker.link(text, "Book", set())]
    # "Greater Shield" and "Shield Wall" tie at the start; the earlier is kept, then "Wall"
    assert found == [("Greater Shield", "greater shield"), ("Wall", "wall"), ("Shield Wall", "shield wall")]
