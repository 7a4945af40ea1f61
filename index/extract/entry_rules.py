"""The entry stage's rules: which terms a section defines inside its text.

The candidates are a section's bold leads and definition-list terms (index/extract/glossary.py)
and the first column of its catalog tables. ``VETOES`` drop a candidate, each saying why, in
order; then the first of ``FINDING`` that agrees makes the mention and names it (the rule
contract: index/extract/contract.py). A lead defined under two or more different entries
("Recuperate" under Make Camp and under Sojourn) is each entry's own sub-entry, scoped to it
("Make Camp › Recuperate"), not one shelf-wide entity.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, replace

from ..core.models import SUB_ENTRY_SEPARATOR, ParentChunk
from ..core.normalize import normalize_name
from ..core.packs import DomainPack, genre_words, per_genres
from .contract import first_rule
from .entry_kinds import listing_kind, stat_block_kind
from .glossary import TITLE_SMALL, TermSpan, abbreviated, glossary_terms, named_items, table_terms
from .heading_rules import HeadingAnalysis
from .heading_tree import CATALOG_MIN, in_legal_section
from .headings import HeadingName, is_generic_label, opens_imperative, slash_parts

_NUMBERED = re.compile(r"[ \t>]*(?:\d+|[a-z])[.)][ \t]")  # an ordered list's item: "1. ", "b) "
_STEPS_MIN = 2  # imperative leads in one section that make them a procedure's steps
_NOTE_REACH = 300  # characters after a lead in which it may call itself a column
_FIELD_WORDS = 8  # the most words of a field's value ("**Kit** Spear, Hide Cloak")
_WRAPPED = re.compile(r"\n[ \t>]*(?![-+*|#\d\s])\S")  # a line that goes on with the paragraph's text
_SCOPED_MIN = 2  # different entries a lead is defined under to be scoped to each


@per_genres
def _column_values() -> frozenset[str]:
    """Values of a table's column the rulebook pack lists (a size, a school, a terrain)."""
    return genre_words("rulebook", "column_values") | genre_words("rulebook", "creature_sizes") \
        | genre_words("rulebook", "spell_schools")

# the period that closes an action's lead and its sentence: "**Bite.** The drake bites",
# "***Claw.*** *Melee Attack:*" (a stat line's "**Speed.** 30 ft." or "**Senses.** darkvision" is none)
_ACTION_LEAD = re.compile(r"(?:[*_]*\.[*_]*|</(?:strong|b|em|i)>\.|\.</(?:strong|b|em|i)>)[ \t]+(?:[*_]+|<(?:em|i)>)?[A-Z]")


@dataclass
class EntryView:
    """One book's candidates and what the entry rules weigh them by."""

    pack: DomainPack
    analysis: HeadingAnalysis
    terms: dict[str, list[TermSpan]]        # parent id -> its candidate terms
    spread: Counter                         # normalized term -> sections it leads
    heading_keys: set[str]                  # names the book's headings define
    single_keys: set[str]                   # one-word names the book defines
    owner_of: dict[str, str]                # parent id -> the entry it belongs to
    term_owners: dict[str, set[str]]        # normalized term -> the entries it is defined under


@dataclass
class Candidate:
    """One term of one section, as the entry rules see it."""

    parent: ParentChunk
    term: TermSpan
    key: str
    owner: str | None
    shared: bool      # defined under two or more different entries, none of them the book itself
    stat_block: bool  # its section is a stat block

    @property
    def action_lead(self) -> bool:
        return self.term.source == "glossary" and bool(_ACTION_LEAD.match(self.parent.text, self.term.end))


@dataclass(frozen=True)
class Found:
    """A term the entry rules keep: the name to store, its aliases and the rule that made it."""

    name: str
    aliases: tuple[str, ...]
    term: TermSpan
    rule: str


def owners(parents: list[ParentChunk], by_heading: dict[str, list[HeadingName]]) -> dict[str, str]:
    """parent id -> the entry it belongs to: the name defined by its own heading or by the
    nearest heading above it that defines one (a label section such as "Actions" under a
    creature belongs to the creature)."""
    defined_at = {parent.heading_path: names[0].name for parent in parents
                  if (names := by_heading.get(parent.id)) and len(names) == 1}
    out = {}
    for parent in parents:
        path = parent.heading_path
        for depth in range(len(path), 0, -1):
            if path[:depth] in defined_at:
                out[parent.id] = defined_at[path[:depth]]
                break
    return out


def kind_heading(path: tuple[str, ...]) -> str | None:
    """The heading of a section, or the one right above it, that names a kind ("Conditions",
    "Debilities > Banes"), or None."""
    return next((h for h in reversed(path[-2:]) if listing_kind(h)), None)


def _listed_terms(parent: ParentChunk) -> list[TermSpan]:
    """The names a list of a section under a kind's heading opens its items with
    (glossary.named_items), each tagged with that heading."""
    heading = kind_heading(parent.heading_path)
    return [replace(t, column=heading) for t in named_items(parent.text)] if heading else []


def entry_view(parents: list[ParentChunk], pack: DomainPack, analysis: HeadingAnalysis) -> EntryView:
    terms = {parent.id: [*glossary_terms(parent.text), *table_terms(parent.text), *_listed_terms(parent)]
             for parent in parents}
    # a bold lead repeated across sections is a label ("**Overcome:**" in every skill), not a definition
    spread = Counter(key for found in terms.values() for key in {normalize_name(t.name) for t in found})
    heading_keys = {normalize_name(named.name) for names in analysis.definitions.values() for named in names}
    owner_of = owners(parents, analysis.definitions)
    term_owners: dict[str, set[str]] = defaultdict(set)
    for parent in parents:
        for term in terms[parent.id]:
            term_owners[normalize_name(term.name)].add(owner_of.get(parent.id) or "")
    return EntryView(pack, analysis, terms, spread, heading_keys,
                     # the heads a sentence-case entry may be a kind of
                     {k for k in (*heading_keys, *spread) if "_" not in k}, owner_of, term_owners)


# -- the vetoes, in order ---------------------------------------------------------------------

def legal_section(view: EntryView, c: Candidate) -> bool:
    return in_legal_section(c.parent)


def stat_block_field(view: EntryView, c: Candidate) -> bool:
    """A stat block's lines ("**Armor Class:** 15", "| STR |", "**Actions**") are its fields;
    its actions ("**Bite.** The drake bites") are not."""
    return c.stat_block and not c.action_lead


def heading_defines_it(view: EntryView, c: Candidate) -> bool:
    return c.key in view.heading_keys


def slash_part(view: EntryView, c: Candidate) -> bool:
    """"**Enlarge.**" in the entry "Enlarge/Reduce": a part of the entry's own name, written
    with a slash, is that entry's option, no entity of its own."""
    parts = slash_parts(c.owner) if c.owner else None
    return parts is not None and c.key in {normalize_name(part) for part in parts}


def repeated_lead(view: EntryView, c: Candidate) -> bool:
    """A lead repeated across sections ("**Overcome:**" in every skill) is a label; a
    creature's "**Bite.** The drake bites ..." in many creatures is each its owner's."""
    sub_entry = c.owner and c.shared and c.action_lead
    return view.spread[c.key] >= CATALOG_MIN and not sub_entry


def stop_label(view: EntryView, c: Candidate) -> bool:
    """"**Contents**", "**Index**" in a table of contents: a label, as a heading is."""
    return c.term.source != "table" and view.pack.is_stop(c.term.name)


def list_phrase(view: EntryView, c: Candidate) -> bool:
    """"Delay success", "Epic quest": a list item's phrase, not a name."""
    return c.term.source != "table" and not kind_of_a_term(c.term.name, view.single_keys)


def entry_list_table(view: EntryView, c: Candidate) -> bool:
    """A table in a label section of an entry (a class's "Spells Known") lists that entry's
    things, which a catalog elsewhere on the shelf may define: its rows are references."""
    return c.term.source == "table" and (c.parent.id in view.analysis.labels or c.shared)


def column_note(view: EntryView, c: Candidate) -> bool:
    """A lead that explains a table's column ("**Stealth.** If the Armor table shows
    'Disadvantage' in the Stealth column ..."): the column's label, not an entry."""
    if c.term.source != "glossary":
        return False
    sentence = c.parent.text[c.term.end:c.term.end + _NOTE_REACH]
    return re.search(rf"\bthe {re.escape(c.term.name)} column\b", sentence, re.IGNORECASE) is not None


def step_lead(view: EntryView, c: Candidate) -> bool:
    """"1. **Determine surprise.**", "**Roll for Order.**" among other imperative leads: the
    steps of a procedure, which do, not things the book names."""
    if c.term.source == "table" or not opens_imperative(c.term.name):
        return False
    line_start = c.parent.text.rfind("\n", 0, c.term.start) + 1
    if _NUMBERED.match(c.parent.text, line_start):
        return True
    return sum(opens_imperative(t.name) for t in view.terms[c.parent.id] if t.source != "table") >= _STEPS_MIN


def field_line(view: EntryView, c: Candidate) -> bool:
    """"**Kit** Spear, Hide Cloak", "- **Hit Points:** 52 (7d10 + 14)": a lead whose line goes
    on with a value, not a sentence (a few words, no closing period: a number, or names
    between commas), is a field of an entry's stat lines, wherever they stand."""
    if c.term.source != "glossary" or c.action_lead:
        return False
    text = c.parent.text
    end = text.find("\n", c.term.end)
    end = len(text) if end < 0 else end
    value = text[c.term.end:end].strip(" \t*_:")
    if not value or value[-1] in ".!?" or len(value.split()) > _FIELD_WORDS or _WRAPPED.match(text, end):
        return False
    if ":" in value:
        return False  # "**Armored Jacket:** Armor:2": a thing's own stat line, its lead a name
    if any(ch.isdigit() for ch in value):
        return True
    items = [item.strip(" *_") for item in value.split(",")]
    return len(items) >= 2 and all(item[:1].isupper() for item in items)


def column_value(view: EntryView, c: Candidate) -> bool:
    """A table's first-column cell that is a value of a column (a size, a school, an
    ability, a terrain: the rulebook pack's words), not a thing the table defines."""
    return c.term.source == "table" and c.term.name.lower() in _column_values()


def generic_label(view: EntryView, c: Candidate) -> bool:
    """"**Adjustments.**", "Other Details": a label the rulebook pack lists, naming nothing."""
    return is_generic_label(c.term.name)


def abbreviation_row(view: EntryView, c: Candidate) -> bool:
    """"| TL | Threat Level |": an abbreviation, an alias of what it abbreviates (rules.py gives
    it to that name's definition), no entity of its own."""
    return c.term.source == "table" and abbreviated(c.parent.text, c.term) is not None


VETOES = (legal_section, stat_block_field, heading_defines_it, slash_part, repeated_lead, stop_label, list_phrase,
          entry_list_table, column_note, step_lead, field_line, column_value, generic_label, abbreviation_row)


# -- the finding rules, in order --------------------------------------------------------------

def scoped_sub_entry(view: EntryView, c: Candidate) -> bool:
    """A lead defined under two or more entries: stored as its owner's ("Ember Drake › Bite")."""
    return bool(c.owner) and c.shared


def bold_lead(view: EntryView, c: Candidate) -> bool:
    """A glossary paragraph's lead: ``**Term.** text``."""
    return c.term.source == "glossary"


def definition_list(view: EntryView, c: Candidate) -> bool:
    return c.term.source == "deflist"


def table_first_column(view: EntryView, c: Candidate) -> bool:
    """The first column of a catalog table."""
    return c.term.source == "table"


def named_list_item(view: EntryView, c: Candidate) -> bool:
    """"- Wounded may be marked when..." in a list under "Conditions": the name its item opens with."""
    return c.term.source == "list"


FINDING = (scoped_sub_entry, bold_lead, definition_list, table_first_column, named_list_item)


def kind_of_a_term(name: str, single_keys: set[str]) -> bool:
    """False for a sentence-case phrase ("Low difficulties", "Formidable journey") unless its
    last word is a one-word name of the book ("Zone aspects" where the book defines Aspects):
    list items written as phrases are a list's rows, named kinds of a term are entries."""
    words = name.split()
    if len(words) < 2 or not any(w[:1].islower() and len(w) > 3 and w not in TITLE_SMALL for w in words[1:]):
        return True  # a name in title case ("Lies upon Lies")
    return normalize_name(words[-1]) in single_keys


def section_terms(view: EntryView, parent: ParentChunk, vetoed: list | None = None) -> Iterator[Found]:
    """The terms one section defines, in the order its text gives them; each candidate a veto
    drops is added to ``vetoed`` (when given) as (its name, the veto)."""
    stat_block = stat_block_kind(parent.text) is not None
    owner = view.owner_of.get(parent.id)
    for term in view.terms[parent.id]:
        key = normalize_name(term.name)
        shared = len(view.term_owners[key]) >= _SCOPED_MIN and "" not in view.term_owners[key]
        candidate = Candidate(parent, term, key, owner, shared, stat_block)
        veto = first_rule(VETOES, view, candidate)
        if veto is not None:
            if vetoed is not None:
                vetoed.append((term.name, veto))
            continue
        rule = first_rule(FINDING, view, candidate)
        if rule == scoped_sub_entry.__name__:
            yield Found(f"{owner}{SUB_ENTRY_SEPARATOR}{term.name}", (), term, rule)
        elif rule is not None:
            yield Found(term.name, term.aliases, term, rule)
