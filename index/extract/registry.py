"""Every extraction rule, stage by stage, in the order each stage runs them (the rule
contract: index/extract/contract.py). ``make eval`` switches them off one by one by these names."""

from __future__ import annotations

from ..readers import reader_rules
from .entry_rules import FINDING as ENTRY_FINDING
from .entry_rules import VETOES as ENTRY_VETOES
from .heading_rules import CONCEPTS, DECISION_VETOES, DEFINING, PLACE_SCREENS, REINSTATED, SCREENS, SHAPED, WHOLE_NAMES
from .marks import GUESS_VETOES, MARK_VETOES, MARKS, reader_rule

STAGES = {
    "headings": (*PLACE_SCREENS, *CONCEPTS, *SCREENS, *REINSTATED, *SHAPED, *DECISION_VETOES, *DEFINING, *WHOLE_NAMES),
    "entries": (*ENTRY_VETOES, *ENTRY_FINDING),
    # what a reader marks exactly: a note's name, a page's subject and terms (its markup, its
    # inventory, a back index), its links; each named by the rule that stores it
    "documentation conventions, inventories and links": (*MARK_VETOES, *MARKS),
    # the vetoes over an extractor's own mentions where a reader marks exactly
    "guesses": GUESS_VETOES,
}


def mark_rules() -> tuple[str, ...]:
    """The names a mark is stored under: the mark rules', a reader's own rule in place of
    ``reader_rule`` (readers.reader_rules)."""
    return tuple(name for rule in MARKS for name in (reader_rules() if rule is reader_rule else (rule.__name__,)))


def rule_names() -> list[str]:
    """Every rule's name, once, stage by stage (a rule two registries share counts once)."""
    names = [rule.__name__ for stage in STAGES.values() for rule in stage if rule not in MARKS]
    return list(dict.fromkeys([*names, *mark_rules()]))
