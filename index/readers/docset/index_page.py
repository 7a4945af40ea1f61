"""A doc set's back index: a page of terms, each with links to where it is discussed. Pure.

DocBook's ``ix01.html`` (docbook-xsl), Texinfo's index nodes and other generators write a
book's back index as a page of definition terms, each the entry followed by its links
(``<dt>--verbose, <a href="git-add.html#id12">git-add</a></dt>``). A page is one when most
of its definition terms (at least ``MIN_ENTRIES``) hold a link to another page. Its links
are the index's, not an author's: they are no references from the index page; each entry
is mentioned where it points instead (readers/docset/ places it, as a printed manual's
index is placed: readers/passes/printed_index.py).
"""

from __future__ import annotations

import re

from ..html_markdown import tag_of
from .terms import MAX_TERM, text_of

MIN_ENTRIES = 5
SHARE = 0.6
_TRAILING = re.compile(r"[\s,;:.\u2014\u2013-]+$")


def _entry(dt) -> tuple[str, list[str]] | None:
    """(term, hrefs) of an index ``<dt>``: the text before its first link, and its links."""
    links = [a for a in dt.iter("a") if a.get("href")]
    if not links:
        return None
    parts = [dt.text or ""]
    for child in dt:
        if child is links[0] or links[0] in child.iterdescendants():
            break
        parts.append(text_of(child) + (child.tail or ""))
    term = _TRAILING.sub("", " ".join("".join(parts).split()))
    if not term or len(term) > MAX_TERM:
        return None
    return term, [a.get("href") for a in links]


def index_entries(root, page: str) -> list[tuple[str, list[str]]] | None:
    """The entries of a back-index page (module doc), or None when the page is not one.
    ``page``: the page's own file name (a link to itself is no entry's)."""
    terms = [e for e in root.iter() if tag_of(e) == "dt"]
    if len(terms) < MIN_ENTRIES:
        return None
    entries = []
    for dt in terms:
        found = _entry(dt)
        if found is not None and any(h.partition("#")[0] not in ("", page) for h in found[1]):
            entries.append(found)
    return entries if len(entries) >= max(MIN_ENTRIES, SHARE * len(terms)) else None


def _resolve(page, href: str, pages: dict):
    """(target page, section index) an index link names, or None."""
    import posixpath
    from urllib.parse import unquote

    address, _, fragment = href.partition("#")
    if "://" in address or address.startswith(("mailto:", "/")):
        return None
    path = page.path if not address else posixpath.normpath(
        posixpath.join(posixpath.dirname(page.path), unquote(address)))
    target = pages.get(path)
    if target is None or target is page:
        return None
    where = target.anchor_sections.get(unquote(fragment), None) if fragment else None
    return target, (where if where is not None else target.subject_at)


def _shows(text: str, term: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", text, re.IGNORECASE) is not None


def place_index(pages: dict) -> None:
    """Each back-index entry mentioned where it points (module doc): defined (an ``entry``) in
    the first section it names that shows it and does not define it already, referenced from
    the others that show it; the index page's own links go. ``pages``: the doc set's pages
    (readers/docset/), each with ``index`` (its entries, or None), ``hrefs``, ``terms``,
    ``mentions``, ``sections``, ``anchor_sections``, ``subject_at``, ``path``."""
    from ...core.models import DocTerm

    for page in list(pages.values()):
        if not page.index:
            continue
        page.hrefs = {}
        for n, (term, hrefs) in enumerate(page.index):
            key = None
            for href in hrefs:
                found = _resolve(page, href, pages)
                if found is None:
                    continue
                target, where = found
                if not _shows(target.sections[where].text, term):
                    continue
                same = next((t for t in target.terms.get(where, ()) if t.name.rpartition(" \u203a ")[2] == term), None)
                if same is not None:
                    key = key or (same.name, same.target or target.path)
                elif key is None:
                    key = (term, f"{target.path}#index-{n}")
                    target.terms.setdefault(where, []).append(DocTerm(term, "entry", target=key[1]))
                else:
                    target.mentions.setdefault(where, []).append((key[0], term, key[1]))
