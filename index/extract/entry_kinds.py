"""What kind of thing an entry is, read from the book itself. Pure, no pack.

Rulebooks say what their entries are: a chapter "Spell Descriptions" holds spells, "Monsters
A–Z" creatures and "Conditions" conditions (a heading names its entries' kind); a glossary
heading carries its own kind in brackets ("Snared [Condition]"); a category line under a
name says it ("*Level 2 Enchantment (Bard, Druid)*", "*Rod, Rare (Requires Attunement)*",
"*Huge Monstrosity, Unaligned*"); and a stat block ("**Armor Class** 15", "**Hit Points**
...") is a creature's shape. The kinds form one closed vocabulary (``RULEBOOK_KINDS``,
written down in docs/extraction.md); a domain pack's heading rules still win over them.

``KIND_WORDS`` (the rulebook pack's ``[words.kind_words]``, index/packs/rulebook.toml) maps
the nouns a heading may use for its entries to a kind; another family of books adds its own
nouns and kinds there ("Commands" -> command) and everything below reads them: the
extractor's types, the definition of a lone entry under such a heading, and the type names
``crossbook pack suggest`` drafts.
"""

from __future__ import annotations

import re

from ..core.genres import genre_active
from ..core.normalize import singular
from ..core.packs import genre_table, genre_words, word_pattern

RULEBOOK_KINDS = ("creature", "spell", "condition", "item", "feature", "class", "skill", "rule", "other")
# the kinds whose entries are one thing each, whatever their name's number ("Rod of Fetters")
THING_KINDS = frozenset(RULEBOOK_KINDS) - {"rule", "other"}

# the noun a heading uses for its entries (singular, lowercase) -> the kind of each entry
KIND_WORDS: dict[str, str] = genre_table("rulebook", "kind_words")
# kinds a bracket may name though no heading gathers them by that word: a "Skills" chapter or
# "Optional Rules" discusses its topics as often as it lists entries ("Stealth [Skill]" is one)
_BRACKET_WORDS = {**KIND_WORDS, **genre_table("rulebook", "bracket_kind_words")}
# words after the kind noun that still leave the heading a catalog of that kind:
# "Spell Descriptions", "Monsters A–Z", "Rules Definitions", "Magic Items (A)"
_TAIL_WORDS = genre_words("rulebook", "catalog_words")
# a phrase, not a catalog's name: "Casting a Spell", "Using Magic Items", "Spells of the Fen"
# "Skills and Gear" names two kinds, so none
_PHRASE_WORDS = {"a", "an", "the", "of", "to", "for", "with", "in", "on", "at", "by", "your", "my", "our", "their",
                 "and", "or", "&"}
# kinds whose entries show their kind (a stat block, a category line): where some entries under
# a heading do, a section under it that does not is a topic about them ("Monsters > Armor Class")
SHAPED_KINDS = frozenset({"creature", "spell", "item"})
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
    if len(words) >= 2 and (two := f"{words[-2]} {words[-1]}") in KIND_WORDS:
        return KIND_WORDS[two]  # "Rules Definitions", before "Definitions" goes as a catalog word
    while words and words[-1] in _TAIL_WORDS:
        words.pop()
    if not words:
        return None
    if len(words) >= 2 and (two := f"{words[-2]} {words[-1]}") in KIND_WORDS:
        return KIND_WORDS[two]
    return KIND_WORDS.get(words[-1])


def listing_kind(heading: str) -> str | None:
    """The kind a list's or a column's heading names, bracket kinds included: a list under
    "Skills" or a column headed "Skill" lists skills, though a "Skills" chapter that
    discusses its topics is no catalog of them (heading_kind)."""
    words = _words(heading)
    if not words or len(words) > 2 or _PHRASE_WORDS & set(words):
        return None
    return heading_kind(heading) or (_BRACKET_WORDS.get(words[-1]) if len(words) == 1 else None)


def bracket_kind(qualifier: str | None) -> str | None:
    """The kind a heading's stripped qualifier names: "Snared [Condition]" -> condition."""
    if not qualifier:
        return None
    for part in qualifier.split(";"):
        words = _words(part)
        if len(words) == 1 and (kind := _BRACKET_WORDS.get(words[0])):
            return kind
    return None


_SIZES = rf"(?:{word_pattern(genre_words('rulebook', 'creature_sizes'))})"
_RARITIES = word_pattern(genre_words("rulebook", "item_rarities"))
_CATEGORY_KINDS = (
    # "Huge Monstrosity, Unaligned", "Medium humanoid (any race), any alignment", "Small or Medium beast, ..."
    ("creature", re.compile(rf"^{_SIZES}(?:\s+or\s+{_SIZES})?\s+[a-z][\w -]*(?:\([^()]*\))?\s*,\s*\w", re.IGNORECASE)),
    # "Level 2 Enchantment (Bard, Druid)", "2nd-level evocation", "Evocation cantrip (ritual)"
    ("spell", re.compile(r"^(?:level\s+\d+\s+[a-z]+|\d+(?:st|nd|rd|th)[- ]level\s+[a-z]+|[a-z]+\s+cantrip)\b",
                         re.IGNORECASE)),
    # "Rod, Rare (Requires Attunement)", "Weapon (any sword), rarity varies", "Wondrous item, very rare"
    ("item", re.compile(rf"^[a-z][\w -]{{0,30}}(?:\([^()]*\))?\s*,\s*(?:very\s+)?(?:{_RARITIES})\b", re.IGNORECASE)),
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
    return next((kind for kind, pattern in _CATEGORY_KINDS if pattern.match(line)), None)


# a stat block's own labels: two of them in a section make it a creature's
_STAT_LABEL = re.compile(rf"^[ \t>]*(?:[-*+][ \t]+)?(?:\*\*|__)({word_pattern(genre_words('rulebook', 'stat_block_labels'))})\b",
                         re.IGNORECASE | re.MULTILINE)


def stat_block_kind(section_text: str) -> str | None:
    """'creature' for a section holding a stat block ("**Armor Class** 17", "**Hit Points** ...")."""
    if not genre_active("rulebook"):
        return None
    labels = {re.sub(r"\s+", " ", m.group(1).lower()) for m in _STAT_LABEL.finditer(section_text)}
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
            return None if kind in SHAPED_KINDS and kind in marked_under(heading_path[:depth]) else kind
        if not through(heading):
            return None
    return None


def entry_kind(heading_path: tuple[str, ...], section_text: str, qualifier: str | None,
               through=lambda heading: False, marked_under=lambda path: frozenset()) -> str | None:
    """The kind of the entry a section's heading defines: what it states of itself, else what
    the heading above it names (see path_kind); None when the book says nothing."""
    return own_kind(section_text, qualifier) or path_kind(heading_path, through, marked_under)
