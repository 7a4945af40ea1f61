"""What every reader returns (``SourceBook``) and the byte-level checks they share.

A reader turns one source (a Markdown file, a PDF, an EPUB, an HTML page, a text file, a
note vault) into the same section tree: heading, heading path, a Markdown body, and where
the section is in the source (its pages, or the chapter file or note it came from). Bodies
are Markdown whatever the source, so chunking, extraction and linking treat every format
alike. Raises BadInput with one line that says what to do; reads, never writes.
"""

from __future__ import annotations

import codecs
import fnmatch
import hashlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..core.config import Settings
from ..core.errors import BadInput
from ..core.models import Section

MIB = 1 << 20


@dataclass(frozen=True)
class SourceBook:
    """One book as a reader found it, before chunking."""

    path: Path                   # the file, or the vault's folder
    format: str                  # "markdown", "pdf", "epub", "html", "text", "vault"
    title: str                   # the title the source declares, else its file name
    sections: tuple[Section, ...]
    sha256: str                  # of the source's bytes (a vault: of its notes' paths and bytes)
    warnings: tuple[str, ...] = ()
    pages_without_text: tuple[int, ...] = ()  # a PDF's pages with no text layer (scanned), as printed
    # a PDF's internal links: (from section, text shown, its line, to sections), indexes into
    # ``sections``; read_book makes them the sections' links (readers/pdf/links.py)
    internal_links: tuple[tuple[int, str, str, tuple[int, ...]], ...] = ()

    @property
    def text(self) -> str:
        """The book as one Markdown text (its sections joined in order)."""
        return "".join(section.text for section in self.sections)


@dataclass(frozen=True)
class ReadLimits:
    """How far a member of an archive (an EPUB's chapter) may inflate before a reader
    refuses the book, checked on its declared size before a byte of it is read: at most
    ``max_member_bytes``, and, past ``ratio_floor`` bytes, at most ``max_ratio`` times its
    compressed size (XHTML compresses 3-10x; a zip bomb 1000x). The members read, taken
    together, are held to the same ratio and to ``max_total_bytes``."""

    max_member_bytes: int = 64 * MIB
    max_ratio: float = 100.0
    ratio_floor: int = MIB

    @property
    def max_total_bytes(self) -> int:
        """What the members a book reads may inflate to together (the ratio holds for them too)."""
        return 4 * self.max_member_bytes

    @classmethod
    def of(cls, settings: Settings) -> "ReadLimits":
        """The limits ``settings`` set (epub_max_member_mb, epub_max_ratio)."""
        return cls(int(settings.epub_max_member_mb * MIB), settings.epub_max_ratio)


@dataclass(frozen=True)
class Selection:
    """The files a user picked inside a folder: ``include`` globs (all when empty), less the
    ``exclude`` globs; a glob matches the path relative to the folder ("_modules/*") or its
    end ("*.html")."""

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    def keeps(self, relative: str) -> bool:
        path = PurePosixPath(relative)
        if self.include and not any(_matches(path, pattern) for pattern in self.include):
            return False
        return not any(_matches(path, pattern) for pattern in self.exclude)

    def __bool__(self) -> bool:
        return bool(self.include or self.exclude)


def _matches(path: PurePosixPath, pattern: str) -> bool:
    return fnmatch.fnmatch(path.as_posix(), pattern) or path.match(pattern)


@dataclass(frozen=True)
class ReadOptions:
    """What a reader is given besides the path: how far an archive's members may inflate
    (``limits``) and, in a folder, the files a user picked (``selection``: --glob, --exclude)."""

    limits: ReadLimits = ReadLimits()
    selection: Selection = Selection()


def read_bytes(path: Path) -> bytes:
    """A file's bytes; BadInput for a directory, an unreadable or an empty file."""
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise BadInput(f"'{path}' is a directory; give a book file, or --as-book to read the folder as one book") from None
    except OSError as exc:
        raise BadInput(f"cannot read '{path}': {exc.strerror}") from None
    if not data.strip():
        raise BadInput(f"'{path}' is empty: there is nothing to ingest")
    return data


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def decode_text(path: Path, data: bytes) -> str:
    """Text of a text file: UTF-8, or UTF-8/16/32 with a byte-order mark. BadInput for a
    binary file or another encoding, naming the fix."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                text = data.decode(encoding)
            except UnicodeDecodeError:
                break
            if not text.strip():
                raise BadInput(f"'{path}' is empty: there is nothing to ingest")
            return text
    if b"\x00" in data[:8192]:
        raise BadInput(f"'{path}' is a binary file, not a book crossbook reads "
                       "(Markdown, PDF, EPUB, HTML, plain text); give --format if it is one of those")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(
            f"'{path}' is not UTF-8 text (byte {exc.start}); convert it first, e.g. iconv -t UTF-8"
        ) from None
