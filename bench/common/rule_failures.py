"""How many rule failures a shelf's build caught (index/core/rule_guard.py: a rule that raised
on a section, its output left out). ``make eval`` prints the count per shelf; it must be 0:
a failure caught in an eval is a bug the catch hid (rerun with CROSSBOOK_STRICT_RULES=1 in the
environment, or under the test suite's strict mode, to see its traceback)."""

from __future__ import annotations

import sys

from crossbook.core.rule_guard import caught_count

_reported = [0]


def report(shelf: str) -> int:
    """Print (to stderr: a script's --json stays one document) and return the failures caught
    since the last report (the shelf just built)."""
    now = caught_count()
    count, _reported[0] = now - _reported[0], now
    print(f"rule failures caught, {shelf}: {count}" + ("" if count == 0 else "  (must be 0: a bug the catch hid)"),
          file=sys.stderr, flush=True)
    return count
