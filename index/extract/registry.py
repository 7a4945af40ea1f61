"""Every extraction rule, stage by stage, in the order each stage runs them (the rule
contract: index/extract/contract.py). ``make eval`` switches them off one by one by these names."""

from __future__ import annotations

from .entry_rules import FINDING as ENTRY_FINDING
from .entry_rules import VETOES as ENTRY_VETOES
from .heading_rules import DECISION_VETOES, DEFINING, REINSTATED, SCREENS, SHAPED, WHOLE_NAMES
from .marks import GUESS_VETOES, MARKS

STAGES = {
    "headings": (*SCREENS, *REINSTATED, *SHAPED, *DECISION_VETOES, *DEFINING, *WHOLE_NAMES),
    "entries": (*ENTRY_VETOES, *ENTRY_FINDING),
    # what a reader marks exactly: a note's name, a page's subject and terms (its markup, its
    # inventory, a back index), its links; each named by the rule that stores it
    "documentation conventions, inventories and links": MARKS,
    # the vetoes over an extractor's own mentions where a reader marks exactly
    "guesses": GUESS_VETOES,
}
# the names a mark is stored under (one finding rule of marks.py may store several)
MARK_RULES = ("note_name", "statblock_name", "page_subject", "doc_term", "anchor_name", "sibling_run", "back_index",
              "doc_link", "wikilink")


def rule_names() -> list[str]:
    """Every rule's name, once, stage by stage (a rule two registries share counts once)."""
    names = [rule.__name__ for stage in STAGES.values() for rule in stage if rule not in MARKS]
    return list(dict.fromkeys([*names, *MARK_RULES]))
