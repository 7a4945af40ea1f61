"""Claims of the clause an occurrence sits in, with the entry as its unnamed subject.

"Bite. ... the target has the Grappled condition": ``clause_at`` finds the occurrence's
clause and the implicit subject that may claim it (none when negated, in an example, a word
of a longer name, or a field's label); then a state (``state_claim``: inflicts, or counters
for "immune to"), a use (``use_claim``: modifies) or one of the pattern verbs
(``verb_claim``: casts, wields, counters, requires, modifies, inflicts, variant_of), unless
another name before the verb is its own subject (the SVO path's case).
``patterns.implicit_subject_family`` runs them for every occurrence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.models import SUB_ENTRY_SEPARATOR
from ..core.normalize import normalize_name
from ..core.packs import genre_words, per_genres, word_pattern
from ..extract.text import sentence_span
from .pattern_context import (
    EMPHASIS_BEFORE,
    NEGATION,
    ChunkScan,
    PatternEntity,
    form_pattern,
    in_example,
    in_list,
    in_quotation,
    is_named,
    name_fragment,
    strip_entities,
)
from .pattern_lists import list_lead_in, names_condition, state_list_start

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


# "you can use Lore", and the imperative that opens a clause ("Use Will instead of Physique")
_USE = re.compile(r"(?:(?<![\w-])(?:you\s+(?:can\s+|may\s+)?|can\s+|may\s+|instead\s+)|^[\s*_\-–—]*)use\s+"
                  r"(?:your\s+|their\s+|its\s+)?$", re.IGNORECASE)
# what makes "use your X" a new use of X: "instead of Y", "in place of Y", "to defend", "for", "as"
_NEW_USE = re.compile(r"[*_]*\s+(?:instead\s+of|in\s+place\s+of|to|for|as|when|on)(?![\w-])", re.IGNORECASE)
# "you can use Provoke to", "use Lore as a defense": before a verb, the instrument, not a subject
_USE_CLAUSE = re.compile(r"(?:you\s+)?(?:can\s+|may\s+)?use\s+\S+(?:\s+\S+)?"
                         r"(?:\s+(?:instead\s+of|in\s+place\s+of)\s+\S+(?:\s+\S+)?)?\s+(?:to|as\s+an?)\s*$", re.IGNORECASE)
# the skill a stunt replaces is no subject: "use Investigate instead of Empathy to defend against Deceive"
_REPLACED = re.compile(r"(?<![\w-])(?:instead\s+of|in\s+place\s+of)\s+(?:your\s+)?$", re.IGNORECASE)
# markup may close after the punctuation: "**Term:**", "<strong>Term:</strong>"
_CLAUSE = re.compile(r"[;:](?:[*_]|</\w+>)*\s|[.!?](?:[*_)\]]|</\w+>)+\s|,\s+(?:and|but|or|then)\s", re.IGNORECASE)
_CONDITIONAL = re.compile(r"(?<![\w-])(?:if|unless|when|whenever|while|once|until)(?![\w-])", re.IGNORECASE)
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


@per_genres
def _roll_after() -> re.Pattern:
    """A name that is what is rolled, not who acts ("succeed on a Constitution saving throw"),
    also the first of a list of such names ("a Strength or Dexterity saving throw"): the
    rulebook pack's ``roll_words`` after it."""
    return re.compile(rf"(?:[\s*_]*(?:,|\bor\b|\band\b)[\s*_]*[A-Z][\w'’-]*)*"
                      rf"[\s*_]+(?:{word_pattern(genre_words('rulebook', 'roll_words'))})\b", re.IGNORECASE)
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
            pattern = r"^[\s*_]*(?:the\s+|an?\s+)?" + form_pattern(form).pattern + _AUXILIARY + r"[\s*_]*$"
            if re.match(pattern, candidate, form_pattern(form).flags):
                return True
    return False


# "+1 to attack rolls and your attacks are Weapon:2": past a copula the name is another clause's
_COPULA_WORD = re.compile(r"(?<![\w-])(?:is|are|was|were)(?![\w-])", re.IGNORECASE)


def _in_enumeration(text: str, occurrences, lo: int, at: int) -> bool:
    """True when every entity before ``at`` in the sentence is part of a list that ends at ``at``."""
    earlier = [o for o in occurrences if lo <= o[0] < at]
    first = earlier[0][0]
    return not strip_entities(text, occurrences, first, at) and _VERB_BEFORE.search(text[lo:first]) is not None


_VERB_BEFORE = re.compile("|".join(p for p in _VERBS.values()), re.IGNORECASE)


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


def clause_at(scan: ChunkScan, start: int, end: int, index: int) -> _Clause | None:
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
    if _negated(before) or in_example(text, sentence_lo, start):
        return None  # "can still cast most spells, but not Thunderclap"; "(like using Stealth to ...)"
    if name_fragment(text, start, end):
        return None  # "Talk" in "requires Fast Talk": part of a longer name, not this entity
    if _FIELD_LABEL.search(text, max(0, start - 40), start) and _LABEL_END.match(text, end):
        return None  # "**Casting Time:** 1 action": a field's label, no verb and its object
    return _Clause(start, end, index, subject, lo, sentence_lo, before)


# a negation in a relative clause describes who is meant ("each creature that isn’t an aberration")
_RELATIVE_BEFORE = re.compile(r"(?<![\w-])(?:that|who|which)\s+$", re.IGNORECASE)


def _negated(before: str, negation: re.Pattern = NEGATION) -> bool:
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
        and (not capitalized or is_named(text, o[0], o[1]))
        and not _USE.search(text[max(lo, o[0] - 30):o[0]]) and not _REPLACED.search(text[max(lo, o[0] - 30):o[0]])
        and not _roll_after().match(text, o[1])  # "a DC 13 Constitution saving throw or be Poisoned"
        for o in scan.occurrences
    ) and not _in_enumeration(text, scan.occurrences, lo, clause.start)


def state_claim(scan: ChunkScan, clause: _Clause, named: bool) -> bool:
    """"has the Grappled condition", "is Dazed": a state written as a name ("its function is
    specialized" names no condition). True when the occurrence is such a state (claimed or not)."""
    text, entity, start, before = scan.text, scan.entities[clause.index], clause.start, clause.before
    list_start = state_list_start(text, scan.occurrences, scan.entities, start) if entity.condition_like else start
    state_before = text[clause.lo:list_start]
    if not (names_condition(text, scan.occurrences, clause.end) or (
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


def use_claim(scan: ChunkScan, clause: _Clause) -> bool:
    """"you can use Lore instead of Empathy", "use Physique to defend against Fight": modifies.
    True when claimed."""
    before = clause.before
    use = _USE.search(before[-30:] if len(before) > 30 else before)
    # the imperative is the entry's only in an entry's own paragraph: a section's
    # "Use Lore as your Hard approach" advises the reader
    imperative = use is not None and use.group(0).strip(" \t*_-–—").lower().startswith("use")
    # "you use Contacts": the reader acts, so "a conflict" before it is no other agent
    readers = use is not None and (imperative or use.group(0).lstrip(" \t*_-–—").lower().startswith("you"))
    # "you use your Charisma whenever a spell refers to ...": one's own ability, no new use of it
    owned_only = use is not None and re.search(r"(?:your|their|its)\s+$", use.group(0), re.IGNORECASE) \
        and not _NEW_USE.match(scan.text, clause.end)
    if use and not owned_only and not _named_before(scan, clause, clause.start, capitalized=readers) \
            and not (imperative and clause.subject == scan.section_subject):
        scan.emit(clause.subject, clause.index, "modifies", clause.start, clause.end)
        return True
    return False


_INTRANSITIVE_AFTER = re.compile(r"\s+(?:if|when|unless|once|after|before|early|as|at|on)\b", re.IGNORECASE)


def verb_claim(scan: ChunkScan, clause: _Clause) -> None:
    """The verbs of the module docstring with the implicit subject before them, or the verb of
    the line ending in ':' that introduces a list item."""
    text, lo, start, before = scan.text, clause.lo, clause.start, clause.before
    lead_in = list_lead_in(text, lo)
    for kind, verb in _VERB_RE.items():
        if kind == "inflicts" and not scan.entities[clause.index].condition_like:
            continue  # "cause a mild consequence to a named NPC": one inflicts states
        last = None
        for match in verb.finditer(before):
            if not (EMPHASIS_BEFORE.search(before, 0, match.start())
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
        if any(lo + last.end() <= o[0] < start and is_named(text, o[0], o[1])
               and not in_list(text, o[1], start) for o in scan.occurrences):
            break  # the verb's object is an earlier name; this one is further on
        gap = strip_entities(text, scan.occurrences, lo + last.end(), start)
        if len(gap) > 40 or _COPULA_WORD.search(text, lo + last.end(), start) \
                or _named_before(scan, clause, lo + last.start(), (lo + last.start(), lo + last.end())) \
                or not (_implicit_clause(_USE_CLAUSE.sub(" ", before[:last.start()]), last.start())
                        or _own_name_clause(before, last.start(), scan.entities[clause.subject])) \
                or _PASSIVE.search(before[:last.start()]) or in_quotation(text, clause.sentence_lo, lo + last.start()):
            break
        scan.emit(clause.subject, clause.index, kind, start, clause.end)  # enumerations: "casts Light, Sunburst and X"
        break
