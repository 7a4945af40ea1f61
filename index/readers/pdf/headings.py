"""Where an outline entry's heading is printed on its page (pure: lines in, a line out).

An outline (bookmark) title often differs from the heading the page prints: the printed one
carries the section's number ("1.5. Legal Notes" for "Legal Notes"), another case ("LEGAL
NOTES"), a hyphen where a long heading broke over two lines, or table cells beside it (a
margin note set on the heading's line). Both are compared as a key: emphasis marks and the
leading number dropped, letters and digits only, case folded.
"""

from __future__ import annotations

import re

# a section number before the heading's words: "1.5." "2.3.1" "A.2" "IV." "Chapter 3" "Appendix B"
_NUMBER = re.compile(r"^\s*(?:(?:chapter|part|section|appendix)\s+)?"
                     r"(?:\d+(?:[.\-]\d+)*|[A-Z](?:[.\-]\d+)+|[A-Z](?=[.\s]\s*[A-Z])|[IVXLC]+(?=[.\s]))\.?\s+",
                     re.IGNORECASE)
_NOT_ALNUM = re.compile(r"[\W_]+")
SLACK = 8  # characters a printed line may add after the heading's words (a page number, a mark)


def unmarked(text: str) -> str:
    """A line's text without its emphasis and code marks (``**``, ``*``, backticks)."""
    return text.replace("*", "").replace("`", "")


def _plain(text: str) -> str:
    """A heading's words: no emphasis marks, no leading number, spaces collapsed, case folded."""
    text = " ".join(unmarked(text).split())
    return (_NUMBER.sub("", text, count=1) or text).casefold()


def heading_key(text: str) -> str:
    """A heading's words as one comparable string: ``_plain`` with letters and digits only
    ("**1.5. Legal Notes**" -> "legalnotes", "Command-Line Op- tions" -> "commandlineoptions")."""
    return _NOT_ALNUM.sub("", _plain(text))


def _after_words(line: str, wanted: str) -> str:
    """What a line prints after the heading words ``wanted`` (a ``heading_key``) that open it:
    its leading number and those words skipped, the emphasis mark that closes them dropped
    ("**Legal Notes** (cont.)" -> "(cont.)")."""
    flat = " ".join(unmarked(line).split())
    number = _NUMBER.match(flat)
    need = len(_NOT_ALNUM.sub("", number.group(0).casefold()) if number else "") + len(wanted)
    seen = 0
    for pos, char in enumerate(line):
        if seen >= need:
            break
        if char.isalnum():
            seen += len(char.casefold())
    else:
        return ""
    head, rest = line[:pos], line[pos:]
    if head.count("`") % 2:  # the heading's code run closes in the rest
        rest = rest.replace("`", "", 1)
    elif head.count("**") % 2:  # the heading's bold run closes in the rest
        rest = rest.replace("**", "", 1)
    elif (head.count("*") - 2 * head.count("**")) % 2:  # its italic run
        rest = rest.replace("*", "", 1)
    return rest.strip()


def find_heading(lines: list[str], title: str, start: int = 0) -> tuple[int, int, str] | None:
    """(index, line count, rest) of the printed heading that ``title`` names, from line
    ``start`` on: a line that is the heading; else two lines that are (a heading broken over a
    line); else a line that starts with it (a few characters more); else one whose first cell
    is it; else a line that opens with the title's text (an entry's head, such as a command and
    its arguments: that line stays in the body, so its line count is 0). ``rest`` is what the
    heading's line prints after the heading's words (more cells, a mark): it is the body's, never
    the heading's. A one-letter title (an index's letter) is only a line or a first cell that is
    just that letter: a letter that opens a line's text opens a word or an entry. None when the
    page does not print it."""
    wanted = heading_key(title)
    if not wanted:
        return None
    keys = [heading_key(line) for line in lines]
    for i in range(start, len(lines)):
        if keys[i] == wanted:
            return i, 1, ""
    letter = len(wanted) == 1
    for i in range(start, len(lines) - 1):
        if (not letter and keys[i] and wanted.startswith(keys[i])
                and heading_key(lines[i] + " " + lines[i + 1]) == wanted):
            return i, 2, ""
    plain = _plain(title)
    for i in range(start, len(lines)):
        line = _plain(lines[i])
        if not letter and keys[i].startswith(wanted) and line.startswith(plain) and len(line) <= len(plain) + SLACK:
            return i, 1, _after_words(lines[i], wanted)
    for i in range(start, len(lines)):
        if " | " in lines[i] and heading_key(lines[i].split(" | ", 1)[0]) == wanted:
            return i, 1, lines[i].split(" | ", 1)[1]
    if letter:
        return None
    # a command or term set as the head of its entry: "\newcommand{name}..." for "\newcommand"
    plain = " ".join(title.split()).casefold()  # as printed, its number too
    for i in range(start, len(lines)):
        line = " ".join(lines[i].lstrip("*`").split()).casefold()  # marks inside it end the name
        if line.startswith(plain) and not line[len(plain):len(plain) + 1].isalnum():
            return i, 0, ""
    return None
