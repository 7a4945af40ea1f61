"""A documentation set: a folder of HTML pages read as one book.

A Sphinx, mdBook, Javadoc or rustdoc HTML build is known by the files its tool writes
(``objects.inv``, ``searchindex.js``, ``book.js``, ``element-list``, ``search-index.js``...);
any folder of HTML pages (and no notes) is one with ``--as-book``. Each page is read as the
HTML reader reads it; its sections keep their page (``Section.file``) and sit under the
page's name in the heading path. The pages' markup says exactly what they document
(doc_terms.py), as a vault's notes do (index/extract/marks.py turns it into mentions):

- a page defines its subject: a man page's NAME line, else its title's named thing
  (``tar-create(1)``, "``json`` — JSON encoder and decoder"), else its title; a command
  written with a hyphen has the spaced form as an alias when the page writes it so
  (``git-commit``: "git commit");
- each section defines the terms of its definition lists (Sphinx object entries, options
  blocks, code or bold terms);
- an author's hyperlink to another page of the set (``<a href="other.html">``) or to an entry
  on a page (``#json.dump``) references what that page, entry or section documents.

Generated pages that only list other pages (a general index, a search page, mdBook's
print-all page) are left out: their links are a tool's, not an author's.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from urllib.parse import unquote

from ..chunk.chunking import split_sections
from ..core.errors import BadInput
from ..core.models import DocTerm, Section
from ..core.normalize import normalized_words
from ..core.packs import genre_list, genre_words
from .doc_terms import dt_term, name_line, paragraph_term, text_of, title_subject
from .html import page_title
from .html_markdown import HEADINGS, kept_elements, parse_html, tag_of, to_markdown
from .source import SourceBook
from .walk import walk_folder

# files a documentation tool writes beside its pages
MARKERS = genre_list("documentation", "generator_markers")
PAGE_SUFFIXES = (".html", ".htm", ".xhtml")
_TOOL_DIRS = genre_words("documentation", "tool_dirs")
_TOOL_PAGES = re.compile(r"(genindex.*|.*modindex|search|searchindex|index-all|index-\d+|index-files|allclasses.*"
                         r"|allpackages.*|all|print|404|toc|overview-tree|deprecated-list|help-doc|sitemap"
                         r"|constant-values|serialized-form|overview-summary)\.x?html?$", re.IGNORECASE)


def is_docset(folder: Path) -> bool:
    """A documentation tool's HTML build (one of ``MARKERS`` beside its pages)."""
    return folder.is_dir() and any((folder / marker).is_file() for marker in MARKERS)


def page_files(root: Path, warnings: list[str] | None = None) -> list[str]:
    """The documentation pages below ``root`` (relative POSIX paths, sorted, ``index.html``
    first), less hidden and tool folders and generated listing pages; walked as a vault is
    (walk.py: each real folder once, links only inside it, the others told in ``warnings``)."""
    walk = walk_folder(root, stop=lambda folder: folder.name in _TOOL_DIRS)
    if warnings is not None:
        warnings.extend(walk.skipped)
    found = [f.relative_to(root).as_posix() for f in walk.files
             if f.suffix.lower() in PAGE_SUFFIXES and not _TOOL_PAGES.fullmatch(f.name)]
    return sorted(found, key=lambda p: (p.count("/"), not p.lower().startswith("index."), p.casefold()))


@dataclass
class _Page:
    path: str
    sections: list[Section]
    name: str = ""                                   # the page's place in the heading path
    subject: DocTerm | None = None
    subject_at: int = 0                              # the section that shows the subject
    terms: dict[int, list[DocTerm]] = field(default_factory=dict)      # section -> its terms
    anchor_terms: dict[str, DocTerm] = field(default_factory=dict)     # id -> the term there
    anchor_sections: dict[str, int] = field(default_factory=dict)      # id -> its section
    hrefs: dict[int, list[tuple[str, tuple]]] = field(default_factory=dict)  # section -> (href, texts)


def _pair_headings(texts: list[str], sections: list[Section]) -> list[int | None]:
    """For each heading element (by its text), the section it opened, matched in order."""
    out: list[int | None] = []
    at = 0
    for text in texts:
        key = normalized_words(text)
        found = next((i for i in range(at, len(sections))
                      if sections[i].heading is not None and normalized_words(sections[i].heading) == key), None)
        out.append(found)
        if found is not None:
            at = found + 1
    return out


def _scan(root) -> tuple[list[str], list, list, list]:
    """Walk a page's shown elements: its headings (returned, in order), the terms of its
    definition lists, its ids and its links, each filed under the heading it follows
    (an index into the headings; -1 before the first)."""
    headings: list[str] = []
    pending: list[str] = []
    raw_terms: list[tuple[int, DocTerm]] = []
    raw_anchors: list[tuple[int, str]] = []
    raw_links: list[tuple[int, str, str]] = []
    for element in kept_elements(root):
        tag = tag_of(element)
        ident = element.get("id")
        if tag in HEADINGS:
            text = text_of(element)
            if text:
                headings.append(text)
                raw_anchors.extend((len(headings) - 1, i) for i in [*pending, ident] if i)
                pending = []
            continue
        current = len(headings) - 1
        if ident and (tag in ("section", "div") or (tag == "a" and not text_of(element))):
            pending.append(ident)  # a section's id, or an anchor before a heading: the heading's
        elif ident:
            raw_anchors.append((current, ident))
        if tag in ("dt", "p"):
            heading = headings[-1] if headings else None
            term = dt_term(element, element.getparent(), heading) if tag == "dt" else paragraph_term(element, heading)
            if term is not None:
                raw_terms.append((current, term))
        elif tag == "a" and element.get("href") and "headerlink" not in (element.get("class") or ""):
            # the link's text, and its runs (a bold or code run shows in the Markdown as written)
            shown = [text_of(element)] + [text_of(e) for e in element.iterdescendants() if isinstance(e.tag, str)]
            if re.search(r"\w", shown[0]):
                raw_links.append((current, element.get("href"), tuple(t for t in shown if t)))
    return headings, raw_terms, raw_anchors, raw_links


def _read_page(root_dir: Path, rel: str, warnings: list[str], data: bytes | None = None) -> _Page | None:
    try:
        data = (root_dir / rel).read_bytes() if data is None else data
        root = parse_html(data)
    except Exception as exc:  # an unreadable page is left out with a line, never the whole set
        warnings.append(f"'{rel}' cannot be read as HTML ({type(exc).__name__}): left out")
        return None
    markdown = to_markdown(root)
    if not markdown.strip():
        return None
    page = _Page(rel, split_sections(markdown))
    headings, raw_terms, raw_anchors, raw_links = _scan(root)
    paired = _pair_headings(headings, page.sections)
    first = 0 if page.sections and page.sections[0].heading is None else None

    def section_of(heading_index: int) -> int | None:
        return first if heading_index < 0 else paired[heading_index]

    for at, term in raw_terms:
        where = section_of(at)
        if where is not None:
            term = replace(term, target=f"{rel}#{term.target}" if term.target else "")
            page.terms.setdefault(where, []).append(term)
            if term.target:
                page.anchor_terms[term.target.partition("#")[2]] = term
    for at, ident in raw_anchors:
        where = section_of(at)
        if where is not None:
            page.anchor_sections.setdefault(ident, where)
    for at, href, shown in raw_links:
        where = section_of(at)
        if where is not None:
            page.hrefs.setdefault(where, []).append((href, shown))
    _find_subject(page, root, headings)
    return page


def _find_subject(page: _Page, root, headings: list[str]) -> None:
    """The page's subject (module doc) and its name in the heading path."""
    sections = page.sections
    for i, section in enumerate(sections):
        if section.heading and normalized_words(section.heading) == "name":
            names = name_line(section.text.partition("\n")[2])
            if names:
                aliases = tuple(names[1:]) + _spaced(names[0], "".join(s.text for s in sections))
                page.subject = DocTerm(names[0], "command", True, aliases, page.path)
                page.subject_at, page.name = i, names[0]
                return
    heading = next((e for e in kept_elements(root) if tag_of(e) in HEADINGS and text_of(e)), None)
    if heading is not None:
        runs = [text_of(e) for e in heading.iter() if tag_of(e) in ("code", "tt", "samp", "kbd")]
        module = any("py-mod" in (e.get("class") or "") for e in heading.iter() if isinstance(e.tag, str))
        name, kind = title_subject(text_of(heading), runs, module)
        page.name = text_of(heading)
    else:
        title = page_title(root)
        name, kind = (title, "other") if title else (Path(page.path).stem, "other")
        page.name = name
    where = next((i for i, s in enumerate(sections) if s.heading is not None), 0)
    if name not in sections[where].text:
        return  # a subject the page's text does not show is no stored definition
    aliases = _spaced(name, "".join(s.text for s in sections)) if kind == "command" else ()
    page.subject = DocTerm(name, kind, True, aliases, page.path)
    page.subject_at = where


def _spaced(name: str, text: str) -> tuple[str, ...]:
    """``git commit`` for the command ``git-commit`` when the page writes it so."""
    spaced = name.replace("-", " ")
    return (spaced,) if spaced != name and re.search(rf"(?<![\w-]){re.escape(spaced)}(?![\w-])", text) else ()


def _target(page: _Page, href: str, pages: dict[str, _Page]) -> tuple[str, str] | None:
    """(entity name, target key) an author's link names, or None (outside the set, a file)."""
    address, _, fragment = href.partition("#")
    if "://" in address or address.startswith(("mailto:", "/", "javascript:")):
        return None
    target_path = page.path if not address else posixpath.normpath(
        posixpath.join(posixpath.dirname(page.path), unquote(address)))
    target = pages.get(target_path)
    if target is None:
        return None
    fragment = unquote(fragment)
    term = target.anchor_terms.get(fragment) if fragment else None
    if term is not None:
        return term.name, term.target
    where = target.anchor_sections.get(fragment) if fragment else None
    if where is not None and where != target.subject_at and target.terms.get(where):
        found = target.terms[where][0]
        return found.name, found.target or target.path
    if target.subject is None or (not address and not fragment):
        return None
    return target.subject.name, target.path


def _page_sections(page: _Page, pages: dict[str, _Page]) -> list[Section]:
    out = []
    for i, section in enumerate(page.sections):
        path = section.heading_path
        if not path or normalized_words(path[0]) != normalized_words(page.name):
            path = (page.name, *path)
        terms = list({t.name: t for t in reversed(page.terms.get(i, ()))}.values())[::-1]
        if page.subject is not None and i == page.subject_at:
            terms.insert(0, page.subject)
        own = {normalized_words(t.name) for t in terms}
        links = []
        for href, texts in page.hrefs.get(i, ()):
            found = _target(page, href, pages)
            shown = next((t for t in texts if t in section.text), None)
            if found is not None and shown and normalized_words(found[0]) not in own:
                links.append((found[0], shown, found[1]))
        out.append(replace(section, heading_path=path, file=page.path, terms=tuple(terms),
                           links=tuple(dict.fromkeys(links))))
    return out


def read(path: Path) -> SourceBook:
    """A folder of HTML pages as one book (module doc). Raises BadInput when it holds none."""
    warnings: list[str] = []
    files = page_files(path, warnings)
    digest = hashlib.sha256()
    pages: dict[str, _Page] = {}
    for rel in files:
        # a page is read once (its hash is of the bytes parsed); one that cannot be read or
        # converted is left out of the set with a line, never the whole set
        try:
            data = (path / rel).read_bytes()
            page = _read_page(path, rel, warnings, data)
        except Exception as exc:
            warnings.append(f"'{rel}' cannot be read or converted ({type(exc).__name__}: {exc}): left out")
            continue
        digest.update(rel.encode("utf-8") + b"\0" + hashlib.sha256(data).digest())
        if page is not None and page.sections:
            pages[rel] = page
    if not pages:
        raise BadInput(f"'{path}' holds no HTML pages with text (*.html): there is nothing to ingest")
    sections = [s for page in pages.values() for s in _page_sections(page, pages)]
    return SourceBook(path=path, format="docset", title=path.resolve().name, sections=tuple(sections),
                      sha256=digest.hexdigest(), warnings=tuple(warnings))
