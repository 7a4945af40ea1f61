"""Progress on stderr: the library's progress callback and its steps' events, turned into a display.

On a terminal: rich bars, one for the whole run (books done, elapsed, ETA) and one for the
book being worked on (its name, the step, count, rate and ETA). Off a terminal: a few
plain lines that name the book, each step with its count and the time it has left
("Manual: write: linking 1,204/3,586 sections, about 40 s left"), and a line at least every
``HEARTBEAT`` seconds while a step goes on without one. With ``--quiet``: nothing. The library
reports through ``progress(phase, done, total)`` (extraction, embedding, a model's load) and
its steps' events (core/steps.py: read, plan, verify, link, relations), and, for the book in
hand, its ``book.start`` event; results are rendered by the command after the display is
closed, so they never mix.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Any, Callable

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from crossbook.cli.output import stderr
from crossbook.vectors.model_load import LOADING_MODEL, ModelLoadReporter

__all__ = ["LOADING_MODEL", "ModelLoadReporter", "ProgressReporter", "RateColumn"]
HEARTBEAT = 5.0  # seconds off a terminal with no line while a phase goes on
# the steps the display takes from events (the others come through the progress callback)
EVENT_STEPS = ("read", "plan", "verify", "link", "relations")
# how a step is named, and what it counts, where the library's name says less
LABELS = {"link": "write: linking", "relations": "write: relations", "embed": "vectors: embedding"}
UNITS = {"plan": "chunks", "extract": "chunks", "embed": "children", "verify": "chunks", "link": "sections", "relations": "sections"}


def time_left(done: int, total: int, seconds: float) -> str:
    """"about 40 s left" at the rate so far (``done`` of ``total`` in ``seconds``); '' before a rate."""
    if done <= 0 or total <= done or seconds < 1.0:
        return ""
    left = seconds / done * (total - done)
    return f"about {left:.0f} s left" if left < 90 else f"about {left / 60:.0f} min left"


def counted(label: str, done: int, total: int, unit: str, seconds: float | None = None) -> str:
    """A step as a plain line shows it: "write: linking 1,204/3,586 sections, about 40 s left"."""
    unit = f" {unit}" if unit else ""
    took = f" ({seconds:.0f} s)" if seconds is not None and seconds >= 1.0 else ""
    if not total:
        return f"{label} {done:,}{unit} so far{took}"
    line = f"{label} {done:,}/{total:,}{unit}"
    left = time_left(done, total, seconds) if seconds is not None else ""
    return f"{line}, {left}" if left else line + (took if done < total else "")


class RateColumn(ProgressColumn):
    """Items per second of the current phase ("12.5/s"), blank until rich has a speed."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.1f}/s" if speed else "", style="progress.data.speed")


class ProgressReporter:
    """The progress callback for one command run; a context manager around the work.

    ``label`` names the run ("ingest", "rebuild"); ``books`` is how many books it goes
    through (None: no whole-run bar); ``transient`` bars vanish at the end (a query's
    model load should not stay above its results)."""

    def __init__(self, label: str = "", *, books: int | None = None, quiet: bool = False,
                 tty: bool | None = None, transient: bool = False, heartbeat: float = HEARTBEAT):
        self.label = label
        self.transient = transient
        self.books = books
        self.quiet = quiet
        self.tty = sys.stderr.isatty() if tty is None else tty
        self.book: str | None = None
        self._units: dict[str, str] = {}  # the unit each step counts, as its events say
        self._books_seen = 0
        self._phase: str | None = None
        # books written whose vectors are not stored yet (a run stores them behind the next book)
        self._vectors_due: list[str] = []
        self._progress: Progress | None = None
        self._run_task: Any = None
        self._book_task: Any = None
        self._last: dict[tuple, int] = {}
        self.heartbeat = heartbeat
        self._lock = threading.Lock()
        self._said_at = time.monotonic()           # when the last plain line was printed
        self._current: tuple | None = None         # (where, phase, done, total, started) off a terminal
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None

    # -- the display ---------------------------------------------------------------------------

    def __enter__(self) -> "ProgressReporter":
        if self.tty and not self.quiet:
            self._progress = Progress(
                TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), RateColumn(),
                TextColumn("ETA"), TimeRemainingColumn(), TimeElapsedColumn(),
                console=stderr, transient=self.transient,
            )
            self._progress.start()
            if self.books:
                self._run_task = self._progress.add_task(self._run_description(), total=self.books)
        elif not self.quiet and not self.tty:
            self._ticker = threading.Thread(target=self._beat, name="crossbook-progress", daemon=True)
            self._ticker.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._ticker is not None:
            self._stop.set()
            self._ticker.join()
        if self._progress is not None:
            self._close(exc[0] is None)
        if exc[0] is KeyboardInterrupt and self.book is not None:
            stderr.print(self.interrupted_message(), markup=False)

    def interrupted_message(self) -> str:
        """What a Ctrl-C left in the index: SQLite is committed before the vectors are made."""
        due = [title for title in self._vectors_due if title != self.book]
        others = (f" {len(due)} of them without all their vectors yet ({', '.join(due[:3])}"
                  f"{', ...' if len(due) > 3 else ''}: crossbook books says which; run: crossbook doctor --repair)."
                  if due else "")
        if self._phase in (LOADING_MODEL, "embed", "vectors") or self.book in self._vectors_due:
            return (f"'{self.book}' is in the index without all its vectors "
                    f"(run: crossbook doctor --repair, or ingest it again); the books before it are "
                    f"{'in the index.' + others if due else 'done.'}")
        return f"'{self.book}' was not written; the books before it are in the index.{others}"

    def _close(self, finished: bool) -> None:
        assert self._progress is not None
        if self._book_task is not None:
            self._progress.update(self._book_task, visible=False)
        if self._run_task is not None and finished:
            self._progress.update(self._run_task, completed=self.books, description=self._run_description(done=True))
        self._progress.stop()

    def _run_description(self, done: bool = False) -> str:
        return f"[bold]{self.label}[/bold] books" if not done else f"[bold]{self.label}[/bold] done"

    # -- what the library reports --------------------------------------------------------------

    def event(self, event: dict) -> None:
        """An ingest event: ``book.start`` moves the display to that book; a step's
        ``phase.start`` and ``phase.progress`` show it with its count (core/steps.py)."""
        kind, phase = event.get("event"), event.get("phase")
        if kind in ("phase.start", "phase.progress") and phase == "vectors" and event.get("behind"):
            # a book's vectors stored behind the next book's write (index/changes/behind.py)
            self("embed", event.get("done") or 0, event.get("total") or 0, book=event.get("book"))
        elif kind in ("phase.start", "phase.progress") and phase in EVENT_STEPS:
            self._units[phase] = event.get("unit") or UNITS.get(phase, "")
            self(phase, event.get("done") or 0, event.get("total") or 0)
            return
        if kind == "phase.done" and phase in ("write", "vectors"):
            with self._lock:  # a run's vectors are told by another thread (index/changes/behind.py)
                if phase == "write":
                    self._vectors_due.append(event.get("book"))
                elif event.get("book") in self._vectors_due:
                    self._vectors_due.remove(event.get("book"))
        if kind == "phase.start" and phase in ("write", "vectors") and event.get("book") in (None, self.book):
            self._phase = phase  # what a Ctrl-C leaves: the book not written, or written without its vectors
        if kind != "book.start":
            return
        if self.book is not None and self._run_task is not None and self._progress is not None:
            self._progress.advance(self._run_task)
        self.book = event["book"]
        self._books_seen += 1
        self._phase = None
        self._current = (f"{self.book}: ", "plan", 0, 0, time.monotonic())  # before its first step says more
        if self._progress is None and not self.quiet and self.books and self.books > 1:
            stderr.print(f"{self._books_seen}/{self.books} {self.book}", markup=False)

    def watching(self, sink: Callable[[dict], None]) -> Callable[[dict], None]:
        """An event sink that shows book changes, then passes each event on to ``sink``."""

        def both(event: dict) -> None:
            self.event(event)
            sink(event)

        return both

    def __call__(self, phase: str, done: int, total: int, book: str | None = None) -> None:
        """``phase`` of the current book at ``done`` of ``total`` (``book``: of another book,
        whose vectors a run stores behind: what a Ctrl-C leaves is then not told by it)."""
        previous = self._phase
        if book is None:
            self._phase = phase
        if self.quiet:
            return
        if self._progress is not None:
            self._show(phase, done, total, new_phase=phase != previous, book=book)
            return
        # plain lines: the end of each phase, every 25% of a long one, a model starting to load
        book = book or self.book
        key = (book, phase)
        last = self._last.get(key)
        self._last[key] = done
        if last == done:
            return
        where = f"{book}: " if book else (f"{self.label} " if self.label else "")
        started = self._current[4] if self._current and self._current[:2] == (where, phase) else time.monotonic()
        self._current = (where, phase, done, total, started)
        if phase == LOADING_MODEL:
            if done == 0:
                self._say(f"{where}{LOADING_MODEL}...")
            return
        step = max(25, total // 4)
        if not total and not done:
            return  # a step starting, its count not yet known: its first count or the heartbeat says it
        if done == total or done // step != (last or 0) // step:
            self._say(where + counted(self._label(phase), done, total, self._unit(phase),
                                      None if done == total else time.monotonic() - started))

    def _label(self, phase: str) -> str:
        return LABELS.get(phase, phase)

    def _unit(self, phase: str) -> str:
        return self._units.get(phase) or UNITS.get(phase, "")

    def _say(self, line: str) -> None:
        with self._lock:
            stderr.print(line, markup=False)
            self._said_at = time.monotonic()

    def tick(self, now: float) -> None:
        """Off a terminal: when no line was printed for ``heartbeat`` seconds while a phase
        goes on, print where it is: its count and the time it has left (its seconds so far
        while it has no rate yet)."""
        current = self._current
        if current is None or now - self._said_at < self.heartbeat:
            return
        where, phase, done, total, started = current
        if phase != LOADING_MODEL and total and done >= total:
            return  # the phase ended; the next one will say so
        if phase == LOADING_MODEL:
            shown = f"{LOADING_MODEL}... ({now - started:.0f} s)"
        else:
            shown = counted(self._label(phase), done, total, self._unit(phase), now - started)
        with self._lock:
            stderr.print(f"{where}{shown}", markup=False)
            self._said_at = now

    def _beat(self) -> None:
        while not self._stop.wait(min(1.0, self.heartbeat / 5)):
            self.tick(time.monotonic())

    def _show(self, phase: str, done: int, total: int, new_phase: bool, book: str | None = None) -> None:
        assert self._progress is not None
        name = book or self.book or self.label
        unit = self._unit(phase)
        shown = self._label(phase) + (f" ({unit})" if unit else "")
        description = f"{name} [dim]·[/dim] {shown}" if name else shown
        if self._book_task is None:
            self._book_task = self._progress.add_task(description, total=total, completed=done)
        elif new_phase:
            # a new phase: its own count, rate and ETA
            self._progress.reset(self._book_task, total=total, completed=done, description=description)
        else:
            self._progress.update(self._book_task, total=total, completed=done, description=description)

