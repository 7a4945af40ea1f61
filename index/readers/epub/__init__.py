"""The EPUB reader (EPUB 2 and 3): chapters in spine order, sections from the navigation TOC
and the headings inside each chapter.

Read with zipfile and lxml (ebooklib adds nothing a reader needs; see docs/formats.md).
The TOC (EPUB 3's ``nav.xhtml``, else EPUB 2's ``toc.ncx``) decides the levels: an entry
at depth d makes the heading it points to (or, when it points at no heading, a heading of
its own label put there) a level-d heading; a heading the TOC does not list keeps its place
below the last entry (an ``<h3>`` under an entry's ``<h2>`` is one level deeper). Without a
TOC the chapters' own ``<h1>``..``<h6>`` give the tree (a chapter with none gets one from
its ``<title>``), with a warning. Each section's ``file`` is its chapter's path in the
archive (``OEBPS/ch03.xhtml``); the title is the package's ``dc:title``.
A link from one chapter to another (or an entry in one) is a reference (links.py).
Raises BadInput with one line for a broken archive, a DRM-encrypted book, or one with no
chapter text; reads, never writes.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
import zlib
from bisect import bisect_right
from dataclasses import dataclass, replace
from pathlib import Path

from lxml import etree

from ...core.errors import BadInput
from ..html_markdown import HEADINGS, LEVEL_ATTR, body_of, parse_html, tag_of, to_markdown
from ..markdown import from_text
from ..source import MIB, ReadLimits, ReadOptions, SourceBook, read_bytes, sha256_bytes
from .links import resolve, scan, with_links

_XHTML_TYPES = ("application/xhtml+xml", "text/html", "application/xml", "text/x-oeb1-document")
# font obfuscation (IDPF, Adobe): allowed by the spec in DRM-free books
_FONT_ALGORITHMS = ("http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC")
_OPS_TYPE = "{http://www.idpf.org/2007/ops}type"
_TOLERANCE = 120   # characters of text between a TOC target and the heading it means
_SCAN = 400        # elements looked through for that heading


@dataclass(frozen=True)
class TocEntry:
    label: str
    file: str          # archive path of the chapter
    fragment: str | None
    depth: int         # 1 for a top-level entry
    placeholder: bool = False  # a TOC heading with no link of its own: never a chapter's heading


def _xml(data: bytes):
    """An XML document with its namespaces stripped from tags (``{…opf}item`` is ``item``)."""
    root = etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True, recover=True,
                                                  huge_tree=True))
    if root is None:
        raise etree.XMLSyntaxError("empty document", None, 0, 0)
    for element in root.iter():
        if isinstance(element.tag, str) and element.tag[0] == "{":
            element.tag = etree.QName(element).localname
    return root


def _local(name: str) -> str:
    return name.rsplit("}", 1)[-1].rsplit(":", 1)[-1]


def _attr(element, name: str) -> str | None:
    for key, value in element.attrib.items():
        if _local(key) == name:
            return value
    return None


def _text(element) -> str:
    return " ".join("".join(element.itertext()).split())


class _Archive:
    def __init__(self, path: Path, data: bytes, limits: ReadLimits = ReadLimits()):
        self.path = path
        self.limits = limits
        self.inflated = self.compressed = self.members_read = 0  # the members read so far, together
        try:
            self.zip = zipfile.ZipFile(io.BytesIO(data))
            self.names = set(self.zip.namelist())
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError):
            raise BadInput(f"'{path}' is not a readable EPUB: its zip archive is broken or truncated "
                           "(download or export it again)") from None

    def read(self, name: str) -> bytes | None:
        if name not in self.names:
            return None
        info = self.zip.getinfo(name)
        self._check_inflation(info)
        try:
            with self.zip.open(info) as member:  # never more than it declares (zipfile stops there)
                return member.read(self.limits.max_member_bytes + 1)
        except (zipfile.BadZipFile, zlib.error, OSError, EOFError, NotImplementedError):
            raise BadInput(f"'{self.path}' is not a readable EPUB: '{name}' in its zip archive is damaged "
                           "(download or export it again)") from None

    def _check_inflation(self, info: zipfile.ZipInfo) -> None:
        """Refuse a member whose declared size or compression ratio is a zip bomb's, before
        reading it; and the members read so far with it, taken together (many small
        members that each pass)."""
        limits = self.limits
        self.inflated += info.file_size
        self.compressed += info.compress_size
        for what, size, packed, most in (
            (f"'{info.filename}' in its archive", info.file_size, info.compress_size, limits.max_member_bytes),
            (f"its {self.members_read + 1} members read", self.inflated, self.compressed, limits.max_total_bytes),
        ):
            ratio = size / max(packed, 1)
            if size > most or (size > limits.ratio_floor and ratio > limits.max_ratio):
                raise BadInput(
                    f"'{self.path}' is refused: {what} would inflate to {size / MIB:,.0f} MiB ({ratio:,.0f} times "
                    f"the compressed size; the limits are {most / MIB:,.0f} MiB and {limits.max_ratio:,.0f} times), "
                    "as a zip bomb does; if the book is genuine, raise epub_max_member_mb / epub_max_ratio "
                    "(CROSSBOOK_EPUB_MAX_MEMBER_MB, CROSSBOOK_EPUB_MAX_RATIO)")
        self.members_read += 1

    def xml(self, name: str, what: str):
        data = self.read(name)
        if data is None:
            raise BadInput(f"'{self.path}' is not a readable EPUB: its {what} '{name}' is missing")
        try:
            return _xml(data)
        except etree.XMLSyntaxError:
            raise BadInput(f"'{self.path}' is not a readable EPUB: its {what} '{name}' is not XML") from None


def _check_drm(archive: _Archive) -> None:
    data = archive.read("META-INF/encryption.xml")
    if data is None:
        return
    try:
        root = _xml(data)
    except etree.XMLSyntaxError:
        root = None
    encrypted = []
    for item in (root.iter("EncryptedData") if root is not None else ()):
        method = next((m.get("Algorithm", "") for m in item.iter("EncryptionMethod")), "")
        target = next((r.get("URI", "") for r in item.iter("CipherReference")), "")
        if method not in _FONT_ALGORITHMS:
            encrypted.append(target)
    if encrypted or root is None:
        count = f"{len(encrypted)} file{'s' if len(encrypted) != 1 else ''}" if encrypted else "its files"
        raise BadInput(f"'{archive.path}' is DRM-protected ({count} encrypted): "
                       "crossbook reads DRM-free EPUBs only (use a DRM-free edition of the book)")


def _package_path(archive: _Archive) -> str:
    if "META-INF/container.xml" in archive.names:
        container = archive.xml("META-INF/container.xml", "container")
        for rootfile in container.iter("rootfile"):
            full_path = rootfile.get("full-path")
            if full_path and full_path in archive.names:
                return full_path
    packages = sorted(n for n in archive.names if n.lower().endswith(".opf"))
    if not packages:
        raise BadInput(f"'{archive.path}' is not a readable EPUB: it has no package file (.opf)")
    return packages[0]



def _nav_entries(archive: _Archive, nav_file: str) -> list[TocEntry]:
    data = archive.read(nav_file)
    if data is None:
        return []
    root = parse_html(data)
    navs = [n for n in root.iter("nav") if "toc" in (n.get(_OPS_TYPE) or n.get("epub:type") or "").split()]
    if not navs:
        return []
    entries: list[TocEntry] = []

    def walk(listing, depth: int) -> None:
        for item in listing:
            if tag_of(item) != "li":
                continue
            link = next((e for e in item if tag_of(e) == "a"), None)
            label = _text(link if link is not None else next((e for e in item if tag_of(e) == "span"), item))
            if link is not None and link.get("href") and label:
                file, fragment = resolve(nav_file, link.get("href"))
                entries.append(TocEntry(label, file, fragment, depth))
            elif label:  # a heading of the TOC with no link ("Part One"): placed before its first entry
                first = next((e for e in item.iter("a") if e.get("href")), None)
                if first is not None:
                    file, fragment = resolve(nav_file, first.get("href"))
                    entries.append(TocEntry(label, file, fragment, depth, placeholder=True))
            for child in item:
                if tag_of(child) in ("ol", "ul"):
                    walk(child, depth + 1)

    for listing in navs[0]:
        if tag_of(listing) in ("ol", "ul"):
            walk(listing, 1)
    return entries


def _ncx_entries(archive: _Archive, ncx_file: str) -> list[TocEntry]:
    if ncx_file not in archive.names:
        return []
    root = archive.xml(ncx_file, "table of contents")
    nav_map = next(root.iter("navMap"), None)
    entries: list[TocEntry] = []

    def walk(parent, depth: int) -> None:
        for point in parent:
            if point.tag != "navPoint":
                continue
            label = next((_text(t) for t in point.iter("text")), "")
            content = next((c for c in point if c.tag == "content"), None)
            if content is not None and content.get("src") and label:
                file, fragment = resolve(ncx_file, content.get("src"))
                entries.append(TocEntry(label, file, fragment, depth))
            walk(point, depth + 1)

    if nav_map is not None:
        walk(nav_map, 1)
    return entries


@dataclass
class _Chapter:
    file: str
    root: object
    markdown: str = ""


def _element_order(body) -> tuple[list, dict[int, int]]:
    elements = [e for e in body.iter() if isinstance(e.tag, str)]
    return elements, {id(e): i for i, e in enumerate(elements)}


def _mark_toc(chapter: _Chapter, entries: list[TocEntry]) -> None:
    """Give the headings the TOC points to its levels; put a heading of the entry's label
    where an entry points at no heading."""
    body = body_of(chapter.root)
    elements, position = _element_order(body)
    by_id = {e.get("id"): e for e in elements if e.get("id")}
    targets = [by_id.get(entry.fragment, body) if entry.fragment else body for entry in entries]
    target_ids = {id(t) for t in targets}
    claimed: set[int] = set()
    seen_targets: set[int] = set()
    for entry, target in zip(entries, targets):
        heading, text = None, 0
        start = position.get(id(target), 0)
        for element in ([] if entry.placeholder else elements[start:start + _SCAN]):
            if element is not target and id(element) in target_ids and element is not body:
                break  # the next entry's place: this entry has no heading of its own
            if tag_of(element) in HEADINGS and id(element) not in claimed:
                heading = element
                break
            if tag_of(element) not in HEADINGS:
                text += len((element.text or "").strip())
            text += len((element.tail or "").strip()) if element is not target else 0
            if text > _TOLERANCE:
                break
        if heading is not None:
            claimed.add(id(heading))
            heading.set(LEVEL_ATTR, str(min(entry.depth, 6)))
            heading.set("data-crossbook-toc", "1")
        elif entry.placeholder or id(target) not in seen_targets or target is not body:
            _insert_heading(body, target, entry)
        if not entry.placeholder:
            seen_targets.add(id(target))


def _insert_heading(body, target, entry: TocEntry) -> None:
    heading = etree.Element("h1")
    heading.text = entry.label
    heading.set(LEVEL_ATTR, str(min(entry.depth, 6)))
    heading.set("data-crossbook-toc", "1")
    heading.set("data-crossbook-synthetic", "1")
    if target is body or target.getparent() is None:
        # after the headings already put at the start (a part, then its first chapter)
        index = 0
        while index < len(body) and body[index].get("data-crossbook-synthetic"):
            index += 1
        before = body[index - 1] if index else None
        if before is None:
            heading.tail, body.text = body.text, None
        else:
            heading.tail, before.tail = before.tail, None
        body.insert(index, heading)
    else:
        parent = target.getparent()
        parent.insert(parent.index(target), heading)


def _relevel(chapters: list[_Chapter]) -> None:
    """Headings the TOC does not list: below the last entry, as deep as their tag says."""
    depth, toc_tag = None, None
    for chapter in chapters:
        for element in body_of(chapter.root).iter(*HEADINGS):
            tag = HEADINGS[tag_of(element)]
            if element.get("data-crossbook-toc"):
                depth = int(element.get(LEVEL_ATTR))
                toc_tag = None if element.get("data-crossbook-synthetic") else tag
                continue
            if depth is None:
                continue  # before the first entry: the tag's own level
            if toc_tag is None:
                toc_tag = tag - 1  # under a heading the reader put there: one level down
            element.set(LEVEL_ATTR, str(max(1, min(6, depth + tag - toc_tag))))


def _title_heading(chapter: _Chapter) -> None:
    """No TOC and no heading in the chapter: one from its <title>, else its file name."""
    body = body_of(chapter.root)
    if any(True for _ in body.iter(*HEADINGS)):
        return
    title = next((_text(t) for t in chapter.root.iter("title") if _text(t)), None)
    label = title or posixpath.splitext(posixpath.basename(chapter.file))[0]
    _insert_heading(body, body, TocEntry(label, chapter.file, None, 1))


def read(path: Path, options: ReadOptions = ReadOptions()) -> SourceBook:
    """An EPUB as a book (see the module docstring); a member over ``options.limits`` refuses
    it before it is read. Raises BadInput."""
    data = read_bytes(path)
    archive = _Archive(path, data, options.limits)
    _check_drm(archive)
    package_file = _package_path(archive)
    package = archive.xml(package_file, "package file")
    manifest: dict[str, tuple[str, str, str]] = {}
    for item in package.iter("item"):
        if item.get("id") and item.get("href"):
            file, _ = resolve(package_file, item.get("href"))
            manifest[item.get("id")] = (file, item.get("media-type", ""), item.get("properties", ""))
    spine = next(package.iter("spine"), None)
    nav_file = next((f for f, _, props in manifest.values() if "nav" in props.split()), None)
    ncx_id = spine.get("toc") if spine is not None else None
    ncx_file = manifest[ncx_id][0] if ncx_id in manifest else next(
        (f for f, media, _ in manifest.values() if media == "application/x-dtbncx+xml"), None)
    files = []
    for itemref in (spine.iter("itemref") if spine is not None else ()):
        file, media, _ = manifest.get(itemref.get("idref"), (None, "", ""))
        if file and file != nav_file and (media in _XHTML_TYPES or file.lower().endswith((".xhtml", ".html", ".htm")))\
                and file not in files:
            files.append(file)
    chapters = []
    for file in files:
        content = archive.read(file)
        if content is not None and content.strip():
            chapters.append(_Chapter(file, parse_html(content)))
    if not chapters:
        raise BadInput(f"'{path}' has no chapters to read: its spine lists no XHTML file in the archive")

    in_spine = {c.file for c in chapters}
    entries = [e for e in (_nav_entries(archive, nav_file) if nav_file else []) if e.file in in_spine]
    if not entries and ncx_file:
        entries = [e for e in _ncx_entries(archive, ncx_file) if e.file in in_spine]
    warnings = []
    if entries:
        for chapter in chapters:
            _mark_toc(chapter, [e for e in entries if e.file == chapter.file])
        _relevel(chapters)
    else:
        warnings.append(f"'{path}' has no table of contents (nav or NCX): sections come from the chapters' headings")
        for chapter in chapters:
            _title_heading(chapter)

    parts, starts, line = [], [], 0
    scanned = [scan(chapter.file, chapter.root) for chapter in chapters]
    for chapter in chapters:
        chapter.markdown = to_markdown(chapter.root)
        if not chapter.markdown.strip():
            continue
        starts.append((line, chapter.file))
        parts.append(chapter.markdown.rstrip("\n") + "\n\n")
        line += parts[-1].count("\n")
    text = "".join(parts)
    if not text.strip():
        raise BadInput(f"'{path}' has no text in its chapters (is it images only?): nothing to ingest")
    title = next((_text(t) for t in package.iter("title") if _text(t)), None)
    book = from_text(path, text, sha256_bytes(data), "epub", title)
    lines = [start for start, _ in starts]
    sections = tuple(replace(s, file=starts[max(0, bisect_right(lines, s.start_line) - 1)][1]) for s in book.sections)
    sections = with_links(sections, scanned, starts)  # the author's links between chapters
    return SourceBook(path=book.path, format="epub", title=book.title, sections=sections,
                      sha256=book.sha256, warnings=(*warnings, *book.warnings))
