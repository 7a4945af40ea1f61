"""Reading the Fate SRD books for the gold: headings (Markdown, HTML and broken
``#>Title</h1>`` ones), clean text for matching. Independent of crossbook's chunking."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpora" / "fate"

# file -> the title the corpus README gives
BOOKS = {
    "fate-core.md": "Fate Core System",
    "Fate-Condensed-SRD-CC-BY.md": "Fate Condensed",
    "fate-accelerated-SRD.md": "Fate Accelerated Edition",
    "fate-system-toolkit-SRD.md": "Fate System Toolkit",
    "atomic-robo-SRD.md": "Atomic Robo RPG",
    "venture-city.md": "Venture City",
    "gods-and-monsters-SRD.md": "Gods and Monsters",
    "war-of-ashes.md": "War of Ashes: Fate of Agaptus",
}

_MD_HEADING = re.compile(r"^\s{0,12}(#{1,7})(?:>|\s+)(.*?)\s*$")
_HTML_HEADING = re.compile(r"^\s*<h([1-6])[^>]*>(.*?)(?:</h[1-6]>.*)?$", re.I)
_TAG = re.compile(r"<[^>]+>")


@dataclass(frozen=True)
class Heading:
    line: int        # 1-based line number in the file
    level: int
    text: str        # markup stripped
    path: tuple[str, ...]  # the texts of the enclosing headings, this one last


def strip_markup(text: str) -> str:
    """Inline HTML tags, Markdown emphasis and entities removed; curly quotes straightened."""
    text = _TAG.sub("", text)
    text = html.unescape(text)
    text = text.replace("*", "").replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    text = re.sub(r"(?<!\w)_|_(?!\w)", "", text)
    return re.sub(r"\s+", " ", text).strip()


def read(file: str) -> str:
    return (CORPUS / file).read_text(encoding="utf-8")


def headings(file: str) -> list[Heading]:
    """Every heading of a book with its path. A heading line with no text left after the
    markup is stripped (``##><br />``) is skipped."""
    out: list[Heading] = []
    stack: list[tuple[int, str]] = []
    for number, raw in enumerate(read(file).splitlines(), 1):
        match = _MD_HEADING.match(raw)
        if match:
            level, text = len(match.group(1)), match.group(2)
        else:
            match = _HTML_HEADING.match(raw)
            if not match:
                continue
            level, text = int(match.group(1)), match.group(2)
        text = strip_markup(re.sub(r"</h[1-6]>.*$", "", text))
        if not text:
            continue
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, text))
        out.append(Heading(number, level, text, tuple(t for _, t in stack)))
    return out


def evidence_text(file: str) -> str:
    """The book as one line of markup-stripped text (whitespace runs collapsed): a
    relationship's evidence quote is a verbatim substring of it."""
    return " ".join(text for text in (strip_markup(line) for line in read(file).splitlines()) if text)


def section_path(file: str, line: int) -> str:
    """The heading path (joined with ' > ') of the section that holds a line."""
    current = ""
    for h in headings(file):
        if h.line > line:
            break
        current = " > ".join(h.path)
    return current
