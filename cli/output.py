"""Rendering and error handling shared by every command.

stdout carries only the result (one JSON document with --json); progress, warnings and
errors go to stderr. A CrossbookError is one line and exit 1; usage errors are Click's 2.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import sys
import threading
from datetime import datetime, timezone
from typing import Any, Callable, Iterator, NoReturn

import typer
from rich.console import Console

from crossbook.core import errors
from crossbook.core.errors import CrossbookError


class ResultConsole(Console):
    """stdout's console: a reader that goes away (``| head``) ends the command quietly with
    exit 0 (rich's default exits 1)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError()  # cli_errors() (or main.run) ends it with exit 0


# off a terminal rich would wrap tables at 80 columns; scripts get whole lines instead
stdout = ResultConsole(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 200)
stderr = Console(stderr=True, highlight=False, soft_wrap=True)


def _default(value: Any) -> Any:
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if isinstance(value, (set, tuple)):
        return list(value)
    return str(value)


def emit(result: Any, as_json: bool, render: Callable[[Console], None]) -> None:
    """Print ``result`` as one JSON document, or call ``render`` for humans."""
    if as_json:
        sys.stdout.write(json.dumps(result, ensure_ascii=False, indent=2, default=_default) + "\n")
    else:
        render(stdout)


def plain_table(*columns: str):
    """A rich Table with these column headings, no box (rich.table is imported here, when a
    command renders one)."""
    from rich.table import Table

    return Table(*columns, box=None, padding=(0, 2))


def section_in_book(book: str, heading_path: str | None) -> str:
    """A section's heading path without the book title it starts with, for lines that
    already name the book ("Creatures > Frost Wyrm", not "Bestiary > Creatures > ...")."""
    if not heading_path:
        return "(before the first heading)"
    parts = heading_path.split(" > ")
    if len(parts) > 1 and parts[0] == book:
        return " > ".join(parts[1:])
    return heading_path


def location(pages: list[int] | None, file: str | None) -> str:
    """Where a hit is in its source, for text output: ``p. 117``, ``pp. 117-118``, the
    chapter file or note (``OEBPS/ch03.xhtml``), both, or "" when unknown (a Markdown book)."""
    parts = []
    if file:
        parts.append(file)
    if pages:
        first, last = pages[0], pages[-1]
        parts.append(f"p. {first}" if first == last else f"pp. {first}-{last}")
    return ", ".join(parts)


def relation_label(relation_type: str, polarity: str | None) -> str:
    """A relationship as a reader should take it: a denied one must not read as asserted."""
    if polarity == "denied":
        return f"NOT {relation_type}"
    if polarity == "uncertain":
        return f"{relation_type} (uncertain)"
    return relation_type


def warn(message: str) -> None:
    stderr.print(f"Warning: {message}", markup=False)


class RetryWarnings(logging.Handler):
    """The openai client retries a failing endpoint on its own (the embedder's requests):
    each retry becomes a warning that says what is retried, instead of a silent wait."""

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if message.startswith("Retrying request"):
            warn(f"the OpenAI-compatible endpoint did not answer; {message[0].lower()}{message[1:]}")


def report_retries() -> None:
    """Show the openai client's retries as warnings (once per process)."""
    logger = logging.getLogger("openai")
    if not any(isinstance(h, RetryWarnings) for h in logger.handlers):
        logger.addHandler(RetryWarnings(logging.INFO))
    if logger.level == logging.NOTSET or logger.level > logging.INFO:
        logger.setLevel(logging.INFO)


def error_code(exc: BaseException) -> str:
    """A stable machine-readable name for an error: its class in snake_case
    (EntityNotFound -> "entity_not_found"), as CrossbookError.code gives it."""
    return errors.error_code(exc)


def fail(code: str, message: str, as_json: bool, exit_code: int = 1, **details: Any) -> NoReturn:
    """Report an error: one line on stderr, and under --json also
    ``{"error": {"code", "message", ...}}`` on stdout; then exit."""
    if as_json:
        document = {"error": {"code": code, "message": message, **details}}
        sys.stdout.write(json.dumps(document, ensure_ascii=False, indent=2, default=_default) + "\n")
    stderr.print(f"Error: {message}", markup=False)
    raise typer.Exit(exit_code)


def closed_stdout() -> None:
    """The reader of stdout went away (``crossbook books | head``): that is normal for a
    CLI, so say nothing and exit 0. What is still buffered goes to /dev/null, or Python
    would report a second broken pipe when it flushes stdout at exit."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout without a file descriptor (a test runner's)
        pass


@contextlib.contextmanager
def cli_errors(debug: bool, as_json: bool = False) -> Iterator[None]:
    """Map library errors to one stderr line and an exit code; tracebacks only with --debug.
    Under --json the error is also the JSON document on stdout."""
    try:
        yield
    except CrossbookError as exc:
        if debug:
            raise
        details = {"suggestions": exc.suggestions} if getattr(exc, "suggestions", None) else {}
        if getattr(exc, "skipped", None):  # BooksSkipped: the files left out, for a script
            details["skipped"] = exc.skipped
        fail(error_code(exc), str(exc), as_json, **details)
    except KeyboardInterrupt:
        stderr.print("Interrupted.", markup=False)
        raise typer.Exit(130) from None
    except BrokenPipeError:
        closed_stdout()
        raise typer.Exit(0) from None
    except (typer.Exit, typer.Abort):
        raise
    except sqlite3.OperationalError as exc:
        if debug:
            raise
        if "readonly" in str(exc):
            fail("index_read_only", "the index is read-only: this command writes to it (queries still work)", as_json)
        if "database is locked" in str(exc):  # a process other than crossbook writing to it
            fail("index_busy", "index is busy: another process holds the database's write lock "
                 "(crossbook writers wait for each other; run this again when it has finished)", as_json)
        fail("unexpected", f"unexpected OperationalError: {exc} (run with --debug for the traceback)", as_json)
    except Exception as exc:  # anything unexpected: one line, details with --debug
        if debug:
            raise
        fail("unexpected", f"unexpected {type(exc).__name__}: {exc} (run with --debug for the traceback)", as_json)


class EventWriter:
    """``--events FILE|-``: one JSON object per line (NDJSON), flushed as it happens, so a
    script can follow a long ingest; each record gets ``time``, when it happened (UTC, ISO
    8601). ``-`` is stdout; the command's result then goes to stdout as the last event,
    ``{"event": "result", ...}``, and its text form to stderr."""

    def __init__(self, target: str | None):
        self.target = target
        self.to_stdout = target == "-"
        self._file = None
        self._lock = threading.Lock()  # a run's vectors are told from another thread (index/changes/behind.py)

    def __enter__(self) -> "EventWriter":
        if self.target and not self.to_stdout:
            try:
                self._file = open(self.target, "w", encoding="utf-8")
            except OSError as exc:
                raise CrossbookError(f"cannot write events to '{self.target}': {exc.strerror}") from None
        return self

    def __exit__(self, *exc) -> None:
        if self._file is not None:
            self._file.close()

    def __call__(self, event: dict) -> None:
        stream = sys.stdout if self.to_stdout else self._file
        if stream is None:
            return
        stamped = {**event, "time": datetime.now(timezone.utc).isoformat(timespec="milliseconds")}
        line = json.dumps(stamped, ensure_ascii=False, default=_default) + "\n"
        with self._lock:
            stream.write(line)
            stream.flush()

    def emit(self, result: Any, as_json: bool, render: Callable[[Console], None]) -> None:
        """The command's result: the last event on stdout with ``-``, else as emit()."""
        if self.to_stdout:
            self({"event": "result", "result": result})
            render(stderr)
        else:
            emit(result, as_json, render)
