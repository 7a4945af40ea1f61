"""The members an entry lists under a label naming their kind: ``part_of``.

"**Action:** Action-hero type stuff ..." + "- **Skills:** Athletics, Combat, Notice": each
skill listed is part of the Action mode. The label is a plural kind of the rulebook pack's
``member_list_titles`` ("Skills", "Combat Skills"), closing its bold or ending in a colon; the
list is the rest of its line or the list items under it (pattern_lists.label_blocks): a
name is a member when it is an item of that list or one of the names the line opens with
("Notice, Will, all sciences. (See *Science* ...)": Notice and Will). The
entry is the glossary term whose paragraph the list follows with only blank lines between,
else the section's own entry. A stat block's skills with their ratings ("**Skills**
Perception +4", "Skills: Fair (+2) Fight") are scores, not members, and a list under "Proficiencies" ("**Skills:**
Choose two from ...") what one may learn.
"""

from __future__ import annotations

import re

from ..core.packs import genre_words, per_genres, word_pattern
from .pattern_context import BLANK_LINE, ChunkScan, is_named, name_fragment, strip_entities
from .pattern_lists import label_blocks, list_item, proficiency_list

# a signed score in the list: "Perception +4", "Fair (+2) Fight": a stat block's ratings
_SCORE = re.compile(r"[+\-−–]\s?\d")


@per_genres
def _member_title() -> re.Pattern:
    """A list label naming a plural kind, one modifier word at most (the pack's ``member_list_titles``)."""
    return re.compile(rf"(?:[\w'’-]+\s+)?(?:{word_pattern(genre_words('rulebook', 'member_list_titles'))})",
                      re.IGNORECASE)


def _member_kind(title: str) -> str | None:
    title = re.sub(r"[*_#:]+", " ", title).strip()
    return "part_of" if _member_title().fullmatch(title) else None


def member_list_family(scan: ChunkScan) -> None:
    """Each name listed under a member label is ``part_of`` the entry above the list (see the
    module docstring)."""
    text = scan.text
    for _kind, block_lo, block_hi in label_blocks(text, _member_kind):
        if proficiency_list(text, block_lo) or _SCORE.search(text, block_lo, block_hi):
            continue
        entry = _entry_above(scan, text.rfind("\n", 0, block_lo) + 1)
        if entry is None:
            continue
        for start, end, index in scan.occurrences:
            if not block_lo <= start < block_hi or index == entry or name_fragment(text, start, end) \
                    or not is_named(text, start, end) \
                    or not (list_item(text, scan.occurrences, start, block_lo, block_hi)
                            or not strip_entities(text, scan.occurrences, block_lo, start)):
                continue
            scan.emit(index, entry, "part_of", start, end)


def _entry_above(scan: ChunkScan, line_lo: int) -> int | None:
    """The glossary term of the paragraph the line at ``line_lo`` closes or follows (blank
    lines only between them), else the section's entry."""
    above = [(start, index) for start, index in scan.paragraphs if start < line_lo]
    if above:
        start, index = above[-1]
        blank = BLANK_LINE.search(scan.text, start, line_lo)
        if blank is None or not scan.text[blank.end():line_lo].strip():
            return index
    return scan.section_subject
