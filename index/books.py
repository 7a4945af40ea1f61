"""Reading book files: find them, check them, decode them. Raises BadInput; changes nothing."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path, PurePosixPath

from .errors import BadInput

BOOK_SUFFIXES = (".md", ".markdown")
# files a directory of books holds that are not books (any case, any suffix)
NOT_BOOKS = ("readme", "changelog", "license", "licence")


@dataclass(frozen=True)
class BookFile:
    path: Path
    text: str
    sha256: str


def find_books(paths: list[Path], include: tuple[str, ...] = (), exclude: tuple[str, ...] = ()) -> list[Path]:
    """Expand directories into their books (sorted); every path must exist.

    In a directory, a book is a Markdown file (*.md, *.markdown), or with ``include`` a
    file matching one of those globs; a file matching an ``exclude`` glob is left out, and
    so are README, CHANGELOG and LICENSE files. A glob matches the path relative to the
    directory ("drafts/*") or its end ("*.md", "notes/*.md"). Files named one by one are
    taken as given. Raises BadInput for a missing path or a directory with no book.
    """
    found: list[Path] = []
    for path in paths:
        if not path.exists():
            raise BadInput(f"path '{path}' does not exist")
        if path.is_dir():
            books = sorted(p for p in path.rglob("*") if p.is_file() and _is_book(p.relative_to(path), include, exclude))
            if not books:
                what = f"files matching {', '.join(include)}" if include else "Markdown books (*.md, *.markdown)"
                left_out = f" once {', '.join(exclude)} are left out" if exclude else ""
                raise BadInput(f"no {what} found in directory '{path}'{left_out}")
            found.extend(books)
        else:
            found.append(path)
    return found


def _matches(relative: PurePosixPath, pattern: str) -> bool:
    return fnmatch(relative.as_posix(), pattern) or relative.match(pattern)


def _is_book(relative: Path, include: tuple[str, ...], exclude: tuple[str, ...]) -> bool:
    path = PurePosixPath(relative.as_posix())
    if path.name.split(".", 1)[0].casefold() in NOT_BOOKS:
        return False
    if include:
        if not any(_matches(path, pattern) for pattern in include):
            return False
    elif path.suffix.lower() not in BOOK_SUFFIXES:
        return False
    return not any(_matches(path, pattern) for pattern in exclude)


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
