"""Reading book files: find them, check them, decode them. Raises BadInput; changes nothing."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from .errors import BadInput

BOOK_SUFFIXES = (".md", ".markdown")


@dataclass(frozen=True)
class BookFile:
    path: Path
    text: str
    sha256: str


def find_books(paths: list[Path]) -> list[Path]:
    """Expand directories into their Markdown files (sorted); every path must exist."""
    found: list[Path] = []
    for path in paths:
        if not path.exists():
            raise BadInput(f"path '{path}' does not exist")
        if path.is_dir():
            books = sorted(p for p in path.rglob("*") if p.suffix.lower() in BOOK_SUFFIXES and p.is_file())
            if not books:
                raise BadInput(f"no Markdown books (*.md, *.markdown) found in directory '{path}'")
            found.extend(books)
        else:
            found.append(path)
    return found


def read_book(path: Path) -> BookFile:
    """Read one book as UTF-8 text; raises BadInput for empty, binary or non-UTF-8 files."""
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise BadInput(f"'{path}' is a directory; give a Markdown file or its directory") from None
    except OSError as exc:
        raise BadInput(f"cannot read '{path}': {exc.strerror}") from None
    if not data.strip():
        raise BadInput(f"'{path}' is empty: there is nothing to ingest")
    if b"\x00" in data[:8192]:
        raise BadInput(f"'{path}' is a binary file, not a Markdown book")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BadInput(
            f"'{path}' is not UTF-8 text (byte {exc.start}); convert it first, e.g. iconv -t UTF-8"
        ) from None
    return BookFile(path=path, text=text, sha256=hashlib.sha256(data).hexdigest())
