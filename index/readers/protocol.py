"""The reader seam. A format's module (registry.FORMATS names it) is a ``Reader``:
``read(path, options)`` gives the book as Markdown sections, and nothing else. What every book
needs after that (entries found in code runs, a back index, internal links) is a ``PostPass``,
run in the order ``passes.POST_PASSES`` lists, so a new reader gets them without calling them
and a new pass is one more entry there."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol, runtime_checkable

from .source import ReadOptions, SourceBook


@runtime_checkable
class Reader(Protocol):
    """A format's module: one file or folder to a SourceBook; raises BadInput, writes nothing.
    ``options``: an archive's limits, a folder's selected files."""

    def read(self, path: Path, options: ReadOptions) -> SourceBook:
        ...


class PostPass(Protocol):
    """One step over a book just read, of any format: returns the book, changed or not."""

    __name__: str

    def __call__(self, book: SourceBook) -> SourceBook:
        ...
