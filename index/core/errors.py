"""Errors the library raises; the CLI turns each into a one-line message and exit code 1."""

import re


def redact(text: str, secret: str | None) -> str:
    """``text`` without ``secret`` (an endpoint's error message may quote the API key)."""
    return text.replace(secret, "***") if secret else text


class CrossbookError(Exception):
    """Base class: the message is one line a user can act on."""

    @property
    def code(self) -> str:
        """A stable machine-readable name for the error, the ``code`` of the CLI's JSON
        error: the class name in snake_case (EntityNotFound -> "entity_not_found")."""
        return error_code(self)


def error_code(exc: BaseException) -> str:
    """The snake_case name of ``exc``'s class, for any exception (see CrossbookError.code)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", type(exc).__name__).lower()


class BadInput(CrossbookError):
    """A path, file or argument the user gave cannot be used (nothing was changed)."""


class NotAnIndex(CrossbookError):
    """The index directory exists but is not a crossbook index."""


class IndexReadOnly(CrossbookError):
    """The index cannot be written (a read-only file or directory)."""


class IndexMissing(CrossbookError):
    """A read command ran before anything was ingested."""


class BookNotFound(CrossbookError):
    """The named book is not in the index."""


class EntityNotFound(CrossbookError):
    """No entity of that name; ``suggestions`` holds close names."""

    def __init__(self, message: str, suggestions: list[str] | None = None):
        super().__init__(message)
        self.suggestions = suggestions or []


class ExtractionFailed(CrossbookError):
    """The extractor could not produce a valid answer for a chunk (the book was not changed)."""


class ChunksFailed(ExtractionFailed):
    """Some chunks of a book got no valid answer; the others' answers are cached."""

    def __init__(self, message: str, failed: list):
        super().__init__(message)
        self.failed = failed


class ConfigError(CrossbookError):
    """Settings, pack or manifest are invalid."""


class IndexBusy(CrossbookError):
    """Another process holds the index lock for too long."""


class BatchNotFound(CrossbookError):
    """A batch id that the index did not submit (see: crossbook batch status)."""


class BatchFailed(ExtractionFailed):
    """A Batch API batch ended failed, expired or cancelled before answering every chunk
    (the answers that came back are cached)."""
class BudgetExceeded(CrossbookError):
    """An ingest's estimated LLM cost is over --max-cost (nothing was called or written)."""


class BooksSkipped(CrossbookError):
    """Some books of a run could not be read and were skipped; the others were ingested."""

    def __init__(self, message: str, skipped: list[str]):
        super().__init__(message)
        self.skipped = skipped


class SectionNotFound(CrossbookError):
    """No chunk with that id, or no section of the book at that page or heading path."""


class VectorsMissing(CrossbookError):
    """A book's sections have no vectors (its ingest stopped before embedding them)."""
