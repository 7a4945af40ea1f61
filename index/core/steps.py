"""A step of a long change told as it goes, through the change's event sink (``ingest --events``).

Each step of an ingest (read, plan, extract, link, relations, vectors; docs/cli.md) is told
by a ``phase.start`` event (with what it counts: its ``total`` and ``unit``), ``phase.progress``
events as it goes (``done`` of ``total``, at most one every ``PERIOD`` seconds, so a file of
events stays small and a display stays current) and a ``phase.done`` event. A progress display
(cli/progress.py) shows each step from these events with its count and an estimate of the time
left; a script reads the same lines.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

EventFn = Callable[[dict], None]
PERIOD = 0.5  # seconds between two phase.progress events of one step


def no_event(event: dict) -> None:
    """Events go nowhere (the default of every ``events`` hook)."""


class Tally:
    """What one step has done: ``tally(done, total)`` tells it (a ``phase.progress`` event when
    ``PERIOD`` has passed since the last, or the step's count is reached)."""

    def __init__(self, events: EventFn, phase: str, book: str | None, total: int | None, unit: str):
        self.events, self.phase, self.book, self.unit = events, phase, book, unit
        self.total = total
        self.done = 0
        self.fields: dict = {}  # more of the step's counts, told with its phase.done
        self._told = time.monotonic()

    def __call__(self, done: int, total: int | None = None) -> None:
        self.done = done
        self.total = self.total if total is None else total
        now = time.monotonic()
        if now - self._told < PERIOD and (self.total is None or done < self.total):
            return
        self._told = now
        self.events({"event": "phase.progress", "phase": self.phase, "book": self.book, "done": done,
                     "total": self.total, "unit": self.unit})


@contextmanager
def step(events: EventFn | None, phase: str, book: str | None, total: int | None = None, unit: str = "",
         **done_fields) -> Iterator[Tally]:
    """``phase.start`` (``total`` ``unit``s to do), the block (which tells its progress to the
    ``Tally`` it gets), then ``phase.done`` with the count done and ``done_fields`` (a block
    may add to them: ``tally.fields``). Nothing is told of a block that raised but its start."""
    events = events or no_event
    events({"event": "phase.start", "phase": phase, "book": book, "total": total, "unit": unit})
    tally = Tally(events, phase, book, total, unit)
    tally.fields.update(done_fields)
    yield tally
    events({"event": "phase.done", "phase": phase, "book": book, "done": tally.done if tally.done else tally.total,
            "unit": unit, **tally.fields})
