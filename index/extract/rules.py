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
from dataclasses import dataclass, field

from ..core.models import SUB_ENTRY_SEPARATOR, ChunkExtraction, ParentChunk, RawMention
from ..core.normalize import normalize_name, normalized_tokens, normalized_words, singular
from ..core.packs import DomainPack
from .base import ExtractionRun, KnownEntity, ProgressFn, no_progress
from .entry_kinds import entry_kind, heading_kind, own_kind, stat_block_kind
from .glossary import glossary_terms, table_terms
from .headings import (
    HeadingName,
    clean_text,
    conjoined_names,
    heading_name,
    is_group_heading,
    is_topical,
    topical_strength,
)
from .text import first_body_sentence, sentence_around

VERSION = "rules/20"  # bump when the rules change, so `rebuild` re-extracts unchanged books
_DEFINES_CONCEPT = re.compile(
    r"^(?:defining|what\s+(?:is|are)(?:\s+an?|\s+the)?|about)\s+(?P<name>.+?)\??$", re.IGNORECASE
)
_CATALOG_MIN = 3
_LEAD_IN = re.compile(r":[\s*_#]*$")  # a heading that ends with a colon
_STEP = re.compile(r"(?:step|phase|stage)\b", re.IGNORECASE)
_SCOPED_MIN = 2  # different entries a lead is defined under to be scoped to each
_LEGAL = re.compile(r"\b(?:licen[sc](?:e|es|ing)|legal|copyright|credits|acknowledge?ments|attribution)\b", re.IGNORECASE)
# a bibliography: its entries' titles and authors are no entities of the book
_BIBLIOGRAPHY = re.compile(r"^\W*(?:\d+\W*)?(?:references|bibliography|works cited|literature)\W*$", re.IGNORECASE)


def _in_legal_section(parent: ParentChunk) -> bool:
    """A licence or credits section (or one under it) names no game entity; nor does a
    bibliography ("References", "Bibliography")."""
    return any(_LEGAL.search(heading) or _BIBLIOGRAPHY.match(heading) for heading in parent.heading_path)


@dataclass
class _Node:
    parent: ParentChunk
    named: HeadingName | None
    key: str                       # normalized name ('' when no name)
    children: list["_Node"] = field(default_factory=list)
    up: "_Node | None" = None
    candidate: bool = False        # not prose, not a label, not the title, not stop-listed


def _tree(parents: list[ParentChunk]) -> list[_Node]:
    nodes: list[_Node] = []
    stack: list[_Node] = []
    for parent in parents:
        if not parent.heading or parent.part > 0:
            continue
        named = heading_name(parent.heading)
        node = _Node(parent, named, normalize_name(named.name) if named else "")
        depth = len(parent.heading_path)
        while stack and len(stack[-1].parent.heading_path) >= depth:
            stack.pop()
        if stack:
            node.up = stack[-1]
            stack[-1].children.append(node)
        stack.append(node)
        nodes.append(node)
    return nodes


def _catalog_min(parent: _Node) -> int:
    """Entries needed under ``parent`` to make a catalog: 3, or 2 under a plural name ("Rituals")."""
    if parent.named is not None and parent.key and (not is_topical(parent.named.name)
                                                    or is_group_heading(parent.named.name)):
        last = normalized_words(parent.named.name).rsplit("_", 1)[-1]
        if singular(last) != last:
            return 2
    return _CATALOG_MIN


def _label_kind(node: _Node, repeats: dict[str, list[_Node]]) -> str | None:
    """"repeated" for a heading repeated under sibling entries ("Enhancements" under every
    power), "prefixed" for one that adds a plural to its parent's name ("Athletics Stunts"
    under "Athletics": the parent's things), else None. An added singular names a kind of the
    parent, an entry of its own ("Centaur Lancer" under "Centaur", "Bone Imp Archer")."""
    if node.up is not None and node.up.key and node.key.startswith(node.up.key + "_") \
            and "_" not in node.key[len(node.up.key) + 1:]:
        added = node.named.name.split()[-1].lower() if node.named else ""
        if normalize_name(added) != added:
            return "prefixed"
    same = repeats.get(node.key, [])
    if len(same) < 2:
        return None
    grandparents = defaultdict(set)
    for other in same:
        if other.up is not None:
            grandparents[id(other.up.up)].add(id(other.up))
    return "repeated" if any(len(ups) >= 2 for ups in grandparents.values()) else None


def _defines_first(node: _Node) -> bool:
    sentence = first_body_sentence(node.parent.text)
    if not sentence or node.named is None:
        return False
    words = normalized_words(sentence).split("_")
    name = normalized_words(node.named.name).split("_")
    head = words[: len(name) + 3]
    joined = "_".join(head)
    return ("_".join(name) in joined or head[:1] in (["it"], ["this"], ["these"], ["they"])) and any(
        w in ("is", "are", "means", "represents", "lets", "allows", "gives") for w in words[: len(name) + 4]
    )


def _used_elsewhere(node: _Node, book_tokens: str, own_tokens: str) -> bool:
    words = normalized_words(node.named.name)
    if not words:
        return False
    forms = {f"_{words}_", f"_{normalize_name(node.named.name)}_"}  # as written, and singular
    return sum(book_tokens.count(f) - own_tokens.count(f) for f in forms) >= 1


def _kinds_of(node: _Node, entries: list[_Node]) -> bool:
    """True when the entries are kinds of the node's concept ("Minor Milestones" under "Milestones")."""
    head = node.key.rsplit("_", 1)[-1]
    kinds = [e for e in entries if e.key.endswith("_" + head)]
    return bool(head) and len(kinds) * 2 >= len(entries)


@dataclass
class HeadingAnalysis:
    """What one book's heading tree says: the names each section defines, its catalogs
    (category heading -> entry names, the material of ``crossbook pack suggest``) and its
    prose headings."""

    definitions: dict[str, list[HeadingName]] = field(default_factory=dict)
    catalogs: dict[str, list[str]] = field(default_factory=dict)
    topical: list[str] = field(default_factory=list)
    labels: set[str] = field(default_factory=set)  # parent ids of label sections ("Spells Known")


def heading_definitions(parents: list[ParentChunk], pack: DomainPack, book: str) -> dict[str, list[HeadingName]]:
    """parent id -> the names its heading defines, for the sections of one book that define."""
    return analyse_headings(parents, pack, book).definitions


def analyse_headings(parents: list[ParentChunk], pack: DomainPack, book: str) -> HeadingAnalysis:
    """The heading analysis of one book (see the module docstring for the rules)."""
    analysis = HeadingAnalysis()
    nodes = _tree(parents)
    title_key = normalize_name(book)
    repeats: dict[str, list[_Node]] = defaultdict(list)
    for node in nodes:
        if node.key:
            repeats[node.key].append(node)
    strength: dict[int, int] = {}
    labels: set[int] = set()
    concepts: set[int] = set()
    book_tokens = normalized_tokens("\n".join(p.text for p in parents))
    own_tokens: dict[str, str] = {}

    def used_elsewhere(node: _Node) -> bool:
        if node.parent.id not in own_tokens:
            own_tokens[node.parent.id] = normalized_tokens(node.parent.text)
        return _used_elsewhere(node, book_tokens, own_tokens[node.parent.id])

    for node in nodes:
        named = node.named
        heading = node.parent.heading or ""
        if node.up is not None and id(node.up) in labels:
            labels.add(id(node))  # under a label ("Blessings > Athletics"): a detail of the entry
            continue
        if _in_legal_section(node.parent):
            continue
        if named is None or not node.key or any(ch.isdigit() for ch in named.name):
            continue
        concept = _DEFINES_CONCEPT.match(clean_text(heading))
        if concept:
            inner = heading_name(concept.group("name"))
            if inner and not is_topical(inner.name):
                node.named, node.key = inner, normalize_name(inner.name)
                node.candidate = True
                strength[id(node)] = 0
                concepts.add(id(node))
                continue
        if node.key == title_key or pack.is_stop(heading) or pack.is_stop(named.name) or len(named.name) <= 2:
            continue  # a title, a label, or an index's letter heading ("A", "B")
        if _LEAD_IN.search(heading):
            continue  # "Expertise:", "Using skills:": a field to fill or a lead-in, not a name
        if named.qualifier and _STEP.match(named.qualifier):
            continue  # "Step 1: Begin the Brainstorm": a step of a procedure, not a thing
        label = _label_kind(node, repeats)
        if label == "repeated":
            labels.add(id(node))
            analysis.labels.add(node.parent.id)
        if label:
            continue
        strength[id(node)] = topical_strength(named.name)
        node.candidate = strength[id(node)] == 0
        if strength[id(node)] == 2:
            analysis.topical.append(named.name)
    # a catalog of names overrides weak prose signals of its other entries
    groups: dict[int, list[_Node]] = defaultdict(list)
    for node in nodes:
        groups[id(node.up)].append(node)
    for siblings in groups.values():
        names = [s for s in siblings if s.candidate]
        up = siblings[0].up
        if names and len(names) >= (_catalog_min(up) if up else _CATALOG_MIN):
            for sibling in siblings:
                # "Create an Advantage" among "Overcome", "Attack": a name the book uses elsewhere;
                # "Still the Foe" among spells: an entry that states its own kind (a category line)
                if strength.get(id(sibling)) == 1 and (used_elsewhere(sibling) or own_kind(
                        sibling.parent.text, sibling.named.qualifier if sibling.named else None)):
                    sibling.candidate = True
    chosen = analysis.definitions
    for node in nodes:
        if not node.candidate:
            continue
        heading = node.parent.heading or ""
        is_concept = id(node) in concepts
        entries = [c for c in node.children if c.candidate]
        prose = [c for c in node.children if strength.get(id(c), 0) > 0]
        is_category = len(entries) >= _catalog_min(node) and len(prose) * 4 <= len(node.children) \
            and not _kinds_of(node, entries)
        if not is_concept and (is_category or pack.is_category(heading)):
            analysis.catalogs.setdefault(node.named.name, []).extend(e.named.name for e in entries)
            continue  # a category over a catalog: its entries define themselves
        chapter = node.up is None or node.up.key == title_key
        if chapter and node.children and not is_concept:
            continue  # a chapter: its sections define
        siblings = [s for s in groups[id(node.up)] if s.candidate]
        in_catalog = len(siblings) >= (_catalog_min(node.up) if node.up else _CATALOG_MIN)
        if is_concept or in_catalog or _defines_first(node) or used_elsewhere(node) or _marked_entry(node, title_key):
            parts = conjoined_names(node.named.name)
            chosen[node.parent.id] = [HeadingName(p) for p in parts] if parts else [node.named]
    return analysis


def _marked_entry(node: _Node, title_key: str) -> bool:
    """An entry the book marks as one even alone: it states its own kind (a bracket, a category
    line, a stat block), or it is a leaf under a heading that names its entries' kind
    ("Monsters A–Z" > "Gloom Hydra"; index/extract/entry_kinds.py)."""
    if own_kind(node.parent.text, node.named.qualifier if node.named else None):
        return True
    # (a plural, "Equipment Sample Stunts" under "Equipment", is a topic, as elsewhere)
    return not node.children and node.up is not None and node.up.key != title_key \
        and normalize_name(node.named.name) == normalized_words(node.named.name) \
        and heading_kind(node.up.parent.heading or "") is not None


def _heading_type(pack: DomainPack, parent: ParentChunk, named: HeadingName, owned: bool, through, marked) -> str:
    """The type of a heading's entity: the pack's heading rule; else the kind it states of
    itself; else, outside another entry, the kind the headings above it name (a section
    inside an entry is a part of it, of no kind the book states: "Classes > Warden > Wild
    Tongue")."""
    by_pack = pack.type_for(parent.heading_path)
    if by_pack != "other":
        return by_pack
    if owned:
        return own_kind(parent.text, named.qualifier) or "other"
    return entry_kind(parent.heading_path, parent.text, named.qualifier, through, marked.__getitem__) or "other"


def _term_type(pack: DomainPack, parent: ParentChunk, owned: bool, source: str, marked: bool) -> str:
    """The type of a term defined inside a section: the pack's rule; else a part of an entry
    that states its kind (a stat block's "***Bite.***", a spell's or an item's options) is a
    feature; else the kind the section's own heading names ("Conditions" over "**Blinded.**"
    leads)."""
    by_pack = pack.type_for((*parent.heading_path, ""))
    if by_pack != "other":
        return by_pack
    if owned and source == "glossary" and marked:
        return "feature"
    return heading_kind(parent.heading or "") or "other"


def book_mentions(parents: list[ParentChunk], pack: DomainPack, book: str) -> list[list[RawMention]]:
    """The definitions of every parent of one book, in order (pure)."""
    analysis = analyse_headings(parents, pack, book)
    by_heading = analysis.definitions
    terms = {parent.id: [*glossary_terms(parent.text), *table_terms(parent.text)] for parent in parents}
    # a bold lead repeated across sections is a label ("**Overcome:**" in every skill), not a definition
    spread = Counter(key for found in terms.values() for key in {normalize_name(t.name) for t in found})
    heading_keys = {normalize_name(named.name) for names in by_heading.values() for named in names}
    # one-word names the book defines: the heads a sentence-case entry may be a kind of
    single_keys = {k for k in (*heading_keys, *spread) if "_" not in k}
    owner_of = _owners(parents, by_heading)
    # a lead defined under two or more different entries ("Recuperate" under Make Camp and
    # under Sojourn): each entry's own sub-entry, scoped to it, not one shelf-wide entity
    term_owners: dict[str, set[str]] = defaultdict(set)
    for parent in parents:
        for term in terms[parent.id]:
            term_owners[normalize_name(term.name)].add(owner_of.get(parent.id) or "")
    defined_paths = {parent.heading_path for parent in parents if by_heading.get(parent.id)}

    marked: defaultdict[tuple[str, ...], set[str]] = defaultdict(set)  # heading path -> kinds stated under it
    for parent in parents:
        if kind := own_kind(parent.text, None):
            for depth in range(1, len(parent.heading_path)):
                marked[parent.heading_path[:depth]].add(kind)

    def through(heading: str) -> bool:  # a category over a catalog passes its parent's kind on
        named = heading_name(heading)
        return named is not None and named.name in analysis.catalogs
    out: list[list[RawMention]] = []
    for parent in parents:
        mentions: list[RawMention] = []
        in_entry = any(parent.heading_path[:depth] in defined_paths for depth in range(1, len(parent.heading_path)))
        for named in by_heading.get(parent.id, []):
            context = first_body_sentence(parent.text) or parent.text.splitlines()[0]
            mentions.append(RawMention(
                name=named.name, entity_type=_heading_type(pack, parent, named, in_entry, through, marked), mention_type="defines",
                context=context, source="heading", aliases=named.aliases,
            ))
        stat_block = stat_block_kind(parent.text) is not None
        states_kind = stat_block or own_kind(parent.text, None) is not None  # a creature's, a spell's, an item's section
        for term in ([] if _in_legal_section(parent) else terms[parent.id]):
            key = normalize_name(term.name)
            if stat_block and not (term.source == "glossary" and _ACTION_LEAD.match(parent.text, term.end)):
                continue  # a stat block's lines ("**Armor Class:** 15", "| STR |", "**Actions**") are its fields
            owner = owner_of.get(parent.id)
            shared = len(term_owners[key]) >= _SCOPED_MIN and "" not in term_owners[key]
            # a creature's "**Bite.** The drake bites ..." in many creatures: each its owner's
            # (a stat block's "**Wounds** 12", "**Overcome:**" in every skill stay labels)
            sub_entry = owner and shared and term.source == "glossary" and _ACTION_LEAD.match(parent.text, term.end)
            if key in heading_keys or (spread[key] >= _CATALOG_MIN and not sub_entry):
                continue  # the book's heading defines it; or a label repeated across sections
            if term.source != "table" and pack.is_stop(term.name):
                continue  # "**Contents**", "**Index**" in a table of contents: a label, as a heading is
            if term.source != "table" and not _kind_of_a_term(term.name, single_keys):
                continue  # "Delay success", "Epic quest": a list item's phrase, not a name
            name, aliases = term.name, term.aliases
            # a table in a label section of an entry (a class's "Spells Known") lists that
            # entry's things, which a catalog elsewhere on the shelf may define: not a catalog
            in_entry_list = term.source == "table" and parent.id in analysis.labels
            if term.source == "table" and (in_entry_list or shared):
                continue  # an entry's list of things ("Spells Known"): its rows are references
            if owner and shared:
                name, aliases = f"{owner}{SUB_ENTRY_SEPARATOR}{term.name}", ()
            mentions.append(RawMention(
                name=name, entity_type=_term_type(pack, parent, bool(owner), term.source, states_kind), mention_type="defines",
                context=sentence_around(parent.text, term.start, term.end), source=term.source,
                aliases=aliases,
            ))
        out.append(mentions)
    return out


# the period that closes an action's lead and its sentence: "**Bite.** The drake bites",
# "***Claw.*** *Melee Attack:*" (a stat line's "**Speed.** 30 ft." or "**Senses.** darkvision" is none)
_ACTION_LEAD = re.compile(r"(?:[*_]*\.[*_]*|</(?:strong|b|em|i)>\.|\.</(?:strong|b|em|i)>)[ \t]+(?:[*_]+|<(?:em|i)>)?[A-Z]")


def _owners(parents: list[ParentChunk], by_heading: dict[str, list[HeadingName]]) -> dict[str, str]:
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


def _kind_of_a_term(name: str, single_keys: set[str]) -> bool:
    """False for a sentence-case phrase ("Low difficulties", "Formidable journey") unless its
    last word is a one-word name of the book ("Zone aspects" where the book defines Aspects):
    list items written as phrases are a list's rows, named kinds of a term are entries."""
    words = name.split()
    if len(words) < 2 or not any(w[:1].islower() and len(w) > 3 for w in words[1:]):
        return True
    return normalize_name(words[-1]) in single_keys


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
        mentions = book_mentions(parents, self.pack, book)
        chunks = []
        for i, (parent, found) in enumerate(zip(parents, mentions, strict=True)):
            chunks.append(ChunkExtraction(parent.id, found))
            progress("extract", i + 1, len(parents))
        return ExtractionRun(chunks)
