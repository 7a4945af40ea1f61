"""A documentation set: a folder of HTML pages read as one book.

A Sphinx, mdBook, Javadoc or rustdoc HTML build is known by the files its tool writes
(``objects.inv``, ``searchindex.js``, ``book.js``, ``element-list``, ``search-index.js``...);
any folder of HTML pages (and no notes) is one with ``--as-book``. Each page is read as the
HTML reader reads it; its sections keep their page (``Section.file``) and sit under the
page's name in the heading path. The pages' markup says exactly what they document
(terms.py), as a vault's notes do (index/extract/marks.py turns it into mentions):

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

from ...chunk.chunking import split_sections
from ...core.errors import BadInput
from ...core.models import SUB_ENTRY_SEPARATOR, DocTerm, Section
from ...core.normalize import normalize_name, normalized_words
from ...core.packs import genre_words
from ...core.rule_guard import guarded
from ...core.titles import clean_inline
from ..files import FolderFiles
from ..html import page_title
from ..html_markdown import HEADINGS, kept_elements, parse_html, tag_of, to_markdown
from ..inventories import has_inventory, inventory_entries, placed_terms, tool_dirs, tool_markers, with_terms
from ..source import ReadOptions, SourceBook
from .anchor_terms import ANCHOR_NAME, anchor_terms, may_define
from .anchors import set_prefixes
from .boilerplate import Boilerplate, learn_boilerplate
from .home_title import home_title
from .index_page import place_index
from .index_rows import index_blocks, index_title
from .markers import as_written, marked_anchors
from .members import owner_forms, qualified
from .page_subject import (
    declared_names,
    is_name_heading,
    is_synopsis_heading,
    own_names,
    shared_topics,
    shown_in,
    signature_names,
    titled_subject,
)
from .sibling_runs import set_runs
from .tables import is_label, option_leads, row_term
from .terms import dt_term, paragraph_term, parts_heading, text_of

PAGE_SUFFIXES = (".html", ".htm", ".xhtml")
# a relative page (and anchor) a script call's quoted argument names
_SCRIPT_TARGET = re.compile(r"""['"]([^'"\s:/][^'"\s:]*?\.x?html?(?:#[^'"\s]*)?|#[^'"\s]+)['"]""")
# folders of a site's assets, whatever tool built it (a tool's own: its Inventory's tool_dirs)
_ASSET_DIRS = ("fonts", "css", "js")
_TOOL_PAGES = re.compile(r"(genindex.*|.*modindex|search|searchindex|index-all|index-\d+|index-files|allclasses.*"
                         r"|allpackages.*|all|print|404|toc|overview-tree|deprecated-list|help-doc|sitemap"
                         r"|constant-values|serialized-form|overview-summary)\.x?html?$", re.IGNORECASE)


def is_docset(folder: Path) -> bool:
    """A documentation tool's HTML build (``claims``), the folder walked to say so."""
    return folder.is_dir() and claims(FolderFiles(folder))


def claims(files: FolderFiles) -> bool:
    """A documentation tool's HTML build: a file that marks a tool's build or an authors'
    inventory beside its pages, or pages a generator wrote (detect.py)."""
    from .detect import docset_reason

    # the cheap tests first: a marker's name, a sample of a dozen pages, then every inventory's files
    return any(files.has(marker) for marker in tool_markers()) or docset_reason(files) is not None \
        or has_inventory(files)


def page_files(files: FolderFiles) -> list[str]:
    """The documentation pages of the set (relative POSIX paths, sorted, ``index.html``
    first), less those in a tool's or the site's asset folders and generated listing pages."""
    skip = tool_dirs() | frozenset(_ASSET_DIRS)
    found = [f for f in files.files if f.lower().endswith(PAGE_SUFFIXES) and not _TOOL_PAGES.fullmatch(f.rpartition("/")[2])
             and not any(part in skip for part in f.split("/")[:-1])]
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
    declared: list[DocTerm] = field(default_factory=list)                 # its NAME line's other names
    index: list | None = None                        # a back-index page's entries (index_page.py)
    index_titles: list[str] = field(default_factory=list)  # the title of each entry's index block
    mentions: dict[int, list[tuple]] = field(default_factory=dict)         # section -> index entries it shows
    anchors: list = field(default_factory=list)      # what its anchors spell (readers/docset/anchors.py)
    title: str = ""                                  # its <title> (else its first <h1>)


LOOSE_PAIRING = 3    # sections ahead a heading element's rendering may be paired with
RENDERED_START = 6   # letters a heading and its rendering share at the start at least


def _pair_headings(texts: list[str], sections: list[Section]) -> list[int | None]:
    """For each heading element (by its text), the section it opened, matched in order."""
    out: list[int | None] = []
    at = 0
    for text in texts:
        # the section's heading is the element's text as core.titles cleans it ("frob_open"
        # loses its underscore there): compare them cleaned alike
        key = normalized_words(clean_inline(text))
        found = next((i for i in range(at, len(sections)) if sections[i].heading is not None
                      and normalized_words(clean_inline(sections[i].heading)) == key), None)
        if found is None:
            found = next((i for i in range(at, min(at + LOOSE_PAIRING, len(sections)))
                          if sections[i].heading is not None and _rendered_from(sections[i].heading, text)), None)
        out.append(found)
        if found is not None:
            at = found + 1
    return out


def _rendered_from(heading: str, text: str) -> bool:
    """Whether a section's heading is a heading element's text as Markdown rendered it less
    a part it read as markup (``flatMap[Out2, B](f: A)``: a link, its target dropped): the
    same start, and its letters and digits the text's, in order."""
    rendered, whole = (re.sub(r"\W", "", t.casefold()) for t in (heading, text))
    if not rendered or rendered == whole or not whole.startswith(rendered[:RENDERED_START]):
        return False
    letters = iter(whole)
    return all(char in letters for char in rendered)


def _scan(kept: list, index: frozenset = frozenset()) -> tuple[list[str], list, list, list]:
    """Walk a page's shown elements (``kept``, in order): its headings (returned, in order),
    the terms of its definition lists, its ids and its links, each filed under the heading
    it follows (an index into the headings; -1 before the first); the elements of its index
    blocks (``index``) give neither terms nor links (readers/docset/index_rows.py)."""
    headings: list[str] = []
    pending: list[str] = []
    owed, claimed = _container_ids(kept)
    raw_terms: list[tuple[int, DocTerm]] = []
    raw_anchors: list[tuple[int, str]] = []
    raw_links: list[tuple[int, str, str]] = []
    for element in kept:
        tag = tag_of(element)
        ident = element.get("id") or (element.get("name") if tag == "a" else None)  # HTML 4's <a name>
        if tag in HEADINGS:
            text = text_of(element)
            if text:
                headings.append(text)
                raw_anchors.extend((len(headings) - 1, i) for i in [*pending, *owed.get(element, ()), ident,
                                                                      *_unshown_ids(element)] if i)
                pending = []
            continue
        current = len(headings) - 1
        if pending and tag not in ("section", "div", "a", "header", "hgroup", "span"):
            # text came before any heading: the anchors were in this section's text (an index
            # entry's <a name> in a paragraph), not before the next heading
            raw_anchors.extend((current, i) for i in pending)
            pending = []
        if tag == "dt":
            raw_anchors.extend((current, i) for i in _unshown_ids(element))
        if element in claimed:
            pass  # its heading's, wherever its text starts (above)
        elif ident and (tag in ("section", "div") or (tag == "a" and not text_of(element) and _before_heading(element))):
            pending.append(ident)  # a section's id, or an anchor before a heading: the heading's
        elif ident:
            raw_anchors.append((current, ident))
        if element in index:
            continue
        if tag in ("dt", "p", "tr", "li"):
            raw_terms.extend((current, term) for term in _markup_terms(element, tag, headings[-1] if headings else None))
        elif tag == "a" and element.get("href") and "headerlink" not in (element.get("class") or ""):
            # the link's text, and its runs (a bold or code run shows in the Markdown as written)
            shown = [text_of(element)] + [text_of(e) for e in element.iterdescendants() if isinstance(e.tag, str)]
            if re.search(r"\w", shown[0]):
                raw_links.append((current, element.get("href"), tuple(t for t in shown if t)))
    return headings, raw_terms, raw_anchors, raw_links


def _container_ids(kept: list) -> tuple[dict, set]:
    """The ids of the sections and divs that hold a shown heading, by that heading (the
    first they hold), and those containers: a container is its heading's section even when
    a panel of links comes before the heading inside it, so its id is the heading's, not
    the section before's."""
    shown = frozenset(e for e in kept if tag_of(e) in HEADINGS and text_of(e))
    owed: dict = {}
    claimed = set()
    for element in kept:
        if tag_of(element) in ("section", "div") and element.get("id"):
            heading = next((d for d in element.iterdescendants(*HEADINGS) if d in shown), None)
            if heading is not None:
                owed.setdefault(heading, []).append(element.get("id"))
                claimed.add(element)
    return owed, claimed


def _unshown_ids(element) -> list[str]:
    """The ids of the anchors a heading or a term holds and its Markdown does not show (a
    permalink's, a hidden legacy anchor's): the heading's own."""
    return [d.get("id") or d.get("name") for d in element.iterdescendants()
            if tag_of(d) in ("a", "span") and (d.get("id") or d.get("name"))]


def _markup_terms(element, tag: str, heading: str | None) -> list[DocTerm]:
    """What an element's markup says it documents: a definition term, a paragraph with its
    indented description, a table row (readers/docset/tables.py) or an options section's
    ``key=value`` leads; nothing under a heading of an entry's parts (its template parameters)."""
    if parts_heading(heading):
        return []
    if tag == "dt" and text_of(element).strip().endswith(":") and is_label(element):
        return []  # a label of an entry's parts ("Returns:", "Deprecated:"): no thing
    if tag == "dt":
        term = dt_term(element, element.getparent(), heading)
    elif tag == "tr":
        term = row_term(element, heading)
    else:
        term = paragraph_term(element, heading) if tag == "p" else None
        if term is None:
            return option_leads(element, heading)
    if term is None:
        return []
    return [replace(term, kind="entry") if term.kind == "other" else term]  # documented, of no named kind


def _before_heading(anchor) -> bool:
    """An empty anchor that marks the heading after it (past other empty anchors before it:
    an entry's two ids), not a place in a paragraph's text."""
    following = anchor.getnext()
    while (following is not None and tag_of(following) == "a" and not text_of(following)
           and not (anchor.tail or "").strip() and not (following.tail or "").strip()):
        anchor, following = following, following.getnext()
    if following is not None and tag_of(following) in HEADINGS:
        return True
    parent = anchor.getparent()
    return not (anchor.tail or "").strip() and parent is not None and tag_of(parent) in (
        "section", "div", "body", "article", "main")


def _read_page(rel: str, data: bytes, warnings: list[str], boiler: Boilerplate | None = None,
               keep: frozenset[str] = frozenset(), prefixes: tuple[str, ...] = ()) -> _Page | None:
    try:
        root = parse_html(data)
    except Exception as exc:  # a page that is no HTML is left out with a line, never the whole set
        warnings.append(f"'{rel}' cannot be read as HTML ({type(exc).__name__}): left out")
        return None
    blocks = index_blocks(root, list(kept_elements(root)))
    in_index = frozenset(e for block, _ in blocks for e in (block, *block.iterdescendants()))
    holding = frozenset(a for block, _ in blocks for a in block.iterancestors())  # "<div id=index>" names no entry
    anchors = marked_anchors(root, in_index | holding, prefixes, posixpath.basename(rel))
    if boiler is not None:
        # never an anchor the authors' inventory names (``keep``) nor one that names a thing
        boiler.strip(root, keep | {a.ident for a in anchors if may_define(a)})
    markdown = to_markdown(root)
    if not markdown.strip():
        return None
    page = _Page(rel, split_sections(markdown), anchors=anchors)
    headings, raw_terms, raw_anchors, raw_links = _scan(list(kept_elements(root)), in_index)
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
    _find_subject(page, root, headings, boiler or Boilerplate())
    page.index = [entry for _, entries in blocks for entry in entries] or None
    page.index_titles = [index_title(block) for block, entries in blocks for _ in entries]
    return page


def _add_anchor_terms(page: _Page, runs: set) -> None:
    """The names the page's anchors define (readers/docset/anchor_terms.py; ``runs``: the
    set's runs of siblings), each in the section that holds its anchor, unless its markup,
    its inventory or its subject defines it already."""
    # the subject as written, case aside: a name its key merely shares (``_OSTREAM_TCC`` of a page
    # on ``ostream.tcc``) is another thing
    subject = page.subject.name.casefold() if page.subject is not None else None
    for ident, term in anchor_terms(page.anchors, runs):
        where = page.anchor_sections.get(ident)
        if where is None or ident in page.anchor_terms:
            continue
        if term.rule == ANCHOR_NAME:  # an index's term as its title writes it (its capitals, its plural)
            term = replace(term, name=as_written(term.name, page.sections[where].text))
        # the same thing, a plural aside ("shell functions" of an inverted "functions, shell")
        key = normalize_name(term.name)
        there = page.terms.setdefault(where, [])
        known = next((t for t in there if normalize_name(t.name.rpartition(SUB_ENTRY_SEPARATOR)[2]) == key), None)
        if known is not None:
            # a second anchor of the same thing may bring a form the first did not (an
            # index's inverted entry, "expansion, tilde" beside "tilde expansion")
            extra = tuple(a for a in term.aliases if a not in known.aliases and a != known.name)
            if extra:
                merged = replace(known, aliases=(*known.aliases, *extra))
                there[there.index(known)] = merged
                page.anchor_terms.update({i: merged for i, t in page.anchor_terms.items() if t is known})
                known = merged
            page.anchor_terms[ident] = known
        elif term.name.casefold() != subject:
            term = replace(term, target=f"{page.path}#{ident}")
            there.append(term)
            page.anchor_terms[ident] = term


_TYPE_PARAMETERS = re.compile(r"(?<=\S)\s*<(?:[^<>]|<[^<>]*>)*>$")  # a name's type parameters ("pair< A, B >")


def _find_subject(page: _Page, root, headings: list[str], boiler: Boilerplate) -> None:
    """The page's subject and the names it declares (readers/docset/page_subject.py), and its name
    in the heading path."""
    sections = page.sections
    title = page.title = page_title(root) or ""
    for i, section in enumerate(sections):
        if is_name_heading(section.heading):
            found = declared_names(section.text.partition("\n")[2], title, headings)
            if found:
                names, kind = found
                whole = "".join(s.text for s in sections)
                page.subject = DocTerm(names[0], kind, True, _spaced(names[0], whole), page.path)
                page.subject_at, page.name = i, names[0]
                page.declared = [DocTerm(n, kind, False, _spaced(n, whole), page.path) for n in names[1:]]
                page.terms.setdefault(i, []).extend(page.declared)
                if kind == "function":
                    _declare_signatures(page, names)
                return
    found = titled_subject(root, title, boiler.site_parts(), boiler.repeated_headings())
    if found is None:  # the site's home page
        page.name = title
        return
    name, kind, heading = found
    page.name = heading or name or Path(page.path).stem
    name = name or Path(page.path).stem
    kind = "topic" if kind == "other" else kind  # a page about a topic ("Commands"): linked as documentation is
    bare = _TYPE_PARAMETERS.sub("", name) if kind != "topic" else name
    written, name = ((name,) if bare and bare != name else ()), bare or name  # "Test< T * >": Test, so written
    where = next((i for i, s in enumerate(sections) if s.heading is not None), 0)
    if not shown_in(name, sections[where].text) and not heading and kind != "topic":
        # a title that names its thing and kind ("Tag Class Reference") over headings of its parts
        where = next((i for i, s in enumerate(sections) if shown_in(name, s.text)), where)
    if not shown_in(name, sections[where].text):
        return  # a subject the page's text does not show is no stored definition
    aliases = _spaced(name, "".join(s.text for s in sections)) if kind == "command" else written
    aliases += own_names(name, *written) if kind != "topic" else ()
    page.subject = DocTerm(name, kind, True, aliases, page.path)
    page.subject_at = where


def _declare_signatures(page: _Page, names: list[str]) -> None:
    """The functions a function page's SYNOPSIS prototypes declare and its NAME line does not
    name (``int frob_openat(int dirfd, ...);``): defined there too."""
    for i, section in enumerate(page.sections):
        if is_synopsis_heading(section.heading):
            more = [DocTerm(n, "function", False, (), page.path)
                    for n in signature_names(section.text) if n not in names]
            page.declared.extend(more)
            page.terms.setdefault(i, []).extend(more)
            return


def _subject_of_inventory(page: _Page, placed: list[DocTerm]) -> None:
    """A subject taken from a title with the word of its kind before the name ("Struct
    syn::Ident", "class Asciidoctor::Document"), or that name alone, is the inventory's entry
    for the whole page that the title ends in: the page's subject is that entry, named and
    typed as the inventory has it."""
    if page.subject is None:
        return
    for term in placed:
        if "#" not in term.target and (page.subject.name.endswith(" " + term.name) or page.subject.name == term.name):
            page.subject = replace(term, subject=True, target=page.path)
            page.terms[page.subject_at] = [t for t in page.terms.get(page.subject_at, []) if t.name != term.name]
            return


def _spaced(name: str, text: str) -> tuple[str, ...]:
    """``git commit`` for the command ``git-commit`` when the page writes it so."""
    spaced = name.replace("-", " ")
    return (spaced,) if spaced != name and re.search(rf"(?<![\w-]){re.escape(spaced)}(?![\w-])", text) else ()


def _target(page: _Page, href: str, pages: dict[str, _Page], shown: tuple = ()) -> tuple[str, str] | None:
    """(entity name, target key) an author's link names, or None (outside the set, a file).
    A script call that holds a relative ``page#anchor`` (``javascript:go('ref.html#blend')``)
    is that link."""
    if href.startswith("javascript:"):
        held = _SCRIPT_TARGET.search(href)
        if held is None:
            return None
        href = held.group(1)
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
    if target.subject is None or target.path == page.path:  # a page's own contents list, not a reference
        return None
    said = {normalized_words(t) for t in shown}
    declared = next((d for d in target.declared if normalized_words(d.name) in said), None)
    return (declared or target.subject).name, target.path  # "free(3)" to malloc's page: free


def _scope_shared_options(pages: dict[str, _Page]) -> None:
    """An option or parameter several pages document (``--verbose``, a ``name`` placeholder)
    is each page's own: ``frob-add › name`` (core.models.SUB_ENTRY_SEPARATOR), its aliases
    scoped alike, never one entity of the whole set; where-else finds it by its bare name."""
    owned = genre_words("documentation", "owned_kinds")  # a command's or function's own entries
    on_pages: dict[str, set[str]] = {}
    for page in pages.values():
        for terms in page.terms.values():
            for term in terms:
                if term.kind in owned:
                    on_pages.setdefault(normalized_words(term.name), set()).add(page.path)
    shared = {name for name, where in on_pages.items() if len(where) >= 2}
    for page in pages.values():
        if page.subject is None:
            continue
        owner = page.subject.name

        def scoped(term: DocTerm) -> DocTerm:
            if term.kind not in owned or normalized_words(term.name) not in shared:
                return term
            return replace(term, name=f"{owner}{SUB_ENTRY_SEPARATOR}{term.name}",
                           aliases=tuple(f"{owner}{SUB_ENTRY_SEPARATOR}{a}" for a in term.aliases))

        page.terms = {i: [scoped(t) for t in terms] for i, terms in page.terms.items()}
        page.anchor_terms = {anchor: scoped(t) for anchor, t in page.anchor_terms.items()}


def _qualify_members(page: _Page) -> None:
    """The page's code-like terms with their owner's (the subject's) qualified forms as
    aliases (readers/docset/members.py)."""
    forms = owner_forms(page.subject.name, "".join(s.text for s in page.sections))
    if not forms:
        return
    page.terms = {i: [qualified(t, forms) for t in terms] for i, terms in page.terms.items()}
    page.anchor_terms = {anchor: qualified(t, forms) for anchor, t in page.anchor_terms.items()}


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
            found = _target(page, href, pages, texts)
            shown = next((t for t in texts if t in section.text), None)
            if found is not None and shown and normalized_words(found[0]) not in own:
                links.append((found[0], shown, found[1]))
        links.extend(m for m in page.mentions.get(i, ()) if normalized_words(m[0]) not in own)
        out.append(replace(section, heading_path=path, file=page.path, terms=tuple(terms),
                           links=tuple(dict.fromkeys(links))))
    return out


def read(path: Path, options: ReadOptions = ReadOptions()) -> SourceBook:
    """A folder of HTML pages as one book (module doc): every file from one walk of it
    (readers/files.py), as ``options`` select them. Raises BadInput when it holds no page."""
    files = FolderFiles(path, options.selection, options.limits)
    warnings: list[str] = list(files.skipped)
    pages_found = page_files(files)
    digest = hashlib.sha256()
    pages: dict[str, _Page] = {}
    sampled: dict[str, bytes | Exception] = {}  # what learning the boilerplate read: each page is read once

    def sample(rel: str) -> bytes:
        try:
            sampled[rel] = files.read_bytes(rel)
        except Exception as exc:
            sampled[rel] = exc
            raise
        return sampled[rel]

    def page_bytes(rel: str) -> bytes:
        data = sampled.pop(rel) if rel in sampled else files.read_bytes(rel)
        if isinstance(data, Exception):
            raise data
        return data

    boiler = learn_boilerplate(pages_found, sample)
    prefixes = set_prefixes(sampled.values())  # the ids' prefixes the set's pages share (readers/docset/anchors.py)
    inventory = inventory_entries(files, warnings)  # the authors' inventories: exact (readers/inventories)
    for rel in pages_found:
        # a page is read once (its hash is of the bytes parsed); one that cannot be read is
        # left out with a line, and one a rule raises on costs itself, never the whole set
        try:
            data = page_bytes(rel)
        except (OSError, ValueError) as exc:
            warnings.append(f"'{rel}' cannot be read ({type(exc).__name__}: {exc}): left out")
            continue
        anchors = frozenset(e.anchor for e in inventory.get(rel, ()) if e.anchor)
        page = None
        with guarded(path.name, rel, warnings=warnings):  # a rule's bug: raised in strict mode
            try:
                page = _read_page(rel, data, warnings, boiler, anchors, prefixes)
            except RecursionError as exc:  # nesting too deep to convert: the page's input, not a bug
                warnings.append(f"'{rel}' cannot be converted ({type(exc).__name__}: {exc}): left out")
        digest.update(rel.encode("utf-8") + b"\0" + hashlib.sha256(data).digest())
        if page is not None and page.sections:
            pages[rel] = page
    if not pages:
        raise BadInput(f"'{path}' holds no HTML pages with text (*.html): there is nothing to ingest"
                       + (" once --glob and --exclude picked its files" if options.selection else ""))
    labels = shared_topics(page.subject for page in pages.values())
    for page in pages.values():
        if page.subject is not None and normalized_words(page.subject.name) in labels:
            page.subject = None  # the set's label, no page's subject (readers/docset/page_subject.py)
    _place_inventories(pages, inventory, path.name, warnings)
    runs = set_runs([page.anchors for page in pages.values()])
    for page in pages.values():
        with guarded(path.name, page.path, warnings=warnings):
            _add_anchor_terms(page, runs)
    with guarded(path.name, "the index pages", warnings=warnings):
        place_index(pages)
    with guarded(path.name, "the options several pages document", warnings=warnings):
        _scope_shared_options(pages)
    owners = genre_words("documentation", "owner_kinds")
    sections = []
    for page in pages.values():
        with guarded(path.name, page.path, warnings=warnings):
            if page.subject is not None and page.subject.kind in owners:
                _qualify_members(page)
            sections.extend(_page_sections(page, pages))
    title = _set_title(pages_found, pages, boiler) or path.resolve().name
    return SourceBook(path=path, format="docset", title=title, sections=tuple(sections),
                      sha256=digest.hexdigest(), warnings=tuple(warnings))


def _set_title(pages_found: list[str], pages: dict[str, _Page], boiler: Boilerplate) -> str | None:
    """The set's title from its home page (readers/docset/home_title.py): the folder's own
    index page, else its shallowest page when that is at the folder's top and documents no
    thing of its own (a command's page names the command, not the set); None when there is
    none, or its title names nothing once cleaned."""
    home = pages.get(pages_found[0]) if pages_found else None
    if home is None or not home.title or "/" in home.path:
        return None
    if not home.path.lower().startswith("index.") and home.subject is not None:
        return None
    return home_title(home.title, boiler.site_parts())


def _place_inventories(pages: dict[str, _Page], inventory: dict, book: str, warnings: list[str]) -> None:
    """Each inventory entry defined in the section of its page that holds its anchor."""
    for rel, page in pages.items():
        with guarded(book, rel, warnings=warnings):
            placed = placed_terms(inventory.get(rel, []), page.sections, page.anchor_sections)
            for where, terms in placed.items():
                page.terms[where] = with_terms(terms, page.terms.get(where, []))
                page.anchor_terms.update((t.target.partition("#")[2], t) for t in terms if "#" in t.target)
            _subject_of_inventory(page, placed.get(page.subject_at, []))
