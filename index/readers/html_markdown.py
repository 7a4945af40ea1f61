"""HTML (and an EPUB's XHTML) as Markdown: the body readers give the rest of crossbook.

Pure: bytes or a parsed tree in, Markdown text out. Headings ``<h1>``..``<h6>`` become
``#`` headings (a ``data-crossbook-level`` attribute overrides the level: the EPUB reader
sets it from the book's navigation), ``<strong>``/``<b>`` ``**x**``, ``<em>``/``<i>``
``*x*``, lists ``- x`` / ``1. x`` (a layout list, one whose items hold headings, gives its
items' blocks in order: its headings open sections), tables pipe tables (a layout table,
one that holds headings or paragraphs, gives its cells' text in order), ``<dl>`` ``Term`` + ``: text``
lines (the definition-list form the rules extractor reads), blockquotes ``> x`` and
``<pre>`` fenced code. Scripts, styles, forms, ``<nav>``, hidden elements, page-break
markers, note references, permalink anchors (Sphinx's and MkDocs' ``<a class="headerlink">``
"¶" after a heading or a definition) and page chrome (a ``<header>``/``<footer>``, or a
``<div class="footer">`` as Sphinx's themes write it, around the page's ``<main>``,
``<article>`` or ``role="main"`` block, or one holding a ``<nav>``) are dropped. Whitespace is collapsed,
entities are decoded, and text that Markdown would read as markup is escaped.

A hostile page is a page's problem, never the recursion limit's or the clock's: nesting past
``MAX_DEPTH`` levels is flattened as the page is parsed (the elements below that depth give
their text, without their tags: no real page nests so deep, a page of a thousand nested
``<div>``s converts), and a DOCTYPE's internal subset is found in one anchored pass.
"""

from __future__ import annotations

import re

from lxml import etree, html

from .code_runs import joined_code_runs
from .html_sections import restructure, tag_of

HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
LEVEL_ATTR = "data-crossbook-level"    # a heading's Markdown level, set by a reader
_DROPPED = {
    "script", "style", "noscript", "template", "nav", "head", "title", "iframe", "object", "embed",
    "canvas", "svg", "button", "input", "select", "textarea", "option", "map", "audio", "video",
    "source", "track", "meta", "link", "base", "img", "picture", "area", "param", "dialog", "menu",
}
# epub:type / role values that are navigation or print chrome, not the book's text
_DROPPED_TYPES = {"pagebreak", "doc-pagebreak", "noteref", "doc-noteref", "toc", "doc-toc", "landmarks",
                  "page-list", "titlepage", "cover", "navigation", "banner", "contentinfo", "search"}
# a link to the element it sits in, drawn as a mark: Sphinx's and MkDocs' "headerlink" class,
# or any in-page anchor whose whole text is one of these marks
_PERMALINK_CLASSES = {"headerlink", "anchor-link", "hash-link", "anchorjs-link"}
_PERMALINK_MARKS = {"\u00b6", "\u00a7", "#", "\U0001f517"}
_CHROME_CLASSES = {"footer"}  # a <div> a theme writes as the site's footer
_BLOCKS = {
    "p", "div", "section", "article", "main", "aside", "header", "footer", "body", "html", "figure",
    "figcaption", "address", "center", "details", "summary", "fieldset", "form", "hgroup", "ul", "ol",
    "dl", "table", "blockquote", "pre", "hr", "li", "dt", "dd", "caption", "tr", "td", "th", "thead",
    "tbody", "tfoot", "legend", "dir", "listing", "xmp", "plaintext", *HEADINGS,
}
_EMPHASIS = {"strong": "**", "b": "**", "em": "*", "i": "*", "cite": "*", "dfn": "*", "var": "*"}
_CODE = {"code", "kbd", "samp", "tt"}
_OPS_TYPE = "{http://www.idpf.org/2007/ops}type"
_SPACE = re.compile(r"[ \t\r\f\v\u00a0\u2000-\u200a\u202f\u205f\u3000]+")
_NEWLINE = re.compile(r"[ \t\r\f\v\u00a0]*(?:\r\n?|\n)\s*")
_PLAIN = re.compile(r"[^*`\\_\u00ad\u200b\u200c\u200d\u2060\ufeff]*")
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"))
# a run of underscores that touches a word's edge is escaped whole ("__len__" stays a name,
# not "_" + emphasis); one inside a word ("x_y") reads as itself
_INLINE_MARKUP = re.compile(r"([*`\\])|((?<!\w)_+|_+(?!\w))")
_BLOCK_START = re.compile(r"^(#{1,6}(?=\s|$)|>|=+\s*$|<(?=[A-Za-z/!?])|[-+*](?=\s|$)|-{3,}|(\d{1,9})([.)])(?=\s|$)|~{3,})")
_LIST_START = re.compile(r"^(- |\d{1,9}\. )")
_TRAILING_HASHES = re.compile(r"(\s)(#+)\s*$")
# the converter recurses a few frames per level of nesting: below this many levels a page's
# elements are flattened to their text (parse_html), far under Python's recursion limit
MAX_DEPTH = 120


def parse_html(data: bytes) -> etree._Element:
    """The document's root element, its tags without namespaces (XHTML's ``{…xhtml}p`` is
    ``p``). Well-formed XHTML is read as XML (an EPUB's ``<a id="x"/>`` stays empty), any
    other HTML by lxml's forgiving HTML parser. Entities are decoded; nothing is fetched."""
    root = None
    if data.lstrip()[:5] == b"<?xml" or b"xmlns=\"http://www.w3.org/1999/xhtml\"" in data[:2000]:
        parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True, recover=False)
        try:
            root = etree.fromstring(data, parser)
        except etree.XMLSyntaxError:
            root = None  # an entity XML does not know (&nbsp;), a stray tag: read it as HTML
    if root is None:
        data = _without_internal_subset(data)
        parser = html.HTMLParser(no_network=True, huge_tree=True, encoding=_encoding(data))
        root = html.document_fromstring(data, parser=parser)
    for element in root.iter():
        if isinstance(element.tag, str) and element.tag[0] == "{":
            element.tag = etree.QName(element).localname
    _flatten_below(root, MAX_DEPTH)
    return root


def _flatten_below(root, depth: int) -> None:
    """Each element ``depth`` levels down keeps its text and its descendants' text (and
    tails) but none of their tags, its scripts and styles dropped first: a walk with a list,
    not recursion (the tree may be thousands of levels deep)."""
    level = [root]
    for _ in range(depth):
        level = [child for element in level for child in element if isinstance(child.tag, str)]
        if not level:
            return
    for element in level:
        if len(element):
            etree.strip_elements(element, *_DROPPED, etree.Comment, etree.ProcessingInstruction, with_tail=False)
            etree.strip_tags(element, "*")


_DOCTYPE = re.compile(rb"<!DOCTYPE", re.IGNORECASE)
_DOCTYPE_HEAD = re.compile(rb"<!DOCTYPE[^\[>]*", re.IGNORECASE)
_INTERNAL_SUBSET = re.compile(rb"<!DOCTYPE[^\[>]*\[.*?\]\s*>", re.IGNORECASE | re.DOTALL)


def _without_internal_subset(data: bytes) -> bytes:
    """The page with the first DOCTYPE that has an internal subset (``<!DOCTYPE x [ ... ]>``)
    given as ``<!DOCTYPE html>``: the HTML parser does not read a subset, its "]>" would be
    text. One pass: a DOCTYPE without a subset is skipped to its end, and the subset pattern
    is tried at one place only (tried from every ``<!DOCTYPE`` of a page that repeats it, it
    took minutes: each try scanned to the end)."""
    at = 0
    while (start := _DOCTYPE.search(data, at)) is not None:
        at = _DOCTYPE_HEAD.match(data, start.start()).end()
        if data[at:at + 1] == b"[":
            found = _INTERNAL_SUBSET.match(data, start.start())
            return data if found is None else data[:found.start()] + b"<!DOCTYPE html>" + data[found.end():]
    return data


_DECLARED = re.compile(rb"<meta[^>]+charset|^\s*<\?xml[^>]+encoding", re.IGNORECASE)


def _encoding(data: bytes) -> str | None:
    """UTF-8 for a page that declares no character set and decodes as UTF-8 (lxml would take
    it for Latin-1: "it’s" became "itâ\x80\x99s"); None leaves a byte-order mark or a
    declared charset to lxml."""
    if data.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")) or _DECLARED.search(data[:4096]):
        return None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return "utf-8"


def heading_level(element) -> int | None:
    """The Markdown level of a heading element (its ``data-crossbook-level`` when a reader
    set one), None for any other element."""
    level = HEADINGS.get(tag_of(element) or "")
    if level is None:
        return None
    override = element.get(LEVEL_ATTR)
    return int(override) if override else level


def body_of(root) -> etree._Element:
    body = next((e for e in root.iter("body")), None)
    return body if body is not None else root


def to_markdown(root) -> str:
    """The Markdown text of a parsed document (``parse_html``), its body only. Its section
    tree follows its containers and labels (index/readers/html_sections.py) unless a reader
    set its headings' levels: the heading elements' levels are set (and headings that say an
    enclosing section goes on are put in) on ``root`` itself."""
    kept = list(kept_elements(root))
    if not any(e.get(LEVEL_ATTR) is not None for e in kept if tag_of(e) in HEADINGS):
        restructure(kept, lambda e: HEADINGS[tag_of(e)], lambda e: tag_of(e) in HEADINGS, LEVEL_ATTR)
    return joined_code_runs(_Converter(root).convert())  # a signature in several code runs is one name


def html_to_markdown(data: bytes) -> str:
    """``to_markdown(parse_html(data))``."""
    return to_markdown(parse_html(data))


def _types(element) -> set[str]:
    value = " ".join(filter(None, (element.get(_OPS_TYPE), element.get("epub:type"), element.get("role"))))
    return set(value.lower().split())


def _classes(element) -> set[str]:
    return set((element.get("class") or "").lower().split()) | {(element.get("id") or "").lower()}


def _is_main(element) -> bool:
    """The page's own content: ``<main>``, ``<article>`` or an element with ``role="main"``."""
    return tag_of(element) in ("main", "article") or (element.get("role") or "").lower() == "main"


def _permalink(element) -> bool:
    """An anchor that links to its own heading or definition, drawn as "¶", "§", "#"."""
    if _classes(element) & _PERMALINK_CLASSES:
        return True
    href = element.get("href") or ""
    return href.startswith("#") and "".join(element.itertext()).strip() in _PERMALINK_MARKS


def _hidden(element) -> bool:
    if element.get("hidden") is not None or element.get("aria-hidden") == "true":
        return True
    style = (element.get("style") or "").replace(" ", "").lower()
    return "display:none" in style or "visibility:hidden" in style


def _anchoring_heading(element, tag: str) -> bool:
    """A heading hidden by style that anchors an entry (its id, or an anchor's inside): it
    still opens the entry's section, though a browser does not show it."""
    if tag not in HEADINGS:
        return False
    return bool(element.get("id")) or any(a.get("id") or a.get("name") for a in element.iter("a"))


def _escaped(match: re.Match) -> str:
    return "\\" + match.group(1) if match.group(1) else "\\_" * len(match.group(2))


def markdown_text(text: str) -> str:
    """``text`` with its markup characters escaped as the converter writes them in a paragraph:
    how a name reads in its section's Markdown (``__pool``: ``\\_\\_pool``)."""
    return _INLINE_MARKUP.sub(_escaped, text)


def _escape_text(text: str) -> str:
    """Text as Markdown: markup characters escaped, spaces collapsed; a line break of the
    source stays one (a Markdown soft break: the same paragraph), so a paragraph whose
    lines each open with a bold term keeps them at line starts, as glossary entries."""
    if not _PLAIN.fullmatch(text):  # most text needs nothing but its spaces collapsed
        text = _INLINE_MARKUP.sub(_escaped, text.translate(_INVISIBLE))
    return _SPACE.sub(" ", _NEWLINE.sub("\n", text))


def _escape_line(line: str) -> str:
    """A line Markdown would read as a heading, list item, quote, rule or HTML, kept as text."""
    match = _BLOCK_START.match(line)
    if not match:
        return line
    if match.group(2):  # "3. Combat": escape the dot, not the number
        return f"{match.group(2)}\\{match.group(3)}{line[match.end():]}"
    return "\\" + line


def _clean(inline: str) -> str:
    """Inline Markdown as a paragraph: spaces collapsed, a ``<br>``'s line kept, each line
    escaped where it would read as a block."""
    lines = (" ".join(part.split(" ")).strip() for part in inline.split("\n"))
    return "\n".join(_escape_line(re.sub(" {2,}", " ", line)) for line in lines if line)


def _wrap(inner: str, mark: str) -> str:
    """``**x**`` with the spaces around ``x`` moved outside the marks (``** x**`` is no emphasis)."""
    core = inner.strip()
    if not core:
        return inner
    lead = " " if inner[:1].isspace() else ""
    trail = " " if inner[-1:].isspace() else ""
    return f"{lead}{mark}{core}{mark}{trail}"


def _indent(block: str, prefix: str, first: str | None = None) -> str:
    lines = block.split("\n")
    head = (first if first is not None else prefix) + lines[0]
    return "\n".join([head, *((prefix + line) if line else "" for line in lines[1:])])


class _Converter:
    def __init__(self, root):
        self.root = root
        self.body = body_of(root)
        # header/footer are page chrome when the page marks its content with main/article
        self.has_main = any(_is_main(e) for e in self.body.iter())
        self.plain = 0  # > 0 inside a heading: its text only, no emphasis marks

    def convert(self) -> str:
        blocks = self.blocks(self.body)
        text = "\n\n".join(b for b in blocks if b.strip())
        return text + "\n" if text else ""

    def dropped(self, element, tag: str) -> bool:
        if tag in _DROPPED or (_hidden(element) and not _anchoring_heading(element, tag)) \
                or _types(element) & _DROPPED_TYPES:
            return True
        if tag == "a" and _permalink(element):
            return True
        if tag in ("header", "footer") or (tag == "div" and _classes(element) & _CHROME_CLASSES):
            if any(True for _ in element.iter("nav")):
                return True
            return self.has_main and not any(_is_main(a) for a in element.iterancestors())
        if tag == "sup":  # a footnote mark: "Fate Point<sup><a>1</a></sup>"
            text = "".join(element.itertext()).strip()
            return bool(text) and len(text) <= 3 and not any(c.isalpha() for c in text) and \
                any(tag_of(e) == "a" for e in element.iter())
        return False

    # -- blocks ------------------------------------------------------------------------------

    def blocks(self, element) -> list[str]:
        """The Markdown blocks of a container's children: runs of inline content become
        paragraphs, block elements their own blocks."""
        out: list[str] = []
        run: list[str] = []

        def flush() -> None:
            paragraph = _clean("".join(run))
            run.clear()
            if paragraph:
                out.append(paragraph)

        if element.text:
            run.append(_escape_text(element.text))
        for child in element:
            tag = tag_of(child)
            if tag is not None and not self.dropped(child, tag):
                if tag in _BLOCKS:
                    flush()
                    out.extend(self.block(child, tag))
                elif len(child) and any(tag_of(d) in _BLOCKS for d in child.iterdescendants()):
                    flush()  # <a id="ch3"><h2>…</h2></a>: an inline element holding blocks holds them
                    out.extend(self.blocks(child))
                else:
                    run.append(self.inline(child, tag))
            if child.tail:
                run.append(_escape_text(child.tail))
        flush()
        return out

    def block(self, element, tag: str) -> list[str]:
        if tag in HEADINGS:
            return self.heading(element)
        if tag in ("ul", "ol", "dir", "menu"):
            if any(tag_of(d) in HEADINGS for d in element.iterdescendants()):
                return self.blocks(element)  # a list laid out as sections (its items hold headings)
            listed = self.list_block(element, ordered=tag == "ol")
            return [listed] if listed else []
        if tag == "dl":
            return self.definitions(element)
        if tag == "table":
            return self.table(element)
        if tag == "blockquote":
            inner = "\n\n".join(self.blocks(element))
            return ["\n".join(f"> {line}" if line else ">" for line in inner.split("\n"))] if inner else []
        if tag in ("pre", "listing", "xmp", "plaintext"):
            code = "".join(element.itertext()).strip("\n")
            if not code.strip():
                return []
            fence = "```"
            while fence in code:
                fence += "`"
            return [f"{fence}\n{code}\n{fence}"]
        if tag == "hr":
            return ["---"]
        return self.blocks(element)

    def heading(self, element) -> list[str]:
        self.plain += 1
        try:
            text = " ".join(self.inline_children(element).split())
        finally:
            self.plain -= 1
        # a heading drawn as an image says its words in its alt text
        text = text or " ".join(" ".join(i.get("alt", "").split()) for i in element.iter("img")).strip()
        if not text:
            return []
        level = max(1, min(6, heading_level(element) or 1))
        text = _TRAILING_HASHES.sub(lambda m: m.group(1) + "\\" + m.group(2), text)
        return ["#" * level + " " + text]

    def list_block(self, element, ordered: bool) -> str:
        start = element.get("start") or "1"
        number = int(start) if start.lstrip("-").isdigit() else 1
        items: list[str] = []
        loose = False
        for child in element:
            tag = tag_of(child)
            if tag is None or self.dropped(child, tag):
                continue
            if tag in ("ul", "ol") and items:  # a list put straight inside a list: the last item's
                nested = self.list_block(child, tag == "ol")
                if nested:
                    items[-1] += "\n" + _indent(nested, " " * (items[-1].index(" ") + 1))
                continue
            parts = [p for p in (self.blocks(child) if tag in _BLOCKS else [_clean(self.inline(child, tag))]) if p.strip()]
            if not parts:
                continue
            # a paragraph and the list inside it are one tight item; two paragraphs make it loose
            loose = loose or sum(not _LIST_START.match(p) for p in parts) > 1
            joined = parts[0]
            for part in parts[1:]:
                joined += ("\n" if _LIST_START.match(part) else "\n\n") + part
            marker = f"{number}. " if ordered else "- "
            number += 1
            items.append(_indent(joined, " " * len(marker), marker))
        return ("\n\n" if loose else "\n").join(items)

    def definitions(self, element) -> list[str]:
        entries: list[str] = []
        items = [c for child in element for c in ([child] if tag_of(child) != "div" else list(child))]
        for child in items:  # dt and dd, also when wrapped in a <div> (HTML allows it)
            tag = tag_of(child)
            if tag == "dt":
                term = _clean(self.inline_children(child)).replace("\n", " ")
                if term:
                    entries.append(term)
            elif tag == "dd":
                body = "\n\n".join(self.blocks(child))
                if body:
                    # a description that opens with a code block opens it on its own line: a
                    # fence after ": " is no fence, and its closing one would open another
                    entries.append(_indent(body, "  ", ":\n  " if body.startswith(("```", "~~~")) else ": "))
        out, current = [], []
        for entry in entries:  # a term and its definitions are one block: "Term\n: text"
            if not entry.startswith((": ", ":\n")) and current and current[-1].startswith((": ", ":\n")):
                out.append("\n".join(current))
                current = []
            current.append(entry)
        if current:
            out.append("\n".join(current))
        return out

    def table(self, element) -> list[str]:
        rows = [tr for tr in element.iter("tr") if self._own(tr, element)]
        cells = [[c for c in tr if tag_of(c) in ("td", "th")] for tr in rows]
        widths = [sum(int(c.get("colspan", "1")) if (c.get("colspan") or "1").isdigit() else 1 for c in row) for row in cells]
        layout = (not rows or len(rows) == 1 or max(widths, default=0) <= 1
                  or any(tag_of(e) in HEADINGS or tag_of(e) == "table" for e in element.iter() if e is not element)
                  or any(len(self.blocks(c)) > 1 for row in cells for c in row))
        caption = next((c for c in element if tag_of(c) == "caption"), None)
        out = self.blocks(caption) if caption is not None else []
        if layout:  # a box drawn with a table: its text, cell by cell
            for row in cells:
                for cell in row:
                    out.extend(self.blocks(cell))
            return out
        width = max(widths)
        grid = []
        for row in cells:
            line = []
            for cell in row:
                text = _clean(self.inline_children(cell)).replace("\n", " ").replace("|", "\\|")
                span = int(cell.get("colspan")) if (cell.get("colspan") or "").isdigit() else 1
                line.extend([text] + [""] * (max(span, 1) - 1))
            grid.append(line + [""] * (width - len(line)))
        lines = ["| " + " | ".join(grid[0]) + " |", "|" + "|".join(["---"] * width) + "|"]
        lines.extend("| " + " | ".join(row) + " |" for row in grid[1:])
        out.append("\n".join(lines))
        return out

    @staticmethod
    def _own(tr, table) -> bool:
        for ancestor in tr.iterancestors():
            if tag_of(ancestor) == "table":
                return ancestor is table
        return False

    # -- inline ------------------------------------------------------------------------------

    def inline_children(self, element) -> str:
        parts = [_escape_text(element.text)] if element.text else []
        for child in element:
            tag = tag_of(child)
            if tag is not None and not self.dropped(child, tag):
                parts.append(self.inline(child, tag))
            if child.tail:
                parts.append(_escape_text(child.tail))
        return "".join(parts)

    def inline(self, element, tag: str) -> str:
        if tag == "br":
            return "\n"
        if tag in _CODE and not self.plain:
            code = " ".join("".join(element.itertext()).split())
            if not code:
                return ""
            ticks = "``" if "`" in code else "`"
            return f"{ticks}{code}{ticks}"
        if tag == "math":
            return _escape_text(element.get("alttext") or " ".join("".join(element.itertext()).split()))
        inner = self.inline_children(element)
        if tag in _BLOCKS:  # a block inside inline content (a <div> in a <span>): a space apart
            return f" {inner} "
        mark = _EMPHASIS.get(tag)
        if mark and not self.plain and "\n\n" not in inner:
            return _wrap(inner, mark)
        return inner



def kept_elements(root):
    """The body's elements in document order, less those ``to_markdown`` drops (scripts,
    navigation, page chrome) and everything inside them: a reader that reads more of a page
    than its Markdown (index/readers/docset) sees the elements the Markdown shows."""
    converter = _Converter(root)
    pending = [iter(converter.body)]  # a stack of iterators, not recursion
    while pending:
        child = next(pending[-1], None)
        if child is None:
            pending.pop()
            continue
        tag = tag_of(child)
        if tag is None or converter.dropped(child, tag):
            continue
        yield child
        pending.append(iter(child))
