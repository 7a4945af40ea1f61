"""Book title inference from a book's text and its headings. Pure.

In order, the first that applies:
1. YAML front matter ``title:``;
2. a title page: one of the first three headings whose first paragraph is a copyright
   notice (``©``, ``&copy;``, ``(c) 2016``, ``Copyright``);
3. a level-1 heading that opens the file and is the only level-1 heading (several ``#``
   headings are chapters, not the title); a one-paragraph epigraph may precede it (step 5);
4. a licence attribution before the first heading: "This work is based on the X SRD (found
   at ...)" names the work (a trailing "SRD" / "System Reference Document" is dropped);
5. the sole level-1 heading after at most one short paragraph;
6. the file stem.
"""

from __future__ import annotations

import html
import re

from .packs import genre_words, per_genres, word_pattern

_FRONT_MATTER = re.compile(r"\A(?:\ufeff)?---[ \t]*\r?\n(.*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.DOTALL)
_FM_TITLE = re.compile(r"^title:[ \t]*(.+?)[ \t]*$", re.MULTILINE | re.IGNORECASE)
_COPYRIGHT = re.compile(r"©|&copy;|\(c\)\s*\d{4}|\bcopyright\b", re.IGNORECASE)
_ATTRIBUTION = re.compile(
    r"\bthis (?:work|book|document|product) (?:is based on|uses material from|includes material from)\s+"
    r"(?:the\s+)?(?P<title>[^()\n.]{2,100}?)\s*(?:\(|,|\.|\bfound at\b|\bby\b|\n)",
    re.IGNORECASE,
)
# HTML tags, code marks and stars; underscores only as a pair that opens and closes emphasis
# outside words ("_word_"): one inside a word or a name (``load_parts()``, ``g_main_loop_new``,
# ``class_``) is a character of it
_MARKUP = re.compile(r"<[^>]+>|[*`]+")


@per_genres
def _srd_suffix() -> re.Pattern:
    """A title's suffix the rulebook pack lists ("System Reference Document")."""
    return re.compile(rf"\s+(?:{word_pattern(genre_words('rulebook', 'title_suffixes'))})\s*$", re.IGNORECASE)
_UNDERSCORE_EMPHASIS = re.compile(r"(?<![^\W_])(_{1,2})(?=[^\s_])(.+?)(?<=[^\s_])\1(?![^\W_])")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")  # Markdown's backslash escape of an ASCII punctuation mark
_SET_ASIDE = re.compile("\ue000(\\d+)\ue001")


def unescape_markdown(text: str) -> str:
    """``text`` with Markdown's backslash escapes read as the characters they escape
    (``\\_\\_pool``: ``__pool``), nothing else changed."""
    return _ESCAPE.sub(r"\1", text)


def strip_markup(text: str) -> str:
    """``text`` without HTML tags and emphasis markers, entities decoded (lines kept); a code
    span's text is kept as written, and a backslash-escaped character (``\\_``, ``\\*``,
    ``3\\.``) is that character, never markup."""
    parts = _CODE_SPAN.split(text)  # text, marks, code, marks, code, ..., text
    kept = [part if i % 3 == 2 else "" if i % 3 == 1 else _plain(part) for i, part in enumerate(parts)]
    return html.unescape("".join(kept))


def _plain(text: str) -> str:
    """Markup-free text outside code spans: escapes set aside while the markup goes."""
    escaped: list[str] = []

    def aside(match: re.Match) -> str:
        escaped.append(match.group(1))
        return f"\ue000{len(escaped) - 1}\ue001"

    text = _UNDERSCORE_EMPHASIS.sub(r"\2", _MARKUP.sub("", _ESCAPE.sub(aside, text)))
    return _SET_ASIDE.sub(lambda m: escaped[int(m.group(1))], text)


def clean_inline(text: str) -> str:
    """Markup-free, entity-decoded, whitespace-collapsed inline text."""
    return " ".join(strip_markup(text).split())


def _first_paragraph(lines: list[str], start: int) -> str:
    out = []
    for line in lines[start + 1:start + 40]:
        if not line.strip():
            if out:
                break
            continue
        if line.lstrip().startswith("#"):
            break
        out.append(line)
    return " ".join(out)


def split_front_matter(text: str) -> tuple[str | None, str]:
    """YAML front matter's ``title:`` (None without one) and the text after the front
    matter (all of it when there is none)."""
    match = _FRONT_MATTER.match(text)
    if not match:
        return None, text
    found = _FM_TITLE.search(match.group(1))
    title = found.group(1).strip().strip("'\"").strip() if found else ""
    return title or None, text[match.end():]


def infer_title(text: str, headings: list[tuple[int, str, int]], fallback: str) -> str:
    """The book's title. ``headings``: (level, text, first line) in order (structure view)."""
    match = _FRONT_MATTER.match(text)
    if match:
        found = _FM_TITLE.search(match.group(1))
        if found and found.group(1).strip("'\" "):
            return found.group(1).strip().strip("'\"").strip()
    lines = text.splitlines()
    for level, heading, start in headings[:3]:
        if heading and _COPYRIGHT.search(_first_paragraph(lines, start)):
            return clean_inline(heading)
    if headings:
        level, heading, start = headings[0]
        opens_file = not any(line.strip() for line in lines[:start])
        if level == 1 and heading and opens_file and sum(1 for h in headings if h[0] == 1) == 1:
            return clean_inline(heading)
    preamble = "\n".join(lines[: headings[0][2] if headings else min(len(lines), 60)])
    found = _ATTRIBUTION.search(strip_markup(preamble))
    if found:
        title = _srd_suffix().sub("", found.group("title").strip())
        if 2 <= len(title) <= 100:
            return title
    if headings:
        # a sole level-1 heading after a short epigraph or credit line still names the book
        level, heading, start = headings[0]
        before = "\n".join(lines[:start]).strip()
        if level == 1 and heading and sum(1 for h in headings if h[0] == 1) == 1 and len(before) <= 300 \
                and "\n\n" not in before:
            return clean_inline(heading)
    return fallback
