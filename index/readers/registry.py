"""Every format crossbook reads, each one self-describing ``Format``, listed once in ``FORMATS``.

A format names its module (in this package, whose ``read(path, options) -> SourceBook`` reads
it, imported only when a book of the format is read: a PDF library costs nothing to a Markdown
shelf), its file suffixes, how its first bytes show it (``signature`` decides before the suffix,
``sniff`` only where no suffix does) and, for a folder read as one book, whether it claims the
folder (``claims_folder``). Detection runs once per folder: its answer is kept while the
folder is unchanged.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import import_module
from pathlib import Path

from .source import ReadOptions, SourceBook

NOTE_MARKERS = (".obsidian", "SUMMARY.md")  # an Obsidian vault, an mdBook source


@dataclass(frozen=True)
class Format:
    """One format: its name, its reader module and how a file or folder of it is known."""

    name: str
    module: str
    suffixes: tuple[str, ...] = ()
    signature: Callable[[bytes], bool] | None = None   # the first bytes decide, before the suffix
    sniff: Callable[[bytes], bool] | None = None       # the first bytes decide where no suffix does
    claims_folder: Callable[[Path], bool] | None = field(default=None, compare=False)

    def read(self, path: Path, options: ReadOptions) -> SourceBook:
        """The book at ``path``, read by this format's module. Raises BadInput."""
        return import_module(f"{__package__}.{self.module}").read(path, options)


def _pdf_signature(head: bytes) -> bool:
    return head.startswith(b"%PDF-")


def _pdf_sniff(head: bytes) -> bool:
    return b"%PDF-" in head[:1024]  # where PDF readers still accept it


def _epub_signature(head: bytes) -> bool:
    return head.startswith(b"PK\x03\x04") and b"application/epub+zip" in head[:100]


def _html_sniff(head: bytes) -> bool:
    return head.lstrip(b"\xef\xbb\xbf \t\r\n")[:64].lower().startswith((b"<!doctype html", b"<html"))


def _claims_docset(folder: Path) -> bool:
    from .docset import is_docset

    return is_docset(folder)


def _claims_vault(folder: Path) -> bool:
    return any((folder / marker).exists() for marker in NOTE_MARKERS)


FORMATS: tuple[Format, ...] = (
    Format("markdown", "markdown", (".md", ".markdown")),
    Format("pdf", "pdf", (".pdf",), signature=_pdf_signature, sniff=_pdf_sniff),
    Format("epub", "epub", (".epub",), signature=_epub_signature),
    Format("html", "html", (".html", ".htm", ".xhtml"), sniff=_html_sniff),
    Format("text", "text", (".txt", ".text")),
    # a folder: a documentation tool's build is claimed before a note vault's markers
    Format("docset", "docset", claims_folder=_claims_docset),
    Format("vault", "vault", claims_folder=_claims_vault),
)
BY_NAME = {f.name: f for f in FORMATS}
DEFAULT_FILE_FORMAT = "markdown"  # text with no known suffix or signature


def file_format(path: Path, head: bytes) -> str:
    """The format of a file from its first bytes and suffix (module doc)."""
    for fmt in FORMATS:
        if fmt.signature is not None and fmt.signature(head):
            return fmt.name
    suffix = path.suffix.lower()
    for fmt in FORMATS:
        if suffix in fmt.suffixes:
            return fmt.name
    for fmt in FORMATS:
        if fmt.sniff is not None and fmt.sniff(head):
            return fmt.name
    return DEFAULT_FILE_FORMAT


def folder_claim(folder: Path) -> str | None:
    """The format that claims ``folder`` as one book (a doc set, a vault), or None; asked once
    per folder while it is unchanged."""
    try:
        status = folder.stat()
    except OSError:
        return None
    return _claim(str(folder.resolve()), status.st_ino, status.st_mtime_ns)


@lru_cache(maxsize=512)
def _claim(real: str, inode: int, mtime_ns: int) -> str | None:
    folder = Path(real)
    if not os.path.isdir(folder):
        return None
    return next((fmt.name for fmt in FORMATS if fmt.claims_folder is not None and fmt.claims_folder(folder)), None)


def forget_claims() -> None:
    """Forget every folder's detected format (the next ``folder_claim`` asks again)."""
    _claim.cache_clear()
