"""A doc set's back index placed: each entry where its links point. Pure.

An index's rows (readers/docset/index_rows.py: a page of them, or a block of a one-page
manual) are the index's links, not an author's: they are no references from the index;
each entry is mentioned where it points instead, as a printed manual's index is placed
(readers/passes/printed_index.py): defined (rule ``back_index``) in the first section it
names that shows it and does not define it already, referenced from the others that show
it. An entry whose anchor's section never spells it is carried there, in the index's own
words (``_carried``).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import replace
from urllib.parse import unquote

from ...core.models import SUB_ENTRY_SEPARATOR, DocTerm


def _resolve(page, href: str, pages: dict):
    """(target page, section index) an index link names, or None."""
    address, _, fragment = href.partition("#")
    if "://" in address or address.startswith(("mailto:", "/")):
        return None
    path = page.path if not address else posixpath.normpath(
        posixpath.join(posixpath.dirname(page.path), unquote(address)))
    target = pages.get(path)
    if target is None:
        return None
    where = target.anchor_sections.get(unquote(fragment), None) if fragment else None
    if where is None and target is page:
        return None  # a link to the index's own page, to no anchor of it
    return target, (where if where is not None else target.subject_at)


_CALL = re.compile(r"^([^\s()]+)\(.*\)$")


def _bare(entry: str) -> str:
    """An entry less the arguments a call writes after its name (``x509.checkIP(ip)``)."""
    found = _CALL.match(entry)
    return found.group(1) if found else entry


def _shows(text: str, term: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", text, re.IGNORECASE) is not None


def _carried(page, n: int, href: str, target, where: int, term: str) -> bool:
    """Whether the entry ``term`` (the ``n``-th of ``page``'s index) is carried into the
    section that holds the anchor its link names, which never spells it (an index of
    concepts: "commands, looping" on the section "Looping Constructs"): the section's text
    gets a line of the index's own words, its title and the entry ("Concept Index: commands,
    looping"), so the chunk spells what is stored of it. A link to a page, not to an anchor
    in it, carries nothing (the entry may be anywhere on it)."""
    fragment = unquote(href.partition("#")[2])
    if not fragment or target.anchor_sections.get(fragment) != where:
        return False
    titles = getattr(page, "index_titles", None) or []
    title = titles[n] if n < len(titles) else ""
    line = f"{title}: {term}" if title else term
    section = target.sections[where]
    target.sections[where] = replace(section, text=f"{section.text.rstrip()}\n\n{line}\n")
    return True


def place_index(pages: dict) -> None:
    """Each back-index entry mentioned where it points (module doc). ``pages``: the doc
    set's pages (readers/docset/), each with ``index`` (its entries, or None), ``terms``,
    ``mentions``, ``sections``, ``anchor_sections``, ``subject_at``, ``path``."""
    for page in list(pages.values()):
        if not page.index:
            continue
        for n, (entry, hrefs) in enumerate(page.index):
            term, key = _bare(entry), None
            for href in hrefs:
                found = _resolve(page, href, pages)
                if found is None:
                    continue
                target, where = found
                if not _shows(target.sections[where].text, term):
                    if not _carried(page, n, href, target, where, term):
                        continue
                same = next((t for t in target.terms.get(where, ())
                             if t.name.rpartition(SUB_ENTRY_SEPARATOR)[2] == term), None)
                if same is not None:
                    key = key or (same.name, same.target or target.path)
                elif key is None:
                    key = (term, f"{target.path}#index-{n}")
                    target.terms.setdefault(where, []).append(DocTerm(term, "entry", target=key[1], rule="back_index"))
                else:
                    target.mentions.setdefault(where, []).append((key[0], term, key[1]))
