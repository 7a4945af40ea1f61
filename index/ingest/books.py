"""Finding books: files and folders to read (index/readers reads them). Raises BadInput;
changes nothing."""

from __future__ import annotations

from fnmatch import fnmatch
from pathlib import Path, PurePosixPath
from typing import Callable

from ..core.errors import BadInput
from ..readers import BOOK_SUFFIXES, Selection, is_vault
from ..readers.files import FolderFiles
from ..readers.walk import walk_folder

# files a directory of books holds that are not books (any case, any suffix)
NOT_BOOKS = ("readme", "changelog", "license", "licence")


def find_books(paths: list[Path], include: tuple[str, ...] = (), exclude: tuple[str, ...] = (),
               as_book: bool = False, warn: Callable[[str], None] | None = None) -> list[Path]:
    """Expand directories into their books (sorted); every path must exist.

    A folder that is a note vault (``.obsidian/``, mdBook's ``SUMMARY.md``), or any folder
    given with ``as_book``, is one book. In another directory, a book is a file of a format
    crossbook reads (Markdown, PDF, EPUB, HTML, plain text), or with ``include`` a file
    matching one of those globs, and each vault below it is one book; a file matching an
    ``exclude`` glob is left out, and so are README, CHANGELOG and LICENSE files and hidden
    folders. A glob matches the path relative to the directory ("drafts/*") or its end
    ("*.md", "notes/*.md"). Files named one by one are taken as given. Each real directory
    is walked once (a link loop ends), and a link that leads outside the directory given is
    skipped, told to ``warn`` (index/readers/walk.py). Raises BadInput for a missing path or
    a directory with no book.
    """
    found: list[Path] = []
    for path in paths:
        if not path.exists():
            raise BadInput(f"path '{path}' does not exist")
        if path.is_dir() and (as_book or is_vault(path)):
            found.append(path)
        elif path.is_dir():
            books = sorted(_books_below(path, include, exclude, warn))
            if not books:
                what = f"files matching {', '.join(include)}" if include else \
                    f"books ({', '.join('*' + s for s in BOOK_SUFFIXES)}) or note vaults"
                left_out = f" once {', '.join(exclude)} are left out" if exclude else ""
                raise BadInput(f"no {what} found in directory '{path}'{left_out} "
                               "(a folder of notes is one book with --as-book)")
            found.extend(books)
            _tell_separate_pages(books, warn)
        else:
            found.append(path)
    return found


def _tell_separate_pages(books: list[Path], warn: Callable[[str], None] | None) -> None:
    """A folder of HTML pages read as separate books says so, once, and names --as-book."""
    if warn is None:
        return
    from ..readers.docset.detect import not_a_docset

    folders = {book.parent for book in books if book.is_file() and book.suffix.lower() in (".html", ".htm", ".xhtml")}
    for folder in sorted(folders):
        line = not_a_docset(folder)
        if line is not None:
            warn(line)


def _books_below(root: Path, include: tuple[str, ...], exclude: tuple[str, ...],
                 warn: Callable[[str], None] | None) -> list[Path]:
    walk = walk_folder(root, stop=is_vault)
    for line in walk.skipped:
        if warn is not None:
            warn(line)
    vaults = [v for v in walk.stopped if not _excluded(v.relative_to(root), exclude)
              and (not include or FolderFiles(v, Selection(include, exclude)).files)]  # --glob picks none of it
    return vaults + [f for f in walk.files if _is_book(f.relative_to(root), include, exclude)]


def _matches(relative: PurePosixPath, pattern: str) -> bool:
    return fnmatch(relative.as_posix(), pattern) or relative.match(pattern)


def _excluded(relative: Path, exclude: tuple[str, ...]) -> bool:
    path = PurePosixPath(relative.as_posix())
    return any(_matches(path, pattern) for pattern in exclude)


def _is_book(relative: Path, include: tuple[str, ...], exclude: tuple[str, ...]) -> bool:
    path = PurePosixPath(relative.as_posix())
    if path.name.split(".", 1)[0].casefold() in NOT_BOOKS:
        return False
    if include:
        if not any(_matches(path, pattern) for pattern in include):
            return False
    elif path.suffix.lower() not in BOOK_SUFFIXES:
        return False
    return not _excluded(relative, exclude)
