"""The HTML reader: one page as a book, its ``<h1>``..``<h6>`` the section tree.

The body becomes Markdown (index/readers/html_markdown.py); scripts, styles, navigation
and page chrome are dropped. The title is the page's ``<title>``, else its first ``<h1>``.
A page with no heading is one section, with a warning (as a Markdown file with none is).
"""

from __future__ import annotations

from pathlib import Path

from ..core.errors import BadInput
from .html_markdown import body_of, parse_html, tag_of, to_markdown
from .markdown import from_text
from .source import ReadOptions, SourceBook, read_bytes, sha256_bytes


def page_title(root) -> str | None:
    """The ``<title>`` of a parsed page, else the text of its first ``<h1>``; None if neither."""
    for tag in ("title", "h1"):
        element = next((e for e in root.iter(tag)), None)
        if element is not None:
            text = " ".join("".join(element.itertext()).split())
            if text:
                return text
    return None


def read(path: Path, options: ReadOptions = ReadOptions()) -> SourceBook:
    """An HTML page as a book. Raises BadInput for a binary file or a page with no text."""
    data = read_bytes(path)
    if b"\x00" in data[:8192] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise BadInput(f"'{path}' is a binary file, not an HTML page; give --format if it is another format")
    try:
        root = parse_html(data)
    except Exception as exc:  # lxml's own errors on input it cannot read at all
        raise BadInput(f"'{path}' cannot be read as HTML ({type(exc).__name__}: {exc})") from None
    markdown = to_markdown(root)
    if not markdown.strip():
        raise BadInput(f"'{path}' has no text once scripts, styles and navigation are left out: nothing to ingest")
    book = from_text(path, markdown, sha256_bytes(data), "html", page_title(root))
    has_headings = any(tag_of(e) in ("h1", "h2", "h3", "h4", "h5", "h6") for e in body_of(root).iter())
    warnings = book.warnings
    if not has_headings:  # say which tags were looked for, not Markdown's "#"
        warnings = tuple(w for w in warnings if "has no headings" not in w) + (
            f"'{path}' has no headings (<h1>..<h6>): ingested as one section",)
    return SourceBook(path=book.path, format="html", title=book.title,
                      sections=book.sections, sha256=book.sha256, warnings=warnings)
