"""No rule fails a book: a rule, reader pass or page that raises costs only its own output.

A rule is code written for the forms books usually take, and a book in a form nobody wrote
for (a table of separator rows, ASCII art in a code page) can make one raise. That costs the
section or page it raised on, never the book: the stage's work is run again without the
items that make it raise (found by halving, ``without_failures``), or the one item's work is
skipped (``guarded``), and one warning names the book, the section and the rule (the
innermost public function of crossbook's that raised).

The catch must not hide bugs: in strict mode (``raise_failures(True)``: the test suite, and
``CROSSBOOK_STRICT_RULES=1`` through the CLI) a failure raises as it always did, and every
failure caught is counted (``caught_count``), which ``make eval`` prints per shelf and must be 0.
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

# crossbook's own files: the folder of its top package, wherever it is installed (a checkout's
# folder may itself be named "crossbook", and its tests must not count as crossbook's rules)
_PACKAGE_DIR = Path(__file__).resolve().parent.parent.as_posix() + "/"
_strict = False
_count_lock = threading.Lock()
_caught = 0
_COLLECTOR: ContextVar[list["RuleFailure"] | None] = ContextVar("rule_failures", default=None)


@dataclass(frozen=True)
class RuleFailure:
    """One rule that raised: where, which rule, and the error's type and message."""

    book: str
    section: str
    rule: str
    error: str

    def line(self) -> str:
        """The one warning a user reads."""
        where = f"section '{self.section}'" if self.section else "its text"
        return (f"{self.book}: {where}: rule '{self.rule}' failed ({self.error}); "
                "its output there is left out, the rest of the book is stored")


def section_label(heading_path: Sequence[str], fallback: str = "") -> str:
    """A section as a warning names it: its heading path ("Spells > Frost Lance")."""
    return " > ".join(heading_path) or fallback


def raise_failures(on: bool) -> bool:
    """Strict mode on or off for this process; returns what it was."""
    global _strict
    before, _strict = _strict, on
    return before


def strict() -> bool:
    return _strict


def caught_count() -> int:
    """How many failures this process caught (and warned of) so far."""
    return _caught


@contextmanager
def collecting() -> Iterator[list[RuleFailure]]:
    """Gather the failures caught inside the block (this thread's) into the list yielded."""
    found: list[RuleFailure] = []
    token = _COLLECTOR.set(found)
    try:
        yield found
    finally:
        _COLLECTOR.reset(token)


def rule_of(exc: BaseException) -> str:
    """The rule that raised: the innermost public function of crossbook's in the traceback."""
    frames = traceback.extract_tb(exc.__traceback__)
    for frame in reversed(frames):
        module = Path(frame.filename).resolve().as_posix()
        if module.startswith(_PACKAGE_DIR):
            if not frame.name.startswith(("_", "<")) and "rule_guard" not in module:
                return frame.name
    return frames[-1].name if frames else "unknown"


def _record(book: str, section: str, exc: Exception, rule: str | None = None) -> RuleFailure:
    global _caught
    failure = RuleFailure(book, section, rule or rule_of(exc), f"{type(exc).__name__}: {exc}"[:200])
    with _count_lock:
        _caught += 1
    found = _COLLECTOR.get()
    if found is not None:
        found.append(failure)
    return failure


@contextmanager
def guarded(book: str, section: str, rule: str | None = None,
            warnings: list[str] | None = None) -> Iterator[None]:
    """Run the block; an exception (not in strict mode) ends the block, is recorded and
    warned of in ``warnings`` (when given), and is not raised: the block's output is lost."""
    try:
        yield
    except Exception as exc:
        if _strict:
            raise
        failure = _record(book, section, exc, rule)
        if warnings is not None:
            warnings.append(failure.line())


def map_guarded(items: Sequence[T], work: Callable[[T], R], fallback: Callable[[T], R], book: str,
                label: Callable[[T], str], warnings: list[str] | None = None) -> list[R]:
    """``work`` on each item; an item on which it raises gets ``fallback(item)`` instead, and is
    recorded and warned of by ``label`` (in strict mode the failure raises)."""
    out = []
    for item in items:
        try:
            out.append(work(item))
        except Exception as exc:
            if _strict:
                raise
            failure = _record(book, label(item), exc)
            if warnings is not None:
                warnings.append(failure.line())
            out.append(fallback(item))
    return out


def without_failures(items: Sequence[T], attempt: Callable[[list[T]], R], book: str,
                     label: Callable[[T], str], warnings: list[str] | None = None) -> tuple[R, list[T]]:
    """``attempt(items)``; where it raises, the items whose presence makes it raise (found by
    halving the list) are left out and ``attempt`` runs on the rest. Returns the result and
    the items left out; each is recorded and warned of by ``label``. ``attempt`` must be pure
    over the items it is given. In strict mode the first failure raises."""
    try:
        return attempt(list(items)), []
    except Exception as exc:
        if _strict:
            raise
        first = exc
    failing = _failing(list(items), attempt)
    kept = [item for item in items if not any(item is bad for bad in failing)]
    for item in failing:
        failure = _record(book, label(item), first)
        if warnings is not None:
            warnings.append(failure.line())
    return attempt(kept), failing


def _failing(items: list[T], attempt: Callable[[list[T]], R]) -> list[T]:
    """The items that make ``attempt`` raise: a half that raises on its own is halved again;
    where neither half raises alone but both together do, the whole group is left out."""
    if not items or not _raises(items, attempt):
        return []
    if len(items) == 1:
        return items
    middle = len(items) // 2
    found = _failing(items[:middle], attempt) + _failing(items[middle:], attempt)
    if not found:
        return items
    rest = [item for item in items if not any(item is bad for bad in found)]
    return found + _failing(rest, attempt) if rest and _raises(rest, attempt) else found


def _raises(items: list[T], attempt: Callable[[list[T]], R]) -> bool:
    try:
        attempt(items)
    except Exception:
        return True
    return False
