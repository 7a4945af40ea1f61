"""The plain-text reader: headings from the conventions plain text uses, as Markdown.

A heading is a short line set apart by a blank line before it (or the start) and followed
by text, in one of three conventions:
- numbered: ``3.2 Combat`` or ``Chapter 3. Combat`` (the depth of the number is the level);
- ALL-CAPS: ``COMBAT`` (level 1), title-cased (``Mage's Armor``) except the words the
  author's capitals are part of: an abbreviation (no vowel: ``HP``, ``NPC``; two letters
  that are no English word: ``AC``) or a word the book writes in capitals elsewhere;
- underlined: a line followed by ``====`` (level 1) or ``----`` (level 2).
A numbered line after a line that ends with a colon starts a list, and the numbers that
follow it in order are its items, not headings. YAML front matter (``title:``) gives the
title, as in Markdown. With no heading, the book is cut into windows of about one parent
chunk each, with a warning.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from ..core.titles import split_front_matter
from ..core.tokens import split_tokens
from .markdown import from_text
from .source import ReadOptions, SourceBook, decode_text, read_bytes, sha256_bytes

_NUMBERED = re.compile(r"^(?:(?:chapter|part|section|appendix)\s+)?(\d+(?:\.\d+){0,4})\.?\s+(\S.{0,78})$", re.I)
_UNDERLINE = re.compile(r"^(=+|-+)\s*$")
_WINDOW_TOKENS = 1200
_LIST_ITEM = re.compile(r"^(\d+)[.)]\s+\S")
_CAPS_WORD = re.compile(r"\b[A-Z][A-Z0-9]+\b")
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)*")
# the English words of two letters (any other pair of capitals is an abbreviation: AC, HP)
_TWO_LETTER_WORDS = {"a", "am", "an", "as", "at", "be", "by", "do", "go", "he", "if", "in", "is", "it", "me",
                     "my", "no", "of", "oh", "ok", "on", "or", "ox", "so", "to", "up", "us", "we"}
# lower case inside a title (title case: articles, short conjunctions and prepositions)
_MINOR_WORDS = {"a", "an", "and", "as", "at", "but", "by", "for", "in", "nor", "of", "on", "or", "the", "to",
                "vs", "via", "with"}


def _caps_heading(line: str) -> bool:
    letters = [c for c in line if c.isalpha()]
    return (len(letters) >= 3 and all(c.isupper() for c in letters) and len(line) <= 80
            and not line.rstrip().endswith((".", ",", ";")))


def _title_like(words: str) -> bool:
    """``Combat``, ``Rolling the Dice``: capitalised, short, no sentence end (not ``3 goblins attack.``)."""
    return words[0].isupper() and len(words.split()) <= 10 and not words.endswith((".", ",", ";", ":"))


def _capitals_kept(lines: list[str]) -> set[str]:
    """The words the book writes in capitals outside its ALL-CAPS lines (abbreviations)."""
    return {word for line in lines if not _caps_heading(line.strip()) for word in _CAPS_WORD.findall(line)}


def _keeps_capitals(word: str, elsewhere: set[str]) -> bool:
    letters = word.replace("'", "").replace("\u2019", "")
    bare = unicodedata.normalize("NFD", letters)  # É is a vowel
    return (not any(c in "AEIOUYaeiouy" for c in bare) or (len(letters) == 2 and letters.lower() not in
            _TWO_LETTER_WORDS) or letters in elsewhere)


def caps_title(line: str, elsewhere: set[str] = frozenset()) -> str:
    """An ALL-CAPS heading in title case (module docstring): ``MAGE'S ARMOR`` is
    ``Mage's Armor``, ``HP AND AC`` is ``HP and AC``."""

    def word_case(match: re.Match) -> str:
        word, before = match.group(0), line[:match.start()]
        # a title's first word, or a subtitle's (after a colon or a dash), is capitalised
        opens = not any(c.isalnum() for c in before) or before.rstrip().endswith((":", "\u2014", "\u2013"))
        if _keeps_capitals(word, elsewhere):
            return word
        if not opens and word.lower() in _MINOR_WORDS:
            return word.lower()
        return word[0].upper() + word[1:].lower()

    return _WORD.sub(word_case, line)


def _list_number(line: str) -> int | None:
    item = _LIST_ITEM.match(line)
    return int(item.group(1)) if item else None


def to_markdown(text: str) -> tuple[str, int]:
    """Plain text as Markdown, its headings marked with ``#``; and how many headings it found."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    elsewhere = _capitals_kept(lines)
    out: list[str] = []
    found = 0
    last_text = ""       # the last line with text
    next_item = None     # in a numbered list: the number its next item has
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
        number = _list_number(stripped)
        if number is not None and (number == next_item or (number == 1 and last_text.endswith(":"))):
            next_item = number + 1  # an item of a list: stays text (Markdown's own list)
        elif stripped and number is None and next_item is not None and not before_blank:
            pass  # an item's second line
        elif stripped:
            next_item = None
        last_text = stripped or last_text
        numbered = _NUMBERED.match(stripped) if before_blank and next_item is None else None
        if numbered and _title_like(numbered.group(2)):
            level = min(6, numbered.group(1).count(".") + 1)
            out.append(f"{'#' * level} {stripped}")
            found += 1
        elif stripped and before_blank and _caps_heading(stripped) and (i + 1 == len(lines) or not _caps_heading(nxt)):
            out.append(f"# {caps_title(stripped, elsewhere) if len(stripped) > 3 else stripped}")
            found += 1
        else:
            # a line that Markdown would read as a heading or a rule stays text
            out.append(re.sub(r"^(\s{0,3})([#=]|-{3,}|\*{3,})", r"\1\\\2", line))
        i += 1
    return "\n".join(out), found


def read(path: Path, options: ReadOptions = ReadOptions()) -> SourceBook:
    """A plain-text book: headings from its conventions, else token windows (with a warning)."""
    data = read_bytes(path)
    title, text = split_front_matter(decode_text(path, data))
    markdown, found = to_markdown(text)
    if found:
        return from_text(path, markdown, sha256_bytes(data), "text", title)
    windows = split_tokens(markdown, _WINDOW_TOKENS)
    parts = [f"# {path.stem} ({n})\n\n{window}\n" for n, window in enumerate(windows, 1)]
    book = from_text(path, "".join(parts), sha256_bytes(data), "text")
    warning = f"'{path}' has no headings this reader knows: cut into {len(windows)} windows of about {_WINDOW_TOKENS} tokens"
    return SourceBook(path=book.path, format="text", title=title or path.stem, sections=book.sections,
                      sha256=book.sha256, warnings=(warning,))
