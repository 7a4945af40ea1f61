"""The offline default extractor: definitions from a book's structure, no model.

Which sections define an entity is decided per book from its heading tree (so a book's
definitions never depend on the other books, and the index equals a fresh build):

- a heading gives a name (index/extract/headings.py: qualifiers stripped, aliases kept,
  ALL-CAPS shown in title case); prose headings (questions, gerunds, imperatives, "Parts of
  a Talent") define nothing, nor do the book's title and the pack's stop and category
  headings;
- **labels** define nothing: a heading repeated under sibling entries ("Enhancements" under
  every power) or one that adds a plural to its parent's name ("Athletics Stunts" under
  "Athletics"; an added singular, "Centaur Lancer" under "Centaur", is a kind: an entry);
- **category** headings define nothing: a heading over three or more entries (the entries
  form a catalog and each defines itself);
- any other heading defines its name when it is an entry of a catalog (three or more
  sibling entries), or the book uses the name outside the section, or the section's first
  sentence is a definition ("X is ...", "X are ...");
- "Defining Aspects" and "What Are Consequences?" define what they name;
- inside any section: glossary paragraphs (``**Term.** text``), definition lists and the first
  column of catalog tables define their terms (index/extract/glossary.py).

References are not found here but by the corpus linker (``index/linking/linker.py``).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import replace

from ..core.models import ChunkExtraction, ParentChunk, RawMention, Veto
from ..core.normalize import normalize_name
from ..core.packs import DomainPack, genre_words
from ..core.rule_guard import section_label, without_failures
from .base import ExtractionRun, KnownEntity, ProgressFn, no_progress
from .entry_kinds import (
    entry_kind,
    heading_kind,
    labelled_kind,
    leads_kind,
    listing_kind,
    offered_kind,
    own_kind,
    path_kind,
    stat_block_kind,
    thing_kinds,
)
from .entry_rules import entry_view, named_list_item, section_terms
from .glossary import TermSpan, abbreviated
from .heading_rules import HeadingAnalysis, analyse_headings
from .headings import HeadingName, clean_text, heading_name, slash_parts
from .listed_kinds import listed_kinds, stated_kinds
from .text import first_body_sentence, sentence_around

__all__ = ["VERSION", "HeadingAnalysis", "RulesExtractor", "analyse_headings", "book_mentions", "heading_definitions"]

VERSION = "rules/34"  # bump when the rules change, so `rebuild` re-extracts unchanged books


def heading_definitions(parents: list[ParentChunk], pack: DomainPack, book: str) -> dict[str, list[HeadingName]]:
    """parent id -> the names its heading defines, for the sections of one book that define."""
    return analyse_headings(parents, pack, book).definitions


def _run_kinds(parents: list[ParentChunk], analysis: HeadingAnalysis, through, marked) -> dict[str, str]:
    """parent id -> the kind of the field run its section is in (heading_rules.field_run_entry):
    the one kind the headings above its entries name ("Sample Creatures" over the first)."""
    path_of = {parent.id: parent.heading_path for parent in parents}
    out: dict[str, str] = {}
    for run in analysis.field_runs:
        kinds = {path_kind(path_of[pid], through, marked.__getitem__) for pid in run} - {None}
        if len(kinds) == 1:
            out |= dict.fromkeys(run, next(iter(kinds)))
    return out


def _heading_type(pack: DomainPack, parent: ParentChunk, named: HeadingName, owned: bool, through, marked,
                  book: str = "", run_kind: str | None = None) -> str:
    """The type of a heading's entity: the pack's heading rule; else the kind it states of
    itself; else the kind the headings above it name, past catalogs: a section inside an entry
    is a part of it, of no kind the book states ("Classes > Warden > Wild Tongue"), unless the
    heading right above it names the entry and a kind ("Warden > Warden Features > Wild
    Tongue" is a feature)."""
    by_pack = pack.type_for(parent.heading_path)
    if by_pack != "other":
        return by_pack
    if owned:  # a part of an entry: of no kind but its own, or the one "<Entry> <Kind>" above it names
        path = parent.heading_path
        owner_kind = len(path) > 2 and any(path[-2].casefold().startswith(f"{h.casefold()} ") for h in path[:-2])
        kind = entry_kind(path, parent.text, named.qualifier, marked_under=marked.__getitem__) if owner_kind \
            else own_kind(parent.text, named.qualifier)
        return kind or run_kind or "other"  # an entry of a field run, its heading under the run's last
    kind = entry_kind(parent.heading_path, parent.text, named.qualifier, through, marked.__getitem__) or run_kind
    if kind is None and len(parent.heading_path) == 1:
        kind = heading_kind(book)  # a chapter of a book titled by its kind ("Classes" > "Barbarian")
    return kind or "other"


def _term_type(pack: DomainPack, parent: ParentChunk, owned: bool, term: TermSpan, marked: bool) -> str:
    """The type of a term defined inside a section: the pack's rule; else a part of an entry
    that states its kind (a stat block's "***Bite.***", a spell's or an item's options) is a
    feature; else the kind the section's own heading names ("Conditions" over "**Blinded.**"
    leads)."""
    by_pack = pack.type_for((*parent.heading_path, ""))
    if by_pack != "other":
        return by_pack
    if owned and term.source == "glossary" and marked:
        return "feature"
    if term.source == "list":  # a list's items are of the kind its heading names
        return listing_kind(term.column or "") or "other"
    if term.column:  # a table's rows are of the kind its first column's header names, or of none;
        # a column of names takes the kind the section's heading names ("Simple Melee Weapons": Club)
        named = term.column.strip(" *_").casefold() in genre_words("rulebook", "name_columns")
        return listing_kind(term.column) or (heading_kind(parent.heading or "") if named else None) or "other"
    return leads_kind(clean_text(parent.heading or "")) or labelled_kind(parent.text, term.start) \
        or offered_kind(parent.text, term.start) or "other"


def book_mentions(parents: list[ParentChunk], pack: DomainPack, book: str,
                  vetoes: list[Veto] | None = None) -> list[list[RawMention]]:
    """The definitions of every parent of one book, in order (pure): the heading stage's
    (index/extract/heading_rules.py), then the entry stage's (index/extract/entry_rules.py),
    each naming the rule that made it; the candidates a veto dropped are added to ``vetoes``
    (when given)."""
    analysis = analyse_headings(parents, pack, book)
    listed = {**stated_kinds(parents), **listed_kinds(parents)}  # a list of the book wins over a phrase
    by_heading = analysis.definitions
    entries = entry_view(parents, pack, analysis)
    defined_paths = {parent.heading_path for parent in parents if by_heading.get(parent.id)}
    marked: defaultdict[tuple[str, ...], set[str]] = defaultdict(set)  # heading path -> kinds stated under it
    for parent in parents:
        if kind := own_kind(parent.text, None):
            for depth in range(1, len(parent.heading_path)):
                marked[parent.heading_path[:depth]].add(kind)

    def through(heading: str) -> bool:  # a category over a catalog passes its parent's kind on
        named = heading_name(heading)
        return named is not None and named.name in analysis.catalogs
    run_kinds = _run_kinds(parents, analysis, through, marked)
    out: list[list[RawMention]] = []
    for parent in parents:
        mentions: list[RawMention] = []
        in_entry = any(parent.heading_path[:depth] in defined_paths for depth in range(1, len(parent.heading_path)))
        for named in by_heading.get(parent.id, []):
            context = first_body_sentence(parent.text) or parent.text.splitlines()[0]
            mentions.append(RawMention(
                name=named.name, entity_type=_heading_type(pack, parent, named, in_entry, through, marked, book,
                                                           run_kinds.get(parent.id)),
                mention_type="defines", context=context, source="heading", aliases=named.aliases,
                rule=analysis.rules[parent.id],
            ))
        if vetoes is not None and parent.id in analysis.vetoed:
            vetoes.append(Veto(parent.id, "headings", analysis.vetoed_names[parent.id], analysis.vetoed[parent.id]))
        # a creature's, a spell's, an item's section
        states_kind = stat_block_kind(parent.text) is not None or own_kind(parent.text, None) is not None
        vetoed: list[tuple[str, str]] | None = [] if vetoes is not None else None
        for found in section_terms(entries, parent, vetoed):
            term = found.term
            mentions.append(RawMention(
                name=found.name, entity_type=_term_type(pack, parent, bool(entries.owner_of.get(parent.id)),
                                                        term, states_kind),
                mention_type="defines", context=sentence_around(parent.text, term.start, term.end),
                # a list item's lead is stored as a lead is (the sources the index knows)
                source="glossary" if term.source == "list" else term.source, aliases=found.aliases, rule=found.rule,
            ))
        out.append(as_group([as_listed(m, listed) for m in mentions]))
        if vetoes is not None:
            vetoes.extend(Veto(parent.id, "entries", name, rule) for name, rule in vetoed)
    return with_slash_parts(with_abbreviations(out, parents, entries.terms), parents)


def as_group(mentions: list[RawMention]) -> list[RawMention]:
    """A section's mentions, its heading of no kind where the section's own list defines two or
    more members of the kind the heading was given ("Debilities > Banes" over "- Maimed ...",
    "- Corrupted ..."): the heading names a group of them, no member. Leads do not count: an
    entry's leads are its own options ("Armor" over "**Padded.**", "**Leather.**")."""
    members = Counter(m.entity_type for m in mentions if m.rule == named_list_item.__name__)
    return [replace(m, entity_type="other") if m.source == "heading" and m.entity_type != "other"
            and members[m.entity_type] >= 2 else m for m in mentions]


def with_abbreviations(out: list[list[RawMention]], parents: list[ParentChunk], terms) -> list[list[RawMention]]:
    """A table's abbreviation rows ("| TL | Threat Level |") define nothing (entry_rules.
    abbreviation_row): each is an alias of the book's definition of what it abbreviates."""
    aliases: defaultdict[str, list[str]] = defaultdict(list)
    for parent in parents:
        for term in terms[parent.id]:
            if (full := abbreviated(parent.text, term)) is not None:
                aliases[normalize_name(full)].append(parent.text[term.start:term.end].strip())
    if not aliases:
        return out
    return [[replace(m, aliases=tuple(dict.fromkeys((*m.aliases, *aliases[key]))))
             if (key := normalize_name(m.name)) in aliases else m for m in mentions] for mentions in out]


def with_slash_parts(out: list[list[RawMention]], parents: list[ParentChunk]) -> list[list[RawMention]]:
    """A name written with a slash ("Frostbite/Chilblains") is one name: each of its parts stays
    an alias of it only where the book writes that part alone, in another section and not as
    the first word of a sentence (where any word is capitalized); takes and returns the
    mentions per parent."""
    out = [list(mentions) for mentions in out]
    for i, mentions in enumerate(out):
        for j, mention in enumerate(mentions):
            parts = slash_parts(mention.name)
            if parts is None:
                continue
            elsewhere = [p.text for p in parents if p.heading_path != parents[i].heading_path]
            alone = {part for part in parts if any(_written_alone(part, text) for text in elsewhere)}
            mentions[j] = replace(mention, aliases=tuple(a for a in mention.aliases if a not in parts or a in alone))
    return out


def _written_alone(part: str, text: str) -> bool:
    """Whether ``text`` writes ``part`` as a name of its own: as written, whole words, no slash
    on either side, no capitalized word after it ("Stone" in "Stone Golem" is a word of
    another name), not opening a sentence, a line or a list item."""
    for found in re.finditer(rf"(?<![\w/]){re.escape(part)}(?![\w/]| [A-Z])", text):
        before = text[:found.start()].rstrip(" *_\"“‘'[(")
        if before and before[-1] not in ".!?:\n#-":
            return True
    return False


def as_listed(mention: RawMention, listed: dict[str, str]) -> RawMention:
    """A definition of no stated kind takes the kind the book's own lists give its name
    (listed_kinds.py: "Athletics" listed under "Skills" is a skill)."""
    kind = listed.get(normalize_name(mention.name))
    if mention.entity_type != "other" or kind not in thing_kinds():
        return mention
    return replace(mention, entity_type=kind)


class RulesExtractor:
    name = "rules"
    model = None
    version = VERSION

    def __init__(self, pack: DomainPack):
        self.pack = pack

    def extract(
        self,
        book: str,
        parents: list[ParentChunk],
        known: dict[str, list[KnownEntity]] | None = None,
        progress: ProgressFn = no_progress,
    ) -> ExtractionRun:
        warnings: list[str] = []
        vetoes: list[Veto] = []

        def attempt(kept: list[ParentChunk]) -> list[list[RawMention]]:
            vetoes.clear()  # of the last attempt: the one whose mentions are kept
            return book_mentions(kept, self.pack, book, vetoes)

        # a rule that raises on a section costs that section's definitions, not the book
        mentions, failed = without_failures(parents, attempt, book,
                                            lambda parent: section_label(parent.heading_path, parent.id), warnings)
        failed_ids = {parent.id for parent in failed}
        found_in = dict(zip((p.id for p in parents if p.id not in failed_ids), mentions, strict=True))
        chunks = []
        for i, parent in enumerate(parents):
            chunks.append(ChunkExtraction(parent.id, found_in.get(parent.id, [])))
            progress("extract", i + 1, len(parents))
        return ExtractionRun(chunks, warnings=warnings, vetoes=vetoes)
