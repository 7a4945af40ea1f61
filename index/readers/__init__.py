"""Readers: one per source format, behind one entry point, ``read_book``.

Each format is one ``registry.Format`` listed in ``FORMATS``: its reader module (imported only
when a book of that format is read), its suffixes, its signature and, for a folder, whether it
claims it. ``read_book`` picks the reader from the content when it starts with a PDF or EPUB
signature, else from the file's suffix, else from the content (``detect_format``); ``fmt``
overrides them. A folder is one book when a format claims it (a documentation tool's build, a
note vault: ``.obsidian/`` or mdBook's ``SUMMARY.md``) or when the caller says so. Every
book then goes through the post-passes (passes/), and a folder's files come from one guarded
walk of it (files.py).
"""

from __future__ import annotations

from pathlib import Path

from ..core.errors import BadInput
from .passes import after_reading
from .registry import BY_NAME, FORMATS, Format, file_format, folder_claim
from .source import ReadLimits, ReadOptions, Selection, SourceBook, decode_text, read_bytes, sha256_bytes

__all__ = ["FORMATS", "BOOK_SUFFIXES", "Format", "ReadLimits", "ReadOptions", "Selection", "SourceBook",
           "decode_text", "detect_format", "folder_format", "is_vault", "read_book", "read_bytes", "reader_rules",
           "sha256_bytes"]

# the files a directory of books gives (README, LICENSE... are left out by name: index/ingest/books.py)
BOOK_SUFFIXES = tuple(suffix for fmt in FORMATS for suffix in fmt.suffixes)


def reader_rules() -> tuple[str, ...]:
    """The names of the readers' own rules a term is stated by (DocTerm.rule): a mention of
    one is stored under that name, and switched off with it (extract/marks.py)."""
    from .docset.anchor_terms import ANCHOR_NAME, SIBLING_RUN
    from .passes.printed_index import RULE as BACK_INDEX

    return (BACK_INDEX, ANCHOR_NAME, SIBLING_RUN)


def is_vault(folder: Path) -> bool:
    """A folder that is one book: a format claims it (registry.folder_claim)."""
    return folder.is_dir() and folder_claim(folder) is not None


def folder_format(folder: Path) -> str:
    """The format a folder read as one book takes: the one that claims it; else (with
    ``--as-book``) ``vault`` for a folder of notes or of no pages, ``docset`` for HTML pages."""
    claimed = folder_claim(folder)
    if claimed is not None:
        return claimed
    from .docset import page_files
    from .files import FolderFiles
    from .vault.links import NOTE_SUFFIXES

    files = FolderFiles(folder)
    has_notes = any(f.lower().endswith(tuple(NOTE_SUFFIXES)) for f in files.files)
    return "vault" if has_notes or not page_files(files) else "docset"


def detect_format(path: Path, head: bytes | None = None) -> str:
    """The format of ``path`` (a folder: ``folder_format``). A PDF or EPUB signature at the
    first byte decides; then the suffix (a note about PDF headers that quotes ``%PDF-`` is still
    Markdown); with no known suffix, a PDF signature in the first 1 KB (where readers accept
    it) or an HTML start. Text with no known suffix is Markdown. ``head``: the file's first
    bytes (read here when None)."""
    if path.is_dir():
        return folder_format(path)
    if head is None:
        try:
            with path.open("rb") as handle:
                head = handle.read(4096)
        except OSError:
            head = b""
    return file_format(path, head)


def read_book(path: Path, fmt: str | None = None, limits: ReadLimits = ReadLimits(),
              selection: Selection = Selection()) -> SourceBook:
    """Read one book (a file, or a folder read as one book) with the reader of its format, or
    of ``fmt`` when given; an archive's members are held to ``limits``, and a folder's files
    picked by ``selection`` (--glob, --exclude). Raises BadInput with one line that says what
    to do; writes nothing."""
    if fmt is not None and fmt not in BY_NAME:
        raise BadInput(f"unknown format '{fmt}' (choose one of: {', '.join(BY_NAME)})")
    if not path.exists():
        raise BadInput(f"path '{path}' does not exist")
    folder_formats = [f.name for f in FORMATS if f.claims_folder is not None]
    if path.is_dir() and fmt not in (None, *folder_formats):
        raise BadInput(f"'{path}' is a folder: --format {fmt} reads a file (a folder is read as a vault)")
    if not path.is_dir() and fmt in folder_formats:
        raise BadInput(f"'{path}' is a file: --format {fmt} reads a folder")
    reader: Format = BY_NAME[fmt or detect_format(path)]
    return after_reading(reader.read(path, ReadOptions(limits, selection)))
