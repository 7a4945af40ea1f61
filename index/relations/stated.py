"""Relationships as a rulebook states them: the pattern families of ``patterns.py`` over one
chunk, with what the book's own lines say first and the claims it does not make dropped.

- A name is matched whole before any part: a span of emphasis that reads as one name, with
  "and", "of" or "with" in it ("*Ward Foes and Friends*", "*Speak with Stones*") or a few
  lowercase words ("*fire bolt*"), hides the shorter names inside it ("Friends", "Fire"),
  even when the index holds only those.
- A spell's header line lists who has the spell: "*Level 2 Evocation (Sorcerer, Wizard)*",
  "*Conjuration Cantrip (Wizard)*" give ``Wizard casts <spell>`` for each name in the
  parentheses, and never ``<spell> variant_of Wizard``. The line is a header when the words
  before the parentheses hold a spell school or a level word (the rulebook pack's
  ``spell_schools`` and ``spell_level_words``). A level field whose every item is a name and
  a number ("**Level:** Cleric 2, Sorcerer/Wizard 3") lists who has it the same way.
- A prerequisite line ("*General Feat (Prerequisite: Level 4+, Grappler)*", "**Prerequisite:**
  Grappler") gives ``requires`` from the entry to every name it lists.
- A lead in an entry's section, or in a label section under it, named by the entry's name with
  words before it ("**Master Slowing:**" under Slowing's "Enhancements") is ``part_of`` the entry.
- A spell list under "has the following spells prepared:" and what an entry lets its user
  cast ("you can use an action to cast the *levitate* spell"): ``spell_uses.py``.
- Then ``edge_guards.guarded`` drops self-loops, ``variant_of`` to sizes, labels and
  abbreviations, a condition the subject has itself, and immunities read as ``counters``.
"""

from __future__ import annotations

import re
from typing import Iterable

from ..core.models import SUB_ENTRY_SEPARATOR, RawRelation
from ..core.normalize import normalize_name, normalized_words
from .edge_guards import TypeOf, guarded, pack_words
from .pattern_context import ChunkScan, PatternEntity, chunk_scan
from .pattern_likeness import likeness_family
from .pattern_members import member_list_family
from .patterns import FAMILIES
from .spell_uses import armor_field_family, prepared_list_family, summon_family, weapon_attack_family, you_cast_family

# a short emphasized span: "*Ward Foes and Friends*", "**Rope and Hook**"
_EMPHASIS = re.compile(r"(?<![*_\w])(\*{1,3}|_{1,2})(?=[^\s*_])([^*_\n]{2,80}?)(?<=[^\s*_])\1(?![*_\w])")
_JOINED = re.compile(r"\s(?:and|of|with|or|the|from|to|in|on)\s", re.IGNORECASE)
_NOT_A_NAME = re.compile(r"[,;:.!?/()\[\]\d]")
_HEADER = re.compile(r"^\s*[*_]*\s*(?P<lead>[^()\n*_]{2,60}?)\s*\((?P<names>[^()\n]{2,160})\)")


def _one_name_spans(text: str) -> list[tuple[int, int]]:
    """The spans of emphasis that read as one name: joined by a function word ("*Ward Foes
    and Friends*"), or a few words in lower case, as stat blocks write spells ("*fire bolt*")."""
    out = []
    for match in _EMPHASIS.finditer(text):
        inner = match.group(2)
        if _NOT_A_NAME.search(inner) or not inner[:1].isalpha():
            continue
        if (_JOINED.search(f" {inner} ") and len(inner.split()) <= 6) or (inner.islower() and len(inner.split()) <= 4):
            out.append((match.start(2), match.end(2)))
    return out


def whole_names(text: str, occurrences: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """The occurrences less those that are only a part of one emphasized name."""
    spans = _one_name_spans(text)
    if not spans:
        return occurrences
    return [o for o in occurrences
            if not any(lo <= o[0] and o[1] <= hi and (lo, hi) != (o[0], o[1]) for lo, hi in spans)]


def _first_line(text: str) -> tuple[str, int]:
    """The first non-blank line under the chunk's heading, and where it starts."""
    body = text.split("\n", 1)[1] if text.lstrip().startswith("#") and "\n" in text else text
    offset = len(text) - len(body)
    first = next((line for line in body.splitlines() if line.strip()), "")
    return first, offset + body.index(first) if first else 0


def is_spell_header(lead: str) -> bool:
    """"Level 2 Evocation", "Conjuration Cantrip", "Rank 2 Charm": a spell's level or school."""
    words = re.findall(r"[a-z]+", lead.casefold())
    return any(w in pack_words("spell_schools") or w in pack_words("spell_level_words") for w in words)


# a field line of levels by class: "**Level:** Cleric 2, Sorcerer/Wizard 3", "Circle: Drd 4"
_FIELD = re.compile(r"^[ \t>*_-]*(?P<label>[A-Za-z]+)[*_]*[ \t]*:[*_]*[ \t]*(?P<names>[^\n]+)$", re.MULTILINE)
_LEVEL_ITEM = re.compile(r"\s*[A-Z][\w/’'. -]{0,40}?\s+\d+\s*")


def _holder_spans(text: str) -> list[tuple[int, int]]:
    """Where a spell's entry lists who has it: the parentheses of its header line ("*Level 2
    Evocation (Sorcerer, Wizard)*"), and a level field whose every item is a name and a
    number ("**Level:** Clr 2, Sor/Wiz 3")."""
    spans = []
    first, at = _first_line(text)
    header = _HEADER.match(first)
    if header is not None and is_spell_header(header.group("lead")):
        spans.append((at + header.start("names"), at + header.end("names")))
    for field in _FIELD.finditer(text):
        items = field.group("names").rstrip(" .*_").split(",")
        if field.group("label").casefold() in pack_words("spell_level_words") \
                and all(_LEVEL_ITEM.fullmatch(item) for item in items):
            spans.append((field.start("names"), field.end("names")))
    return spans


def header_holders_family(scan: ChunkScan) -> set[int]:
    """A spell header's or level field's list of classes: each ``casts`` the spell; returns
    their indexes."""
    if scan.section_subject is None:
        return set()
    holders = set()
    levels = {normalize_name(w) for w in pack_words("spell_level_words")}
    for lo, hi in _holder_spans(scan.text):
        for start, end, index in scan.occurrences:
            # a holder is a name ("Wizard"), not the header's "(ritual)"
            if not lo <= start < end <= hi or index == scan.section_subject or not scan.text[start].isupper() \
                    or normalize_name(scan.entities[index].name) in levels:
                continue
            holders.add(index)
            scan.seen.add((scan.section_subject, index, "variant_of"))
            scan.emit(index, scan.section_subject, "casts", start, end)
    return holders


def _prerequisite_line() -> re.Pattern:
    labels = "|".join(sorted(re.escape(w) for w in pack_words("prerequisite_labels")))
    return re.compile(rf"(?<![\w-])(?:{labels})[*_]*\s*:[*_]*\s*(?P<rest>[^\n()]*)", re.IGNORECASE)


def prerequisite_family(scan: ChunkScan) -> None:
    """"Prerequisite: Level 4+, Grappler": the entry requires each name listed."""
    for match in _prerequisite_line().finditer(scan.text):
        subject = scan.subject_at(match.start())
        if subject is None:
            continue
        for start, end, index in scan.occurrences:
            if match.start("rest") <= start and end <= match.end("rest") and index != subject:
                scan.emit(subject, index, "requires", start, end)


def named_part_family(scan: ChunkScan) -> None:
    """"**Master Slowing:** ..." in Slowing's section or a label section under it: a lead named
    by the entry's name with words before it is a part of the entry."""
    owner = scan.section_subject
    if owner is None or scan.entities[owner].defines != "heading":
        return
    whole = "_" + normalized_words(scan.entities[owner].name)
    for start, end, index in scan.occurrences:
        part = scan.entities[index]
        if index == owner or part.defines != "glossary" or SUB_ENTRY_SEPARATOR in part.name \
                or not normalized_words(part.name).endswith(whole):
            continue
        if scan.text.rfind("\n", 0, start) + 1 in scan.lead_lines:  # the lead itself, not a mention in prose
            scan.emit(index, owner, "part_of", start, end)


def stated_relations(text: str, entities: list[PatternEntity], others: Iterable[RawRelation] = (),
                     type_of: TypeOf | None = None) -> list[RawRelation]:
    """The chunk's pattern claims with the book's header and prerequisite lines, plus
    ``others`` (the SVO candidates), less what the book does not state."""
    scan = chunk_scan(text, entities)
    scan.occurrences = whole_names(text, scan.occurrences)
    holders = header_holders_family(scan)
    prerequisite_family(scan)
    named_part_family(scan)
    for family in (*FAMILIES, prepared_list_family, you_cast_family, summon_family, weapon_attack_family,
                   armor_field_family, likeness_family, member_list_family):
        family(scan)
    names = {normalize_name(entities[i].name) for i in holders}
    return guarded([*scan.out, *others], entities, type_of or _raw_type, names)


def _raw_type(relation_type: str) -> str:
    return relation_type.strip().lower()
