"""The contract every extraction rule keeps, as ``relations/patterns.FAMILIES`` is for relations.

A rule is a small named function over one stage's view of a book or a section and the
candidate it is asked about (a heading's node, a section's bold lead, a documentation mark).
It answers True when it applies. Two kinds, each stage holding an ordered tuple of each:

- a **veto** drops a candidate and its name says why ("lead_in", "stop_heading");
- a **finding** rule makes a mention ("catalog_entry", "bold_lead"); when several agree, the
  first in order names the stored mention (``entity_mentions.rule``). Where a reader states
  the candidates (a note's name, a page's terms, its links: marks.py), the finding rule yields
  them, each with the name of the rule that stores it ("note_name", "doc_term", "doc_link").

The stages and their registries (index/extract/registry.py lists them all): headings
(heading_rules.py), entries (entry_rules.py: bold leads, definition lists, table columns),
documentation conventions, inventories and links (marks.py: what a reader marks exactly).

A rule can be switched off (``rules_off``), for the ablation ``make eval`` prints: a vetoing
rule off never drops, a finding rule off never agrees.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

Rule = Callable[..., bool]  # (view, candidate) -> True when the rule applies

_OFF: ContextVar[frozenset[str]] = ContextVar("extraction_rules_off", default=frozenset())


def rule_name(rule: Rule) -> str:
    return rule.__name__


def is_on(rule: Rule | str) -> bool:
    """False when the rule (or the rule of that name) is switched off."""
    return (rule if isinstance(rule, str) else rule.__name__) not in _OFF.get()


def first_rule(rules: Iterable[Rule], *args) -> str | None:
    """The name of the first rule (in order, switched on) that applies to ``args``, else None."""
    off = _OFF.get()
    for rule in rules:
        if rule.__name__ not in off and rule(*args):
            return rule.__name__
    return None


@contextmanager
def rules_off(names: Iterable[str]) -> Iterator[None]:
    """Run the block with the named rules switched off (the ablation of ``make eval``)."""
    token = _OFF.set(_OFF.get() | frozenset(names))
    try:
        yield
    finally:
        _OFF.reset(token)
