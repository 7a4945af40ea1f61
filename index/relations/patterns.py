"""Offline relationships from the shape of catalog entries. Pure, no model.

A catalog entry is about the entity it defines, and rulebooks leave that subject out:
"Bite. ... the target has the Grappled condition", "It can cast one of the following
spells: Light, Sunburst", "Weapon (longsword), rare". Here the entity the entry defines
is the implicit subject: the heading's entity for the whole section, or a glossary term
(``**Term.** text``) for its own paragraph. A sentence with its own subject entity before
the verb is left to the SVO path (index/relations/svo.py).

Patterns (verbs are matched as words, targets are entities that occur after them):
- casts:     "cast(s)/casting X", including "one of the following spells: X, Y" and the
             list lines after a sentence ending in ":";
- inflicts:  "the X condition", "X condition", "is/becomes/is knocked X" (X one word
             ending in -ed, or typed as a condition), and the inflict verbs (imposes...);
- wields:    "wields/carries/armed with/equipped with/wears X";
- counters:  "counters/cures/ends/removes/negates/dispels X", "immune to X";
- requires:  "Prerequisite(s): X", "requires X";
- modifies:  "+2 to X", "bonus to/on X";
- variant_of: a category line opening the entry, "Weapon (longsword), rare" -> longsword.
Every claim's evidence is the sentence, verbatim from the chunk.

This module holds the pattern families, run in ``FAMILIES`` order over one ``ChunkScan``;
the chunk as they read it and where an occurrence sits: ``pattern_context.py``; spell,
gear and state lists: ``pattern_lists.py``; the claims of a clause whose unnamed subject is
the entry: ``pattern_clauses.py``.
"""

from __future__ import annotations

import re

from ..core.genres import genre_active
from ..core.models import RawRelation
from ..core.normalize import normalize_name
from ..core.packs import genre_words, per_genres, word_pattern
from ..extract.entry_kinds import kind_words
from ..extract.text import sentence_span
from .pattern_clauses import clause_at, state_claim, use_claim, verb_claim
from .pattern_context import (
    BLANK_LINE,
    NEGATION,
    ChunkScan,
    PatternEntity,
    chunk_scan,
    emit_named,
    gear_entity,
    is_named,
    name_fragment,
    sentence_start,
)
from .pattern_lists import list_blocks, list_item, proficiency_list

# a category line is a noun phrase with its kind in parentheses ("Weapon (longsword), rare"),
# not the opening of a sentence ("Sometimes a player (or GM) may...")
_CATEGORY_LINE = re.compile(r"^\s*[*_]*\s*(?![^(\n]*\b(?:a|an|the|or|if|when|you|your)\s)[A-Z][\w' -]{1,30}?\s*"
                            r"\(([^()\n]{2,60})\)")
_LIST_SEPARATOR = re.compile(r",|;|/|\band\b|\bor\b", re.IGNORECASE)
# "is a special kind of", "are a super-transient kind of", "are new": one modifier word at most
_COPULA = re.compile(r"\s+(?:is|are)\s+(?:(?:an?\s+)?(?:[\w-]+\s+)?(?:kind|type|sort|form|variety)\s+of\s+(?:an?\s+)?"
                     r"|(?:an?\s+)?(?:new\s+|special\s+)?)", re.IGNORECASE)


_WHEN_YOU = re.compile(r"(?<![\w-])when(?:ever)?\s+you\s+(?:use\s+|make\s+|roll\s+)?(?:an?\s+|the\s+)?[*_\[]*$",
                       re.IGNORECASE)
_BONUS = re.compile(r"(?<![\w-])(?:add|take|get|gain)s?\s+(?:an?\s+)?\+\d|\+\d+\s+(?:bonus\s+)?(?:to|on)\b", re.IGNORECASE)


def _verbs(key: str) -> str:
    """The rulebook pack's verb list ``key`` as an alternation."""
    return word_pattern(genre_words("rulebook", key))


@per_genres
def _following() -> re.Pattern:
    """"casts one of the following spells:", "carries the following:" (the pack's ``cast_verbs``
    and ``wield_verbs``); a hard-wrapped line goes on."""
    return re.compile(rf"(?<![\w-])(?P<kind>(?:innately\s+|can\s+)?(?:{_verbs('cast_verbs')})|{_verbs('wield_verbs')})"
                      r"\s+(?:one\s+of\s+|any\s+of\s+|each\s+of\s+)?the\s+following\b"
                      r"(?:[^.\n:]|\n(?![ \t]*\n))*:", re.IGNORECASE)


_USES_LINE = re.compile(r"\s*\n[ \t>*_-]*(?:at\s+will|\d+/(?:day|rest)(?:\s+each)?|cantrips|\d+(?:st|nd|rd|th)\s+level)\b"
                        r"[^\n]*", re.IGNORECASE)


@per_genres
def _kind_section() -> re.Pattern:
    """The heading of a section of ways to use one thing: "Athletics Stunts", "Sneak Attack Feats"."""
    return re.compile(rf"^#+\s*[*_]*\s*(?P<owner>[^\n]+?)\s+(?:{word_pattern(genre_words('rulebook', 'kind_sections'))})"
                      r"[*_\s]*$", re.IGNORECASE | re.MULTILINE)


def _kind_section_owner(text: str, entities: list[PatternEntity]) -> int | None:
    """The entity a chunk's heading names as the thing its entries are stunts of ("Crafts"
    for "###### Crafts Stunts"), when the chunk mentions it."""
    first = text.lstrip().split("\n", 1)[0]
    match = _kind_section().match(first) if genre_active("rulebook") else None  # stunts, feats: a rulebook's
    if match is None:
        return None
    owner = normalize_name(match.group("owner"))
    return next((i for i, e in enumerate(entities) if normalize_name(e.name) == owner), None)


def is_category_line(line: str) -> bool:
    """True for an entry's category line: "*Armor (plate), very rare*", "Weapon (longsword), rare"."""
    return _CATEGORY_LINE.match(line) is not None


def category_line_family(scan: ChunkScan) -> None:
    """The category line that opens an entry: "Weapon (longsword), rare" -> variant_of longsword."""
    if scan.section_subject is None:
        return
    text = scan.text
    body = text.split("\n", 1)[1] if text.lstrip().startswith("#") and "\n" in text else text
    offset = len(text) - len(body)
    first = next((line for line in body.splitlines() if line.strip()), "")
    category = _CATEGORY_LINE.match(first)
    if category:
        at = offset + body.index(first) + category.start(1)
        inside = [o for o in scan.occurrences if at <= o[0] and o[1] <= at + len(category.group(1))]
        # "Rank 2 Charm (Bard, Sage)" lists who has it: a thing is a variant of one thing
        if len(inside) == 1 and not _LIST_SEPARATOR.search(category.group(1)):
            start, end, index = inside[0]
            scan.emit(scan.section_subject, index, "variant_of", start, end)
        elif not inside and _item_base(first, category):
            emit_named(scan, scan.section_subject, category.group(1).strip(" *_"), "variant_of",
                       at, at + len(category.group(1)))


_BASE_NAME = re.compile(r"[A-Za-z][A-Za-z'’-]*(?: [A-Za-z][A-Za-z'’-]*){0,2}")


def _item_base(line: str, category: re.Match) -> bool:
    """True for an item's category line whose parentheses hold one plain name ("*Weapon
    (scimitar), rare*", "*Armor (chain shirt)*"; not "(any sword)" nor "(medium or heavy)"):
    the kind before them is an item's (the rulebook pack's ``kind_words``)."""
    base = category.group(1).strip(" *_")
    kind = re.sub(r"[^a-z ]", "", line[:category.start(1)].casefold()).split()
    return bool(kind) and kind_words().get(kind[-1]) == "item" and _BASE_NAME.fullmatch(base) is not None \
        and not _LIST_SEPARATOR.search(base) and base.split()[0].casefold() not in ("any", "all", "one")


def implicit_subject_family(scan: ChunkScan) -> None:
    """Each occurrence in a clause with no subject of its own: a state, a use, or a verb's target."""
    if scan.section_subject is None and not scan.paragraphs:
        return
    for start, end, index in scan.occurrences:
        clause = clause_at(scan, start, end, index)
        if clause is None:
            continue
        named = is_named(scan.text, start, end)
        if state_claim(scan, clause, named) or not named:
            continue  # a lowercase common noun ("your powers", "an attack") is no target
        if not use_claim(scan, clause):
            verb_claim(scan, clause)


def following_family(scan: ChunkScan) -> None:
    """"The hag casts one of the following spells: At will: *Fire Bolt*, *Mist Step*": each name
    after the colon, to the end of the paragraph; an entry's action casts for the entry."""
    text = scan.text
    casting = {w.casefold() for w in genre_words("rulebook", "cast_verbs")}
    for following in _following().finditer(text):
        subject = scan.owner_at(following.start())
        blank = BLANK_LINE.search(text, following.end())
        hi = blank.start() if blank else len(text)
        stop = re.compile(r"\.\s+[A-Z]").search(text, following.end(), hi)
        hi = stop.start() if stop else hi
        # the lines of uses that follow it: "At will: *detect magic*", "3/day each: *fog cloud*"
        while not stop and (use_line := _USES_LINE.match(text, hi)):
            hi = use_line.end()
        kind = "casts" if following.group("kind").casefold().split()[-1] in casting else "wields"
        for start, end, index in scan.occurrences:
            if following.end() <= start < hi and subject is not None and is_named(text, start, end):
                scan.emit(subject, index, kind, start, end)


def list_block_family(scan: ChunkScan) -> None:
    """A spell list or a gear list of an entry: "#### Spells" + "- Firebolt", "**Gear:** Longbow, Chain Shirt"."""
    text = scan.text
    for kind, block_lo, block_hi in list_blocks(text):
        if kind == "wields" and proficiency_list(text, block_lo):
            continue
        # the list's own title ("**Spells** Frost Lance") is no lead of a catalog entry
        title_line = text.rfind("\n", 0, block_lo) + 1
        leads_around = tuple(line for line in scan.lead_lines if line != title_line)
        for start, end, index in scan.occurrences:
            if not block_lo <= start < block_hi or not list_item(text, scan.occurrences, start, block_lo, block_hi):
                continue
            subject = scan.subject_at(start, leads=leads_around)
            if subject is None or subject == index or name_fragment(text, start, end):
                continue
            if kind == "wields" and (item := gear_entity(scan.entities, index)) is not None:
                index = item  # "Gear: Mace" under the Deva's own "Mace." attack: the item
            if is_named(text, start, end) or scan.entities[index].category:
                scan.emit(subject, index, kind, start, end)


def when_you_family(scan: ChunkScan) -> None:
    """"When you Secure an Advantage by aiming, add +1": a bonus on the move or skill it names."""
    text = scan.text
    for start, end, index in scan.occurrences:
        if not _WHEN_YOU.search(text, max(0, start - 40), start) or not is_named(text, start, end):
            continue
        subject = scan.subject_at(start)
        lo, hi = sentence_span(text, start, end, limit=400)
        quoted = re.search(r"[“\"]", text[max(0, lo - 2):start])  # a rule quoted in an example is the quoted entry's
        if subject is not None and subject != index and not quoted and _BONUS.search(text, end, hi):
            scan.emit(subject, index, "modifies", start, end)


def kind_section_family(scan: ChunkScan) -> None:
    """"###### Crafts Stunts": an entry of the section that names the skill is a way to use it."""
    text = scan.text
    owner = _kind_section_owner(text, scan.entities)
    for start, end, index in (scan.occurrences if owner is not None else []):
        if index != owner or not is_named(text, start, end):
            continue
        subject = scan.subject_at(start, section=None)  # an entry's paragraph only
        lo, _hi = sentence_span(text, start, end, limit=400)
        if subject is not None and subject != owner and not NEGATION.search(text[lo:start]):
            scan.emit(subject, owner, "modifies", start, end)


def copula_family(scan: ChunkScan) -> None:
    """"Drawbacks are aspects", "A Longsword is a martial weapon": the copula of a definition."""
    text, occurrences = scan.text, scan.occurrences
    for match in _COPULA.finditer(text):
        head = [o for o in occurrences if o[1] <= match.start() and o[1] >= match.start() - 1]
        tail = [o for o in occurrences if match.end() <= o[0] <= match.end() + 1]
        if head and tail and sentence_start(text, head[0][0]) and scan.entities[head[0][2]].defines:
            scan.emit(head[0][2], tail[0][2], "variant_of", head[0][0], tail[0][1])


# a spell an entry lets its user cast: "expend 5 charges to cast *Bind the Beast* from it",
# "You always have the *Beast Speech* spell prepared", "you know the *Light* cantrip"
@per_genres
def _use_before() -> re.Pattern:
    """What stands before a spell an entry lets its user cast or know (the pack's ``cast_verbs``
    and ``known_spell_verbs``); the group ``cast`` says which."""
    return re.compile(rf"(?:(?<![\w-])(?P<cast>{_verbs('cast_verbs')})\s+(?:the\s+)?"
                      rf"|(?<![\w-])(?:always\s+)?(?:{_verbs('known_spell_verbs')})\s+the\s+)[*_]*$", re.IGNORECASE)
_USE_AFTER = {
    "cast": re.compile(r"[*_]*(?:\s+spell)?\s+from\s+(?:it|this|them|the)\b", re.IGNORECASE),
    "have": re.compile(r"[*_]*\s+(?:spell|cantrip)s?\b", re.IGNORECASE),
}


def spell_use_family(scan: ChunkScan) -> None:
    """An item's "cast *X* from it" and a feature's "always have the *X* spell prepared" or
    "know the *X* cantrip": the entry (the creature or class owning an action) casts X. A
    condition is never cast."""
    text = scan.text
    for start, end, index in scan.occurrences:
        before = _use_before().search(text, max(0, start - 40), start)
        if before is None or scan.entities[index].condition_like:
            continue
        after = _USE_AFTER["cast" if before.group("cast") else "have"]
        if not after.match(text, end) or not is_named(text, start, end):
            continue
        subject = scan.owner_at(start)
        if subject is not None and not NEGATION.search(text[sentence_span(text, start, end, limit=400)[0]:start]):
            scan.emit(subject, index, "casts", start, end)


# the pattern families, run in turn over one chunk; a claim a family makes first is not repeated
FAMILIES = (
    category_line_family,
    implicit_subject_family,
    following_family,
    list_block_family,
    when_you_family,
    kind_section_family,
    copula_family,
    spell_use_family,
)


def pattern_relations(text: str, entities: list[PatternEntity]) -> list[RawRelation]:
    """Implicit-subject relationships of one chunk (see the module docstring), family by family."""
    scan = chunk_scan(text, entities)
    for family in FAMILIES:
        family(scan)
    return scan.out
