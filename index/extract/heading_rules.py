"""The heading stage's rules: which headings of one book define the name they give.

Three ordered registries over one book's heading tree (index/extract/heading_tree.py), each
rule a small named function ``(view, node) -> bool`` (index/extract/contract.py):

- ``PLACE_SCREENS``, then ``CONCEPTS``, then ``SCREENS``, in turn over every heading: the
  vetoes that drop it with their reason (under a label, in a legal section, no name; then the
  book's title, the stop list, a label...), except a heading of ``concept_form`` ("Defining
  Aspects", "What Are Consequences?"), which defines what it names (the stage gives the
  heading its concept's name); a heading no screen stops is weighed as a name or as prose
  (headings.topical_strength);
- ``REINSTATED``: a prose-like heading among a catalog of names is an entry when the book
  uses the name elsewhere or the entry states its kind ("Create an Advantage" among
  "Overcome", "Attack");
- ``DECISION_VETOES`` then ``DEFINING``, over each heading still a candidate: a category over
  a catalog or a chapter defines nothing (its entries, its sections do); else the first
  defining rule that agrees names the definition.

Rules only read: what the book's headings are (the labels, a heading's concept) is in the view
before any rule runs (``heading_view``), with every rule on, and what the stage learns from a
rule (a concept's name, a catalog's entries) it records from the rule's answer. Switching one
rule off (the ablation of ``make eval``) changes that rule's answers alone.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from ..core.models import ParentChunk
from ..core.normalize import normalize_name, normalized_tokens, singular
from ..core.packs import DomainPack
from .contract import first_rule, is_on
from .entry_kinds import heading_kind, own_kind, shaped_kinds
from .heading_tree import (
    Node,
    catalog_min,
    defines_first,
    field_runs,
    heading_tree,
    in_legal_section,
    kinds_of,
    label_kind,
    names_host_noun,
    used_elsewhere,
)
from .heading_tree import marked_entry as marked_alone
from .headings import (
    HeadingName,
    clean_text,
    conjoined_names,
    heading_name,
    is_generic_label,
    is_topical,
    topical_strength,
)

_DEFINES_CONCEPT = re.compile(
    r"^(?:defining|what\s+(?:is|are)(?:\s+an?|\s+the)?|about)\s+(?P<name>.+?)\??$", re.IGNORECASE
)
_LEAD_IN = re.compile(r":[\s*_#]*$")  # a heading that ends with a colon
_STEP = re.compile(r"(?:step|phase|stage)\b", re.IGNORECASE)


@dataclass
class HeadingAnalysis:
    """What one book's heading tree says: the names each section defines and the rule that
    defined them, its catalogs (category heading -> entry names, the material of ``crossbook
    pack suggest``), its prose headings and the veto that stopped each heading."""

    definitions: dict[str, list[HeadingName]] = field(default_factory=dict)
    catalogs: dict[str, list[str]] = field(default_factory=dict)
    topical: list[str] = field(default_factory=list)
    labels: set[str] = field(default_factory=set)  # parent ids of label sections ("Spells Known")
    rules: dict[str, str] = field(default_factory=dict)   # parent id -> the rule that defined its names
    vetoed: dict[str, str] = field(default_factory=dict)  # parent id -> the veto that dropped its heading
    vetoed_names: dict[str, str] = field(default_factory=dict)  # parent id -> the name its heading gave
    # runs of sections that open with the same field line (heading_tree.field_runs), parent ids
    field_runs: list[list[str]] = field(default_factory=list)


@dataclass
class HeadingView:
    """One book's heading tree and what the rules learn of it as they run."""

    nodes: list[Node]
    pack: DomainPack
    title_key: str
    book_tokens: str
    analysis: HeadingAnalysis = field(default_factory=HeadingAnalysis)
    repeats: dict[str, list[Node]] = field(default_factory=lambda: defaultdict(list))
    groups: dict[int, list[Node]] = field(default_factory=lambda: defaultdict(list))
    strength: dict[int, int] = field(default_factory=dict)
    labels: set[int] = field(default_factory=set)     # labels, and headings under one (heading_view)
    concept_names: dict[int, HeadingName] = field(default_factory=dict)  # a heading's concept (concept_form)
    concepts: set[int] = field(default_factory=set)   # the headings the stage gave their concept
    own_tokens: dict[str, str] = field(default_factory=dict)
    in_run: set[int] = field(default_factory=set)     # headings of a field run (heading_tree.field_runs)
    text: str = ""                                    # the book's text, as written

    def used_elsewhere(self, node: Node) -> bool:
        if node.parent.id not in self.own_tokens:
            self.own_tokens[node.parent.id] = normalized_tokens(node.parent.text)
        return used_elsewhere(node, self.book_tokens, self.own_tokens[node.parent.id])


# -- the screens: every heading, in turn ------------------------------------------------------

def under_label(view: HeadingView, node: Node) -> bool:
    """Under a label ("Blessings > Athletics"): a detail of the entry, a label itself."""
    return node.up is not None and id(node.up) in view.labels


def legal_section(view: HeadingView, node: Node) -> bool:
    return in_legal_section(node.parent)


def no_name(view: HeadingView, node: Node) -> bool:
    """No name to give, or a number in it ("Level 3 Spells", "2d6")."""
    return node.named is None or not node.key or any(ch.isdigit() for ch in node.named.name)


def concept_form(view: HeadingView, node: Node) -> bool:
    """"Defining Aspects", "What Are Consequences?": the heading defines what it names."""
    return id(node) in view.concept_names


def _concept_name(node: Node) -> HeadingName | None:
    """The concept a heading of the form "Defining X" or "What Are X?" names, or None."""
    concept = _DEFINES_CONCEPT.match(clean_text(node.parent.heading or ""))
    inner = heading_name(concept.group("name")) if concept else None
    return None if inner is None or is_topical(inner.name) else inner


def book_title(view: HeadingView, node: Node) -> bool:
    return node.key == view.title_key


def stop_heading(view: HeadingView, node: Node) -> bool:
    """The pack's stop list ("Introduction", "Contents", "Options")."""
    return view.pack.is_stop(node.parent.heading or "") or view.pack.is_stop(node.named.name)


def generic_label(view: HeadingView, node: Node) -> bool:
    """"Adjustments", "Other Details": a label the rulebook pack lists, naming nothing."""
    return is_generic_label(node.named.name)


def index_letter(view: HeadingView, node: Node) -> bool:
    """An index's letter heading ("A", "B")."""
    return len(node.named.name) <= 2


def lead_in(view: HeadingView, node: Node) -> bool:
    """"Expertise:", "Using skills:": a field to fill or a lead-in, not a name."""
    return bool(_LEAD_IN.search(node.parent.heading or ""))


def procedure_step(view: HeadingView, node: Node) -> bool:
    """"Step 1: Begin the Brainstorm": a step of a procedure, not a thing."""
    return bool(node.named.qualifier and _STEP.match(node.named.qualifier))


def label_heading(view: HeadingView, node: Node) -> bool:
    """A heading repeated under sibling entries, or one adding a plural to its parent's name."""
    return label_kind(node, view.repeats) is not None


PLACE_SCREENS = (under_label, legal_section, no_name)
CONCEPTS = (concept_form,)
SCREENS = (book_title, stop_heading, generic_label, index_letter, lead_in, procedure_step, label_heading)


# -- reinstated: prose-like headings among a catalog of names ---------------------------------

def named_elsewhere(view: HeadingView, node: Node) -> bool:
    """The book uses the heading's name outside its section."""
    return view.used_elsewhere(node)


def states_own_kind(view: HeadingView, node: Node) -> bool:
    """"Still the Foe" among spells: an entry that states its own kind (a category line)."""
    return bool(own_kind(node.parent.text, node.named.qualifier if node.named else None))


REINSTATED = (named_elsewhere, states_own_kind)


def shaped_entry(view: HeadingView, node: Node) -> bool:
    """"Burning Hands", "Dancing Lights" over a spell's category line, among spells: an entry
    that states its kind is a name, though its words read as a phrase."""
    return "?" not in (node.parent.heading or "") and states_own_kind(view, node)


SHAPED = (shaped_entry,)


# -- the decision: each candidate heading -----------------------------------------------------

def labelled_entry(view: HeadingView, node: Node) -> bool:
    """One of a catalog of sibling headings that each hold the same label ("Barbarian >
    Class Features", "Bard > Class Features", ...): each is an entry, its sections its parts,
    though it is a chapter or holds a catalog of its own."""
    labels = {child.key for child in node.children if id(child) in view.labels}
    if not labels:
        return False
    siblings = [s for s in view.groups[id(node.up)] if s.candidate
                and labels & {child.key for child in s.children if id(child) in view.labels}]
    return len(siblings) >= catalog_min(node.up)


def kind_member(view: HeadingView, node: Node) -> bool:
    """A direct child of a heading named by a plural kind ("Classes > Wyrmcaller", "Skills >
    Athletics"): a member of that kind (its type is the heading's, entry_kinds.path_kind),
    though it holds sections of its own; of a kind whose entries show it, only one that does. A child that names a kind itself ("Spells > Spell
    Lists"), or the heading's own noun ("Stunts > New Stunt Rubrics"), is a part of the chapter, no member."""
    if node.up is None or heading_kind(node.parent.heading or "") is not None:
        return False
    words = clean_text(node.up.parent.heading or "").casefold().split()
    kind = heading_kind(" ".join(words)) if words and singular(words[-1]) != words[-1] else None
    if kind is None:
        return False
    if names_host_noun(node):
        return False
    # a kind whose entries show it (a stat block, a category line): a section that does not is
    # a topic about them ("Monsters > Hit Points")
    return kind not in shaped_kinds() or own_kind(node.parent.text, node.named.qualifier if node.named else None) == kind


def field_run_entry(view: HeadingView, node: Node) -> bool:
    """One of a run of sections that each open with the same field line ("**Summoning
    Difficulty:** Good (+2)"): an entry of one catalog, though its heading's level puts the
    next entries under it ("Lightning Worms" over "Freet")."""
    return id(node) in view.in_run


def _member(view: HeadingView, node: Node) -> bool:
    """One of the headings a rule of the decision keeps whole: a labelled entry, a kind's
    member, an entry of a field run."""
    return any(is_on(rule) and rule(view, node) for rule in (labelled_entry, kind_member, field_run_entry))


def category_heading(view: HeadingView, node: Node) -> bool:
    """A category over a catalog (three or more entries, few prose headings, not kinds of its
    concept): its entries define themselves (the stage records the catalog)."""
    if id(node) in view.concepts or _member(view, node):
        return False
    entries = [c for c in node.children if c.candidate]
    prose = [c for c in node.children if view.strength.get(id(c), 0) > 0]
    is_category = len(entries) >= catalog_min(node) and len(prose) * 4 <= len(node.children) \
        and not kinds_of(node, entries)
    return is_category or view.pack.is_category(node.parent.heading or "")


def chapter_heading(view: HeadingView, node: Node) -> bool:
    """A chapter (a heading under the book's title with sections): its sections define."""
    chapter = node.up is None or node.up.key == view.title_key
    return chapter and bool(node.children) and id(node) not in view.concepts and not _member(view, node)


DECISION_VETOES = (category_heading, chapter_heading)


def concept_heading(view: HeadingView, node: Node) -> bool:
    return id(node) in view.concepts


def catalog_entry(view: HeadingView, node: Node) -> bool:
    """An entry of a catalog: among enough sibling entries."""
    siblings = [s for s in view.groups[id(node.up)] if s.candidate]
    return len(siblings) >= catalog_min(node.up)


def defining_sentence(view: HeadingView, node: Node) -> bool:
    """The section's first sentence defines the name ("X is ...", "X are ...")."""
    return defines_first(node)


def marked_entry(view: HeadingView, node: Node) -> bool:
    """An entry the book marks as one even alone (heading_tree.marked_entry)."""
    return marked_alone(node, view.title_key)


DEFINING = (concept_heading, labelled_entry, catalog_entry, defining_sentence, named_elsewhere, marked_entry, kind_member,
            field_run_entry)


# -- whole names: a heading that joins words with "and" yet names one thing ----------------------

def states_one_thing(view: HeadingView, node: Node) -> bool:
    """"Detect Evil and Good" over a spell's category line: an entry that states its kind is one thing."""
    return bool(own_kind(node.parent.text, node.named.qualifier))


def parts_never_alone(view: HeadingView, node: Node) -> bool:
    """"Problems and Character Aspects": a heading that joins names the book never uses alone
    is one topic, where "Aspects and Fate Points" joins two the book heads elsewhere and
    "Motivations and Instincts" two it writes capitalised inside its sentences."""
    parts = conjoined_names(node.named.name)
    return bool(parts) and not all(_named_alone(view, part) for part in parts)


def _named_alone(view: HeadingView, part: str) -> bool:
    """A heading of the book, or a name it writes capitalised after a word of a sentence three
    times or more ("... the Instincts of ...", singular or plural)."""
    if normalize_name(part) in view.repeats:
        return True
    stem = part[:-1] if part.endswith("s") else part
    return len(re.findall(rf"[a-z,;] {re.escape(stem)}s?\b", view.text)) >= 3


WHOLE_NAMES = (states_one_thing, parts_never_alone)


# -- the stage --------------------------------------------------------------------------------

def heading_view(parents: list[ParentChunk], pack: DomainPack, book: str) -> HeadingView:
    """One book's heading tree and what it is before any rule runs: the headings that repeat,
    each heading's concept, and the labels (``_labels``)."""
    nodes = heading_tree(parents)
    text = "\n".join(p.text for p in parents)
    view = HeadingView(nodes, pack, normalize_name(book), normalized_tokens(text), text=text)
    for node in nodes:
        if node.key:
            view.repeats[node.key].append(node)
        if (concept := _concept_name(node)) is not None:
            view.concept_names[id(node)] = concept
    view.labels = _labels(view)
    runs = field_runs(nodes)
    view.in_run = {id(node) for run in runs for node in run}
    view.analysis.field_runs = [[node.parent.id for node in run] for run in runs]
    view.analysis.labels = {node.parent.id for node in nodes if id(node) in view.labels and not under_label(view, node)}
    return view


def _labels(view: HeadingView) -> set[int]:
    """The labels of the book, as the screens find them with every rule on: a heading repeated
    under sibling entries (label_heading, where no screen before it stops it), and every
    heading under a label. A fact of the book, read by the rules, whichever are switched off."""
    labels: set[int] = set()
    before = (*PLACE_SCREENS[1:], *CONCEPTS, *SCREENS[:SCREENS.index(label_heading)])
    for node in view.nodes:  # in document order: a node's parent comes first
        if node.up is not None and id(node.up) in labels:
            labels.add(id(node))
        elif not any(screen(view, node) for screen in before) and label_kind(node, view.repeats) == "repeated":
            labels.add(id(node))
    return labels


def _record_veto(analysis: HeadingAnalysis, node: Node, veto: str) -> None:
    analysis.vetoed[node.parent.id] = veto
    analysis.vetoed_names[node.parent.id] = node.named.name if node.named is not None else \
        clean_text(node.parent.heading or "")


def analyse_headings(parents: list[ParentChunk], pack: DomainPack, book: str) -> HeadingAnalysis:
    """The heading analysis of one book: the screens, the reinstated, then the decision."""
    view = heading_view(parents, pack, book)
    analysis = view.analysis
    for node in view.nodes:
        veto = first_rule(PLACE_SCREENS, view, node)
        if veto is None and first_rule(CONCEPTS, view, node) is not None:  # the heading is its concept's
            node.named = view.concept_names[id(node)]
            node.key, node.candidate = normalize_name(node.named.name), True
            view.strength[id(node)] = 0
            view.concepts.add(id(node))
            continue
        veto = veto or first_rule(SCREENS, view, node)
        if veto is not None:
            _record_veto(analysis, node, veto)
            continue
        view.strength[id(node)] = topical_strength(node.named.name)
        node.candidate = view.strength[id(node)] == 0
        if view.strength[id(node)] == 2:
            analysis.topical.append(node.named.name)
    for node in view.nodes:
        view.groups[id(node.up)].append(node)
    for siblings in view.groups.values():  # a catalog of names overrides weak prose signals
        if len([s for s in siblings if s.candidate]) >= catalog_min(siblings[0].up):
            for sibling in siblings:
                strength = view.strength.get(id(sibling))
                if strength == 1 and first_rule(REINSTATED, view, sibling) \
                        or strength == 2 and first_rule(SHAPED, view, sibling):
                    sibling.candidate = True
    for node in view.nodes:
        if not node.candidate:
            continue
        veto = first_rule(DECISION_VETOES, view, node)
        rule = None if veto else first_rule(DEFINING, view, node)
        if veto == category_heading.__name__:  # the catalog recorded (crossbook pack suggest)
            entries = [c.named.name for c in node.children if c.candidate]
            analysis.catalogs.setdefault(node.named.name, []).extend(entries)
        if veto:
            _record_veto(analysis, node, veto)
        elif rule:
            parts = [] if first_rule(WHOLE_NAMES, view, node) else conjoined_names(node.named.name)
            analysis.definitions[node.parent.id] = [HeadingName(p) for p in parts] if parts else [node.named]
            analysis.rules[node.parent.id] = rule
    return analysis
