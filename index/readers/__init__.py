"""Readers: one per source format, behind one entry point, ``read_book``.

Each format's module has one function, ``read(path) -> SourceBook``; it is imported only
when a book of that format is read (a PDF library costs nothing to a Markdown shelf).
``read_book`` picks the reader from the content when it starts with a PDF or EPUB
signature, else from the file's suffix, else from the content (``detect_format``); ``fmt``
overrides them. A folder is one book when it is a
note vault (``.obsidian/`` or mdBook's ``SUMMARY.md``) or when the caller says so.
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

from ..core.errors import BadInput
from .passes import after_reading
from .protocol import Reader
from .source import ReadLimits, SourceBook, decode_text, read_bytes, sha256_bytes

__all__ = ["FORMATS", "BOOK_SUFFIXES", "ReadLimits", "SourceBook", "decode_text", "detect_format", "folder_format",
           "is_vault", "read_book", "read_bytes", "sha256_bytes"]

# format -> the module (in this package) whose read(path) reads it
FORMATS = {
    "markdown": "markdown",
    "pdf": "pdf",
    "epub": "epub",
    "html": "html",
    "text": "text",
    "vault": "vault",
    "docset": "docset",
}
_SUFFIXES = {
    ".md": "markdown", ".markdown": "markdown",
    ".pdf": "pdf",
    ".epub": "epub",
    ".html": "html", ".htm": "html", ".xhtml": "html",
    ".txt": "text", ".text": "text",
}
# the files a directory of books gives (README, LICENSE... are left out by name: index/ingest/books.py)
BOOK_SUFFIXES = tuple(_SUFFIXES)
VAULT_MARKERS = (".obsidian", "SUMMARY.md")


def is_vault(folder: Path) -> bool:
    """A folder that is one book: an Obsidian vault (``.obsidian/``), an mdBook source
    (``SUMMARY.md``) or a documentation tool's HTML build (readers/docset.py)."""
    from .docset import is_docset

    return folder.is_dir() and (any((folder / marker).exists() for marker in VAULT_MARKERS) or is_docset(folder))


def folder_format(folder: Path) -> str:
    """``docset`` for a documentation build, or a folder of HTML pages with no notes in it;
    else ``vault`` (a folder of notes)."""
    from .docset import is_docset, page_files
    from .vault.links import NOTE_SUFFIXES
    from .walk import walk_folder

    if is_docset(folder):
        return "docset"
    if (folder / "SUMMARY.md").exists() or (folder / ".obsidian").exists():
        return "vault"
    has_notes = any(p.suffix.lower() in NOTE_SUFFIXES for p in walk_folder(folder).files)
    return "vault" if has_notes or not page_files(folder) else "docset"


def detect_format(path: Path, head: bytes | None = None) -> str:
    """The format of ``path`` (a folder is a vault). A PDF or EPUB signature at the first
    byte decides; then the suffix (a note about PDF headers that quotes ``%PDF-`` is still
    Markdown); with no known suffix, a PDF signature in the first 1 KB (where readers
    accept it) or an HTML start. Text with no known suffix is Markdown. ``head``: the
    file's first bytes (read here when None)."""
    if path.is_dir():
        return folder_format(path)
    if head is None:
        try:
            with path.open("rb") as handle:
                head = handle.read(4096)
        except OSError:
            head = b""
    if head.startswith(b"%PDF-"):
        return "pdf"
    if head.startswith(b"PK\x03\x04") and b"application/epub+zip" in head[:100]:
        return "epub"
    by_suffix = _SUFFIXES.get(path.suffix.lower())
    if by_suffix is not None:
        return by_suffix
    if b"%PDF-" in head[:1024]:
        return "pdf"
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n")[:64].lower()
    if start.startswith((b"<!doctype html", b"<html")):
        return "html"
    return "markdown"


def read_book(path: Path, fmt: str | None = None, limits: ReadLimits = ReadLimits()) -> SourceBook:
    """Read one book (a file, or a vault folder) with the reader of its format, or of
    ``fmt`` when given; an archive's members are held to ``limits``. Raises BadInput with
    one line that says what to do; writes nothing."""
    if fmt is not None and fmt not in FORMATS:
        raise BadInput(f"unknown format '{fmt}' (choose one of: {', '.join(FORMATS)})")
    if not path.exists():
        raise BadInput(f"path '{path}' does not exist")
    if path.is_dir() and fmt not in (None, "vault", "docset"):
        raise BadInput(f"'{path}' is a folder: --format {fmt} reads a file (a folder is read as a vault)")
    if not path.is_dir() and fmt in ("vault", "docset"):
        raise BadInput(f"'{path}' is a file: --format {fmt} reads a folder")
    fmt = fmt or detect_format(path)
    reader: Reader = import_module(f"{__name__}.{FORMATS[fmt]}")
    # the one archive format: its members inflate
    book = reader.read(path, limits) if fmt == "epub" else reader.read(path)
    return after_reading(book)
