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
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from ..core.models import SUB_ENTRY_SEPARATOR, RawRelation
from ..core.normalize import normalize_name, normalized_words
from ..core.packs import genre_words, word_pattern
from ..extract.entry_kinds import THING_KINDS
from ..extract.glossary import entry_leads
from ..extract.text import sentence_span
from ..linking.linker import files_as_state

EXTRACTOR = "pattern"
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


_VERBS = {
    "casts": r"(?:cast|casts|casting|can\s+cast|innately\s+casts?)",
    "wields": r"(?:wields?|wielding|carr(?:y|ies|ying)|armed\s+with|equipped\s+with|wears?|wearing)",
    "counters": r"(?:counters?|cures?|ends|removes?|negates?|dispels?|immune\s+to|immunity\s+to|protects?\s+against"
                r"|defends?\s+against|defen[cs]e\s+against|resists?)",
    "requires": r"(?:requires?|prerequisites?\s*:|requirements?\s*:)",
    "modifies": r"(?:\+\s?\d+\s+(?:bonus\s+)?(?:to|on)|bonus\s+(?:to|on))",
    "inflicts": r"(?:inflicts?|imposes?|causes?|afflicts?|applies)",
    "variant_of": r"(?:replaces)",  # "Wise ... It replaces Careful": the entry stands in for it
}
_VERB_RE = {kind: re.compile(rf"(?<![\w-]){pattern}(?![\w-])", re.IGNORECASE) for kind, pattern in _VERBS.items()}
_STATE = re.compile(r"(?<![\w-])(?:is|are|be|becomes?|is\s+knocked|knocked|falls?|left"
                    r"|(?:gains?|suffers?|takes?)\s+(?:an?\s+|one\s+|\d+\s+)?levels?\s+of"
                    # a causative with its object: "leaves the target Slowed", "knocks it Prone"
                    r"|(?:leaves|leaving|knocks|knocking|renders|rendering)\s+(?:the|a|an|its|their|each|every)?\s*\w+)"
                    r"\s+(?:\w+\s+)?$", re.IGNORECASE)
# "a creature that is Poisoned": the state describes who a rule is about, nobody inflicts it
_RELATIVE_STATE = re.compile(r"(?<![\w-])(?:that|who|which|already)\s+(?:is|are|has|have|becomes?)\s+(?:\w+\s+)?$",
                             re.IGNORECASE)
_CONDITION_WORD = re.compile(r"\s*conditions?\b", re.IGNORECASE)
_LIST_GAP = re.compile(r"(?:[\s*_,;]|\band\b|\bor\b)*", re.IGNORECASE)
# a category line is a noun phrase with its kind in parentheses ("Weapon (longsword), rare"),
# not the opening of a sentence ("Sometimes a player (or GM) may...")
_CATEGORY_LINE = re.compile(r"^\s*[*_]*\s*(?![^(\n]*\b(?:a|an|the|or|if|when|you|your)\s)[A-Z][\w' -]{1,30}?\s*"
                            r"\(([^()\n]{2,60})\)")
_LIST_SEPARATOR = re.compile(r",|;|/|\band\b|\bor\b", re.IGNORECASE)


@lru_cache(maxsize=16384)  # about 1 KB each; re's own cache holds 512, so a shelf's names were compiled per chunk
def _form_pattern(form: str) -> re.Pattern:
    words = [re.escape(w) for w in form.split()]
    flags = re.IGNORECASE if len(words) > 1 or form.islower() else 0
    # markup and line breaks may sit between the words of a name
    return re.compile(r"(?<![\w])" + r"[\s*_]+".join(words) + r"(?:e?s|'s|’s)?(?![\w])", flags)


def _occurrences(text: str, entities: list[PatternEntity]) -> list[tuple[int, int, int]]:
    """(start, end, entity index), longest first at overlaps, in text order."""
    found = []
    for index, entity in enumerate(entities):
        for form in entity.forms:
            for match in _form_pattern(form).finditer(text):
                found.append((match.start(), match.end(), index))
    chosen: list[tuple[int, int, int]] = []
    for occurrence in sorted(found, key=lambda o: (-(o[1] - o[0]), o[0])):
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


_BLANK_LINE = re.compile(r"\n[ \t\xa0\r]*\n")


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
    blank = _BLANK_LINE.search(text, start)
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


# "you can use Lore", and the imperative that opens a clause ("Use Will instead of Physique")
_USE = re.compile(r"(?:(?<![\w-])(?:you\s+(?:can\s+|may\s+)?|can\s+|may\s+|instead\s+)|^[\s*_\-–—]*)use\s+"
                  r"(?:your\s+|their\s+|its\s+)?$", re.IGNORECASE)
# "you can use Provoke to", "use Lore as a defense": before a verb, the instrument, not a subject
_USE_CLAUSE = re.compile(r"(?:you\s+)?(?:can\s+|may\s+)?use\s+\S+(?:\s+\S+)?"
                         r"(?:\s+(?:instead\s+of|in\s+place\s+of)\s+\S+(?:\s+\S+)?)?\s+(?:to|as\s+an?)\s*$", re.IGNORECASE)
# the skill a stunt replaces is no subject: "use Investigate instead of Empathy to defend against Deceive"
_REPLACED = re.compile(r"(?<![\w-])(?:instead\s+of|in\s+place\s+of)\s+(?:your\s+)?$", re.IGNORECASE)
# "is a special kind of", "are a super-transient kind of", "are new": one modifier word at most
_COPULA = re.compile(r"\s+(?:is|are)\s+(?:(?:an?\s+)?(?:[\w-]+\s+)?(?:kind|type|sort|form|variety)\s+of\s+(?:an?\s+)?"
                     r"|(?:an?\s+)?(?:new\s+|special\s+)?)", re.IGNORECASE)


# an opening mark: "*fireball*", not the closing one of a name before it ("*comprehend languages* spell")
_EMPHASIS_BEFORE = re.compile(r"(?:(?<![\w.,;:!?’'])[*_]+|<em>|<i>|<strong>|<b>)\s*$", re.IGNORECASE)


def _is_named(text: str, start: int, end: int) -> bool:
    """A name as the text writes it: capitalized, or emphasized (``*fireball*``)."""
    return text[start:start + 1].isupper() or bool(_EMPHASIS_BEFORE.search(text[max(0, start - 8):start]))


def only_in_longer_names(evidence: str, forms) -> bool:
    """True when every occurrence of the entity in ``evidence`` is a word of a longer name
    ("Creature" in "a Giant Creature of Destruction"); False when it stands alone once, or
    does not occur."""
    spans = [m for form in forms for m in _form_pattern(form).finditer(evidence)]
    return bool(spans) and all(_fragment(evidence, m.start(), m.end()) for m in spans)


def not_common_noun(evidence: str, forms) -> bool:
    """False when ``evidence`` writes the entity only as a common noun ("a character needs
    skills"): every occurrence lowercase and not emphasized. True when it occurs as a name,
    or not at all (a pronoun stands for it)."""
    spans = [m for form in forms for m in _form_pattern(form).finditer(evidence)]
    return not spans or any(_is_named(evidence, m.start(), m.end()) for m in spans)


def _in_list(text: str, after: int, at: int) -> bool:
    """True when only list separators stand between ``after`` and ``at`` ("Light, Sunburst and X")."""
    return re.fullmatch(r"(?:[\s*_,;]|</?\w+>|\band\b|\bor\b)*", text[after:at], re.IGNORECASE) is not None


def _sentence_start(text: str, at: int) -> bool:
    """True when only markup or a list marker stands between ``at`` and the sentence start."""
    lo, _ = sentence_span(text, at, at + 1, limit=400)
    return not re.sub(r"[\s*_>#\-+]|\b(?:an?|the)\b", "", text[lo:at], flags=re.IGNORECASE)
# markup may close after the punctuation: "**Term:**", "<strong>Term:</strong>"
_CLAUSE = re.compile(r"[;:](?:[*_]|</\w+>)*\s|[.!?](?:[*_)\]]|</\w+>)+\s|,\s+(?:and|but|or|then)\s", re.IGNORECASE)
_CONDITIONAL = re.compile(r"(?<![\w-])(?:if|unless|when|whenever|while|once|until)(?![\w-])", re.IGNORECASE)
_NEGATION = re.compile(r"(?<![\w-])(?:not|no|cannot|can't|without|never)(?![\w-])", re.IGNORECASE)
# a state denied by any contraction, typographic apostrophes too: "can’t be frightened", "isn’t knocked prone"
_STATE_NEGATION = re.compile(r"(?<![\w-])(?:\w+n['’]t|not|never|cannot|neither|nor)(?![\w-])", re.IGNORECASE)
_PASSIVE = re.compile(r"(?<![\w-])(?:is|are|was|were|be|been|being)\s+$", re.IGNORECASE)
# what may stand before the verb when the entry's entity is its unnamed subject
_IMPLICIT_SUBJECT = re.compile(
    r"^[\s*_.:;,\-–—(\[]*(?:(?:it|they|he|she|the|its|their|his|her|which|who)(?:\s+[\w'’-]+)?"
    # "This spell requires": the entry; a bare "That requires Will" points back at a sentence
    r"|(?:this|these|that|those)\s+[\w'’-]+)?(?:\s+(?:also|can|may|will|then|often|usually|always|innately|instead))*"
    r"(?:\s*(?:you\s+)?(?:can\s+)?(?:gain|gets?|receives?|take|takes|have|has|add|adds)(?:\s+an?)?(?:\s+(?:additional|extra))?)?"
    r"(?:\s*\+\s?\d+\s+(?:bonus\s+)?(?:to|on))?\s*$",
    re.IGNORECASE,
)


_CAPITALIZED_WORD = re.compile(r"(?<![\w'’])[A-Z][\w'’-]*$")
_SENTENCE_OPENING = re.compile(r"(?:^|[.!?:;>*|\n(\[\"“]\s*)$")


def _fragment(text: str, start: int, end: int) -> bool:
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


# a name that is what is rolled, not who acts ("succeed on a Constitution saving throw")
_ROLL_AFTER = re.compile(rf"[\s*_]+(?:{word_pattern(genre_words('rulebook', 'roll_words'))})\b", re.IGNORECASE)
# who stands before a verb in a rule without being the entry itself
_ROLE_SUBJECT = re.compile(r"\b(?:the|your|an?)\s+(?:target|opponent|enemy|enemies|foe|defender|attacker|victim)s?\b"
                           r"[^.;:]*$", re.IGNORECASE)


_INTRO = re.compile(r"^[^,]{1,40},\s*")  # "On a failure, ", "Once per day, "


def _implicit_clause(before: str, verb_at: int) -> bool:
    """True when nothing but a pronoun or "the <noun>" stands before the verb in its clause."""
    clause = re.split(r"[.;:!?](?:[*_)\]]|</\w+>)*\s|\n", before[:verb_at])[-1]
    clause = _INTRO.sub("", clause, count=1) if _INTRO.match(clause) and not _IMPLICIT_SUBJECT.match(clause) else clause
    return bool(_IMPLICIT_SUBJECT.match(clause)) and not _ROLE_SUBJECT.search(clause)


_AUXILIARY = r"(?:\s+(?:also|can|may|will|then|often|usually|always|instead))*"


def _own_name_clause(before: str, verb_at: int, subject: PatternEntity) -> bool:
    """True when the entry names itself before the verb after a short introduction: "On a
    failure, the Crumbling Ledge inflicts Prone" (a plain "Frost Lance inflicts Chilled" is
    the SVO path's)."""
    clause = re.split(r"[.;:!?](?:[*_)\]]|</\w+>)*\s|\n", before[:verb_at])[-1]
    candidate = _INTRO.sub("", clause, count=1)
    if candidate != clause:
        for form in subject.forms:
            pattern = r"^[\s*_]*(?:the\s+|an?\s+)?" + _form_pattern(form).pattern + _AUXILIARY + r"[\s*_]*$"
            if re.match(pattern, candidate, _form_pattern(form).flags):
                return True
    return False


_OPEN_QUOTE = re.compile(r"“|(?:^|(?<=[\s(]))\"")
_CLOSE_QUOTE = re.compile(r"”|\"(?=[\s.,;:!?)]|$)")


# "+1 to attack rolls and your attacks are Weapon:2": past a copula the name is another clause's
_COPULA_WORD = re.compile(r"(?<![\w-])(?:is|are|was|were)(?![\w-])", re.IGNORECASE)
_EXAMPLE_OPEN = re.compile(r"\((?:like|e\.g\.|for\s+example|for\s+instance|such\s+as|say)\b", re.IGNORECASE)


def _in_example(text: str, lo: int, at: int) -> bool:
    """True when ``at`` lies in a parenthesized example opened after ``lo``: "(like causing
    distractions so one person can use Stealth)" is no rule of the section's."""
    opened = list(_EXAMPLE_OPEN.finditer(text, lo, at))
    return bool(opened) and ")" not in text[opened[-1].end():at]


def _quoted(text: str, lo: int, at: int) -> bool:
    """True when ``at`` lies inside a quotation opened after ``lo``: 'a stunt, like “Grapnel
    Gun: +2 to overcome with Athletics”' quotes an example, it is not the section's rule."""
    span = text[lo:at]
    opened = list(_OPEN_QUOTE.finditer(span))
    return bool(opened) and not _CLOSE_QUOTE.search(span, opened[-1].end())


def _strip_entities(text: str, occurrences, lo: int, hi: int) -> str:
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


def _in_enumeration(text: str, occurrences, lo: int, at: int) -> bool:
    """True when every entity before ``at`` in the sentence is part of a list that ends at ``at``."""
    earlier = [o for o in occurrences if lo <= o[0] < at]
    first = earlier[0][0]
    return not _strip_entities(text, occurrences, first, at) and _VERB_BEFORE.search(text[lo:first]) is not None


_VERB_BEFORE = re.compile("|".join(p for p in _VERBS.values()), re.IGNORECASE)
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")


def _names_condition(text: str, occurrences, end: int) -> bool:
    """True when "condition(s)" follows the name ending at ``end``, maybe after more names of a
    list ("the Blinded and Deafened conditions")."""
    starts = {o[0]: o[1] for o in occurrences}
    at = end
    while True:
        if _CONDITION_WORD.match(text, at):
            return True
        gap = _LIST_GAP.match(text, at).end()
        if gap == at or gap not in starts:
            return False
        at = starts[gap]


def _list_start(text: str, occurrences, entities, start: int) -> int:
    """Where the list of states that ends with the name at ``start`` begins ("is Poisoned and
    Frightened": at "Poisoned")."""
    at = start
    while True:
        earlier = [o for o in occurrences if o[1] <= at and entities[o[2]].condition_like and _in_list(text, o[1], at)
                   and text[o[1]:at].strip(" *_")]
        if not earlier:
            return at
        at = earlier[-1][0]


# the titles of an entry's spell list and gear list ("Spells Known", "Innate Spellcasting",
# "Starting Equipment"): one modifier word at most, so "Skills and Gear" is a topic, no list
_LIST_TITLES = {
    "casts": re.compile(rf"(?:[\w'’-]+\s+)?(?:{word_pattern(genre_words('rulebook', 'spell_list_titles'))})"
                        rf"(?:\s+(?:{word_pattern(genre_words('rulebook', 'spell_list_words'))})"
                        r"|\s+(?:you|it|they|we)\s+(?:can\s+|may\s+)?(?:cast|prepare|learn|know))?", re.IGNORECASE),
    "wields": re.compile(rf"(?:[\w'’-]+\s+)?(?:{word_pattern(genre_words('rulebook', 'gear_list_titles'))})", re.IGNORECASE),
}
# "**Spells:** Firebolt", "Gear. Longbow", and a stat block's closed bold label "**Spells** Firebolt"
_LEAD_LABEL = re.compile(r"^[ \t>]*(?:[-*+][ \t]+)?(?P<open>\*\*|__|<strong>|<b>)?(?P<label>[A-Z][\w'’ -]{1,30}?)"
                         r"(?:\*\*|__|</strong>|</b>)?(?:[ \t]*[:.]|(?(open)(?<=\*\*|__)|(?!))|(?(open)(?<=</b>)|(?!))"
                         r"|(?(open)(?<=</strong>)|(?!)))(?:\*\*|__|</strong>|</b>)?[ \t]*(?P<rest>.*)$", re.MULTILINE)
_TABLE_ROW = re.compile(r"^[ \t]*\|")


def list_kind(title: str) -> str | None:
    """'casts' for a spell list's title, 'wields' for a gear list's, else None."""
    title = re.sub(r"[*_#:]+", " ", title).strip()
    return next((kind for kind, pattern in _LIST_TITLES.items() if pattern.fullmatch(title)), None)


def _list_blocks(text: str) -> list[tuple[str, int, int]]:
    """(kind, start, end) of the spell and gear lists of a chunk: the whole body under such a
    heading, the rest of a "**Spells:** ..." line, and the list items after "Gear:" alone."""
    out = []
    first_end = text.find("\n") if "\n" in text else len(text)
    if text.lstrip().startswith("#") and (kind := list_kind(text[:first_end].lstrip("# \t"))):
        out.append((kind, first_end, len(text)))
    for lead in _LEAD_LABEL.finditer(text):
        kind = list_kind(lead.group("label"))
        if kind is None:
            continue
        if lead.group("rest").strip(" *_"):
            out.append((kind, lead.start("rest"), lead.end("rest")))
        else:  # the list or table under the title, a blank line between them or none
            body = re.compile(r"(?:[ \t\xa0\r]*\n)*").match(text, lead.end()).end()
            first = text[body:text.find("\n", body) if "\n" in text[body:] else len(text)]
            if not (_LIST_ITEM.match(first) or _TABLE_ROW.match(first)):
                body = lead.end()
            blank = _BLANK_LINE.search(text, body + 1)
            out.append((kind, lead.end(), blank.start() if blank else len(text)))
    return out


def _list_item(text: str, occurrences, start: int, block_lo: int) -> bool:
    """True when the name at ``start`` is an item of a list: the name a list item or a table
    row opens with, or one of a line that holds only names ("Longbow, Chain Shirt (2)")."""
    line_lo = max(text.rfind("\n", 0, start) + 1, block_lo)
    line_hi = text.find("\n", start)
    line_hi = len(text) if line_hi == -1 else line_hi
    head = text[line_lo:start]
    if _LIST_ITEM.match(head + " ") or _TABLE_ROW.match(head):
        return not re.sub(r"^[ \t]*(?:[-*+]|\d+[.)]|\|)|[\s*_\[\]]", "", head)
    rest = re.sub(r"\([^()]*\)|\d+(?:/\w+)?|\b(?:each|at will|day)\b", "", text[line_lo:line_hi], flags=re.IGNORECASE)
    return not _strip_entities(rest, _occurrences_in(rest, text, occurrences, line_lo), 0, len(rest)).strip(".")


def _occurrences_in(rest: str, text: str, occurrences, line_lo: int) -> list[tuple[int, int, int]]:
    """The occurrences of names of ``text`` found again in ``rest`` (a cleaned copy of a line)."""
    out, at = [], 0
    for start, end, index in occurrences:
        if start < line_lo:
            continue
        found = rest.find(text[start:end], at)
        if found >= 0:
            out.append((found, found + end - start, index))
            at = found + end - start
    return out


_WHEN_YOU = re.compile(r"(?<![\w-])when(?:ever)?\s+you\s+(?:use\s+|make\s+|roll\s+)?(?:an?\s+|the\s+)?[*_\[]*$",
                       re.IGNORECASE)
_BONUS = re.compile(r"(?<![\w-])(?:add|take|get|gain)s?\s+(?:an?\s+)?\+\d|\+\d+\s+(?:bonus\s+)?(?:to|on)\b", re.IGNORECASE)


def _lead_in(text: str, at: int) -> str:
    """The line ending in ':' that introduces the list item at ``at`` ('' when none)."""
    line_start = text.rfind("\n", 0, at) + 1
    if not _LIST_ITEM.match(text[line_start:at + 1] + " "):
        return ""
    lines = text[:line_start].splitlines()
    for line in reversed(lines[-30:]):
        if not line.strip() or _LIST_ITEM.match(line):
            continue
        return line if line.rstrip().endswith(":") else ""
    return ""


_FOLLOWING = re.compile(r"(?<![\w-])(?P<kind>(?:innately\s+|can\s+)?casts?|wields?|carr(?:y|ies))\s+"
                        r"(?:one\s+of\s+|any\s+of\s+|each\s+of\s+)?the\s+following\b"
                        r"(?:[^.\n:]|\n(?![ \t]*\n))*:", re.IGNORECASE)  # a hard-wrapped line goes on


_USES_LINE = re.compile(r"\s*\n[ \t>*_-]*(?:at\s+will|\d+/(?:day|rest)(?:\s+each)?|cantrips|\d+(?:st|nd|rd|th)\s+level)\b"
                        r"[^\n]*", re.IGNORECASE)


# the heading of a section of ways to use one thing: "Athletics Stunts", "Sneak Attack Feats"
_KIND_SECTION = re.compile(rf"^#+\s*[*_]*\s*(?P<owner>[^\n]+?)\s+(?:{word_pattern(genre_words('rulebook', 'kind_sections'))})"
                           r"[*_\s]*$", re.IGNORECASE | re.MULTILINE)


def _kind_section_owner(text: str, entities: list[PatternEntity]) -> int | None:
    """The entity a chunk's heading names as the thing its entries are stunts of ("Crafts"
    for "###### Crafts Stunts"), when the chunk mentions it."""
    first = text.lstrip().split("\n", 1)[0]
    match = _KIND_SECTION.match(first)
    if match is None:
        return None
    owner = normalize_name(match.group("owner"))
    return next((i for i, e in enumerate(entities) if normalize_name(e.name) == owner), None)


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
                and self.entities[self.section_subject].entity_type in THING_KINDS:
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


def chunk_scan(text: str, entities: list[PatternEntity]) -> ChunkScan:
    """Read a chunk's occurrences and implicit subjects once, for every family."""
    # an entry names one thing ("Frost Wyrm", "Athletics"); a plural heading ("Chases",
    # "Limitations") is a topic whose sentences are about the players, not about it, unless
    # the book says what kind of thing it is ("Rod of Fetters", an item)
    heading_subjects = [i for i, e in enumerate(entities) if e.defines == "heading" and (
        normalize_name(e.name) == normalized_words(e.name) or e.entity_type in THING_KINDS)]
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


@dataclass(frozen=True)
class _Clause:
    """An entity's occurrence in the clause that may make it the implicit subject's target."""
    start: int
    end: int
    index: int
    subject: int
    lo: int             # the clause's start
    sentence_lo: int    # the sentence's start
    before: str         # the clause up to the occurrence


# a field label that opens a line: "**Casting Time:**", "- Casting Time:"
_FIELD_LABEL = re.compile(r"(?:^|\n)[ \t>]*(?:[-*+][ \t]+)?(?:\*\*|__)?[\w'’ -]{0,30}$")
_LABEL_END = re.compile(r"(?:\*\*|__)?:|:(?:\*\*|__)")


def _clause_at(scan: ChunkScan, start: int, end: int, index: int) -> _Clause | None:
    """The occurrence's clause, or None when no implicit subject can claim it."""
    text = scan.text
    lo, _hi = sentence_span(text, start, end, limit=400)
    sentence_lo = lo
    clauses = list(_CLAUSE.finditer(text, lo, start))
    lo = clauses[-1].end() if clauses else lo  # "..., and it inflicts Frozen": its own clause
    before = text[lo:start]
    subject = scan.subject_at(start)
    if subject is None or subject == index:
        return None
    if _negated(before) or _in_example(text, sentence_lo, start):
        return None  # "can still cast most spells, but not Thunderclap"; "(like using Stealth to ...)"
    if _fragment(text, start, end):
        return None  # "Talk" in "requires Fast Talk": part of a longer name, not this entity
    if _FIELD_LABEL.search(text, max(0, start - 40), start) and _LABEL_END.match(text, end):
        return None  # "**Casting Time:** 1 action": a field's label, no verb and its object
    return _Clause(start, end, index, subject, lo, sentence_lo, before)


# a negation in a relative clause describes who is meant ("each creature that isn’t an aberration")
_RELATIVE_BEFORE = re.compile(r"(?<![\w-])(?:that|who|which)\s+$", re.IGNORECASE)


def _negated(before: str, negation: re.Pattern = _NEGATION) -> bool:
    """True when the clause before an occurrence holds a negation, other than a relative clause's."""
    return any(not _RELATIVE_BEFORE.search(before, 0, m.start()) for m in negation.finditer(before))


def _named_before(scan: ChunkScan, clause: _Clause, at: int, verb: tuple[int, int] = (0, 0),
                  capitalized: bool = False, lo: int | None = None) -> bool:
    """An entity before ``at`` in the clause (from ``lo`` when given) that is not the subject,
    the target, part of the verb ("defend against") or an instrument ("use Provoke to defend
    against Fight"): its own subject, the SVO path's case. ``capitalized``: only a name as
    names are written counts."""
    text, lo = scan.text, clause.lo if lo is None else lo
    return any(
        lo <= o[0] < at and o[2] not in (clause.subject, clause.index, *scan.lead_terms) and not verb[0] <= o[0] < verb[1]
        and (not capitalized or _is_named(text, o[0], o[1]))
        and not _USE.search(text[max(lo, o[0] - 30):o[0]]) and not _REPLACED.search(text[max(lo, o[0] - 30):o[0]])
        and not _ROLL_AFTER.match(text, o[1])  # "a DC 13 Constitution saving throw or be Poisoned"
        for o in scan.occurrences
    ) and not _in_enumeration(text, scan.occurrences, lo, clause.start)


def _state_claim(scan: ChunkScan, clause: _Clause, named: bool) -> bool:
    """"has the Grappled condition", "is Dazed": a state written as a name ("its function is
    specialized" names no condition). True when the occurrence is such a state (claimed or not)."""
    text, entity, start, before = scan.text, scan.entities[clause.index], clause.start, clause.before
    list_start = _list_start(text, scan.occurrences, scan.entities, start) if entity.condition_like else start
    state_before = text[clause.lo:list_start]
    if not (_names_condition(text, scan.occurrences, clause.end) or (
            _STATE.search(state_before[-40:]) and entity.condition_like and (named or entity.filed_as_condition))):
        return False
    # "If the target is Large or smaller, it has the Prone condition": the condition is
    # the main clause's; "if the caster becomes Dazed" holds the state in the if-clause
    # (the last comma before the list of states: "..., the target is restrained, blinded")
    comma = before.rfind(",", 0, list_start - clause.lo) if _CONDITIONAL.match(before.lstrip(" *_")) else -1
    if comma >= 0 and any(clause.lo <= o[0] < clause.lo + comma and scan.entities[o[2]].condition_like
                          for o in scan.occurrences):
        comma = -1  # "If a Chilled creature is chilled again, it becomes Frozen": a state's own rule
    main = before[comma + 1:]
    # the if-clause's nouns are no subject of the main clause ("If the target is a Large or
    # smaller creature, it is grappled")
    # and a common noun before the state is who suffers it ("the target must succeed on a saving
    # throw or be charmed"): only a name is another agent
    if _CONDITIONAL.search(main) or _negated(main, _STATE_NEGATION) \
            or _named_before(scan, clause, list_start, capitalized=True, lo=clause.lo + comma + 1) \
            or _RELATIVE_STATE.search(state_before[-40:]):
        return True  # "if the caster becomes Dazed", "a creature that is Poisoned"
    counter = _VERB_RE["counters"].search(main)  # "immune to the Poisoned condition" ("Until this grapple ends" is no cure)
    if not counter and _own_state(scan, main, clause.subject):
        return True  # "The rug is incapacitated while ...": the entry's own state, inflicted on nobody
    scan.emit(clause.subject, clause.index, "counters" if counter else "inflicts", start, clause.end)
    if not counter and scan.section_subject is not None and clause.subject in scan.lead_owned:
        scan.emit(scan.section_subject, clause.index, "inflicts", start, clause.end)  # "Tail Sweep" knocks Prone
    return True


# the subject of a state's clause: "The rug is incapacitated", "the sword must succeed ... or fall"
_STATE_SUBJECT = re.compile(r"^[\s*_]*(?:the|this|that)\s+([\w'’-]+)\b", re.IGNORECASE)


def _own_state(scan: ChunkScan, main: str, subject_index: int) -> bool:
    """True when the clause's subject is the entry itself, by a word of its name ("The rug is
    incapacitated" in "Rug of Smothering", or in its "Animated Armor › Antimagic
    Susceptibility"): a trait it has, not a state it inflicts."""
    subject = _STATE_SUBJECT.match(main)
    if subject is None:
        return False
    if scan.section_subject is None:
        return normalize_name(subject.group(1)) in normalize_name(
            scan.entities[subject_index].name.partition(SUB_ENTRY_SEPARATOR)[0]).split("_")
    names = (scan.entities[scan.section_subject].name, scan.entities[subject_index].name.partition(SUB_ENTRY_SEPARATOR)[0])
    return any(normalize_name(subject.group(1)) in normalize_name(name).split("_") for name in names)


def _use_claim(scan: ChunkScan, clause: _Clause) -> bool:
    """"you can use Lore instead of Empathy", "use Physique to defend against Fight": modifies.
    True when claimed."""
    before = clause.before
    use = _USE.search(before[-30:] if len(before) > 30 else before)
    # the imperative is the entry's only in an entry's own paragraph: a section's
    # "Use Lore as your Hard approach" advises the reader
    imperative = use is not None and use.group(0).strip(" \t*_-–—").lower().startswith("use")
    # "you use Contacts": the reader acts, so "a conflict" before it is no other agent
    readers = use is not None and (imperative or use.group(0).lstrip(" \t*_-–—").lower().startswith("you"))
    if use and not _named_before(scan, clause, clause.start, capitalized=readers) \
            and not (imperative and clause.subject == scan.section_subject):
        scan.emit(clause.subject, clause.index, "modifies", clause.start, clause.end)
        return True
    return False


_INTRANSITIVE_AFTER = re.compile(r"\s+(?:if|when|unless|once|after|before|early|as|at|on)\b", re.IGNORECASE)


def _verb_claim(scan: ChunkScan, clause: _Clause) -> None:
    """The verbs of the module docstring with the implicit subject before them, or the verb of
    the line ending in ':' that introduces a list item."""
    text, lo, start, before = scan.text, clause.lo, clause.start, clause.before
    lead_in = _lead_in(text, lo)
    for kind, verb in _VERB_RE.items():
        if kind == "inflicts" and not scan.entities[clause.index].condition_like:
            continue  # "cause a mild consequence to a named NPC": one inflicts states
        last = None
        for match in verb.finditer(before):
            if not (_EMPHASIS_BEFORE.search(before, 0, match.start())
                    and any(o[0] <= lo + match.start() < o[1] for o in scan.occurrences)):
                last = match  # a word of an emphasized name is no verb: "*cure wounds*", "*dispel magic*"
        if last is None:
            intro = verb.search(lead_in) if lead_in else None
            if intro and _implicit_clause(lead_in, intro.start()) and not _named_before(scan, clause, start):
                scan.emit(clause.subject, clause.index, kind, start, clause.end)  # "casts the following spells:"
                break
            continue
        if kind == "counters" and _INTRANSITIVE_AFTER.match(text, lo + last.end()):
            break  # "it ends if *scrying* ends": the verb has no object
        if any(lo + last.end() <= o[0] < start and _is_named(text, o[0], o[1])
               and not _in_list(text, o[1], start) for o in scan.occurrences):
            break  # the verb's object is an earlier name; this one is further on
        gap = _strip_entities(text, scan.occurrences, lo + last.end(), start)
        if len(gap) > 40 or _COPULA_WORD.search(text, lo + last.end(), start) \
                or _named_before(scan, clause, lo + last.start(), (lo + last.start(), lo + last.end())) \
                or not (_implicit_clause(_USE_CLAUSE.sub(" ", before[:last.start()]), last.start())
                        or _own_name_clause(before, last.start(), scan.entities[clause.subject])) \
                or _PASSIVE.search(before[:last.start()]) or _quoted(text, clause.sentence_lo, lo + last.start()):
            break
        scan.emit(clause.subject, clause.index, kind, start, clause.end)  # enumerations: "casts Light, Sunburst and X"
        break


def implicit_subject_family(scan: ChunkScan) -> None:
    """Each occurrence in a clause with no subject of its own: a state, a use, or a verb's target."""
    if scan.section_subject is None and not scan.paragraphs:
        return
    for start, end, index in scan.occurrences:
        clause = _clause_at(scan, start, end, index)
        if clause is None:
            continue
        named = _is_named(scan.text, start, end)
        if _state_claim(scan, clause, named) or not named:
            continue  # a lowercase common noun ("your powers", "an attack") is no target
        if not _use_claim(scan, clause):
            _verb_claim(scan, clause)


def following_family(scan: ChunkScan) -> None:
    """"The hag casts one of the following spells: At will: *Fire Bolt*, *Mist Step*": each name
    after the colon, to the end of the paragraph; an entry's action casts for the entry."""
    text = scan.text
    for following in _FOLLOWING.finditer(text):
        subject = scan.owner_at(following.start())
        blank = _BLANK_LINE.search(text, following.end())
        hi = blank.start() if blank else len(text)
        stop = re.compile(r"\.\s+[A-Z]").search(text, following.end(), hi)
        hi = stop.start() if stop else hi
        # the lines of uses that follow it: "At will: *detect magic*", "3/day each: *fog cloud*"
        while not stop and (use_line := _USES_LINE.match(text, hi)):
            hi = use_line.end()
        kind = "casts" if following.group("kind").lower().endswith(("cast", "casts")) else "wields"
        for start, end, index in scan.occurrences:
            if following.end() <= start < hi and subject is not None and _is_named(text, start, end):
                scan.emit(subject, index, kind, start, end)


def list_block_family(scan: ChunkScan) -> None:
    """A spell list or a gear list of an entry: "#### Spells" + "- Firebolt", "**Gear:** Longbow, Chain Shirt"."""
    text = scan.text
    for kind, block_lo, block_hi in _list_blocks(text):
        # the list's own title ("**Spells** Frost Lance") is no lead of a catalog entry
        title_line = text.rfind("\n", 0, block_lo) + 1
        leads_around = tuple(line for line in scan.lead_lines if line != title_line)
        for start, end, index in scan.occurrences:
            if not block_lo <= start < block_hi or not _list_item(text, scan.occurrences, start, block_lo):
                continue
            subject = scan.subject_at(start, leads=leads_around)
            if subject is None or subject == index or _fragment(text, start, end):
                continue
            if _is_named(text, start, end) or scan.entities[index].category:
                scan.emit(subject, index, kind, start, end)


def when_you_family(scan: ChunkScan) -> None:
    """"When you Secure an Advantage by aiming, add +1": a bonus on the move or skill it names."""
    text = scan.text
    for start, end, index in scan.occurrences:
        if not _WHEN_YOU.search(text, max(0, start - 40), start) or not _is_named(text, start, end):
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
        if index != owner or not _is_named(text, start, end):
            continue
        subject = scan.subject_at(start, section=None)  # an entry's paragraph only
        lo, _hi = sentence_span(text, start, end, limit=400)
        if subject is not None and subject != owner and not _NEGATION.search(text[lo:start]):
            scan.emit(subject, owner, "modifies", start, end)


def copula_family(scan: ChunkScan) -> None:
    """"Drawbacks are aspects", "A Longsword is a martial weapon": the copula of a definition."""
    text, occurrences = scan.text, scan.occurrences
    for match in _COPULA.finditer(text):
        head = [o for o in occurrences if o[1] <= match.start() and o[1] >= match.start() - 1]
        tail = [o for o in occurrences if match.end() <= o[0] <= match.end() + 1]
        if head and tail and _sentence_start(text, head[0][0]) and scan.entities[head[0][2]].defines:
            scan.emit(head[0][2], tail[0][2], "variant_of", head[0][0], tail[0][1])


# a spell an entry lets its user cast: "expend 5 charges to cast *Bind the Beast* from it",
# "You always have the *Beast Speech* spell prepared", "you know the *Light* cantrip"
_USE_BEFORE = re.compile(r"(?:(?<![\w-])cast\s+(?:the\s+)?|(?<![\w-])(?:always\s+)?(?:have|has)\s+the\s+"
                         r"|(?<![\w-])(?:know|knows|learn|learns)\s+the\s+)[*_]*$", re.IGNORECASE)
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
        before = _USE_BEFORE.search(text, max(0, start - 40), start)
        if before is None or scan.entities[index].condition_like:
            continue
        after = _USE_AFTER["cast" if before.group(0).lower().startswith("cast") else "have"]
        if not after.match(text, end) or not _is_named(text, start, end):
            continue
        subject = scan.owner_at(start)
        if subject is not None and not _NEGATION.search(text[sentence_span(text, start, end, limit=400)[0]:start]):
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
