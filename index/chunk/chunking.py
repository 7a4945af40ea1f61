"""Pure chunking: Markdown text -> sections -> parent chunks -> child chunks.

A section is a heading and its body up to the next heading of any level (headings come
from markdown-it-py, so ``#`` inside a code fence is text and setext headings count).
A parent chunk is a section, or a paragraph-aligned part of a section longer than the
token budget. Child chunks (for vector search) never cross a parent. No I/O, no LLM.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from markdown_it import MarkdownIt

from ..core.models import SUB_ENTRY_SEPARATOR, ChildChunk, ParentChunk, Section
from ..core.titles import clean_inline, infer_title, unescape_markdown
from ..core.tokens import count_tokens, split_tokens
from .markdown_repair import RepairReport, repair_headings

DEFAULT_PARENT_TOKENS = 1500
DEFAULT_CHILD_TOKENS = 250
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    # block structure only: inline parsing is half the cost, and heading text is cleaned here
    return MarkdownIt("commonmark").disable("inline")


@dataclass(frozen=True)
class _Block:
    start: int  # first source line of a top-level block
    heading_level: int  # 0 when not a heading
    heading_text: str


_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


def _inline_text(token) -> str:
    """A heading's text without inline markup: links keep their text, HTML and emphasis go."""
    text = _LINK.sub(r"\1", token.content)
    text = _ESCAPE.sub(r"\1", clean_inline(text))
    return " ".join(text.split())


def _top_level_blocks(text: str) -> list[_Block]:
    tokens = _parser().parse(text)
    blocks: list[_Block] = []
    for i, token in enumerate(tokens):
        if token.level != 0 or token.map is None or token.nesting == -1:
            continue
        if token.type == "heading_open":
            blocks.append(_Block(token.map[0], int(token.tag[1]), _inline_text(tokens[i + 1])))
        else:
            blocks.append(_Block(token.map[0], 0, ""))
    return blocks


def split_sections(text: str) -> list[Section]:
    """Split a Markdown document into sections (text before the first heading is its own).

    Headings are found in the structure view (index/chunk/markdown_repair.py), so broken
    ``#>Title</h1>`` and HTML headings count; each section's text is the original lines.
    """
    return split_sections_report(text)[0]


def split_sections_report(text: str) -> tuple[list[Section], RepairReport]:
    """``split_sections`` and what the heading repair recovered (for the ingest warning)."""
    view, report = repair_headings(text)
    lines = text.splitlines(keepends=True)
    headings = [b for b in _top_level_blocks(view) if b.heading_level]
    sections: list[Section] = []
    first = headings[0].start if headings else len(lines)
    preamble = "".join(lines[:first])
    if preamble.strip():
        sections.append(Section(None, 0, (), preamble, 0))
    stack: list[tuple[int, str]] = []
    for i, block in enumerate(headings):
        end = headings[i + 1].start if i + 1 < len(headings) else len(lines)
        while stack and stack[-1][0] >= block.heading_level:
            stack.pop()
        stack.append((block.heading_level, block.heading_text))
        sections.append(
            Section(
                heading=block.heading_text,
                level=block.heading_level,
                heading_path=tuple(h for _, h in stack),
                text="".join(lines[block.start:end]),
                start_line=block.start,
            )
        )
    return sections, report


def book_title(text: str, fallback: str) -> str:
    """The book's title (index/core/titles.py: front matter, title page, sole opening ``#``,
    licence attribution), else ``fallback`` (the file stem)."""
    view, _ = repair_headings(text)
    headings = [(b.heading_level, b.heading_text, b.start) for b in _top_level_blocks(view) if b.heading_level]
    return infer_title(text, headings, fallback)


def _paragraph_units(section_text: str) -> list[str]:
    """Top-level Markdown blocks of a section as text pieces that concatenate back to it."""
    lines = section_text.splitlines(keepends=True)
    starts = sorted({b.start for b in _top_level_blocks(section_text)} | {0})
    units = []
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(lines)
        unit = "".join(lines[start:end])
        if unit:
            units.append(unit)
    return units


def _fit(piece: str, budget: int, count: Callable[[str], int] = count_tokens) -> list[str]:
    """Break one piece into parts of at most ``budget`` tokens (as ``count`` counts them):
    sentences, then tokens."""
    if count(piece) <= budget:
        return [piece]
    sentences = _SENTENCE_END.split(piece)
    if len(sentences) > 1:
        # keep the separators: re-find each sentence in order so parts join back to the piece
        parts, cursor = [], 0
        for sentence in sentences:
            at = piece.index(sentence, cursor)
            if at > cursor and parts:
                parts[-1] += piece[cursor:at]
            parts.append(sentence)
            cursor = at + len(sentence)
        parts[-1] += piece[cursor:]
        return [p for part in parts for p in _fit(part, budget, count)]
    out: list[str] = []
    for head in split_tokens(piece, budget):
        if count is count_tokens or len(head) <= 1 or count(head) <= budget:
            out.append(head)
            continue
        # another tokenizer (the embedder's) counts more tokens than tiktoken: cut shorter
        limit, parts = budget, [head]
        while limit > 1 and any(count(part) > budget for part in parts):
            limit = max(1, min(limit - 1, limit * budget // max(count(part) for part in parts)))
            parts = split_tokens(head, limit)
        out.extend(parts)
    return out


def pack_units(units: list[str], budget: int, count: Callable[[str], int] = count_tokens) -> list[str]:
    """Greedily join consecutive units into groups of at most ``budget`` tokens (as
    ``count`` counts them; tiktoken's cl100k_base by default)."""
    count = _counted_once(count)
    groups: list[str] = []
    current, current_tokens = "", 0
    for unit in units:
        for piece in _fit(unit, budget, count):
            tokens = count(piece)
            if current and current_tokens + tokens > budget:
                groups.append(current)
                current, current_tokens = "", 0
            current += piece
            current_tokens += tokens
    if current.strip():
        groups.append(current)
    elif current and groups:
        groups[-1] += current
    return groups


def _counted_once(count: Callable[[str], int]) -> Callable[[str], int]:
    """``count``, remembering each text's count for one call of ``pack_units`` (a piece is
    counted when it is fitted and again when it is packed)."""
    seen: dict[str, int] = {}

    def counted(text: str) -> int:
        found = seen.get(text)
        if found is None:
            found = seen[text] = count(text)
        return found

    return counted


def _chunk_id(book: str, heading_path: tuple[str, ...], occurrence: int | str, part: int) -> str:
    key = "\x1f".join([book, *heading_path, str(occurrence), str(part)])
    return "p" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:20]


def _section_keys(sections: list[Section]) -> list[int | str]:
    """What tells apart the sections of one heading path, for their chunk ids: 0 for a path
    that occurs once (an edit keeps the id); for a repeated path, the section's text hash and
    its occurrence among identical sections, so inserting a section before others with that
    path keeps their ids (position would shift them). A path that becomes repeated changes
    the id of the section it had: no id derived from one version of a book alone can both
    survive edits and tell apart sections it cannot place."""
    paths = Counter(section.heading_path for section in sections)
    seen: Counter = Counter()
    keys: list[int | str] = []
    for section in sections:
        if paths[section.heading_path] == 1:
            keys.append(0)
            continue
        digest = sha256_text(section.text)[:16]
        keys.append(f"{digest}.{seen[section.heading_path, digest]}")
        seen[section.heading_path, digest] += 1
    return keys


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def parent_chunks(
    book: str, sections: list[Section], parent_tokens: int = DEFAULT_PARENT_TOKENS
) -> list[ParentChunk]:
    """One parent per section; sections over ``parent_tokens`` split at paragraph boundaries.

    Ids are derived from (book, heading path, part) and, for a repeated heading path, the
    section's text (``_section_keys``), so they are stable across runs and unaffected by
    edits to other sections or by sections inserted before them.
    """
    parents: list[ParentChunk] = []
    for section, section_key in zip(sections, _section_keys(sections), strict=True):
        if count_tokens(section.text) <= parent_tokens:
            parts = [section.text]
        else:
            parts = pack_units(_paragraph_units(section.text), parent_tokens)
        shown = _terms_by_part(section, parts)
        for part, text in enumerate(parts):
            parents.append(
                ParentChunk(
                    id=_chunk_id(book, section.heading_path, section_key, part),
                    book=book,
                    ordinal=len(parents),
                    heading=section.heading,
                    heading_path=section.heading_path,
                    part=part,
                    text=text,
                    sha256=sha256_text(text),
                    token_count=count_tokens(text),
                    pages=section.pages,
                    file=section.file,
                    defines=section.defines if part == 0 else (),
                    # a long note's parts: each carries the links whose text it shows
                    links=section.links if len(parts) == 1 else tuple(
                        link for link in section.links if link[1] in text),
                    kinds=section.kinds,
                    terms=shown[part],
                )
            )
    return parents


def _shown(name: str) -> Callable[[str], bool]:
    """Whether a text shows ``name``: as a substring, but a TeX command only whole (``\\@temp``
    is not shown by ``\\@temp@length``, its letters and @ go on)."""
    if not name.startswith("\\"):
        return lambda text: name in text
    whole = re.compile(re.escape(name) + r"(?![A-Za-z@])")
    return lambda text: whole.search(text) is not None


def _terms_by_part(section: Section, parts: list[str]) -> list[tuple]:
    """A documentation section's terms, each on the first part that shows its name (the page's
    subject on the first part): a long reference page's entries stay with their text."""
    out: list[list] = [[] for _ in parts]
    for term in section.terms:
        name = term.name.rpartition(SUB_ENTRY_SEPARATOR)[2]  # a sub-entry shows its own name
        at = 0 if term.subject else _part_showing(name, parts)
        if at is not None:
            out[at].append(term)
    return [tuple(found) for found in out]


def _part_showing(name: str, parts: list[str]) -> int | None:
    """The part with the term's own line (opening with the name, past a label and a code mark
    as in "*optional* `name=`", or followed by its ": definition"), else the first that shows
    the name (a table of contents at the page's top shows it first); a name the page's Markdown
    escapes ("\\_\\_pool") or wraps over two lines shows as itself, and a lower-case name in
    any case ("command search" in a heading "Command Search"): the last tests. The first three
    tests need the name as written, so a part without it is not searched (a page's hundreds of
    terms were each searched for with three patterns in every part)."""
    written = [i for i, text in enumerate(parts) if name in text]
    if written and len(parts) == 1 and not name.startswith("\\"):
        return 0  # its one part shows it, whichever test finds it first
    starts = re.compile(rf"(?m)^[ \t]*(?:\*\w+\*\s+)?[@`\\]*{re.escape(name)}(?![\w.-])")
    own = re.compile(rf"(?m)^(?![>:])[^\n]*{re.escape(name)}[^\n]*\n\n?[:>] ")
    for shows in (starts.search, own.search, _shown(name)):
        at = next((i for i in written if shows(parts[i])), None)
        if at is not None:
            return at
    found = next((i for i, text in enumerate(parts) if name in " ".join(unescape_markdown(text).split())), None)
    if found is None and name == name.lower():  # a lower-case name shows in any case, as verification reads it
        found = next((i for i, text in enumerate(parts) if name in " ".join(unescape_markdown(text).lower().split())), None)
    return found


def child_chunks(
    parent: ParentChunk, child_tokens: int = DEFAULT_CHILD_TOKENS, count: Callable[[str], int] = count_tokens
) -> list[ChildChunk]:
    """Split one parent into child chunks of about ``child_tokens`` tokens (never across
    parents). ``count`` counts tokens: the embedder's own tokenizer sizes children to its
    window (``token_count`` stays in tiktoken tokens, like the parents')."""
    pieces = pack_units(_paragraph_units(parent.text), child_tokens, count) or [parent.text]
    return [
        ChildChunk(
            id=f"{parent.id}-c{n}",
            parent_id=parent.id,
            book=parent.book,
            ordinal=n,
            text=piece,
            token_count=count_tokens(piece),
        )
        for n, piece in enumerate(pieces)
        if piece.strip()
    ]
