"""Several folders read as one book: ``ingest parts/core/html parts/extra/html --book "Frob"``,
or a manifest entry's ``paths = [...]``.

Each folder is read as one book by its format's reader (a doc set, a vault: all of one
format) and their sections are joined, the folders in the order of their paths. A section
keeps its page, named from the folders' common parent (``core/html/index.html``), so two
folders' pages of one name stay two; its links and anchors are named so too.

The book's identity (``books.source``) is the set of its folders, resolved: the same folders
named in any order, from any directory, are the same book. Its hash is that of its folders'
hashes, so it is unchanged while every folder is. Its title is the one given (``--book``, a
manifest's ``title``), else its first folder's. Raises BadInput; writes nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from ..core.errors import BadInput
from ..core.models import Section
from ..readers import ReadLimits, Selection, SourceBook, read_book


@dataclass(frozen=True)
class JoinedBook(SourceBook):
    """A book read from several folders (``path``: their common parent)."""

    parts: tuple[Path, ...] = ()

    @property
    def source(self) -> str:
        """Its identity: its folders, resolved, as a JSON list (``joined_source``)."""
        return joined_source(self.parts)


def joined_source(folders: list[Path] | tuple[Path, ...]) -> str:
    """The identity of the book of ``folders``: their resolved paths, sorted, as a JSON list."""
    return json.dumps(sorted({str(folder.resolve()) for folder in folders}), ensure_ascii=False)


def joined_parts(source: str) -> list[Path] | None:
    """The folders of a joined book's ``source`` (``joined_source``); None for one file's."""
    if not source.startswith("["):
        return None
    try:
        parts = json.loads(source)
    except ValueError:
        return None
    return [Path(p) for p in parts] if isinstance(parts, list) and all(isinstance(p, str) for p in parts) else None


def joins_folders(paths: list[Path], title: str | None) -> bool:
    """Whether ``paths`` are read as one book: two or more, each a folder, named with a title
    (``--book``); a path that does not exist is BadInput."""
    if title is None or len(paths) < 2:
        return False
    for path in paths:
        if not path.exists():
            raise BadInput(f"path '{path}' does not exist")
    return all(path.is_dir() for path in paths)


def _labels(folders: list[Path]) -> list[str]:
    """Each folder's name from the folders' common parent (``core/html``); BadInput when one
    is another or holds another."""
    resolved = [folder.resolve() for folder in folders]
    for i, one in enumerate(resolved):
        for other in resolved[i + 1:]:
            if one == other:
                raise BadInput(f"the folder '{one}' is named twice: name each folder of the book once")
            if one in other.parents or other in one.parents:
                inner, outer = (other, one) if one in other.parents else (one, other)
                raise BadInput(f"'{inner}' is inside '{outer}': name each folder of the book once, none inside another")
    common = Path(os.path.commonpath([str(r) for r in resolved]))
    return [PurePosixPath(*r.relative_to(common).parts).as_posix() for r in resolved]


def _under(label: str, file: str | None) -> str | None:
    return f"{label}/{file}" if file else file


def _section_in(label: str, section: Section) -> Section:
    """``section`` with its page, its links' pages and its terms' targets named from the
    folders' common parent."""
    links = tuple((target, shown, _under(label, page) or page) for target, shown, page in section.links)
    terms = tuple(replace(term, target=_under(label, term.target) or "") if term.target else term
                  for term in section.terms)
    return replace(section, file=_under(label, section.file), links=links, terms=terms)


def read_joined(folders: list[Path], fmt: str | None = None, limits: ReadLimits = ReadLimits(),
                selection: Selection = Selection()) -> JoinedBook:
    """The book of ``folders`` (the module's rule), each read by ``read_book`` with ``fmt``,
    ``limits`` and ``selection``. Raises BadInput: a folder named twice or inside another,
    folders of different formats, a folder that cannot be read."""
    folders = sorted(folders, key=lambda folder: str(folder.resolve()))
    labels = _labels(folders)
    books = [read_book(folder, fmt, limits, selection) for folder in folders]
    formats = sorted({book.format for book in books})
    if len(formats) > 1:
        shown = ", ".join(f"'{folder}' is {book.format}" for folder, book in zip(folders, books))
        raise BadInput(f"folders of one book are of one format ({shown}): ingest them as separate books")
    sections = tuple(_section_in(label, section) for label, book in zip(labels, books) for section in book.sections)
    digest = hashlib.sha256("\n".join(f"{label}\0{book.sha256}" for label, book in zip(labels, books)).encode())
    common = Path(os.path.commonpath([str(folder.resolve()) for folder in folders]))
    return JoinedBook(path=common, format=formats[0], title=books[0].title, sections=sections,
                      sha256=digest.hexdigest(), warnings=tuple(w for book in books for w in book.warnings),
                      parts=tuple(folder.resolve() for folder in folders))

