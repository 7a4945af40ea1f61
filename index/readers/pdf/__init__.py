"""The PDF reader (pypdfium2): sections from the outline, each with the pages it spans.

- Lines are built from PDFium's text boxes: a page of two or three columns is read column
  by column (columns.py),
  table cells (a wide gap) are joined with ' | ' one row per line, and rows whose cells align
  are a Markdown table (cells.py), bold and italic runs are
  **x** and *x*, bullets are '- ', and a paragraph's printed lines are joined into one.
- Sections come from the outline (bookmarks), nested by level; a section runs from its
  entry's printed heading (found on the entry's page by its words: headings.py, else on
  the next pages: a writer may anchor a heading a page or two before it) to the next entry's. With no outline, headings
  from the font size, else one section per page, with a warning.
- Running heads and feet (the book's or a chapter's title, page numbers) are removed; words
  hyphenated across lines are joined; ligatures (fi, fl, ff...) and soft hyphens are
  normalised. Pages are the printed numbers where the page labels give arabic ones.
- Encrypted, image-only (no text layer) and damaged PDFs are one line that names the fix.
  A PDF with some pages scanned (no text layer) is read with a warning that names those
  pages (``SourceBook.pages_without_text``); a page whose layout fails is a warning too.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from ...core.errors import BadInput
from ...core.models import Section
from ..source import ReadOptions, SourceBook, read_bytes, sha256_bytes
from .cells import CELL_BREAKS, cell_breaks, cell_gap, joined_cells, table_lines
from .chars import char_boxes, rect_ranges, tex_logo_case
from .columns import columns, group_lines
from .headings import find_heading, unmarked
from .links import PdfLink, Placed, RawLink, page_links, raw_links
from .run_in import run_in_lines

_LIGATURES = str.maketrans({"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl",
                            "\ufb05": "st", "\ufb06": "st", "\u00ad": None,
                            # PDFium marks a hyphen that ends a line so
                            "\x02": "-", "\ufffe": "-"})
# a hyphen that ends a printed line: PDFium gives TeX's as \x02 (or U+FFFE), some writers a soft hyphen
_LINE_END_HYPHENS = ("-", "\x02", "\ufffe", "\u00ad")
_HYPHEN_BREAK = re.compile(r"(\w)-\n(?=[a-z])")
_DIGITS = re.compile(r"\d+")
LOOK_AHEAD = 3  # pages after an outline entry's own on which its printed heading is looked for
_PAGE_NUMBER = re.compile(r"^(?:page\s+)?\d{1,4}(?:\s*(?:/|of)\s*\d{1,4})?$|^[ivxlc]{1,6}$", re.I)


@dataclass(frozen=True)
class _Entry:
    title: str
    level: int
    page: int  # 0-based


@dataclass(frozen=True)
class _Run:
    """A run of text PDFium sets in one box (one font, no wide gap), in PDF points."""
    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    bold: bool
    size: float
    italic: bool = False
    mono: bool = False
    breaks: tuple[tuple[int, float], ...] = ()  # where, in its text, a table's next cell starts, and its x

    @property
    def mark(self) -> str:
        """Its Markdown mark: ** for bold (it wins: a heading or a lead set bold keeps one bold
        run across a name set in bold code font), ` for code font (a run holding a backtick
        stays unmarked), * for italic."""
        if self.bold:
            return "**"
        return "`" if self.mono and "`" not in self.text else "*" if self.italic else ""


@dataclass(frozen=True)
class _Line:
    text: str  # Markdown: bold runs as **x**, table cells joined with " | "
    size: float
    x0: float = 0.0
    x1: float = 0.0
    y0: float = 0.0
    y1: float = 0.0
    cell_x: tuple[float, ...] = ()  # the left edge of each cell set apart by a wide gap


_BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi|cmbx|\bbx|-bd", re.I)
_BULLET = re.compile(r"^\s*[\u2022\u25e6\u2023\u2043\u25aa\u25cf\u00b7]\s*")
_BULLET_RUN = re.compile(r"^[\u2022\u25e6\u2023\u2043\u25aa\u25cf\u00b7\-\u2013]$")
_ITALIC_FONT = re.compile(r"italic|oblique|cmti|cmsl|\bit\b|-it\b", re.I)
# a typewriter (code) font by name: Mono/Courier/Typewriter, or TeX's cmtt, lmtt, sftt, ectt
_MONO_FONT = re.compile(r"mono|courier|typewriter|(?:^|[^a-z])(?:cm|lm|sf|ec|tc)?tt\d", re.I)
_FIXED_PITCH = 0x1  # the font descriptor's FixedPitch flag
_EMPTY_BOLD = re.compile(r"\*\*([^\S\v]*)\*\*|(?<!\*)\*([^\S\v]+)\*(?!\*)")  # not across a cut in a box (\v)


def _open(path: Path, data: bytes):
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(data)
        len(pdf)
    except pdfium.PdfiumError as exc:
        if getattr(exc, "err_code", None) == 4:  # FPDF_ERR_PASSWORD
            raise BadInput(f"'{path}' is an encrypted PDF: decrypt it first "
                           "(e.g. qpdf --decrypt --password=... IN OUT)") from None
        raise BadInput(f"'{path}' is a damaged or truncated PDF ({exc}): download or export it again") from None
    return pdf


def _entries(pdf) -> list[_Entry]:
    out: list[_Entry] = []
    try:
        for mark in pdf.get_toc():
            dest = mark.get_dest()
            page = dest.get_index() if dest is not None else None
            title = " ".join((mark.get_title() or "").split())
            if title and page is not None and page >= 0:
                out.append(_Entry(title, mark.level + 1, page))
    except Exception:  # a broken outline reads as none
        return []
    return out


def _font_of(raw, index: int) -> tuple[bool, bool, float, bool]:
    """(bold, italic, size, monospace) of the font a character is set in."""
    import ctypes

    import pypdfium2.raw as pdfium_c

    if index < 0:
        return False, False, 0.0, False
    size = float(pdfium_c.FPDFText_GetFontSize(raw, index))
    buffer = ctypes.create_string_buffer(128)
    flags = ctypes.c_int()
    pdfium_c.FPDFText_GetFontInfo(raw, index, buffer, 128, ctypes.byref(flags))
    name = buffer.value.decode("utf-8", "replace")
    bold = pdfium_c.FPDFText_GetFontWeight(raw, index) >= 600 or bool(_BOLD_FONT.search(name))
    italic = bool(flags.value & 0x40) or bool(_ITALIC_FONT.search(name))  # 0x40: the descriptor's Italic flag
    mono = bool(flags.value & _FIXED_PITCH) or bool(_MONO_FONT.search(name))
    return bold, italic, size, mono


def _runs(page) -> list[_Run]:
    """The page's text boxes as runs, each with the characters that lie in it (chars.py)."""
    textpage = page.get_textpage()
    try:
        runs = []
        rects = [textpage.get_rect(i) for i in range(textpage.count_rects())]
        boxes = char_boxes(textpage)
        for (x0, y0, x1, y1), (start, end) in zip(rects, rect_ranges(boxes, rects)):
            if end <= start:
                continue
            text = _flat(textpage.get_text_range(start, end - start))
            if not text.strip():
                continue
            index = start + len(text) - len(text.lstrip())  # its first visible character's font
            bold, italic, size, mono = _font_of(textpage.raw, index)
            size = size or (y1 - y0)
            breaks = cell_breaks(boxes, start, end, cell_gap(size), text)  # a table row PDFium gives as one box
            runs.append(_Run(x0, y0, x1, y1, text, bold, size, italic, mono, breaks))
        return tex_logo_case(runs)
    finally:
        textpage.close()


def _flat(text: str) -> str:
    return text.replace("\r", " ").replace("\n", " ")


def _line_text(line: list[_Run]) -> _Line:
    """A line's Markdown: bold runs as **x**, italic ones as *x*; cells set apart by a wide gap
    between boxes joined with ' | ', by one inside a box with ' \v ' (cells.py: a table's
    cells only where the next lines' align with them), each cell's left edge in ``cell_x``."""
    pieces: list[tuple[str, str]] = []  # (text, emphasis mark); "\t" marks a cell break, "\v" one inside a box
    previous: _Run | None = None
    starts = [line[0].x0]
    for run in line:
        text = run.text
        if previous is not None:
            gap = run.x0 - previous.x1
            if _command_glued(previous, run, gap):
                pieces[-1] = (pieces[-1][0].rstrip(), pieces[-1][1])
            elif gap > cell_gap(previous.size) and not _BULLET_RUN.match(previous.text.strip()):
                pieces.append(("\t", ""))
                starts.append(run.x0)
            elif gap > previous.size * 0.15 and not previous.text.endswith(" ") and not text.startswith(" "):
                pieces.append((" ", previous.mark if previous.mark == run.mark else ""))
        for (begin, x), (stop, _) in zip(((0, run.x0),) + run.breaks, run.breaks + ((len(text), 0.0),)):
            pieces.extend([("\v", "")] if begin else [])
            starts.extend([x] if begin else [])
            pieces.append((text[begin:stop], run.mark))
        previous = run
    first = _merged(pieces)
    merged = _merged([(text, _word_mark(first, i)) for i, (text, _) in enumerate(first)])
    out = []
    for text, mark in merged:
        if text not in CELL_BREAKS and mark and text.strip():
            core = " ".join(text.split())
            out.append(f"{' ' if text[:1].isspace() else ''}{mark}{core}{mark}{' ' if text[-1:].isspace() else ''}")
        else:
            out.append(text)
    text, cell_x = joined_cells(re.split("([\t\v])", "".join(out)), starts)
    return _Line(_EMPTY_BOLD.sub(lambda m: m.group(1) or m.group(2) or "", text), max(r.size for r in line),
                 min(r.x0 for r in line), max(r.x1 for r in line), min(r.y0 for r in line), max(r.y1 for r in line),
                 cell_x)


def _command_glued(previous: _Run, run: _Run, gap: float) -> bool:
    """A TeX command's backslash set as a box of its own before its name ("\\" then
    "NewDocumentEnvironment"): a code font's narrow backslash leaves a gap of ink that is no
    space (nor is the space PDFium makes of it)."""
    return (previous.text.rstrip().endswith("\\") and (run.text[:1].isalpha() or run.text[:1] == "@")
            and gap < previous.size * 0.5)


def _merged(pieces: list[tuple[str, str]] | list[list[str]]) -> list[list[str]]:
    """Pieces of one mark next to each other joined into one ([text, mark]); a cell break stays apart."""
    merged: list[list[str]] = []
    for text, mark in pieces:
        if merged and merged[-1][1] == mark and text not in CELL_BREAKS and merged[-1][0] not in CELL_BREAKS:
            merged[-1][0] += text
        else:
            merged.append([text, mark])
    return merged


def _word_mark(pieces: list[list[str]], i: int) -> str:
    """A piece's mark, but for a bold piece inside a word ("\\**documentclass**" would hide
    "\\documentclass"): none, or the code mark of the code run it is glued to (a command in
    code font whose name is set bold)."""
    mark = pieces[i][1]
    if mark != "**" or not _inside_word(pieces, i):
        return mark
    around = (pieces[i - 1][1] if i else "", pieces[i + 1][1] if i + 1 < len(pieces) else "")
    return "`" if "`" in around else ""


def _inside_word(pieces: list[list[str]], i: int) -> bool:
    """A piece whose first letter is glued to a letter, digit or backslash before it, or whose
    last letter to one after it: part of one word or command, where bold marks split it (an
    italic placeholder glued to a command, "\\def*name*", stays marked: it is another word)."""
    text = pieces[i][0]
    before = pieces[i - 1][0] if i else ""
    after = pieces[i + 1][0] if i + 1 < len(pieces) else ""
    glued_before = (before[-1:].isalnum() or before[-1:] == "\\") and text[:1].isalnum()
    glued_after = text[-1:].isalnum() and after[:1].isalnum()  # not "**Combat:**This"
    return glued_before or glued_after


def _reflow(lines: list[_Line]) -> list[_Line]:
    """A paragraph's lines joined into one: a line goes on the one before it when that one
    runs to the right edge of its column (the longest line starting near it), sits just below
    it (top to top at most 1.3 times the font size: no paragraph space), starts where it starts (no indent) in the same size, and neither
    is a table row or the next a list item. A bold lead or a name set over a line break is
    then one run of text, as in Markdown; a bold phrase that starts a printed line mid-sentence
    is no longer a line's lead."""
    out: list[_Line] = []
    for line in lines:
        if out:
            before = out[-1]
            edge = max(other.x1 for other in lines if abs(other.x0 - line.x0) <= 40)
            if (before.x1 >= edge - 2 * line.size and 0 < before.y1 - line.y1 <= 1.3 * line.size
                    and _continues(before, line) and abs(line.size - before.size) < 0.5
                    and " | " not in before.text and " | " not in line.text
                    and not _BULLET.match(line.text) and not line.text.startswith("- ")):
                text = before.text + " " + line.text
                if before.text.endswith(_LINE_END_HYPHENS) and line.text[:1].islower():
                    # a word hyphenated across lines: normalise_text joins "-\n" and a lowercase letter
                    text = before.text[:-1] + "-\n" + line.text
                out[-1] = _Line(_join_emphasis(text), before.size,
                                before.x0, line.x1, line.y0, line.y1)  # the last line's box: where the next one goes on
                continue
        out.append(line)
    return out


def _continues(before: _Line, line: _Line) -> bool:
    """The next line starts where the paragraph's lines start (no indent), or, under a list
    item, where its text starts (past the bullet)."""
    if abs(line.x0 - before.x0) <= 0.8 * line.size:
        return True
    return before.text.startswith("- ") and 0 < line.x0 - before.x0 <= 2.5 * line.size


def _join_emphasis(text: str) -> str:
    """``**a** **b**`` across a joined line break is ``**a b**``."""
    return text.replace("** **", " ")


def _has_image(page) -> bool:
    import pypdfium2.raw as pdfium_c

    try:
        return any(obj.type == pdfium_c.FPDF_PAGEOBJ_IMAGE for obj in page.get_objects(max_depth=2))
    except Exception:  # objects PDFium cannot list: not known to be a scan
        return False


def _layout(pdf, failed: dict[int, str] | None = None, scanned: set[int] | None = None,
            links: list[PdfLink] | None = None) -> list[list[_Line]]:
    """Each page's lines; a page whose layout fails is read as empty, its number (0-based)
    and the error put in ``failed``; a page with an image and no text goes in ``scanned``
    (a blank page is neither); the pages' internal links go in ``links``."""
    pages = []
    for number in range(len(pdf)):
        page = pdf[number]
        try:
            width = page.get_width()
            lines = columns(group_lines(_runs(page)), width)
            if not lines and scanned is not None and _has_image(page):
                scanned.add(number)
            if links is not None:
                links.extend(_links_of(pdf, number, page))
        except Exception as exc:  # one page PDFium cannot lay out: the others are still read
            lines = []
            if failed is not None:
                failed[number] = f"{type(exc).__name__}: {exc}"
        finally:
            page.close()
        printed = [_line_text(line) for line in lines]
        pages.append(_reflow([replace(line, text=text) for line, text in
                              zip(printed, table_lines([(line.text, line.cell_x) for line in printed]))]))
    return pages


def _links_of(pdf, number: int, page) -> list[PdfLink]:
    try:
        return page_links(pdf, number, page)
    except Exception:  # annotations PDFium cannot read: the page's text is still read
        return []


def _placed(layout: list[list[_Line]]) -> Placed:
    """Each page's lines as ``_page_lines`` writes them, with their boxes."""
    return [[(_BULLET.sub("- ", line.text.translate(_LIGATURES).rstrip()), line.x0, line.x1, line.y0, line.y1)
             for line in page] for page in layout]


def page_ranges(numbers: list[int]) -> str:
    """``[3, 4, 5, 9]`` as ``3-5, 9``."""
    spans: list[list[int]] = []
    for n in numbers:
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)


def _page_warnings(path: Path, pages: int, scanned: set[int], failed: dict[int, str],
                   printed: list[int]) -> tuple[tuple[int, ...], list[str]]:
    """The (printed) numbers of the ``scanned`` pages (no text layer), and the warnings
    that name them and the pages whose layout failed."""
    blank = tuple(printed[n] for n in sorted(scanned))
    warnings = []
    if blank:
        warnings.append(f"'{path}': {len(blank)} of {pages} pages have no text layer (scanned?) and are left "
                        f"out: {'page' if len(blank) == 1 else 'pages'} {page_ranges(list(blank))}; "
                        "run OCR first to read them, e.g. ocrmypdf IN.pdf OUT.pdf")
    if failed:
        first = next(iter(failed.values()))
        warnings.append(f"'{path}': the layout of {'page' if len(failed) == 1 else 'pages'} "
                        f"{page_ranges([printed[n] for n in sorted(failed)])} failed ({first}): left out")
    return blank, warnings


def _font_headings(layout: list[list[_Line]]) -> list[_Entry]:
    """Headings found from the font size where a PDF has no outline: lines set larger than the
    body text (the size most characters have), short, with letters; the largest size is level 1."""
    weight: Counter = Counter()
    for lines in layout:
        for line in lines:
            weight[round(line.size, 1)] += len(line.text)
    if not weight:
        return []
    body = weight.most_common(1)[0][0]
    found = [(n, " ".join(unmarked(line.text).translate(_LIGATURES).split()), round(line.size, 1))
             for n, lines in enumerate(layout) for line in lines
             if line.size >= body * 1.15 and 0 < len(line.text.strip()) <= 80
             and any(c.isalpha() for c in line.text) and not _PAGE_NUMBER.match(unmarked(line.text).strip())]
    sizes = sorted({size for _, _, size in found}, reverse=True)
    return [_Entry(title, min(sizes.index(size) + 1, 3), n) for n, title, size in found]


def _page_lines(layout: list[list[_Line]], path: Path) -> list[list[str]]:
    pages = []
    for page in layout:
        lines: list[str] = []
        for line in page:
            text = _BULLET.sub("- ", line.text.translate(_LIGATURES).rstrip())
            if lines and lines[-1] == "-":  # a bullet set apart from its item's text
                lines[-1] = "- " + text.strip()
            else:
                lines.append(text if text.strip() != "-" else "-")
        pages.append(lines)
    if not any(line.strip() for lines in pages for line in lines):
        raise BadInput(f"'{path}' has no text layer (a scanned or image-only PDF): run OCR first, "
                       "e.g. ocrmypdf IN.pdf OUT.pdf, then ingest OUT.pdf")
    return pages


def _strip_running_lines(pages: list[list[str]]) -> list[list[str]]:
    """Drop page numbers, and first/last lines repeated (digits aside) as running heads: on a
    quarter of the pages, or (a chapter's running head) on 3 pages or more and on at least 40%
    of the pages from its first to its last."""
    def key(line: str) -> str:
        return _DIGITS.sub("#", " ".join(unmarked(line).split()).casefold())

    edges: dict[str, list[int]] = {}
    for number, lines in enumerate(pages):
        content = [line for line in lines if line.strip()]
        for k in {key(line) for line in content[:2] + content[-2:]}:
            edges.setdefault(k, []).append(number)
    threshold = max(3, len(pages) // 4)
    running = {k for k, seen in edges.items()
               if len(seen) >= threshold or (len(seen) >= 3 and len(k) <= 100
                                             and len(seen) >= 0.4 * (seen[-1] - seen[0] + 1))}
    out = []
    for lines in pages:
        content = [line for line in lines if line.strip()]
        head, tail = set(range(min(2, len(content)))), set(range(max(0, len(content) - 2), len(content)))
        kept = [line for i, line in enumerate(content)
                if not ((i in head or i in tail) and (key(line) in running
                                                     or _PAGE_NUMBER.match(unmarked(line).strip())))]
        out.append(kept)
    return out


def normalise_text(text: str) -> str:
    """Ligatures spelled out, soft hyphens dropped, words hyphenated across lines joined."""
    return _HYPHEN_BREAK.sub(r"\1", text.translate(_LIGATURES))


def _clean(lines: list[str]) -> str:
    return normalise_text("\n".join(lines)).strip()


def _starts(pages: list[list[str]], entries: list[_Entry]) -> list[tuple[int, int, int, str]]:
    """Each entry's start: (page, line, lines the printed heading takes, left out of the body,
    what its last line prints after the heading's words: the body's first text). An entry whose
    page does not print its heading is looked for on the pages after it (``_later_heading``); an
    entry never starts before the one ahead of it."""
    starts: list[tuple[int, int, int, str]] = []
    for n, entry in enumerate(entries):
        page = max(entry.page, starts[-1][0]) if starts else entry.page
        cursor = starts[-1][1] + starts[-1][2] if starts and starts[-1][0] == page else 0
        at = find_heading(pages[page], entry.title, cursor)
        if at is None:
            bound = entries[n + 1].page if n + 1 < len(entries) else len(pages) - 1
            later = _later_heading(pages, entry.title, page, bound)
            if later is not None:
                starts.append(later)
                continue
        starts.append((page, *(at if at is not None else (cursor, 0, ""))))
    return starts


def _later_heading(pages: list[list[str]], title: str, page: int, bound: int) -> tuple[int, int, int, str] | None:
    """Where a heading its outline entry's page does not print is printed on one of the next
    ``LOOK_AHEAD`` pages, up to the next entry's page: a writer may anchor a heading on the page
    before it (an anchor set before a page break: the "Bibliography" of a class that prints it
    after the index pointed at the index's first page). Only a line that is the heading counts
    (not an entry's head that opens a line of text)."""
    for later in range(page + 1, min(bound, page + LOOK_AHEAD, len(pages) - 1) + 1):
        at = find_heading(pages[later], title)
        if at is not None and at[1] > 0:
            return (later, *at)
    return None


def _sections(pages: list[list[str]], entries: list[_Entry], starts: list[tuple[int, int, int, str]]) -> list[Section]:
    sections: list[Section] = []
    before = [line for lines in pages[:starts[0][0]] for line in lines] + pages[starts[0][0]][:starts[0][1]]
    if _clean(before):
        sections.append(Section(None, 0, (), _clean(before) + "\n\n", 0, pages=(1, starts[0][0] + 1)))
    stack: list[tuple[int, str]] = []
    for n, entry in enumerate(entries):
        page, line, heading_lines, rest = starts[n]
        end_page, end_line = (starts[n + 1][0], starts[n + 1][1]) if n + 1 < len(entries) else (len(pages) - 1, None)
        body: list[str] = [rest] if rest else []
        for p in range(page, end_page + 1):
            lines = pages[p]
            first = line + heading_lines if p == page else 0
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


def _with_run_in(pages: list[list[str]], entries: list[_Entry],
                 starts: list[tuple[int, int, int, str]]) -> tuple[list[_Entry], list[tuple[int, int, int, str]]]:
    """The outline's entries and the run-in headings (readers/pdf/run_in.py) in the order the
    pages print them, each run-in one level below the entry it follows, and their starts."""
    run_in = run_in_lines(pages)
    if not run_in:
        return entries, starts
    outline = sorted((((page, line, 0), entry) for entry, (page, line, _, _) in zip(entries, starts)),
                     key=lambda item: item[0])
    positions = [at[:2] for at, _ in outline]
    printed = set(positions)  # the outline's own headings
    merged = list(outline)
    for page, line, title in run_in:
        if (page, line) in printed:
            continue
        before = bisect_left(positions, (page, line))  # the outline entries printed before it
        level = outline[before - 1][1].level + 1 if before else 1
        merged.append(((page, line, 1), _Entry(title, min(level, 6), page)))
    merged.sort(key=lambda item: item[0])
    ordered = [entry for _, entry in merged]
    return ordered, _starts(pages, ordered)


def _printed_numbers(pdf) -> list[int]:
    """Each page's number as printed, from the PDF's page labels: a page labelled with an
    arabic number ("117") is that number; any other page (roman front matter "xii", "A-3",
    no labels) keeps its physical number (1-based)."""
    numbers = []
    for index in range(len(pdf)):
        try:
            label = pdf.get_page_label(index)
        except Exception:
            label = ""
        numbers.append(int(label) if label.isdigit() and len(label) <= 6 else index + 1)
    return numbers


def _with_printed_pages(section: Section, printed: list[int]) -> Section:
    if section.pages is None:
        return section
    first, last = printed[section.pages[0] - 1], printed[section.pages[1] - 1]
    if first > last:  # across a change of numbering (front matter into the body): physical pages
        return section
    return replace(section, pages=(first, last))


def read(path: Path, options: ReadOptions = ReadOptions()) -> SourceBook:
    """A PDF book: outline sections with their pages (else headings from the font size, else
    a section per page, with a warning). Raises BadInput for an encrypted, image-only or
    damaged PDF."""
    data = read_bytes(path)
    pdf = _open(path, data)
    failed: dict[int, str] = {}
    scanned: set[int] = set()
    links: list[PdfLink] = []
    try:
        layout = _layout(pdf, failed, scanned, links)
        pages = _strip_running_lines(_page_lines(layout, path))
        entries = _entries(pdf)
        printed = _printed_numbers(pdf)
        try:
            title = " ".join(str(pdf.get_metadata_value("Title") or "").split())
        except Exception:
            title = ""
    finally:
        pdf.close()
    blank, warnings = _page_warnings(path, len(layout), scanned, failed, printed)
    if entries:
        entries.sort(key=lambda e: e.page)  # an outline out of page order still reads in order
    else:
        entries = _font_headings(layout)
        if entries:
            warnings.append(f"'{path}' has no outline (bookmarks): headings found from the font size")
    joined: list[RawLink] = []
    if entries:
        starts = _starts(pages, entries)
        entries, starts = _with_run_in(pages, entries, starts)
        sections = _sections(pages, entries, starts)
        offset = len(sections) - len(entries)  # the text before the first entry, a section of its own
        at = ([(0, 0)] if offset else []) + [(page, line) for page, line, _, _ in starts]
        joined = raw_links(links, _placed(layout), pages, at)
    else:
        warnings.append(f"'{path}' has no outline (bookmarks) nor larger headings: ingested as one section per page")
        sections = [Section(f"Page {n}", 1, (f"Page {n}",), f"# Page {n}\n\n{_clean(lines)}\n\n", 0, pages=(n, n))
                    for n, lines in enumerate(pages, 1) if _clean(lines)]
    sections = [_with_printed_pages(section, printed) for section in sections]
    return SourceBook(path=path, format="pdf", title=title or path.stem, sections=tuple(sections),
                      sha256=sha256_bytes(data), warnings=tuple(warnings), pages_without_text=blank,
                      internal_links=tuple(joined))
