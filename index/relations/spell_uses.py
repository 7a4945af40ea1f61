"""Two more ways a rulebook states that an entry casts a spell, and one that it summons a
creature (run by stated.py):

- a spell list under a lead that names no verb of casting: "The lich has the following
  wizard spells prepared:" + "Cantrips (at will): *mage hand*" / "1st level (4 slots):
  *detect magic*, *shield*": each name on the use lines under it;
- what an entry lets its user cast: "you can use an action to cast the *levitate* spell",
  "expend 1 charge to cast *Fireball* (save DC 15)": the entry (an item, a feature, the
  creature owning an action) casts it.

- what an entry summons: "summons a water elemental", "calls forth 3d6 wolves" (``summon_family``).

A use line is a line whose label before the colon holds a word of the rulebook pack's
``spell_use_words`` ("at will", "1/day each", "3rd level (3 slots)").
"""

from __future__ import annotations

import re

from ..core.models import SUB_ENTRY_SEPARATOR
from ..core.normalize import normalize_name
from ..core.packs import genre_words, per_genres, word_pattern
from ..extract.text import sentence_span
from .edge_guards import pack_words
from .pattern_context import ChunkScan, emit_named, gear_entity

_LIST_LEAD = re.compile(r"\bfollowing\b[^.\n:]{0,40}\bspells?\b[^.\n:]{0,30}:[ \t\r]*$", re.IGNORECASE | re.MULTILINE)
_USE_LINE = re.compile(r"^[ \t>*_-]*(?P<label>[^:\n]{2,40}?)[*_]*:[*_]*[ \t]*(?P<rest>\S[^\n]*)$", re.MULTILINE)
_DENIED = re.compile(r"(?<![\w-])(?:not|never|can't|cannot|can’t)(?![\w-])", re.IGNORECASE)


def _use_line(label: str) -> bool:
    words = set(re.findall(r"[a-z]+", label.casefold()))
    return bool(words & pack_words("spell_use_words"))


@per_genres
def _you_cast() -> re.Pattern:
    """"you can use an action to cast the", "as if you had cast the", "you cast the": what a
    reader may cast (the pack's ``cast_modals`` and ``cast_verbs``; a bare "you cast" is read
    by ``_conditional``)."""
    modals = word_pattern(genre_words("rulebook", "cast_modals"))
    return re.compile(rf"(?<![\w-])you\s+(?:(?:{modals})(?!['’]t|not)\b(?P<between>[^.\n]{{0,80}}?)\b)?"
                      rf"(?:{word_pattern(genre_words('rulebook', 'cast_verbs'))})\s+(?:the\s+)?[*_]*$", re.IGNORECASE)


@per_genres
def _conditional() -> re.Pattern:
    """A condition's word closing the text before a bare "you cast" ("When you cast the *X*
    spell": a rule about casting it, no use of the entry; the pack's ``cast_conditions``)."""
    return re.compile(rf"(?<![\w-])(?:{word_pattern(genre_words('rulebook', 'cast_conditions'))})[\s,]*$",
                      re.IGNORECASE)


@per_genres
def _summon() -> re.Pattern:
    """"summons", "calls forth", "can call": the rulebook pack's ``summon_verbs``."""
    return re.compile(rf"(?<![\w-])(?:{word_pattern(genre_words('rulebook', 'summon_verbs'))})(?![\w-])", re.IGNORECASE)


_CLAUSE_END = re.compile(r"[.;:!?](?:\s|$)|\n\s*\n")
# what stands between the verb and what it summons: "a", "2d4", "a particular", "forth 3d6": three words at most
_SUMMON_GAP = re.compile(r"[\s*_]*(?:[\w'’+-]+[\s*_]+){0,3}$")


def summon_family(scan: ChunkScan) -> None:
    """"The vampire magically calls 2d4 swarms of bats", "you can summon a water elemental":
    the entry (or the creature owning the action) summons each creature (the pack's
    ``summoned_kinds``) named after the verb in its clause, three words at most after it,
    unless the clause denies it."""
    text, kinds = scan.text, genre_words("rulebook", "summoned_kinds")
    for verb in _summon().finditer(text):
        lo = sentence_span(text, verb.start(), verb.end(), limit=400)[0]
        stop = _CLAUSE_END.search(text, verb.end())
        hi = min(stop.start() if stop else len(text), verb.end() + 80)
        subject = scan.owner_at(verb.start())
        if subject is None or _DENIED.search(text[lo:verb.start()]):
            continue
        for start, end, index in scan.occurrences:
            if verb.end() <= start < hi and index != subject and scan.entities[index].entity_type in kinds \
                    and _SUMMON_GAP.match(text, verb.end(), start):
                scan.emit(subject, index, "summons", start, end)
    _statistics_summons(scan, kinds)


@per_genres
def _statistics() -> re.Pattern:
    """"They use the statistics of a berserker", "The bird has the statistics of a roc": what
    appears takes a creature's statistics (the pack's ``summon_statistics_leads``); group
    ``name``: one to three words after the article, up to punctuation or a clause's word."""
    return re.compile(rf"(?<![\w-])(?:uses?|has|have)\s+(?:the\s+)?(?:game\s+)?"
                      rf"(?:{word_pattern(genre_words('rulebook', 'summon_statistics_leads'))})\s+(?:an?)\s+[*_]*"
                      r"(?P<name>[A-Za-z][\w'’-]*(?:\s+(?!(?:except|but|and|or|with|for|while)\b)[A-Za-z][\w'’-]*){0,2}?)"
                      r"(?=[*_]*\s*(?:[,.;:!?()]|\s(?:except|but|and|or|with|for|while)\b|$))", re.IGNORECASE)


def _statistics_summons(scan: ChunkScan, kinds: list[str]) -> None:
    """The entry (or the creature owning the action) summons the creature whose statistics
    what it brings takes, the name after "a"/"an" only ("the statistics of the chosen beast"
    is a form taken, no creature called): linked there, when a creature of ``kinds``; written
    but not linked, resolved on the shelf by name among them."""
    text = scan.text
    for lead in _statistics().finditer(text):
        subject = scan.owner_at(lead.start())
        lo = sentence_span(text, lead.start(), lead.end(), limit=400)[0]
        if subject is None or _DENIED.search(text[lo:lead.start()]):
            continue
        at, end = lead.start("name"), lead.end("name")
        linked = next((o for o in scan.occurrences if o[0] == at), None)
        if linked is not None:
            if linked[2] != subject and scan.entities[linked[2]].entity_type in kinds:
                scan.emit(subject, linked[2], "summons", linked[0], linked[1])
        elif normalize_name(lead.group("name")) != normalize_name(scan.entities[subject].name):
            for kind in kinds:
                emit_named(scan, subject, lead.group("name"), "summons", at, end, target_kind=kind)


@per_genres
def _weapon_attack() -> re.Pattern:
    """What follows a weapon attack's lead: "***Mace.*** *Melee Weapon Attack:*" (the pack's ``weapon_attack_words``)."""
    return re.compile(rf"(?:\s*\([^()\n]*\))?[*_]*[.:][\s*_]*(?:{word_pattern(genre_words('rulebook', 'weapon_attack_words'))})"
                      r"(?![\w-])", re.IGNORECASE)


def weapon_attack_family(scan: ChunkScan) -> None:
    """"***Greatsword.*** *Melee Weapon Attack:* ...": a creature's attack named by an item of
    the book wields that item (the entry owning the attack; gear_entity), when the lead writes
    the item's name as it is ("***Horns.***" names no Horn). A lead linked to a thing of
    another stated kind that shares the name ("Longsword", an attack another creature
    defines), or an attack whose name the chunk links alone so, names the item of that name on
    the shelf (the pack's ``wielded_kinds``)."""
    wielded = genre_words("rulebook", "wielded_kinds")
    for start, end, index in scan.occurrences:
        entity = scan.entities[index]
        written = entity.name.rpartition(SUB_ENTRY_SEPARATOR)[2]
        if not _weapon_attack().match(scan.text, end) or _as_written(scan.text[start:end]) != _as_written(written):
            continue
        subject = scan.owner_at(start)
        if subject is None or subject == index:
            continue
        item = gear_entity(scan.entities, index)
        if item is None and SUB_ENTRY_SEPARATOR not in entity.name and entity.entity_type in wielded:
            item = index
        if item is not None:
            scan.emit(subject, item, "wields", start, end)
        elif len(wielded) == 1 and (entity.entity_type != "other" if SUB_ENTRY_SEPARATOR not in entity.name
                                    else _named_alone(scan, written)):
            emit_named(scan, subject, written, "wields", start, end, target_kind=next(iter(wielded)))


@per_genres
def _armor_field() -> re.Pattern:
    """"**Armor Class** 15 (chain shirt, shield)": a stat line naming what is worn in its
    parentheses (the pack's ``armor_field_labels``)."""
    labels = word_pattern(genre_words("rulebook", "armor_field_labels"))
    return re.compile(rf"^[ \t>*_-]*(?:{labels})[*_:]*[ \t]+\d+[^(\n]{{0,40}}\((?P<gear>[^()\n]+)\)",
                      re.IGNORECASE | re.MULTILINE)


def armor_field_family(scan: ChunkScan) -> None:
    """"**Armor Class** 12 (leather armor, shield)": the entry wields each thing worn, by its name
    less a closing kind word ("leather armor" is Leather; the pack's ``armor_tail_words``),
    resolved on the shelf among the wielded kind; a bonus ("15 with mage armor") and an
    innate cover ("natural armor", the pack's ``innate_armor_words``) are no gear."""
    wielded = genre_words("rulebook", "wielded_kinds")
    tails, innate = genre_words("rulebook", "armor_tail_words"), genre_words("rulebook", "innate_armor_words")
    for line in _armor_field().finditer(scan.text) if len(wielded) == 1 else ():
        subject = scan.owner_at(line.start())
        if subject is None:
            continue
        at = line.start("gear")
        for part in line.group("gear").split(","):
            words = part.split()
            at += len(part) + 1
            if not words or not all(re.fullmatch(r"[^\W\d_][\w'’-]*", w) for w in words) \
                    or words[0].casefold() in innate:
                continue
            if len(words) > 1 and words[-1].casefold() in tails:
                words = words[:-1]
            emit_named(scan, subject, " ".join(words), "wields", at - len(part) - 1, at - 1,
                       target_kind=next(iter(wielded)))


def _as_written(name: str) -> str:
    """A name as written, its markup and case aside (a plural, "Horns", stays another word)."""
    return " ".join(re.sub(r"[*_]+", " ", name).split()).casefold()


def _named_alone(scan: ChunkScan, name: str) -> bool:
    """Whether the chunk links ``name`` to an entity of its own of a stated kind ("the balor's
    longsword" beside its "Balor › Longsword" attack): a thing of the shelf, which an item of
    that name may be; a word of no kind ("Bite") is none."""
    key = normalize_name(name)
    return any(SUB_ENTRY_SEPARATOR not in e.name and e.entity_type != "other" and normalize_name(e.name) == key
               for e in scan.entities)


def prepared_list_family(scan: ChunkScan) -> None:
    """"has the following wizard spells prepared:" and the use lines under it: casts each name."""
    text = scan.text
    for lead in _LIST_LEAD.finditer(text):
        opening = text[sentence_span(text, lead.start(), lead.end(), limit=400)[0]:lead.start()]
        if re.search(r"(?<![\w-])casts?\s", opening, re.IGNORECASE):
            continue  # "casts the following spells:": the pattern families read it
        subject = scan.owner_at(lead.start())
        for line in _lines_under(text, lead.end()) if subject is not None else ():
            for start, end, index in scan.occurrences:
                if line.start("rest") <= start < line.end("rest") and index != subject \
                        and not scan.entities[index].condition_like:
                    scan.emit(subject, index, "casts", start, end)


def _lines_under(text: str, at: int) -> list[re.Match]:
    """The use lines that follow ``at`` (blank lines between them allowed), up to any other line."""
    out = []
    for match in re.finditer(r"[^\n]*", text[at:]):
        line = match.group(0)
        if not line.strip():
            continue
        use = _USE_LINE.fullmatch(text, at + match.start(), at + match.end())
        if use is None or not _use_line(use.group("label")):
            break
        out.append(use)
    return out


def you_cast_family(scan: ChunkScan) -> None:
    """"you can use an action to cast the *levitate* spell": the entry lets its user cast it."""
    text = scan.text
    for start, end, index in scan.occurrences:
        before = _you_cast().search(text, max(0, start - 120), start)
        if before is None or _DENIED.search(before.group("between") or "") or scan.entities[index].condition_like:
            continue
        if before.group("between") is None and _conditional().search(text, max(0, before.start() - 30), before.start()):
            continue
        if not (text[start:start + 1].isupper() or text[max(0, start - 1):start] in ("*", "_")):
            continue  # "cast spells", "cast it": a name is capitalized or emphasized
        subject = scan.owner_at(start)
        if subject is not None and subject != index:
            scan.emit(subject, index, "casts", start, end)
