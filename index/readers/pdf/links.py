"""A PDF's internal links (link annotations whose destination is a place in the book, as
hyperref writes for every \\ref, index page number and command cross-reference), read with
PDFium: where each sits, the text it shows, the line it sits on, and where it goes."""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass, replace

from ...core.models import Section

# a line's text as the reader keeps it and its box: (text, x0, x1, y0, y1), per page
Placed = list[list[tuple[str, float, float, float, float]]]
# where each section starts: (page, line) in the reader's page lines, in section order
Starts = list[tuple[int, int]]
# a link between sections: (from section, text shown, the from line's text, to sections)
RawLink = tuple[int, str, str, tuple[int, ...]]


@dataclass(frozen=True)
class PdfLink:
    page: int          # 0-based, the page the link is on
    x: float           # the middle of its box, in PDF points
    y: float           # (up is larger)
    shown: str         # the text inside its box
    to_page: int       # 0-based, the destination's page
    to_y: float | None  # the destination's height on its page (None: the page's top)


def _destination(raw_doc, link) -> tuple[int, float | None] | None:
    import pypdfium2.raw as pdfium_c

    dest = pdfium_c.FPDFLink_GetDest(raw_doc, link)
    if not dest:
        action = pdfium_c.FPDFLink_GetAction(link)
        # 1: PDFACTION_GOTO, a place in this document (URIs and other files are not the book's)
        if not action or pdfium_c.FPDFAction_GetType(action) != 1:
            return None
        dest = pdfium_c.FPDFAction_GetDest(raw_doc, action)
        if not dest:
            return None
    page = pdfium_c.FPDFDest_GetDestPageIndex(raw_doc, dest)
    if page < 0:
        return None
    has_x, has_y, has_zoom = pdfium_c.FPDF_BOOL(), pdfium_c.FPDF_BOOL(), pdfium_c.FPDF_BOOL()
    x, y, zoom = pdfium_c.FS_FLOAT(), pdfium_c.FS_FLOAT(), pdfium_c.FS_FLOAT()
    found = pdfium_c.FPDFDest_GetLocationInPage(dest, ctypes.byref(has_x), ctypes.byref(has_y),
                                                ctypes.byref(has_zoom), ctypes.byref(x), ctypes.byref(y),
                                                ctypes.byref(zoom))
    return page, (float(y.value) if found and has_y.value else None)


def page_links(pdf, number: int, page) -> list[PdfLink]:
    """The internal links of page ``number`` (``page`` open on it)."""

    out: list[PdfLink] = []
    textpage = page.get_textpage()
    try:
        _collect(pdf, number, page, textpage, out)
    finally:
        textpage.close()
    return out


def _collect(pdf, number: int, page, textpage, out: list[PdfLink]) -> None:
    import pypdfium2.raw as pdfium_c

    position = ctypes.c_int(0)
    link = pdfium_c.FPDF_LINK()
    while pdfium_c.FPDFLink_Enumerate(page.raw, ctypes.byref(position), ctypes.byref(link)):
        where = _destination(pdf.raw, link)
        rect = pdfium_c.FS_RECTF()
        if where is None or not pdfium_c.FPDFLink_GetAnnotRect(link, ctypes.byref(rect)):
            continue
        bottom, top = min(rect.bottom, rect.top), max(rect.bottom, rect.top)
        left, right = min(rect.left, rect.right), max(rect.left, rect.right)
        shown = " ".join(textpage.get_text_bounded(left, bottom, right, top).split())
        if not shown:
            continue
        out.append(PdfLink(number, (left + right) / 2, (bottom + top) / 2, shown, *where))


def _line_index(lines: list[str], text: str) -> int | None:
    if text in lines:
        return lines.index(text)
    return next((i for i, line in enumerate(lines) if text.strip() and line.endswith(text.strip())), None)


def _section_at(starts: Starts, page: int, line: int) -> int | None:
    """The section (an index into ``starts``) that (page, line) lies in."""
    found = None
    for n, start in enumerate(starts):
        if start > (page, line):
            break
        found = n
    return found


def _source(link: PdfLink, placed: Placed, pages: list[list[str]]) -> tuple[int, str] | None:
    """(line, text) of the reader's line the link sits in: the line whose box holds its
    middle's height, the one starting nearest left of it (a two-column page has two)."""
    here = [line for line in placed[link.page] if line[3] - 1 <= link.y <= line[4] + 1 and line[1] - 2 <= link.x]
    if not here:
        return None
    text = max(here, key=lambda line: line[1])[0]
    at = _line_index(pages[link.page], text)
    return None if at is None else (at, pages[link.page][at])


def _destinations(link: PdfLink, placed: Placed, pages: list[list[str]], starts: Starts) -> tuple[int, ...]:
    """The sections a link goes to: the one its place lies in; every section on the page where
    it names a page (no place, or above the page's first line: an index's page number)."""
    page, lines = link.to_page, pages[link.to_page]
    below = [line for line in placed[page] if line[4] <= (link.to_y or 0) + 2 and line[0] in lines]
    first = next((line for line in placed[page] if line[0] in lines[:1]), None)
    if link.to_y is None or first is None or link.to_y >= first[4] - 1 or not below:
        on_page = {_section_at(starts, page, 0)} | {n for n, start in enumerate(starts) if start[0] == page}
        return tuple(sorted(n for n in on_page if n is not None))
    at = _line_index(lines, max(below, key=lambda line: line[4])[0])
    n = _section_at(starts, page, at or 0)
    return () if n is None else (n,)


def raw_links(links: list[PdfLink], placed: Placed, pages: list[list[str]], starts: Starts) -> list[RawLink]:
    """Each internal link as the sections it joins, the text it shows and its line's text."""
    out: list[RawLink] = []
    for link in links:
        source = _source(link, placed, pages)
        if source is None or not 0 <= link.to_page < len(pages):
            continue
        n = _section_at(starts, link.page, source[0])
        to = tuple(t for t in _destinations(link, placed, pages, starts) if t != n)
        if n is not None and to:
            out.append((n, link.shown, source[1], to))
    return out


_COMMAND = re.compile(r"^(?:\\[A-Za-z@]+\*?|--?[A-Za-z][\w-]*)$")


def _shows(text: str, name: str) -> bool:
    return re.search(r"(?<![\w\\-])" + re.escape(name) + r"(?![\w@-])", text) is not None


def _named(section: Section) -> list[str]:
    """What a section defines: its terms (a back index's entries placed there), and its
    heading where that is a command or option (a reference's section per command)."""
    names = [term.name for term in section.terms]
    if section.heading and _COMMAND.match(section.heading) and section.heading not in names:
        names.append(section.heading)
    return names


def with_internal_links(sections: tuple[Section, ...], links: tuple[RawLink, ...]) -> tuple[Section, ...]:
    """``sections`` with their internal links as references (``Section.links``) to what the
    target section defines: the name the link shows, else the one its line shows, else a
    lone target's command heading. A link that names nothing the target defines, or whose
    text the source cannot show apart from other text (a bare page number), is left out."""
    found: dict[int, list[tuple[str, str, str]]] = {}
    for source, shown, line, targets in links:
        text = sections[source].text
        for pick in (lambda name: _shows(shown, name), lambda name: _shows(line, name)):
            hits = [(name, t) for t in targets for name in _named(sections[t]) if pick(name)]
            if hits:
                break
        else:
            heading = sections[targets[0]].heading or ""
            hits = [(heading, targets[0])] if len(targets) == 1 and _COMMAND.match(heading) else []
        for name, target in hits[:1]:
            # the text that shows the reference: the name on the link's line, else what the link shows
            surface = name if _shows(line, name) and _shows(text, name) else (
                shown if not shown.isdigit() and shown in text else "")
            key = next((t.target for t in sections[target].terms if t.name == name), "") or f"#section:{target}"
            if surface and (name, surface, key) not in found.get(source, []):
                found.setdefault(source, []).append((name, surface, key))
    return tuple(replace(s, links=s.links + tuple(found.get(i, ()))) for i, s in enumerate(sections))
