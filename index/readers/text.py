"""The plain-text reader: headings from the conventions plain text uses, as Markdown.

A heading is a short line set apart by a blank line before it (or the start) and followed
by text, in one of three conventions:
- numbered: ``3.2 Combat`` or ``Chapter 3. Combat`` (the depth of the number is the level);
- ALL-CAPS: ``COMBAT`` (level 1);
- underlined: a line followed by ``====`` (level 1) or ``----`` (level 2).
With none, the book is cut into windows of about one parent chunk each, with a warning.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..core.tokens import split_tokens
from .markdown import from_text
from .source import SourceBook, decode_text, read_bytes, sha256_bytes

_NUMBERED = re.compile(r"^(?:(?:chapter|part|section|appendix)\s+)?(\d+(?:\.\d+){0,4})\.?\s+(\S.{0,78})$", re.I)
_UNDERLINE = re.compile(r"^(=+|-+)\s*$")
_WINDOW_TOKENS = 1200


def _caps_heading(line: str) -> bool:
    letters = [c for c in line if c.isalpha()]
    return (len(letters) >= 3 and all(c.isupper() for c in letters) and len(line) <= 80
            and not line.rstrip().endswith((".", ",", ";")))


def _title_like(words: str) -> bool:
    """``Combat``, ``Rolling the Dice``: capitalised, short, no sentence end (not ``3 goblins attack.``)."""
    return words[0].isupper() and len(words.split()) <= 10 and not words.endswith((".", ",", ";", ":"))


def to_markdown(text: str) -> tuple[str, int]:
    """Plain text as Markdown, its headings marked with ``#``; and how many headings it found."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: list[str] = []
    found = 0
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        stripped = line.strip()
        before_blank = i == 0 or not lines[i - 1].strip()
        nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if stripped and before_blank and i + 1 < len(lines) and _UNDERLINE.match(nxt) and len(nxt) >= 3 \
                and len(stripped) <= 80:
            out.append(f"{'#' if nxt[0] == '=' else '##'} {stripped}")
            found += 1
            i += 2
            continue
        numbered = _NUMBERED.match(stripped) if before_blank else None
        if numbered and _title_like(numbered.group(2)):
            level = min(6, numbered.group(1).count(".") + 1)
            out.append(f"{'#' * level} {stripped}")
            found += 1
        elif stripped and before_blank and _caps_heading(stripped) and (i + 1 == len(lines) or not _caps_heading(nxt)):
            out.append(f"# {stripped.title() if len(stripped) > 3 else stripped}")
            found += 1
        else:
            # a line that Markdown would read as a heading or a rule stays text
            out.append(re.sub(r"^(\s{0,3})([#=]|-{3,}|\*{3,})", r"\1\\\2", line))
        i += 1
    return "\n".join(out), found


def read(path: Path) -> SourceBook:
    """A plain-text book: headings from its conventions, else token windows (with a warning)."""
    data = read_bytes(path)
    text = decode_text(path, data)
    markdown, found = to_markdown(text)
    if found:
        return from_text(path, markdown, sha256_bytes(data), "text")
    windows = split_tokens(markdown, _WINDOW_TOKENS)
    parts = [f"# {path.stem} ({n})\n\n{window}\n" for n, window in enumerate(windows, 1)]
    book = from_text(path, "".join(parts), sha256_bytes(data), "text")
    warning = f"'{path}' has no headings this reader knows: cut into {len(windows)} windows of about {_WINDOW_TOKENS} tokens"
    return SourceBook(path=book.path, format="text", title=path.stem, sections=book.sections,
                      sha256=book.sha256, warnings=(warning,))
