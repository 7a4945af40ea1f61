"""Claims a rulebook does not make, dropped after the pattern and SVO families have read a chunk.

- no self-loop: an entity is no variant of itself, nor of its own abbreviation ("Threat
  Level" and "TL": the book gives an alias, not a second thing);
- no claim ends at a field's label ("**At Will:** *Light*", "Prerequisite: Level 4+");
- ``variant_of`` never ends at a size word ("is a Large object"), an abbreviation, an entity typed ``class`` or a class a spell's header
  line lists as having the spell ("Level 2 Evocation (Wizard)");
- ``inflicts`` and ``counters`` never join a rule to the condition its name holds ("Being
  Prone", "Falling Unconscious": the rule is about the condition);
- ``inflicts`` needs someone else to suffer the condition: "the shadow has the Invisible
  condition" and "While Invisible, the shadow ..." are the entry's own state;
- ``inflicts`` is no resistance ("advantage on saving throws against being Blinded", "can't
  be charmed") and no condition the reader suffers alone ("you suffer one level of
  exhaustion"); a cure ("end one effect causing you to be charmed") is ``counters``
  (state_guards.py);
- no claim joins two items of one list ("ended by *greater restoration*, *heal*, or *wish*");
- ``counters`` is no immunity ("immune to", "has Immunity to Poison": immunity is no
  relation here) and never runs backwards (what a chunk says X inflicts, X does not counter).

The word lists (sizes, immunity words) are the rulebook pack's ``[words]``.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from typing import Callable, Iterable

from ..core.models import SUB_ENTRY_SEPARATOR, RawRelation
from ..core.normalize import normalize_name
from ..core.packs import genre_words, per_genres, word_pattern
from .pattern_context import PatternEntity
from .state_guards import CURED, OWN, RESISTED, condition_reading

TypeOf = Callable[[str], str | None]
_FUNCTION_WORDS = frozenset({"of", "the", "and", "a", "an", "with", "to", "for", "in", "on"})
# who has the condition right before it: "the shadow has the", "The rug is"
# (the clause's own subject: "A creature adhered to the mimic is grappled" is the creature's)
_HOLDER_BEFORE = re.compile(r"(?:^|[.;:,!?*_]\s*|(?<![\w-])(?:and|while|when|whenever|if|until|unless)\s+)"
                            r"the\s+(?P<word>[\w'’-]+)\s+(?:is|are|has\s+the|have\s+the"
                            r"|becomes|gains\s+the|remains|stays)\s+(?:\w+\s+)?[*_]*$", re.IGNORECASE)
# "While Invisible, the shadow ...": the clause's own subject holds the state
_WHILE_STATE = re.compile(r"(?:^|[.;:!?]\s+|[*_]\s*)while\s+(?:it\s+is\s+|it\s+has\s+the\s+)?[*_]*$", re.IGNORECASE)
_OWN_SUBJECT_AFTER = re.compile(r"[*_]*(?:\s+condition)?[*_]*\s*,\s*(?:the\s+(?P<word>[\w'’-]+)|it)\b", re.IGNORECASE)


def pack_words(key: str) -> frozenset[str]:
    """A rulebook word list, casefolded; read where a rule runs (empty where the book's genres
    leave the rulebook out: core/genres.py)."""
    return _casefolded(genre_words("rulebook", key))


@per_genres
def _cure() -> re.Pattern:
    """A cure stated beside an immunity: "ends the condition", "removes", "dispels" (the pack's ``cure_verbs``)."""
    return re.compile(rf"(?<![\w-])(?:{word_pattern(genre_words('rulebook', 'cure_verbs'))})(?![\w-])", re.IGNORECASE)


@lru_cache(maxsize=64)
def _casefolded(words: frozenset[str]) -> frozenset[str]:
    return frozenset(w.casefold() for w in words)


def abbreviation_of(short: str, name: str) -> bool:
    """True when ``short`` is the initials of ``name``: "TL" of "Threat Level", "AC" of "Armor Class"."""
    letters = re.sub(r"[^A-Za-z]", "", short)
    words = [w for w in re.findall(r"[A-Za-z][\w'’-]*", name) if w.casefold() not in _FUNCTION_WORDS]
    return 1 < len(letters) <= 6 and len(words) == len(letters) and \
        letters.casefold() == "".join(w[0] for w in words).casefold()


def written_as_abbreviation(name: str, evidence: str) -> bool:
    """True when the evidence writes the one-word name in capitals only ("TL 5" for "Tl")."""
    word = name.strip()
    if " " in word or not 1 < len(word) <= 5 or not word.isalpha():
        return False
    written = [m.group(0) for m in re.finditer(rf"(?<![\w-]){re.escape(word)}(?![\w-])", evidence, re.IGNORECASE)]
    return bool(written) and all(w.isupper() for w in written)


def _forms(entity: PatternEntity | None, name: str) -> tuple[str, ...]:
    return tuple({name, *(entity.forms if entity else ())})


def _spans(evidence: str, forms: Iterable[str]) -> list[tuple[int, int]]:
    out = []
    for form in forms:
        words = [re.escape(w) for w in form.split()]
        if words:
            pattern = r"(?<![\w])" + r"[\s*_]+".join(words) + r"(?:e?s|'s|’s)?(?![\w])"
            out += [(m.start(), m.end()) for m in re.finditer(pattern, evidence, re.IGNORECASE)]
    return out


def is_field_label(evidence: str, forms: Iterable[str], within: Iterable[str] = ()) -> bool:
    """True when every occurrence of the name opens a field: "Prerequisite: Level 4+"; one
    inside a name of ``within`` (the other end: "Slowing" in "**Master Slowing:**") opens that
    name's field, not its own."""
    outer = _spans(evidence, within)
    spans = _spans(evidence, forms)
    return bool(spans) and all(re.match(r"[*_]*\s*:", evidence[hi:]) and not any(a <= lo and hi <= b for a, b in outer)
                               for lo, hi in spans)


def own_condition(evidence: str, source: str, forms: Iterable[str]) -> bool:
    """True when every occurrence of the condition is held by the source itself ("the shadow
    has the Invisible condition", "While Invisible, the shadow ...")."""
    own = {word for name in source.split(SUB_ENTRY_SEPARATOR) for word in normalize_name(name).split("_")}
    spans = _spans(evidence, forms)

    def held(start: int, end: int) -> bool:
        before = _HOLDER_BEFORE.search(evidence[max(0, start - 60):start])
        if before is not None:
            return normalize_name(before.group("word")) in own
        if _WHILE_STATE.search(evidence[max(0, start - 30):start]):
            after = _OWN_SUBJECT_AFTER.match(evidence, end)
            return after is not None and (after.group("word") is None or normalize_name(after.group("word")) in own)
        return False

    return bool(spans) and all(held(start, end) for start, end in spans)


def is_immunity(evidence: str) -> bool:
    """True when the evidence states an immunity and no cure."""
    words = re.findall(r"[\w-]+", evidence.casefold())
    return any(w in pack_words("immunity_words") for w in words) and not _cure().search(evidence)


def names_within(inner: str, outer: str) -> bool:
    """True when every word of ``inner``'s name is a word of ``outer``'s ("Prone" in "Being Prone")."""
    words = set(normalize_name(outer).split("_"))
    return bool(normalize_name(inner)) and set(normalize_name(inner).split("_")) <= words


_SIBLINGS = re.compile(r"[\s*_]*(?:,|;|(?<![\w-])or(?![\w-]))[\s*_]*(?:(?:or|and)[\s*_]+)?")


def _whole_item(evidence: str, lo: int, hi: int) -> bool:
    """True when the name at ``lo:hi`` is a whole item: markup, a separator or an edge of the
    text on either side ("*heal*," but not the "mage" of "*mage hand*")."""
    return bool(re.match(r"[*_]*\s*(?:[,;.:)]|(?:or|and)(?![\w-])|$)", evidence[hi:])
                and re.search(r"(?:[,;:(]|(?<![\w-])(?:or|and|by)|^)\s*[*_]*$", evidence[:lo]))


def list_siblings(evidence: str, source_forms: Iterable[str], target_forms: Iterable[str]) -> bool:
    """True when the two ends are neighbours in one list ("can also be ended by *greater
    restoration*, *heal*, or *wish*"): items of a list are not said to act on each other."""
    targets = [span for span in _spans(evidence, target_forms) if _whole_item(evidence, *span)]
    for s_lo, s_hi in _spans(evidence, source_forms):
        if not _whole_item(evidence, s_lo, s_hi):
            continue  # "Mage" in "*mage hand*" is no item of the list
        for t_lo, t_hi in targets:
            gap = evidence[s_hi:t_lo] if s_hi <= t_lo else evidence[t_hi:s_lo]
            if _SIBLINGS.fullmatch(gap):
                return True
    return False


def self_loop(source: str, target: str) -> bool:
    a, b = normalize_name(source), normalize_name(target)
    return a == b or abbreviation_of(source, target) or abbreviation_of(target, source)


def _bad_variant(rel: RawRelation, target: PatternEntity | None, holders: set[str]) -> bool:
    name, evidence = rel.target_name or "", rel.evidence or ""
    return (normalize_name(name) in {normalize_name(w) for w in pack_words("creature_sizes")}
            or normalize_name(name) in holders
            or (target is not None and target.entity_type == "class")
            or written_as_abbreviation(name, evidence))


def _read_states(raw: list[RawRelation], kinds: list[str | None], by_name: dict[str, PatternEntity]):
    """An ``inflicts`` claim whose condition is resisted or the subject's own goes; one whose
    condition is cured is a ``counters`` claim (state_guards.py)."""
    out, out_kinds = [], []
    for rel, kind in zip(raw, kinds):
        if kind == "inflicts":
            target = rel.target_name or ""
            own = frozenset(w for name in (rel.source_name or "").split(SUB_ENTRY_SEPARATOR)
                            for w in normalize_name(name).split("_") if w and w not in _FUNCTION_WORDS)
            read = condition_reading(rel.evidence or "", _spans(rel.evidence or "", _forms(by_name.get(target), target)), own)
            if read in (OWN, RESISTED):
                continue
            if read == CURED:
                rel, kind = replace(rel, relation_type="counters"), "counters"
        out.append(rel)
        out_kinds.append(kind)
    return out, out_kinds


def guarded(raw: list[RawRelation], entities: list[PatternEntity], type_of: TypeOf,
            holders: set[str] = frozenset()) -> list[RawRelation]:
    """The claims of ``raw`` the book states (see the module docstring); ``holders`` are the
    normalized names a spell header lists as having the spell."""
    by_name: dict[str, PatternEntity] = {}
    for entity in entities:
        by_name.setdefault(entity.name, entity)
    raw, kinds = _read_states(raw, [type_of(r.relation_type or "") for r in raw], by_name)
    inflicted = {(normalize_name(r.source_name or ""), normalize_name(r.target_name or ""))
                 for r, kind in zip(raw, kinds) if kind == "inflicts"}
    out = []
    for rel, kind in zip(raw, kinds):
        source, target = rel.source_name or "", rel.target_name or ""
        evidence = rel.evidence or ""
        if self_loop(source, target) or is_field_label(evidence, _forms(by_name.get(target), target),
                                                       _forms(by_name.get(source), source)):
            continue  # "casts At Will" from "**At Will:** *Light*": a field's label is no end
        if list_siblings(evidence, _forms(by_name.get(source), source), _forms(by_name.get(target), target)):
            continue
        if kind == "variant_of" and _bad_variant(rel, by_name.get(target), holders):
            continue
        if kind in ("inflicts", "counters") and names_within(target, source):
            continue  # "Being Prone", "Falling Unconscious": a rule about the condition, not a cause
        if kind == "inflicts" and own_condition(evidence, source, _forms(by_name.get(target), target)):
            continue
        if kind == "counters" and (is_immunity(evidence)
                                   or (normalize_name(source), normalize_name(target)) in inflicted):
            continue
        out.append(rel)
    return out
