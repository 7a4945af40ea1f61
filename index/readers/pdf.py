"""The PDF reader (pypdf): sections from the outline, each with the pages it spans.

- Sections come from the outline (bookmarks), nested by level; a section runs from its
  entry's heading (found on the entry's page) to the next entry's. With no outline, one
  section per page, with a warning.
- Running headers and footers (a first or last line repeated on many pages, page numbers)
  are removed; words hyphenated across lines are joined; ligatures (fi, fl, ff...) and soft
  hyphens are normalised.
- Encrypted, image-only (no text layer) and damaged PDFs are one line that names the fix.
Bodies are Markdown: a heading line, then the text.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ..errors import BadInput
from ..models import Section
from .source import SourceBook, read_bytes, sha256_bytes

_LIGATURES = str.maketrans({"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl",
                            "\ufb05": "st", "\ufb06": "st", "\u00ad": None})
_HYPHEN_BREAK = re.compile(r"(\w)-\n(?=[a-z])")
_DIGITS = re.compile(r"\d+")
_PAGE_NUMBER = re.compile(r"^(?:page\s+)?\d{1,4}(?:\s*(?:/|of)\s*\d{1,4})?$|^[ivxlc]{1,6}$", re.I)


@dataclass(frozen=True)
class _Entry:
    title: str
    level: int
    page: int  # 0-based


def _open(path: Path, data: bytes):
    from io import BytesIO

    from pypdf import PdfReader

    try:
        reader = PdfReader(BytesIO(data), strict=False)
        encrypted = reader.is_encrypted
        if encrypted and not reader.decrypt(""):
            raise BadInput(f"'{path}' is an encrypted PDF: decrypt it first (e.g. qpdf --decrypt --password=... IN OUT)")
        len(reader.pages)
    except BadInput:
        raise
    except Exception as exc:  # pypdf raises many kinds for a damaged file
        raise BadInput(f"'{path}' is a damaged or truncated PDF ({type(exc).__name__}): "
                       "download or export it again") from None
    return reader


def _entries(reader, nodes, level: int = 1) -> list[_Entry]:
    out: list[_Entry] = []
    for node in nodes:
        if isinstance(node, list):
            out.extend(_entries(reader, node, level + 1))
            continue
        try:
            page = reader.get_destination_page_number(node)
        except Exception:
            continue
        title = " ".join(str(node.title or "").split())
        if title and page is not None and page >= 0:
            out.append(_Entry(title, level, page))
    return out


def _font_headings(reader) -> list[_Entry]:
    """Headings found from the font size where a PDF has no outline: lines set larger than the
    body text (the size most characters have), short, with letters; the largest size is level 1."""
    lines: list[tuple[int, str, float]] = []
    for number, page in enumerate(reader.pages):
        current: dict = {"y": None, "text": "", "size": 0.0}

        def visit(text, cm, tm, font, size, current=current, number=number):
            y = round(tm[5] * cm[3] + cm[5], 1)
            scale = abs(tm[3] * cm[3]) or 1.0
            if current["y"] is not None and abs(y - current["y"]) > 1 and current["text"].strip():
                lines.append((number, current["text"], current["size"]))
                current["text"], current["size"] = "", 0.0
            if text.strip():
                current["y"] = y
                current["size"] = max(current["size"], round(size * scale, 1))
            current["text"] += text

        try:
            page.extract_text(visitor_text=visit)
        except Exception:
            continue
        if current["text"].strip():
            lines.append((number, current["text"], current["size"]))
    weight: Counter = Counter()
    for _, text, size in lines:
        weight[size] += len(text.strip())
    if not weight:
        return []
    body = weight.most_common(1)[0][0]
    found = [(n, " ".join(t.translate(_LIGATURES).split()), size) for n, t, size in lines
             if size >= body * 1.15 and 0 < len(t.strip()) <= 80 and any(c.isalpha() for c in t)
             and not _PAGE_NUMBER.match(t.strip())]
    sizes = sorted({size for _, _, size in found}, reverse=True)
    return [_Entry(title, min(sizes.index(size) + 1, 3), n) for n, title, size in found]


_BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi|cmbx|\bbx|-bd", re.I)
_BULLET = re.compile(r"^\s*[\u2022\u25e6\u2023\u2043\u25aa\u25cf\u00b7]\s*")
_EMPTY_BOLD = re.compile(r"\*\*(\s*)\*\*")


def _bold(font) -> bool:
    try:
        return bool(_BOLD_FONT.search(str(font.get("/BaseFont", "")))) if font else False
    except Exception:
        return False


def _page_text(page) -> str:
    """A page's text as pypdf lays it out, with runs set in a bold font marked ``**x**``."""
    parts: list[str] = []

    def visit(text, cm, tm, font, size):
        if not text:
            return
        if not _bold(font) or not text.strip():
            parts.append(text)
            return
        for n, piece in enumerate(text.split("\n")):
            if n:
                parts.append("\n")
            core = piece.strip()
            if core:
                lead, tail = piece[:len(piece) - len(piece.lstrip())], piece[len(piece.rstrip()):]
                parts.append(f"{lead}**{core}**{tail}")

    page.extract_text(visitor_text=visit)
    return _EMPTY_BOLD.sub(r"\1", "".join(parts))


def _page_lines(reader, path: Path) -> list[list[str]]:
    pages = []
    for page in reader.pages:
        try:
            text = _page_text(page)
        except Exception:
            text = ""
        text = text.translate(_LIGATURES)
        lines: list[str] = []
        for line in text.splitlines():
            line = _BULLET.sub("- ", line.rstrip())
            if lines and lines[-1] == "-":  # a bullet set apart from its item's text
                lines[-1] = "- " + line.strip()
            else:
                lines.append(line.rstrip() if line.strip() != "-" else "-")
        pages.append(lines)
    if not any(line.strip() for lines in pages for line in lines):
        raise BadInput(f"'{path}' has no text layer (a scanned or image-only PDF): run OCR first, "
                       "e.g. ocrmypdf IN.pdf OUT.pdf, then ingest OUT.pdf")
    return pages


def _strip_running_lines(pages: list[list[str]]) -> list[list[str]]:
    """Drop page numbers, and first/last lines repeated (digits aside) on many pages."""
    def key(line: str) -> str:
        return _DIGITS.sub("#", " ".join(line.replace("**", "").split()).casefold())

    edges: Counter = Counter()
    for lines in pages:
        content = [line for line in lines if line.strip()]
        edges.update({key(line) for line in content[:2] + content[-2:]})
    threshold = max(3, len(pages) // 4)
    running = {k for k, n in edges.items() if n >= threshold}
    out = []
    for lines in pages:
        content = [line for line in lines if line.strip()]
        head, tail = set(range(min(2, len(content)))), set(range(max(0, len(content) - 2), len(content)))
        kept = [line for i, line in enumerate(content)
                if not ((i in head or i in tail) and (key(line) in running
                                                     or _PAGE_NUMBER.match(line.replace("**", "").strip())))]
        out.append(kept)
    return out


def normalise_text(text: str) -> str:
    """Ligatures spelled out, soft hyphens dropped, words hyphenated across lines joined."""
    return _HYPHEN_BREAK.sub(r"\1", text.translate(_LIGATURES))


def _clean(lines: list[str]) -> str:
    return normalise_text("\n".join(lines)).strip()


def _find_heading(lines: list[str], title: str, start: int) -> int | None:
    wanted = " ".join(title.split()).casefold()
    for i in range(start, len(lines)):
        line = " ".join(lines[i].replace("**", "").split()).casefold()
        if line == wanted or (line.startswith(wanted) and len(line) <= len(wanted) + 8):
            return i
    return None


def _sections(pages: list[list[str]], entries: list[_Entry]) -> list[Section]:
    # each entry's start: (page, line); the heading line itself is left out of the body
    starts: list[tuple[int, int, bool]] = []
    for entry in entries:
        cursor = starts[-1][1] + 1 if starts and starts[-1][0] == entry.page else 0
        at = _find_heading(pages[entry.page], entry.title, cursor)
        starts.append((entry.page, at if at is not None else cursor, at is not None))
    sections: list[Section] = []
    before = [line for lines in pages[:entries[0].page] for line in lines] + pages[entries[0].page][:starts[0][1]]
    if _clean(before):
        sections.append(Section(None, 0, (), _clean(before) + "\n\n", 0, pages=(1, entries[0].page + 1)))
    stack: list[tuple[int, str]] = []
    for n, entry in enumerate(entries):
        page, line, found = starts[n]
        end_page, end_line = (starts[n + 1][0], starts[n + 1][1]) if n + 1 < len(entries) else (len(pages) - 1, None)
        body: list[str] = []
        for p in range(page, end_page + 1):
            lines = pages[p]
            first = line + (1 if found else 0) if p == page else 0
            last = end_line if p == end_page and end_line is not None else len(lines)
            body.extend(lines[first:last])
        while stack and stack[-1][0] >= entry.level:
            stack.pop()
        stack.append((entry.level, entry.title))
        last_page = end_page if (end_line is None or end_line > 0 or end_page == page) else end_page - 1
        text = f"{'#' * min(entry.level, 6)} {entry.title}\n\n{_clean(body)}\n\n"
        sections.append(Section(entry.title, min(entry.level, 6), tuple(t for _, t in stack), text, 0,
                                pages=(page + 1, max(page, last_page) + 1)))
    return sections


def read(path: Path) -> SourceBook:
    """A PDF book: outline sections with their pages (else a section per page, with a warning)."""
    data = read_bytes(path)
    reader = _open(path, data)
    pages = _strip_running_lines(_page_lines(reader, path))
    try:
        entries = _entries(reader, reader.outline)
    except Exception:
        entries = []
    warnings: list[str] = []
    if entries:
        entries.sort(key=lambda e: e.page)  # an outline out of page order still reads in order
    else:
        entries = _font_headings(reader)
        if entries:
            warnings.append(f"'{path}' has no outline (bookmarks): headings found from the font size")
    if entries:
        sections = _sections(pages, entries)
    else:
        warnings.append(f"'{path}' has no outline (bookmarks) nor larger headings: ingested as one section per page")
        sections = [Section(f"Page {n}", 1, (f"Page {n}",), f"# Page {n}\n\n{_clean(lines)}\n\n", 0, pages=(n, n))
                    for n, lines in enumerate(pages, 1) if _clean(lines)]
    try:
        title = " ".join(str((reader.metadata or {}).get("/Title") or "").split())
    except Exception:
        title = ""
    return SourceBook(path=path, format="pdf", title=title or path.stem, sections=tuple(sections),
                      sha256=sha256_bytes(data), warnings=tuple(warnings))
