"""The Markdown reader: a ``.md`` file's sections as markdown-it-py finds them."""

from __future__ import annotations

from pathlib import Path

from ..chunk.chunking import book_title, split_sections_report
from .source import ReadOptions, SourceBook, decode_text, read_bytes, sha256_bytes


def read(path: Path, options: ReadOptions = ReadOptions()) -> SourceBook:
    """A Markdown book: its headings give the tree; its title comes from index/core/titles.py."""
    data = read_bytes(path)
    text = decode_text(path, data)
    return from_text(path, text, sha256_bytes(data), "markdown")


def from_text(path: Path, text: str, sha256: str, fmt: str, title: str | None = None) -> SourceBook:
    """A book from Markdown text that a reader made or read (``fmt`` names the source);
    ``title``: the one the source declares (else it is found in the text, a parse of its own)."""
    sections, repair = split_sections_report(text)
    warnings = []
    if repair.warning:
        warnings.append(f"'{path}' {repair.warning}")
    if not any(section.heading for section in sections):
        warnings.append(f"'{path}' has no headings: ingested as one section")
    return SourceBook(path=path, format=fmt, title=title or book_title(text, path.stem), sections=tuple(sections),
                      sha256=sha256, warnings=tuple(warnings))
