"""What every book gets after its format's reader: the post-passes, in their order. Each is a
``protocol.PostPass`` that decides from the book whether it applies; its module is imported
only when it does.

A pass that raises costs its own output, never the book (core/rule_guard.py): a section on
which the code entries raise keeps its text without them; a whole-book pass (the back index,
the internal links) that raises leaves the book as it found it. Either way one warning names
the book, the section and the pass."""

from __future__ import annotations

from dataclasses import replace

from ...core.rule_guard import guarded, map_guarded, section_label
from ..protocol import PostPass
from ..source import SourceBook


def code_entries(book: SourceBook) -> SourceBook:
    """A reference section's entries (readers/passes/reference_entries.py), before the back index and links
    so they can name them. A doc set's markup states its entries itself, and the code runs
    that open its lists are mostly contents trees and summary tables of links."""
    if book.format == "docset":
        return book
    from .reference_entries import with_section_entries

    # a PDF's paragraph is one line of its text (readers/pdf/), with no blank line between
    lines = book.format == "pdf"
    return _each_section(book, lambda section: with_section_entries(section, lines))


def guide_entries(book: SourceBook) -> SourceBook:
    """After the back index: a printed guide that has none states its commands in its margin
    labels and declaration lines (readers/passes/reference_entries.py); one that has an index
    is read by it."""
    if book.format != "pdf":
        return book
    from .index_form import is_index_section
    from .reference_entries import with_described_commands

    if any(is_index_section(section) for section in book.sections):
        return book
    return _each_section(book, with_described_commands)


def _each_section(book: SourceBook, work) -> SourceBook:
    """``book`` with ``work`` done on each section; a section on which it raises as it was."""
    warnings = list(book.warnings)
    sections = map_guarded(book.sections, work, lambda section: section,
                           book_label(book), lambda section: section_label(section.heading_path), warnings)
    return replace(book, sections=tuple(sections), warnings=tuple(warnings))


def back_index(book: SourceBook) -> SourceBook:
    """A manual's back index (readers/passes/printed_index.py): a book whose sections know their pages."""
    if not any(section.pages for section in book.sections):
        return book
    from .printed_index import is_back_index, with_back_index

    index = next((s for s in book.sections if is_back_index(s)), None)
    return _whole_book(book, lambda: with_back_index(book.sections),
                       section_label(index.heading_path) if index is not None else "")


def internal_links(book: SourceBook) -> SourceBook:
    """After the back index and a guide's entries: a link names what its target section defines (readers/pdf/links.py)."""
    if not book.internal_links:
        return book
    from ..pdf.links import with_internal_links

    return _whole_book(book, lambda: with_internal_links(book.sections, book.internal_links), "")


def _whole_book(book: SourceBook, work, section: str) -> SourceBook:
    """``book`` with the sections ``work`` returns; as it was, with one warning, where it raises."""
    warnings = list(book.warnings)
    sections = book.sections
    with guarded(book_label(book), section, warnings=warnings):
        sections = work()
    return replace(book, sections=sections, warnings=tuple(warnings))


def book_label(book: SourceBook) -> str:
    """A book as a reader's warning names it: its file or folder name."""
    return book.path.name or str(book.path)


POST_PASSES: tuple[PostPass, ...] = (code_entries, back_index, guide_entries, internal_links)


def after_reading(book: SourceBook) -> SourceBook:
    """``book`` through every post-pass, in order."""
    for post_pass in POST_PASSES:
        book = post_pass(book)
    return book
