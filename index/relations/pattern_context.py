"""Where an entity's occurrence sits in a chunk, as the relation pattern families read it.

``PatternEntity`` (an entity the chunk mentions) and ``ChunkScan`` (the chunk read once: its
entities' occurrences, longest first at overlaps, and the implicit subject at a position:
the section's entry, or the glossary term of the paragraph), with the tests every family
shares: is the name written as a name (capitalized or emphasized), a word of a longer
name, inside a list, a quotation or a parenthesized example. ``patterns.py`` runs the
families over a ``ChunkScan``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from ..core.models import SUB_ENTRY_SEPARATOR, RawRelation
from ..core.normalize import article_dropped, normalize_name, normalized_words
from ..extract.entry_kinds import thing_kinds
from ..extract.glossary import entry_leads
from ..extract.text import sentence_span
from ..linking.linker import files_as_state

EXTRACTOR = "pattern"
# a claim whose target the book names but the chunk does not link ("*Weapon (scimitar), rare*"
# where "scimitar" is a table row of another book): resolved against the shelf by name
NAMED_EXTRACTOR = "pattern-named"
OFFLINE_EXTRACTORS = ("spacy", EXTRACTOR, NAMED_EXTRACTOR, "llm-refine")
CONFIDENCE = 0.7


@dataclass(frozen=True)
class PatternEntity:
    name: str                       # the entity's display name (the claim's endpoint name)
    forms: tuple[str, ...]          # as written in this chunk
    entity_type: str = "other"
    defines: str | None = None      # "heading" or "glossary" when the chunk defines it so
    category: str = ""              # the heading its definition is filed under ("Conditions")

    @property
    def condition_like(self) -> bool:
        """A one-word state: "Grappled", or anything filed as a condition or status."""
        if self.filed_as_condition:
            return True  # "Heavily Obscured" filed under Conditions
        return " " not in self.name.strip() and self.name.endswith("ed")

    @property
    def filed_as_condition(self) -> bool:
        """Typed or filed under a heading as a condition ("Conditions > Grappled")."""
        return files_as_state(self.entity_type, self.category)


@lru_cache(maxsize=16384)  # about 1 KB each; re's own cache holds 512, so a shelf's names were compiled per chunk
def form_pattern(form: str) -> re.Pattern:
    words = [re.escape(w) for w in form.split()]
    flags = re.IGNORECASE if len(words) > 1 or form.islower() else 0
    # markup and line breaks may sit between the words of a name
    return re.compile(r"(?<![\w])" + r"[\s*_]+".join(words) + r"(?:e?s|'s|’s)?(?![\w])", flags)


def _occurrences(text: str, entities: list[PatternEntity]) -> list[tuple[int, int, int]]:
    """(start, end, entity index) of each form and of a form less its article, longest first at
    overlaps (at one span, the entity the chunk defines: a stat block's "***Shortbow.***" is its
    sub-entry, not the table's Shortbow), in text order."""
    found = []
    for index, entity in enumerate(entities):
        # a name written with its article is written without it too: "(Requires Drunkard's Stagger)"
        forms = {*entity.forms, *filter(None, map(article_dropped, entity.forms))}
        for form in sorted(forms):
            for match in form_pattern(form).finditer(text):
                found.append((match.start(), match.end(), index))
    chosen: list[tuple[int, int, int]] = []
    for occurrence in sorted(found, key=lambda o: (-(o[1] - o[0]), o[0], entities[o[2]].defines is None)):
        if all(occurrence[1] <= c[0] or occurrence[0] >= c[1] for c in chosen):
            chosen.append(occurrence)
    return sorted(chosen)


def _paragraph_subjects(text: str, entities: list[PatternEntity], occurrences) -> list[tuple[int, int]]:
    """(paragraph start, subject entity index) for paragraphs opened by a glossary term."""
    out = []
    for line_start, term_start in entry_leads(text):  # the leads the glossary extractor reads
        for start, _end, index in occurrences:
            if term_start <= start <= term_start + 4 and entities[index].defines == "glossary":
                out.append((line_start, index))
                break
    return out


BLANK_LINE = re.compile(r"\n[ \t\xa0\r]*\n")


def _subject_at(position: int, section_subject: int | None, paragraphs: list[tuple[int, int]], text: str,
                leads: tuple[int, ...] = ()) -> int | None:
    """The implicit subject at ``position``: the term of the glossary paragraph it is in; in
    a chunk with such terms, nobody in the paragraph of a lead that names no entity (an entry
    of the catalog the index does not hold: "- **Martial Artist:** +1 to Combat" among stunts
    under "Add a Bonus"); else the section's. A paragraph runs to the next blank line (one of
    spaces only is blank too) or to the next lead."""
    subjects = {start: index for start, index in paragraphs}
    opened = [start for start in sorted({*subjects, *leads}) if start <= position]
    if not opened:
        return section_subject
    start = opened[-1]
    blank = BLANK_LINE.search(text, start)
    if blank is not None and blank.start() <= position:
        return section_subject
    return subjects[start] if start in subjects else (None if subjects else section_subject)


def _owner_of(index: int | None, entities: list[PatternEntity]) -> int | None:
    """The entity that acts in a sub-entry's sentences: its owner ("Cave Bear" for "Cave Bear ›
    Bite"), when the chunk's entities hold it; else the entity itself."""
    if index is None or SUB_ENTRY_SEPARATOR not in entities[index].name:
        return index
    owner = normalize_name(entities[index].name.rpartition(SUB_ENTRY_SEPARATOR)[0])
    return next((i for i, e in enumerate(entities) if normalize_name(e.name) == owner), index)


# an opening mark: "*fireball*", not the closing one of a name before it ("*comprehend languages* spell")
EMPHASIS_BEFORE = re.compile(r"(?:(?<![\w.,;:!?’'])[*_]+|<em>|<i>|<strong>|<b>)\s*$", re.IGNORECASE)


def is_named(text: str, start: int, end: int) -> bool:
    """A name as the text writes it: capitalized, or emphasized (``*fireball*``)."""
    return text[start:start + 1].isupper() or bool(EMPHASIS_BEFORE.search(text[max(0, start - 8):start]))


def only_in_longer_names(evidence: str, forms) -> bool:
    """True when every occurrence of the entity in ``evidence`` is a word of a longer name
    ("Creature" in "a Giant Creature of Destruction"); False when it stands alone once, or
    does not occur."""
    spans = [m for form in forms for m in form_pattern(form).finditer(evidence)]
    return bool(spans) and all(name_fragment(evidence, m.start(), m.end()) for m in spans)


def not_common_noun(evidence: str, forms) -> bool:
    """False when ``evidence`` writes the entity only as a common noun ("a character needs
    skills"): every occurrence lowercase and not emphasized. True when it occurs as a name,
    or not at all (a pronoun stands for it)."""
    spans = [m for form in forms for m in form_pattern(form).finditer(evidence)]
    return not spans or any(is_named(evidence, m.start(), m.end()) for m in spans)


def in_list(text: str, after: int, at: int) -> bool:
    """True when only list separators stand between ``after`` and ``at`` ("Light, Sunburst and X")."""
    return re.fullmatch(r"(?:[\s*_,;]|</?\w+>|\band\b|\bor\b)*", text[after:at], re.IGNORECASE) is not None


def sentence_start(text: str, at: int) -> bool:
    """True when only markup or a list marker stands between ``at`` and the sentence start."""
    lo, _ = sentence_span(text, at, at + 1, limit=400)
    return not re.sub(r"[\s*_>#\-+]|\b(?:an?|the)\b", "", text[lo:at], flags=re.IGNORECASE)
NEGATION = re.compile(r"(?<![\w-])(?:not|no|cannot|can't|without|never)(?![\w-])", re.IGNORECASE)


_CAPITALIZED_WORD = re.compile(r"(?<![\w'’])[A-Z][\w'’-]*$")
_SENTENCE_OPENING = re.compile(r"(?:^|[.!?:;>*|\n(\[\"“]\s*)$")


def name_fragment(text: str, start: int, end: int) -> bool:
    """True when the name at ``start:end`` is glued to a capitalized word before it ("Fast
    Talk" around the entity "Talk"), inside its sentence: a longer name the shelf does not
    define, of which this entity is only a word."""
    before = text[max(0, start - 40):start]
    if not before.endswith(" ") or before.endswith("  "):
        return False
    word = _CAPITALIZED_WORD.search(before[:-1])
    if word is None or word.group(0) in ("I", "A", "An", "The"):
        return False
    return not _SENTENCE_OPENING.search(before[:word.start()])


_OPEN_QUOTE = re.compile(r"“|(?:^|(?<=[\s(]))\"")
_CLOSE_QUOTE = re.compile(r"”|\"(?=[\s.,;:!?)]|$)")
_EXAMPLE_OPEN = re.compile(r"\((?:like|e\.g\.|for\s+example|for\s+instance|such\s+as|say)\b", re.IGNORECASE)


def in_example(text: str, lo: int, at: int) -> bool:
    """True when ``at`` lies in a parenthesized example opened after ``lo``: "(like causing
    distractions so one person can use Stealth)" is no rule of the section's."""
    opened = list(_EXAMPLE_OPEN.finditer(text, lo, at))
    return bool(opened) and ")" not in text[opened[-1].end():at]


def in_quotation(text: str, lo: int, at: int) -> bool:
    """True when ``at`` lies inside a quotation opened after ``lo``: 'a stunt, like “Grapnel
    Gun: +2 to overcome with Athletics”' quotes an example, it is not the section's rule."""
    span = text[lo:at]
    opened = list(_OPEN_QUOTE.finditer(span))
    return bool(opened) and not _CLOSE_QUOTE.search(span, opened[-1].end())


def strip_entities(text: str, occurrences, lo: int, hi: int) -> str:
    """The text between ``lo`` and ``hi`` without entity names, articles and list punctuation."""
    parts, at = [], lo
    for start, end, _ in occurrences:
        if lo <= start < hi:
            parts.append(text[at:start])
            at = end
    parts.append(text[at:hi])
    gap = " ".join(parts)
    return re.sub(r"(?<![\w])(?:a|an|the|and|or|its|their|one|of|following|spells?|either)(?![\w])|[\s,*_:]+", "", gap,
                  flags=re.IGNORECASE)


@dataclass
class ChunkScan:
    """One chunk as the pattern families read it: its entities' occurrences, the implicit
    subjects (the section's entry, the glossary terms of its paragraphs) and the claims so far."""
    text: str
    entities: list[PatternEntity]
    occurrences: list[tuple[int, int, int]]
    section_subject: int | None
    paragraphs: list[tuple[int, int]]      # (paragraph start, subject) of glossary paragraphs
    lead_terms: set[int]                   # sub-entries whose paragraphs speak for their owner
    lead_lines: tuple[int, ...]            # the starts of the lines an entry lead opens
    lead_owned: set[int]                   # an entry's actions: what one inflicts, the entry does
    out: list[RawRelation] = field(default_factory=list)
    seen: set[tuple] = field(default_factory=set)

    def subject_at(self, position: int, section: int | None = -1, leads: tuple[int, ...] | None = None) -> int | None:
        """The implicit subject at ``position`` (the section's entry unless ``section`` is given)."""
        section = self.section_subject if section == -1 else section
        return _subject_at(position, section, self.paragraphs, self.text, self.lead_lines if leads is None else leads)

    def owner_at(self, position: int) -> int | None:
        """Who acts in a list of uses at ``position``: the implicit subject, the entry for its
        own action's lead, and for a lead the index does not hold ("***Innate
        Spellcasting.***") the section's entry when the book gives it a kind (a creature)."""
        subject = self.subject_at(position)
        if subject in self.lead_owned:
            return self.section_subject
        if subject is None and self.section_subject is not None \
                and self.entities[self.section_subject].entity_type in thing_kinds():
            return self.section_subject
        return subject

    def emit(self, source: int, target: int, kind: str, at: int, end: int) -> None:
        """One claim, its evidence the sentence around ``at:end``; once per (source, target, kind)."""
        if source == target:
            return
        lo, hi = sentence_span(self.text, at, end, limit=400)
        evidence = self.text[lo:hi]
        key = (source, target, kind)
        if key in self.seen or not evidence:
            return
        self.seen.add(key)
        self.out.append(RawRelation(
            source_name=self.entities[source].name, target_name=self.entities[target].name, relation_type=kind,
            evidence=evidence, confidence=CONFIDENCE, extractor=EXTRACTOR,
        ))


def emit_named(scan: "ChunkScan", source: int, target_name: str, kind: str, at: int, end: int,
               target_kind: str | None = None) -> None:
    """One claim to a name the chunk writes but does not link (``NAMED_EXTRACTOR``), resolved
    on the shelf among ``target_kind`` (and things of no kind) when given, else among the
    source's kind."""
    lo, hi = sentence_span(scan.text, at, end, limit=400)
    key = (source, normalize_name(target_name), kind)
    if key in scan.seen or not scan.text[lo:hi]:
        return
    scan.seen.add(key)
    scan.out.append(RawRelation(
        source_name=scan.entities[source].name, target_name=target_name, relation_type=kind,
        evidence=scan.text[lo:hi], confidence=CONFIDENCE, extractor=NAMED_EXTRACTOR, target_kind=target_kind,
    ))


def chunk_scan(text: str, entities: list[PatternEntity]) -> ChunkScan:
    """Read a chunk's occurrences and implicit subjects once, for every family."""
    # an entry names one thing ("Frost Wyrm", "Athletics"); a plural heading ("Chases",
    # "Limitations") is a topic whose sentences are about the players, not about it, unless
    # the book says what kind of thing it is ("Rod of Fetters", an item)
    heading_subjects = [i for i, e in enumerate(entities) if e.defines == "heading" and (
        normalize_name(e.name) == normalized_words(e.name) or e.entity_type in thing_kinds())]
    section_subject = _owner_of(heading_subjects[0] if heading_subjects else None, entities)
    occurrences = _occurrences(text, entities)
    # the implicit subject of a sub-entry's sentences is its owner: the creature, not its "Bite"
    leads = _paragraph_subjects(text, entities, occurrences)
    # the actions of an entry ("### Ember Drake" + "**Tail Sweep.** ... knocked Prone"): what
    # one inflicts, the entry inflicts too
    lead_owned = {index for _, index in leads if section_subject is not None
                  and entities[section_subject].defines == "heading" and index != section_subject}
    return ChunkScan(
        text=text, entities=entities, occurrences=occurrences, section_subject=section_subject,
        paragraphs=[(start, _owner_of(index, entities)) for start, index in leads],
        lead_terms={index for _, index in leads if _owner_of(index, entities) != index},
        lead_lines=tuple(line_start for line_start, _ in entry_leads(text)), lead_owned=lead_owned,
    )


def gear_entity(entities: list[PatternEntity], index: int) -> int | None:
    """The item an entry's own part is named by ("Deva › Mace": the item Mace, when the chunk
    names it), or None: a creature's weapon attack and its gear list name the weapon, not the action."""
    owner, separator, base = entities[index].name.rpartition(SUB_ENTRY_SEPARATOR)
    if not separator:
        return None
    key = normalize_name(base)
    return next((i for i, e in enumerate(entities) if e.entity_type == "item" and SUB_ENTRY_SEPARATOR not in e.name
                 and normalize_name(e.name) == key), None)
