"""A doc set with no marker file: a folder of HTML pages a documentation generator wrote.

Besides the files a known tool writes (docset.MARKERS), a folder is one doc set when its pages
say a generator wrote them (``<meta name="generator" content="DocBook XSL Stylesheets">``,
``groff -Thtml``, asciidoctor, Texinfo's makeinfo) or when they share their boilerplate
(navigation repeated on most pages, readers/docset/boilerplate.py) and link each other. A sample of
the folder's own pages is read (``SAMPLE``, their first ``HEAD_BYTES`` for the generator), so
the test stays cheap for every folder a walk meets. A folder of HTML pages that is neither
is a directory of separate pages; ``not_a_docset`` says why in one line.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from ..files import FolderFiles
from ..html_markdown import parse_html
from .boilerplate import Boilerplate

SAMPLE = 12
HEAD_BYTES = 4096
_SUFFIXES = (".html", ".htm", ".xhtml")
_GENERATOR = re.compile(rb"<meta\s[^>]*name\s*=\s*[\"']?generator[\"']?[^>]*>", re.IGNORECASE)
_HREF = re.compile(r"""href\s*=\s*["']([^"'#?]+)""", re.IGNORECASE)


def _pages(files: FolderFiles) -> list[str]:
    """The pages directly in the folder."""
    return [name for name in files.files if "/" not in name and name.lower().endswith(_SUFFIXES)]


def _sample(pages: list[str]) -> list[str]:
    step = max(1, len(pages) // SAMPLE)
    return pages[::step][:SAMPLE]


def _links_others(page: str, text: str, names: set[str]) -> bool:
    for href in _HREF.findall(text):
        if "://" in href or href.startswith(("mailto:", "/")):
            continue
        target = posixpath.normpath(href)
        if target != page and target in names:
            return True
    return False


def docset_reason(files: FolderFiles) -> str | None:
    """Why a folder of HTML pages is one doc set (a generator's mark, or shared boilerplate
    and links between its pages), or None when it is not one."""
    pages = _pages(files)
    if len(pages) < 2:
        return None
    sample = _sample(pages)
    marked = sum(1 for page in sample if _GENERATOR.search(files.head(page, HEAD_BYTES)))
    if marked * 2 > len(sample):
        return "its pages carry a documentation generator's mark (<meta name=\"generator\">)"
    names = set(pages)
    boiler, linking = Boilerplate(), 0
    for page in sample:
        try:
            data = files.read_bytes(page)
            boiler.learn(parse_html(data))
        except Exception:  # an unreadable page counts for nothing here; the reader says why
            continue
        linking += _links_others(page, data.decode("utf-8", "replace"), names)
    shared = any(boiler.repeated_unit(key) for key in boiler.unit_counts)
    if linking * 2 > len(sample) and shared:
        return "its pages share their navigation and link each other"
    return None


def not_a_docset(folder: Path) -> str | None:
    """One line for a folder of several HTML pages that is no doc set, naming ``--as-book``;
    None for a folder with fewer than two pages."""
    pages = _pages(FolderFiles(folder))
    if len(pages) < 2:
        return None
    return (f"'{folder}': {len(pages)} HTML pages read as separate books: they carry no documentation "
            "generator's mark and do not share navigation and link each other; --as-book reads the "
            "folder as one doc set")
