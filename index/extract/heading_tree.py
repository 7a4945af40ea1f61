"""One book's heading tree as the heading rules read it (index/extract/heading_rules.py): a
node per section that opens with a heading, and the tests the rules share. Pure."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from ..core.models import ParentChunk
from ..core.normalize import normalize_name, normalized_words, singular
from .entry_kinds import heading_kind, own_kind
from .headings import HeadingName, clean_text, heading_name, is_group_heading, is_topical
from .text import first_body_sentence

CATALOG_MIN = 3
_LEGAL = re.compile(r"\b(?:licen[sc](?:e|es|ing)|legal|copyright|credits|acknowledge?ments|attribution)\b", re.IGNORECASE)
# a bibliography: its entries' titles and authors are no entities of the book
_BIBLIOGRAPHY = re.compile(r"^\W*(?:\d+\W*)?(?:references|bibliography|works cited|literature)\W*$", re.IGNORECASE)


def in_legal_section(parent: ParentChunk) -> bool:
    """A licence or credits section (or one under it) names no game entity; nor does a
    bibliography ("References", "Bibliography")."""
    return any(_LEGAL.search(heading) or _BIBLIOGRAPHY.match(heading) for heading in parent.heading_path)


@dataclass
class Node:
    parent: ParentChunk
    named: HeadingName | None
    key: str                       # normalized name ('' when no name)
    children: list["Node"] = field(default_factory=list)
    up: "Node | None" = None
    candidate: bool = False        # not prose, not a label, not the title, not stop-listed


def heading_tree(parents: list[ParentChunk]) -> list[Node]:
    nodes: list[Node] = []
    stack: list[Node] = []
    for parent in parents:
        if not parent.heading or parent.part > 0:
            continue
        named = heading_name(parent.heading)
        node = Node(parent, named, normalize_name(named.name) if named else "")
        depth = len(parent.heading_path)
        while stack and len(stack[-1].parent.heading_path) >= depth:
            stack.pop()
        if stack:
            node.up = stack[-1]
            stack[-1].children.append(node)
        stack.append(node)
        nodes.append(node)
    return nodes


def catalog_min(parent: Node | None) -> int:
    """Entries needed under ``parent`` to make a catalog: 3, or 2 under a plural name ("Rituals")."""
    if parent is not None and parent.named is not None and parent.key and (
            not is_topical(parent.named.name) or is_group_heading(parent.named.name)):
        last = normalized_words(parent.named.name).rsplit("_", 1)[-1]
        if singular(last) != last:
            return 2
    return CATALOG_MIN


def label_kind(node: Node, repeats: dict[str, list[Node]]) -> str | None:
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


def defines_first(node: Node) -> bool:
    """The section's first sentence defines the heading's name ("X is ...", "These are ...")."""
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


def used_elsewhere(node: Node, book_tokens: str, own_tokens: str) -> bool:
    words = normalized_words(node.named.name)
    if not words:
        return False
    forms = {f"_{words}_", f"_{normalize_name(node.named.name)}_"}  # as written, and singular
    return sum(book_tokens.count(f) - own_tokens.count(f) for f in forms) >= 1


def kinds_of(node: Node, entries: list[Node]) -> bool:
    """True when the entries are kinds of the node's concept ("Minor Milestones" under "Milestones")."""
    head = node.key.rsplit("_", 1)[-1]
    kinds = [e for e in entries if e.key.endswith("_" + head)]
    return bool(head) and len(kinds) * 2 >= len(entries)


def marked_entry(node: Node, title_key: str) -> bool:
    """An entry the book marks as one even alone: it states its own kind (a bracket, a category
    line, a stat block), or it is a leaf under a heading that names its entries' kind
    ("Monsters A–Z" > "Gloom Hydra"; index/extract/entry_kinds.py)."""
    if own_kind(node.parent.text, node.named.qualifier if node.named else None):
        return True
    # (a plural, "Equipment Sample Stunts" under "Equipment", is a topic, as elsewhere)
    return not node.children and node.up is not None and node.up.key != title_key \
        and normalize_name(node.named.name) == normalized_words(node.named.name) \
        and heading_kind(node.up.parent.heading or "") is not None


def names_host_noun(node: Node) -> bool:
    """Whether a heading names the last noun of the heading above it: it is about that kind,
    not one of its members ("Stunts > New Stunt Rubrics", "Spells > Spell Slots")."""
    host = clean_text(node.up.parent.heading or "").casefold().split() if node.up is not None else []
    own = {singular(w) for w in clean_text(node.parent.heading or "").casefold().split()}
    return bool(host) and singular(host[-1]) in own


# a section's opening field: "**Summoning Difficulty:** Fair (+1)", "<strong>Cost:</strong> 2"
_OPENING_FIELD = re.compile(
    r"^[ \t>]*(?:\*\*|__|<strong>|<b>)\s*(?P<label>[A-Za-z][^*_<>\n:]{1,40}?)\s*:?\s*(?:\*\*|__|</strong>|</b>)\s*:?[ \t]*\S")


def opening_field(node: Node) -> str | None:
    """The label of the field line a section's body opens with (lower case), or None."""
    for line in node.parent.text.splitlines()[1:]:
        if line.strip():
            found = _OPENING_FIELD.match(line)
            return found.group("label").casefold() if found else None
    return None


def field_runs(nodes: list[Node]) -> list[list[Node]]:
    """Runs of headings, in the book's order, whose sections each open with the same field
    line ("**Summoning Difficulty:** Good (+2)"): entries of one catalog, whatever levels their
    headings were set at ("Sample Creatures > Wound-Eating Beetles" then "Lightning Worms" a
    level up, over "Freet"); CATALOG_MIN or more."""
    runs: list[list[Node]] = []
    label_of: str | None = None
    for node in nodes:
        label = opening_field(node)
        if label is not None and label == label_of:
            runs[-1].append(node)
        else:
            runs.append([node])
        label_of = label
    return [run for run in runs if len(run) >= CATALOG_MIN and opening_field(run[0]) is not None]
