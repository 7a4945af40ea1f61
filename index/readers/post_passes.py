"""What every book gets after its format's reader: the post-passes, in their order. Each is a
``protocol.PostPass`` that decides from the book whether it applies; its module is imported
only when it does."""

from __future__ import annotations

from dataclasses import replace

from .protocol import PostPass
from .source import SourceBook


def code_entries(book: SourceBook) -> SourceBook:
    """A reference section's entries (readers/code_entries.py), before the back index and links
    so they can name them. A doc set's markup states its entries itself, and the code runs
    that open its lists are mostly contents trees and summary tables of links."""
    if book.format == "docset":
        return book
    from .code_entries import with_code_entries

    # a PDF's paragraph is one line of its text (readers/pdf.py), with no blank line between
    return replace(book, sections=with_code_entries(book.sections, lines_are_paragraphs=book.format == "pdf"))


def back_index(book: SourceBook) -> SourceBook:
    """A manual's back index (readers/back_index.py): a book whose sections know their pages."""
    if not any(section.pages for section in book.sections):
        return book
    from .back_index import with_back_index

    return replace(book, sections=with_back_index(book.sections))


def internal_links(book: SourceBook) -> SourceBook:
    """After the back index: a link names what its target section defines (readers/pdf_links.py)."""
    if not book.internal_links:
        return book
    from .pdf_links import with_internal_links

    return replace(book, sections=with_internal_links(book.sections, book.internal_links))


POST_PASSES: tuple[PostPass, ...] = (code_entries, back_index, internal_links)


def after_reading(book: SourceBook) -> SourceBook:
    """``book`` through every post-pass, in order."""
    for post_pass in POST_PASSES:
        book = post_pass(book)
    return book
