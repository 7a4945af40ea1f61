"""EPUB 3 twins of Markdown books, made the way pandoc makes them (``pandoc -o book.epub``).

``write_epub(markdown_path, out_path, title)``: the Markdown is rendered to XHTML
(markdown-it-py, raw HTML kept, tables on), split into chapters at level-1 headings (text
before the first one is a chapter of its own), each heading wrapped with its content in a
``<section id=… class="levelN">`` whose id the TOC links to; a title page; an EPUB 3
``nav.xhtml`` (headings to depth 3, pandoc's default ``--toc-depth``) and an EPUB 2
``toc.ncx``. Layout as pandoc's: ``EPUB/content.opf``, ``EPUB/text/ch001.xhtml``...
A broken conversion's ``#>Title</h1>`` lines are read as headings first, as
crossbook's Markdown reader reads them (index/chunk/markdown_repair.py). No pandoc needed; bench/eval_twins.py and the tests import it.
"""

from __future__ import annotations

import re
import uuid
import zipfile
from html import escape
from pathlib import Path

from lxml import etree, html
from markdown_it import MarkdownIt

from crossbook.chunk.markdown_repair import repair_headings

TOC_DEPTH = 3
_XHTML = "http://www.w3.org/1999/xhtml"


def _slug(text: str, used: set[str]) -> str:
    base = re.sub(r"[^\w\- ]", "", text.lower()).strip().replace(" ", "-") or "section"
    slug, n = base, 1
    while slug in used:
        slug, n = f"{base}-{n}", n + 1
    used.add(slug)
    return slug


def _sectioned(fragment_html: str, used: set[str], toc: list, chapter_file: str) -> str:
    """The chapter's HTML with each heading and what follows it in a <section>, as pandoc
    writes EPUB 3; the headings are recorded in ``toc`` as (level, text, href)."""
    root = html.fragment_fromstring(fragment_html or "<p></p>", create_parent="div")
    out = etree.Element("div")
    stack = [(0, out)]
    for element in list(root):
        level = int(element.tag[1]) if isinstance(element.tag, str) and re.fullmatch(r"h[1-6]", element.tag) else None
        if level is not None:
            while stack[-1][0] >= level:
                stack.pop()
            text = " ".join(element.text_content().split())
            slug = _slug(text, used)
            section = etree.SubElement(stack[-1][1], "section", id=slug, **{"class": f"level{level}"})
            section.append(element)
            stack.append((level, section))
            if level <= TOC_DEPTH:
                toc.append((level, text, f"{chapter_file}#{slug}"))
        else:
            stack[-1][1].append(element)
    if root.text and root.text.strip():
        out.text = root.text
    return "".join(etree.tostring(child, method="xml", encoding="unicode") for child in out)


def _page(title: str, body: str, epub_type: str = "") -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n'
        f'<html xmlns="{_XHTML}" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="en" lang="en">\n'
        f'<head>\n<meta charset="utf-8" />\n<title>{escape(title)}</title>\n'
        '<link rel="stylesheet" type="text/css" href="../styles/stylesheet1.css" />\n</head>\n'
        f'<body{" epub:type=" + chr(34) + epub_type + chr(34) if epub_type else ""}>\n{body}\n</body>\n</html>\n'
    )


def _chapters(markdown: str) -> list[str]:
    """The Markdown split before each level-1 heading (outside code fences)."""
    chunks, current, fence = [], [], None
    for line in markdown.splitlines(keepends=True):
        stripped = line.lstrip()
        if stripped.startswith(("```", "~~~")):
            fence = None if fence and stripped.startswith(fence) else (fence or stripped[:3])
        if fence is None and re.match(r"^ {0,3}# ", line) and "".join(current).strip():
            chunks.append("".join(current))
            current = []
        current.append(line)
    if "".join(current).strip():
        chunks.append("".join(current))
    return chunks


def _nav_list(toc: list, depth: int = 1) -> str:
    items, i = [], 0
    while i < len(toc):
        level, text, href = toc[i]
        j = i + 1
        while j < len(toc) and toc[j][0] > level:
            j += 1
        inner = _nav_list(toc[i + 1:j], depth + 1) if j > i + 1 else ""
        items.append(f'<li><a href="{escape(href)}">{escape(text)}</a>{inner}</li>')
        i = j
    return f"<ol{' class=' + chr(34) + 'toc' + chr(34) if depth == 1 else ''}>" + "".join(items) + "</ol>"


def _ncx_points(toc: list, counter: list[int]) -> str:
    out, i = [], 0
    while i < len(toc):
        level, text, href = toc[i]
        j = i + 1
        while j < len(toc) and toc[j][0] > level:
            j += 1
        counter[0] += 1
        out.append(f'<navPoint id="navPoint-{counter[0]}"><navLabel><text>{escape(text)}</text></navLabel>'
                   f'<content src="{escape(href)}" />{_ncx_points(toc[i + 1:j], counter)}</navPoint>')
        i = j
    return "".join(out)


def write_epub(markdown_path: Path, out_path: Path, title: str) -> Path:
    """Write an EPUB 3 of the Markdown book at ``markdown_path`` to ``out_path``; returns it."""
    renderer = MarkdownIt("commonmark", {"html": True}).enable("table")
    # the book as crossbook's Markdown reader sees it: a broken conversion's '#>Title</h1>'
    # lines are headings (a typesetter would have fixed them)
    markdown, _ = repair_headings(Path(markdown_path).read_text(encoding="utf-8"))
    used: set[str] = set()
    toc: list = []
    chapters = []
    for n, chunk in enumerate(_chapters(markdown), 1):
        name = f"ch{n:03d}.xhtml"
        body = _sectioned(renderer.render(chunk), used, toc, f"text/{name}")
        chapters.append((name, _page(title, body)))
    toc = [(level - min(t[0] for t in toc) + 1, text, href) for level, text, href in toc] if toc else []
    book_id = f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, str(markdown_path))}"
    title_page = _page(title, f'<section epub:type="titlepage" class="titlepage">\n<h1 class="title">'
                              f'{escape(title)}</h1>\n</section>')
    nav = _page(title, f'<nav epub:type="toc" id="toc">\n<h1 id="toc-title">{escape(title)}</h1>\n'
                       f'{_nav_list([(lv, tx, h) for lv, tx, h in toc])}\n</nav>\n'
                       '<nav epub:type="landmarks" id="landmarks" hidden="hidden"><ol>'
                       '<li><a href="text/title_page.xhtml" epub:type="titlepage">Title Page</a></li></ol></nav>')
    nav = nav.replace('href="../styles/', 'href="styles/')
    items = "\n".join(f'<item id="{n[:-6]}_xhtml" href="text/{n}" media-type="application/xhtml+xml" />'
                      for n, _ in chapters)
    spine = "\n".join(f'<itemref idref="{n[:-6]}_xhtml" />' for n, _ in chapters)
    opf = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<package version="3.0" xmlns="http://www.idpf.org/2007/opf" unique-identifier="epub-id-1">\n'
        '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">\n'
        f'<dc:identifier id="epub-id-1">{book_id}</dc:identifier>\n<dc:title id="epub-title-1">{escape(title)}</dc:title>\n'
        '<dc:language>en</dc:language>\n<meta property="dcterms:modified">2026-01-01T00:00:00Z</meta>\n</metadata>\n'
        '<manifest>\n<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml" />\n'
        '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav" />\n'
        '<item id="stylesheet1" href="styles/stylesheet1.css" media-type="text/css" />\n'
        '<item id="title_page_xhtml" href="text/title_page.xhtml" media-type="application/xhtml+xml" />\n'
        f'{items}\n</manifest>\n<spine toc="ncx">\n<itemref idref="title_page_xhtml" linear="yes" />\n'
        f'<itemref idref="nav" linear="no" />\n{spine}\n</spine>\n</package>\n'
    )
    ncx = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<ncx version="2005-1" xmlns="http://www.daisy.org/z3986/2005/ncx/">\n'
        f'<head><meta name="dtb:uid" content="{book_id}" /></head>\n<docTitle><text>{escape(title)}</text></docTitle>\n'
        f'<navMap>{_ncx_points(toc, [0])}</navMap>\n</ncx>\n'
    )
    container = ('<?xml version="1.0" encoding="UTF-8"?>\n<container version="1.0" '
                 'xmlns="urn:oasis:names:tc:opendocument:xmlns:container">\n<rootfiles>\n'
                 '<rootfile full-path="EPUB/content.opf" media-type="application/oebps-package+xml" />\n'
                 '</rootfiles>\n</container>\n')
    out_path = Path(out_path)
    with zipfile.ZipFile(out_path, "w") as epub:
        epub.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        files = {"META-INF/container.xml": container, "EPUB/content.opf": opf, "EPUB/toc.ncx": ncx,
                 "EPUB/nav.xhtml": nav, "EPUB/styles/stylesheet1.css": "body { margin: 5%; }\n",
                 "EPUB/text/title_page.xhtml": title_page,
                 **{f"EPUB/text/{name}": page for name, page in chapters}}
        for name, content in files.items():
            epub.writestr(name, content, compress_type=zipfile.ZIP_DEFLATED)
    return out_path
