"""A chunk's text as the linker reads it, with a map back to the stored text. Pure.

Real books break names across lines, double their spaces, wrap them in markup
(``*Fireball*``, ``<em>Fate Core</em>``) and mix curly and straight apostrophes. The match
view drops HTML tags and emphasis markers, decodes entities, straightens quotes and collapses
whitespace to one space, reads a hyphen between letters as a space; ``offsets[i]`` is where view character ``i`` comes from, so a match
in the view is a span of the stored text, and contexts are quoted from the stored text.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

# a single plain space needs no work, so it is not special
_SPECIAL = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])|<[A-Za-z/!][^<>\n]{0,200}>|&#?\w{1,10};|(?! \S)\s+|[*`]+|(?<!\w)_+|_+(?!\w)|[’‘“”]")
_QUOTES = {"’": "'", "‘": "'", "“": '"', "”": '"'}


@dataclass(frozen=True)
class MatchView:
    text: str                 # the view
    offsets: list[int]        # view index -> stored-text index (len(text) + 1 entries)

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The stored-text span of view span [start, end)."""
        return self.offsets[start], self.offsets[end - 1] + 1


def match_view(text: str) -> MatchView:
    """Build the view of ``text`` (see the module docstring)."""
    out: list[str] = []
    offsets: list[int] = []
    at = 0
    last_space = True
    for match in _SPECIAL.finditer(text):
        if match.start() > at:
            out.append(text[at:match.start()])
            offsets.extend(range(at, match.start()))
            last_space = False
        token = match.group()
        if token == "-":  # "Super-Speed" reads as "Super Speed"
            out.append(" ")
            offsets.append(match.start())
            last_space = False
        elif token[0].isspace():
            if not last_space:
                out.append(" ")
                offsets.append(match.start())
                last_space = True
        elif token[0] == "&":
            decoded = html.unescape(token)
            decoded = _QUOTES.get(decoded, decoded)
            if decoded != token and len(decoded) == 1:
                if decoded.isspace():
                    if not last_space:
                        out.append(" ")
                        offsets.append(match.start())
                        last_space = True
                else:
                    out.append(decoded)
                    offsets.append(match.start())
                    last_space = False
            else:
                out.append(token)
                offsets.extend(range(match.start(), match.end()))
                last_space = False
        elif token in _QUOTES:
            out.append(_QUOTES[token])
            offsets.append(match.start())
            last_space = False
        elif token.lower().startswith(("<br", "<p", "</p", "<li", "</li", "<div", "</div", "<td", "</td", "<tr")):
            if not last_space:  # a block-level tag separates words
                out.append(" ")
                offsets.append(match.start())
                last_space = True
        # other tags and emphasis markers vanish
        at = match.end()
    if at < len(text):
        out.append(text[at:])
        offsets.extend(range(at, len(text)))
    offsets.append(len(text))
    return MatchView("".join(out), offsets)
