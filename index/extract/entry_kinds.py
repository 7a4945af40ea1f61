"""What kind of thing an entry is, read from the book itself. Pure, no pack.

Rulebooks say what their entries are: a chapter "Spell Descriptions" holds spells, "Monsters
A–Z" creatures and "Conditions" conditions (a heading names its entries' kind); a glossary
heading carries its own kind in brackets ("Snared [Condition]"); a category line under a
name says it ("*Level 2 Enchantment (Bard, Druid)*", "*Rod, Rare (Requires Attunement)*",
"*Huge Monstrosity, Unaligned*"); and a stat block ("**Armor Class** 15", "**Hit Points**
...") is a creature's shape. The kinds form one closed vocabulary (the rulebook pack's
``kinds``, written down in docs/extraction.md); a domain pack's heading rules still win over them.

``kind_words()`` (the rulebook pack's ``[words.kind_words]``, index/packs/rulebook.toml) maps
the nouns a heading may use for its entries to a kind; another family of books adds its own
nouns and kinds there ("Commands" -> command) and everything below reads them: the
extractor's types, the definition of a lone entry under such a heading, and the type names
``crossbook pack suggest`` drafts.
"""

from __future__ import annotations

import re

from ..core.genres import genre_active
from ..core.normalize import singular
from ..core.packs import genre_list, genre_table, genre_words, per_genres, word_pattern
from .headings import conjoined_names


@per_genres
def rulebook_kinds() -> tuple[str, ...]:
    """The rulebook pack's closed vocabulary of kinds (``kinds``); none outside a rulebook."""
    return genre_list("rulebook", "kinds")


@per_genres
def thing_kinds() -> frozenset[str]:
    """The kinds whose entries are one thing each, whatever their name's number ("Rod of
    Fetters"): the rulebook kinds less its rules and untyped (``thing_kinds``)."""
    return genre_words("rulebook", "thing_kinds")


@per_genres
def kind_words() -> dict[str, str]:
    """The noun a heading uses for its entries (singular, lowercase) -> the kind of each entry."""
    return genre_table("rulebook", "kind_words")


@per_genres
def _bracket_words() -> dict[str, str]:
    """Kinds a bracket may name though no heading gathers them by that word: a "Skills" chapter
    or "Optional Rules" discusses its topics as often as it lists entries ("Stealth [Skill]")."""
    return {**kind_words(), **genre_table("rulebook", "bracket_kind_words")}


def _tail_words() -> frozenset[str]:
    """Words after the kind noun that still leave the heading a catalog of that kind: "Spell
    Descriptions", "Monsters A–Z", "Rules Definitions", "Magic Items (A)"."""
    return genre_words("rulebook", "catalog_words")

# a phrase, not a catalog's name: "Casting a Spell", "Using Magic Items", "Spells of the Fen"
# "Skills and Gear" names two kinds, so none
_PHRASE_WORDS = {"a", "an", "the", "of", "to", "for", "with", "in", "on", "at", "by", "your", "my", "our", "their",
                 "and", "or", "&"}


def shaped_kinds() -> frozenset[str]:
    """Kinds whose entries show their kind (a stat block, a category line): where some entries
    under a heading do, a section under it that does not is a topic about them ("Monsters >
    Armor Class")."""
    return genre_words("rulebook", "shaped_kinds")

_PARENS = re.compile(r"\([^()]*\)|\[[^\]]*\]")


def _words(heading: str) -> list[str]:
    """The heading's lowercase words after its last colon ("Appendix PH-A: Conditions")."""
    text = _PARENS.sub(" ", heading.rsplit(":", 1)[-1]).replace("*", " ").replace("_", " ")
    text = re.sub(r"\b([a-z])\s*[-–—]\s*([a-z])\b", r"\1-\2", text.lower())  # "A – Z"
    return [singular(w) for w in re.findall(r"[a-z][a-z'’-]*", text)]


def heading_kind(heading: str) -> str | None:
    """The kind of the entries a heading gathers ("Spell Descriptions" -> spell), or None:
    its last words name a kind, after catalog words such as "Descriptions" or "A–Z"."""
    words = _words(heading)
    if not words or len(words) > 5 or _PHRASE_WORDS & set(words) or words[0].endswith("ing"):
        return None
    kinds, tails = kind_words(), _tail_words()
    if len(words) >= 2 and (two := f"{words[-2]} {words[-1]}") in kinds:
        return kinds[two]  # "Rules Definitions", before "Definitions" goes as a catalog word
    while words and words[-1] in tails:
        words.pop()
    if not words:
        return None
    if len(words) >= 2 and (two := f"{words[-2]} {words[-1]}") in kinds:
        return kinds[two]
    return kinds.get(words[-1])


def leads_kind(heading: str) -> str | None:
    """The kind of the leads under a heading: the one it names (heading_kind), else the kind
    of the first name it joins, the topic the others bear on ("Stunts and Weight": stunts),
    when no other names another ("Zones and Ranged Weapons": none, "Spells and Rituals": spells)."""
    if kind := heading_kind(heading):
        return kind
    parts = conjoined_names(heading)
    kinds = {heading_kind(part) for part in parts[1:]} - {None}
    first = heading_kind(parts[0]) if parts else None
    return first if first and kinds <= {first} else None


@per_genres
def _offer() -> re.Pattern:
    """A sentence that offers examples of something ("Here are some new action stunts:"),
    opening a line with one of the rulebook pack's ``example_openers``."""
    openers = word_pattern(genre_words("rulebook", "example_openers"))
    return re.compile(rf"^[ \t>]*(?:{openers})\b(?P<offered>[^.:!?\n]*)", re.IGNORECASE | re.MULTILINE)


def offered_kind(text: str, at: int) -> str | None:
    """The kind of the things the last sentence before ``at`` offers ("Here are some new action
    stunts:", "Here's an example of a kung fu stunt tree": stunts), when it names one kind; else None."""
    offers = [m for m in _offer().finditer(text, 0, at)]
    if not offers:
        return None
    kinds, words = kind_words(), [singular(w) for w in re.findall(r"[a-z][a-z'’-]*", offers[-1].group("offered").lower())]
    found = {kinds[w] for w in words if w in kinds}
    return next(iter(found)) if len(found) == 1 else None


# a bold label of a field: "**Stunts**:", "<strong>Stunts:</strong>"
_FIELD_LABEL = re.compile(r"(?:\*\*|__|<strong>|<b>)\s*(?P<label>[A-Za-z][A-Za-z '’-]{1,30}?)\s*"
                          r"(?::\s*(?:\*\*|__|</strong>|</b>)|(?:\*\*|__|</strong>|</b>)\s*:)")
_LEAD_LINE = re.compile(r"^[ \t>]*(?:[-*+][ \t]+)?(?:\*\*|__|<strong>|<b>)")


def labelled_kind(text: str, at: int) -> str | None:
    """The kind a field label over a run of leads names ("**Stunts**: **Want Ads**. ... then
    "**Mob Justice**. ..."): the last bold label before ``at`` whose plural names a kind, when
    every line between its line and ``at`` is a lead; else None."""
    labels = list(_FIELD_LABEL.finditer(text, 0, at))
    if not labels:
        return None
    label = labels[-1]
    last = label.group("label").split()[-1].lower()
    kind = heading_kind(label.group("label")) if singular(last) != last else None
    line_end = text.find("\n", label.end())
    if kind is None or line_end < 0 or line_end >= at:
        return kind
    between = text[line_end + 1:text.rfind("\n", 0, at) + 1]
    return kind if all(_LEAD_LINE.match(line) for line in between.splitlines() if line.strip()) else None


def listing_kind(heading: str) -> str | None:
    """The kind a list's or a column's heading names, bracket kinds included: a list under
    "Skills" or a column headed "Skill" lists skills, though a "Skills" chapter that
    discusses its topics is no catalog of them (heading_kind)."""
    words = _words(heading)
    if not words or len(words) > 2 or _PHRASE_WORDS & set(words):
        return None
    return heading_kind(heading) or (_bracket_words().get(words[-1]) if len(words) == 1 else None)


def bracket_kind(qualifier: str | None) -> str | None:
    """The kind a heading's stripped qualifier names: "Snared [Condition]" -> condition."""
    if not qualifier:
        return None
    for part in qualifier.split(";"):
        words = _words(part)
        if len(words) == 1 and (kind := _bracket_words().get(words[0])):
            return kind
    return None




@per_genres
def _category_kinds() -> tuple[tuple[str, re.Pattern], ...]:
    """The category lines that state an entry's kind, made of the rulebook pack's sizes and rarities."""
    sizes = rf"(?:{word_pattern(genre_words('rulebook', 'creature_sizes'))})"
    rarities = word_pattern(genre_words("rulebook", "item_rarities"))
    return (
        # "Huge Monstrosity, Unaligned", "Medium humanoid (any race), any alignment", "Small or Medium beast, ..."
        ("creature", re.compile(rf"^{sizes}(?:\s+or\s+{sizes})?\s+[a-z][\w -]*(?:\([^()]*\))?\s*,\s*\w", re.IGNORECASE)),
        # "Level 2 Enchantment (Bard, Druid)", "2nd-level evocation", "Evocation cantrip (ritual)"
        ("spell", re.compile(r"^(?:level\s+\d+\s+[a-z]+|\d+(?:st|nd|rd|th)[- ]level\s+[a-z]+|[a-z]+\s+cantrip)\b",
                             re.IGNORECASE)),
        # "Rod, Rare (Requires Attunement)", "Weapon (any sword), rarity varies", "Wondrous item, very rare"
        ("item", re.compile(rf"^[a-z][\w -]{{0,30}}(?:\([^()]*\))?\s*,\s*(?:very\s+)?(?:{rarities})\b", re.IGNORECASE)),
    )


_BODY_MARKUP = re.compile(r"^[\s>*_]+|[\s*_]+$")
_EMPHASIZED = re.compile(r"^\s*(?:\*|_|<em>|<i>)")


def category_line_kind(section_text: str) -> str | None:
    """The kind the category line opening a section's body states, or None."""
    if not genre_active("rulebook"):  # "*Huge Monstrosity, Unaligned*": a rulebook's
        return None
    lines = section_text.splitlines()
    body = lines[1:] if lines and lines[0].lstrip().startswith("#") else lines
    first = next((line for line in body if line.strip()), "")
    if len(first) > 120 or not _EMPHASIZED.match(first):
        return None  # a category line is set apart: "*Rod, Rare*", not a sentence
    line = _BODY_MARKUP.sub("", first)
    return next((kind for kind, pattern in _category_kinds() if pattern.match(line)), None)



@per_genres
def _stat_label() -> re.Pattern:
    """A stat block's own labels (the rulebook pack's): two of them in a section make it a
    creature's. A label opens a line, bold ("**Armor Class** 17") or as a field ("Rank:
    Dangerous", in a callout too: ">Drives:")."""
    labels = word_pattern(genre_words("rulebook", "stat_block_labels"))
    return re.compile(rf"^[ \t>]*(?:[-*+][ \t]+)?(?:(?:\*\*|__)({labels})\b|({labels})[ \t]*:)",
                      re.IGNORECASE | re.MULTILINE)



def stat_block_kind(section_text: str) -> str | None:
    """'creature' for a section holding a stat block ("**Armor Class** 17", "**Hit Points** ...",
    or field lines "Rank: Dangerous", "Drives:", "Tactics:")."""
    if not genre_active("rulebook"):
        return None
    labels = {re.sub(r"\s+", " ", (m.group(1) or m.group(2)).lower()) for m in _stat_label().finditer(section_text)}
    return "creature" if len(labels) >= 2 else None


def own_kind(section_text: str, qualifier: str | None) -> str | None:
    """The kind an entry states of itself: its heading's bracket, its category line, its stat block."""
    return bracket_kind(qualifier) or category_line_kind(section_text) or stat_block_kind(section_text)


def path_kind(heading_path: tuple[str, ...], through=lambda heading: False,
              marked_under=lambda path: frozenset()) -> str | None:
    """The kind the heading above an entry names for its entries: its parent's, or a higher
    one's past headings ``through`` accepts (a group such as "Angels" in "Monsters (A) >
    Angels > Deva"); None past any other heading ("Classes > Warden > Wild Tongue"), and None
    for a shaped kind when ``marked_under(path)``, the kinds sections under that heading state
    of themselves, holds it (the entries show their shape, this section does not)."""
    for depth in range(len(heading_path) - 1, 0, -1):
        heading = heading_path[depth - 1]
        if kind := heading_kind(heading):
            return None if kind in shaped_kinds() and kind in marked_under(heading_path[:depth]) else kind
        if not through(heading):
            return None
    return None


def entry_kind(heading_path: tuple[str, ...], section_text: str, qualifier: str | None,
               through=lambda heading: False, marked_under=lambda path: frozenset()) -> str | None:
    """The kind of the entry a section's heading defines: what it states of itself, else what
    the heading above it names (see path_kind); None when the book says nothing."""
    return own_kind(section_text, qualifier) or path_kind(heading_path, through, marked_under)
