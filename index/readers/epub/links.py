"""An EPUB's internal links (``<a href="ch04.xhtml#grapple">``) as the author's exact references,
as a vault's wikilinks and a doc set's links are: a link from the section it sits in to what
the section its target lies in defines.

The target's name is the one the link shows, when it names the thing there: the target
section's heading (a chapter's, an entry's), or the entry the anchor opens (``<p id="x">
<b>Kindle</b> lights fuel``). A link to another book (http:, mailto:) is none; a link whose
text names neither ("see page 12", "this chapter") is left out, and so are the links of a
chapter that is mostly links (a contents page in the spine): they list, they do not refer.
"""

from __future__ import annotations

import posixpath
import re
from bisect import bisect_right
from dataclasses import dataclass, field, replace
from urllib.parse import unquote

from ...core.models import Section
from ...core.normalize import normalized_words
from ..docset.terms import text_of
from ..html_markdown import HEADINGS, body_of, kept_elements, tag_of

_OUTSIDE = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.IGNORECASE)  # a scheme: another book's address
_LISTING = 0.5   # a chapter whose links' text is this share of its own lists other chapters
_NUMBERING = re.compile(r"^(?:(?:chapter|part|section|appendix)\s+)?[\dIVXLC]+(?:\.\d+)*[.:)]?\s+", re.IGNORECASE)


def resolve(base_file: str, href: str) -> tuple[str, str | None]:
    """(archive path, fragment) an ``href`` in ``base_file`` names."""
    href, _, fragment = href.partition("#")
    target = posixpath.normpath(posixpath.join(posixpath.dirname(base_file), unquote(href))) if href else base_file
    return target.lstrip("/"), unquote(fragment) or None


@dataclass
class ChapterLinks:
    """One chapter's headings (their text, in order), its ids and its links, each filed under
    the heading it follows (an index into the headings; -1 before the first)."""

    file: str
    headings: list[str] = field(default_factory=list)
    anchors: dict[str, tuple[int, str]] = field(default_factory=dict)   # id -> (heading, its text)
    links: list[tuple[int, str, str | None, str]] = field(default_factory=list)  # (heading, file, fragment, shown)


def scan(file: str, root) -> ChapterLinks:
    """The headings, ids and internal links of a chapter's shown elements."""
    out = ChapterLinks(file)
    pending: list[tuple[str, str]] = []
    for element in kept_elements(root):
        tag, ident = tag_of(element), element.get("id")
        if tag in HEADINGS:
            text = text_of(element)
            if text:
                out.headings.append(text)
                for name, _ in [*pending, (ident, text)]:
                    if name:
                        out.anchors.setdefault(name, (len(out.headings) - 1, text))
                pending = []
            continue
        current = len(out.headings) - 1
        if ident and (tag in ("section", "div") or (tag == "a" and not text_of(element))):
            pending.append((ident, ""))  # a section's id, or an anchor before a heading: the heading's
        elif ident:
            out.anchors.setdefault(ident, (current, text_of(element)[:200]))
        href = element.get("href") if tag == "a" else None
        if href and not _OUTSIDE.match(href):
            shown = text_of(element)
            if re.search(r"[^\W\d]", shown):
                target, fragment = resolve(file, href)
                out.links.append((current, target, fragment, shown))
    linked = sum(len(text_of(e)) for e in kept_elements(root) if tag_of(e) == "a" and e.get("href"))
    if linked >= _LISTING * max(1, len(text_of(body_of(root)))):
        out.links.clear()
    return out


def _sections_of(chapter: ChapterLinks, sections: tuple[Section, ...], start: int) -> list[int]:
    """For each heading (and -1 last: the text before the first), its section's index;
    ``start`` is the section the chapter's text begins in. Headings pair with the
    chapter's sections by their words, in order."""
    out, at = [], start
    for text in chapter.headings:
        key = normalized_words(text)
        found = next((i for i in range(at, len(sections)) if sections[i].file == chapter.file
                      and sections[i].heading is not None and normalized_words(sections[i].heading) == key), None)
        out.append(found if found is not None else -1)
        if found is not None:
            at = found + 1
    return [*out, start]


def _name(shown: str, heading: str | None, entry: str) -> str | None:
    """The name a link's text gives its target: the target section's heading (less a
    chapter's numbering, "3.2 Grapple"), or the entry its anchor opens; None for neither."""
    key = normalized_words(shown)
    if not key:
        return None
    if heading:
        bare = _NUMBERING.sub("", heading) or heading
        if key in (normalized_words(heading), normalized_words(bare)):
            return bare
    if entry and re.match(r"\W*" + re.escape(shown) + r"(?!\w)", entry):
        return shown
    return None


def with_links(sections: tuple[Section, ...], chapters: list[ChapterLinks],
               starts: list[tuple[int, str]]) -> tuple[Section, ...]:
    """``sections`` with their chapters' internal links as references (``Section.links``:
    the name the link shows, the text showing it, the target's ``file#id``); ``starts`` is
    each chapter's first line in the book's text."""
    lines = [s.start_line for s in sections]
    begins = {file: max(0, bisect_right(lines, line) - 1) for line, file in starts}
    by_file = {c.file: c for c in chapters if c.file in begins}
    where = {f: _sections_of(c, sections, begins[f]) for f, c in by_file.items()}
    found: dict[int, list[tuple[str, str, str]]] = {}
    for chapter in by_file.values():
        for at, file, fragment, shown in chapter.links:
            target = by_file.get(file)
            if target is None:
                continue
            heading_at, entry = target.anchors.get(fragment, (None, "")) if fragment else (0 if target.headings else -1, "")
            if heading_at is None:
                continue
            source, goes = where[chapter.file][at], where[file][heading_at]
            if source < 0 or goes < 0 or source == goes or shown not in sections[source].text:
                continue
            name = _name(shown, sections[goes].heading, entry)
            if name is None:
                continue
            link = (name, shown, f"{file}#{fragment}" if fragment else file)
            if link not in found.setdefault(source, []):
                found[source].append(link)
    return tuple(replace(s, links=s.links + tuple(found.get(i, ()))) if i in found else s
                 for i, s in enumerate(sections))
