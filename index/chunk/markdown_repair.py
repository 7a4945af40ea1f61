"""Real-world Markdown: recover the headings a broken HTML conversion left behind.

Pure. ``repair_headings`` returns a *structure view* of a book with the same lines, where
``#>Title</h1>`` lines (often indented, which CommonMark reads as code) and one-line HTML
headings (``<h2 class="x">Title</h2>``) are rewritten as ATX headings. The chunker finds
sections in that view and slices the stored text from the original lines, so the stored
text stays verbatim.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_BROKEN = re.compile(r"^[ \t]*(#{1,6})>(.*?)(?:</h[1-6]>)?(?:[ \t]*<br\s*/?>)*[ \t]*$", re.IGNORECASE)
_HTML_HEADING = re.compile(r"^[ \t]*<h([1-6])(?:\s[^>]*)?>(.*?)</h\1>[ \t]*$", re.IGNORECASE)
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


@dataclass(frozen=True)
class RepairReport:
    broken_headings: int = 0   # `#>Title</h1>` lines recovered
    html_headings: int = 0     # `<h2>Title</h2>` lines recovered

    @property
    def warning(self) -> str | None:
        if self.broken_headings:
            return (f"looks like a broken HTML conversion: recovered {self.broken_headings} "
                    "'#>Title</hN>' lines as headings (fix the file to silence this)")
        return None


def repair_headings(text: str) -> tuple[str, RepairReport]:
    """(structure view of ``text`` with the same line count, what was recovered)."""
    lines = text.splitlines(keepends=True)
    broken = html = 0
    fence: str | None = None
    for i, line in enumerate(lines):
        opening = _FENCE.match(line)
        if fence is not None:
            if opening and opening.group(1)[0] == fence:
                fence = None
            continue
        if opening:
            fence = opening.group(1)[0]
            continue
        ending = line[len(line.rstrip("\r\n")):]
        match = _BROKEN.match(line)
        if match and match.group(2).strip():
            broken += 1
            lines[i] = f"{match.group(1)} {match.group(2).strip()}{ending}"
            continue
        match = _HTML_HEADING.match(line)
        if match:
            html += 1
            lines[i] = f"{'#' * int(match.group(1))} {match.group(2).strip()}{ending}"
    return "".join(lines), RepairReport(broken, html)
