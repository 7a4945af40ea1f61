"""Lists, as the relation pattern families detect them.

A spell or gear list of an entry (its title: ``list_kind``; its extent: ``list_blocks``; a
name that is one of its items: ``list_item``), the line ending in ':' that introduces a
list item, and a list of states that ends with a name ("is Poisoned and Frightened").
"""

from __future__ import annotations

import re

from ..core.genres import genre_active
from ..core.packs import genre_words, per_genres, word_pattern
from .pattern_context import BLANK_LINE, in_list, strip_entities

_CONDITION_WORD = re.compile(r"\s*conditions?\b", re.IGNORECASE)
_LIST_GAP = re.compile(r"(?:[\s*_,;]|\band\b|\bor\b)*", re.IGNORECASE)
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")


def names_condition(text: str, occurrences, end: int) -> bool:
    """True when "condition(s)" follows the name ending at ``end``, maybe after more names of a
    list ("the Blinded and Deafened conditions")."""
    starts = {o[0]: o[1] for o in occurrences}
    at = end
    while True:
        if _CONDITION_WORD.match(text, at):
            return True
        gap = _LIST_GAP.match(text, at).end()
        if gap == at or gap not in starts:
            return False
        at = starts[gap]


def state_list_start(text: str, occurrences, entities, start: int) -> int:
    """Where the list of states that ends with the name at ``start`` begins ("is Poisoned and
    Frightened": at "Poisoned")."""
    at = start
    while True:
        earlier = [o for o in occurrences if o[1] <= at and entities[o[2]].condition_like and in_list(text, o[1], at)
                   and text[o[1]:at].strip(" *_")]
        if not earlier:
            return at
        at = earlier[-1][0]


@per_genres
def _list_titles() -> dict[str, re.Pattern]:
    """The titles of an entry's spell list and gear list ("Spells Known", "Innate Spellcasting",
    "Starting Equipment"), by the relation they give: one modifier word at most, so "Skills and
    Gear" is a topic, no list (the rulebook pack's list titles and words)."""
    def words(key: str) -> str:
        return word_pattern(genre_words("rulebook", key))

    return {
        "casts": re.compile(rf"(?:[\w'’-]+\s+)?(?:{words('spell_list_titles')})(?:\s+(?:{words('spell_list_words')})"
                            rf"|\s+(?:you|it|they|we)\s+(?:can\s+|may\s+)?(?:{words('spell_list_verbs')}))?",
                            re.IGNORECASE),
        "wields": re.compile(rf"(?:[\w'’-]+\s+)?(?:{words('gear_list_titles')})|{words('gear_list_labels')}",
                             re.IGNORECASE),
    }


# "**Spells:** Firebolt", "Gear. Longbow", and a stat block's closed bold label "**Spells** Firebolt"
_LEAD_LABEL = re.compile(r"^[ \t>]*(?:[-*+][ \t]+)?(?P<open>\*\*|__|<strong>|<b>)?(?P<label>[A-Z][\w'’ -]{1,30}?)"
                         r"(?:\*\*|__|</strong>|</b>)?(?:[ \t]*[:.]|(?(open)(?<=\*\*|__)|(?!))|(?(open)(?<=</b>)|(?!))"
                         r"|(?(open)(?<=</strong>)|(?!)))(?:\*\*|__|</strong>|</b>)?[ \t]*(?P<rest>.*)$", re.MULTILINE)
_TABLE_ROW = re.compile(r"^[ \t]*\|")
# a stat table's row of a list: "| Equipment | Scimitar, Leather armor |", "| Spells | Light, Shield |"
_LABEL_ROW = re.compile(r"^[ \t]*\|[ \t]*[*_]*(?P<label>[A-Z][\w'’ -]{1,30}?)[*_:]*[ \t]*\|(?P<rest>[^|\r\n]+)\|?[ \t\r]*$",
                        re.MULTILINE)


def list_kind(title: str) -> str | None:
    """'casts' for a spell list's title, 'wields' for a gear list's, else None."""
    if not genre_active("rulebook"):  # a spell or gear list is a rulebook's
        return None
    title = re.sub(r"[*_#:]+", " ", title).strip()
    return next((kind for kind, pattern in _list_titles().items() if pattern.fullmatch(title)), None)


_HEADING = re.compile(r"^[ \t]*#+[ \t]+(?P<title>[^\n]+)$", re.MULTILINE)


def proficiency_list(text: str, at: int) -> bool:
    """Whether the list at ``at`` sits under a heading of proficiencies ("#### Proficiencies" +
    "**Armor:** Light armor, shields"): what one may learn to use, no gear held (the rulebook
    pack's ``proficiency_titles``)."""
    headings = list(_HEADING.finditer(text, 0, at))
    if not headings:
        return False
    words = set(re.findall(r"[^\W\d_]+", headings[-1].group("title").casefold()))
    return bool(words & genre_words("rulebook", "proficiency_titles"))


def list_blocks(text: str) -> list[tuple[str, int, int]]:
    """(kind, start, end) of the spell and gear lists of a chunk: the whole body under such a
    heading, the rest of a "**Spells:** ..." line or of a "| Gear | ... |" row, and the list
    items after "Gear:" alone."""
    out = []
    first_end = text.find("\n") if "\n" in text else len(text)
    if text.lstrip().startswith("#") and (kind := list_kind(text[:first_end].lstrip("# \t"))):
        out.append((kind, first_end, len(text)))
    out += label_blocks(text, list_kind)
    for row in _LABEL_ROW.finditer(text):
        if (kind := list_kind(row.group("label"))) is not None and row.group("rest").strip(" *_"):
            out.append((kind, row.start("rest"), row.end("rest")))
    return out + column_blocks(text)


def label_blocks(text: str, kind_of) -> list[tuple[str, int, int]]:
    """(kind, start, end) of each list a label opens ("**Spells:** ...": the rest of its line;
    "Gear:" alone: the list items or table under it), its kind ``kind_of(label)``, None for
    no list."""
    out = []
    for lead in _LEAD_LABEL.finditer(text):
        kind = kind_of(lead.group("label"))
        if kind is None:
            continue
        if lead.group("rest").strip(" *_"):
            out.append((kind, lead.start("rest"), lead.end("rest")))
        else:  # the list or table under the title, a blank line between them or none
            body = re.compile(r"(?:[ \t\xa0\r]*\n)*").match(text, lead.end()).end()
            first = text[body:text.find("\n", body) if "\n" in text[body:] else len(text)]
            if not (_LIST_ITEM.match(first) or _TABLE_ROW.match(first)):
                body = lead.end()
            blank = BLANK_LINE.search(text, body + 1)
            out.append((kind, lead.end(), blank.start() if blank else len(text)))
    return out


_TABLE = re.compile(r"(?:^[ \t]*\|[^\n]*(?:\n|$))+", re.MULTILINE)
_CELL = re.compile(r"(?<=\|)[^|\n]*(?=\|)")


def column_blocks(text: str) -> list[tuple[str, int, int]]:
    """(kind, start, end) of each body cell of a table column headed by a list's title ("| d20 |
    Bead of... | Spell |": the spells a necklace's beads cast); not the first column (a
    catalog's names) and not a column of counts ("| Level | Spells Known |" holds numbers)."""
    out = []
    for table in _TABLE.finditer(text):
        rows = [row for row in re.finditer(r"[^\n]+", text[table.start():table.end()])]
        if len(rows) < 3:
            continue
        header = [c.group(0) for c in _CELL.finditer(rows[0].group(0))]
        for column, title in enumerate(header):
            kind = list_kind(title) if column else None
            if kind is None:
                continue
            for row in rows[2:]:
                cells = list(_CELL.finditer(row.group(0)))
                if column < len(cells) and re.search(r"[^\W\d_]", cells[column].group(0)):
                    at = table.start() + row.start()
                    out.append((kind, at + cells[column].start(), at + cells[column].end()))
    return out


def list_item(text: str, occurrences, start: int, block_lo: int, block_hi: int | None = None) -> bool:
    """True when the name at ``start`` is an item of a list: the name a list item or a table
    row opens with, or one of a line that holds only names ("Longbow, Chain Shirt (2)"), within
    the block (``block_lo`` to ``block_hi``: a table row's cell ends before its bar)."""
    line_lo = max(text.rfind("\n", 0, start) + 1, block_lo)
    line_hi = text.find("\n", start)
    line_hi = min(len(text) if line_hi == -1 else line_hi, len(text) if block_hi is None else block_hi)
    head = text[line_lo:start]
    if _LIST_ITEM.match(head + " ") or _TABLE_ROW.match(head):
        return not re.sub(r"^[ \t]*(?:[-*+]|\d+[.)]|\|)|[\s*_\[\]]", "", head)
    rest = re.sub(r"\([^()]*\)|\d+(?:/\w+)?|\b(?:each|at will|day)\b", "", text[line_lo:line_hi], flags=re.IGNORECASE)
    return not strip_entities(rest, _occurrences_in(rest, text, occurrences, line_lo), 0, len(rest)).strip(".")


def _occurrences_in(rest: str, text: str, occurrences, line_lo: int) -> list[tuple[int, int, int]]:
    """The occurrences of names of ``text`` found again in ``rest`` (a cleaned copy of a line)."""
    out, at = [], 0
    for start, end, index in occurrences:
        if start < line_lo:
            continue
        found = rest.find(text[start:end], at)
        if found >= 0:
            out.append((found, found + end - start, index))
            at = found + end - start
    return out


def list_lead_in(text: str, at: int) -> str:
    """The line ending in ':' that introduces the list item at ``at`` ('' when none)."""
    line_start = text.rfind("\n", 0, at) + 1
    if not _LIST_ITEM.match(text[line_start:at + 1] + " "):
        return ""
    lines = text[:line_start].splitlines()
    for line in reversed(lines[-30:]):
        if not line.strip() or _LIST_ITEM.match(line):
            continue
        return line if line.rstrip().endswith(":") else ""
    return ""
