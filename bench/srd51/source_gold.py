"""The names a rulebook's Markdown source gives, read from its structure alone (the fair count's
gold, bench/srd51/eval_definitions.py): its headings, its leads, its tables' cells, and the
ones its structure says are labels."""

from __future__ import annotations

import re
from collections import defaultdict

from crossbook.core.normalize import normalize_name

# a broken conversion's "#>Title</h1>" is a heading too (two Fate books are written so), indented
# or not: its tag says what it is, where an indented "# Title" is code
_ATX = re.compile(r"^(?:\s*(?=#{1,6}>))?(#{1,6})(?:\s+|>)(.+?)\s*#*\s*$")
_LEAD = re.compile(r"^\s*(?:[-*+]\s+)?(?:\*{1,3}|_{1,3})([^*_]+?)(?:\.(?:\*{1,3}|_{1,3})|(?:\*{1,3}|_{1,3})\.)")
# a lead closed by a colon: "**Name:**", "**Name**:", "<strong>Name:</strong>", "<b>Name</b>:", or a
# list item's plain "- Name: text", after a task list's box or not; a lead of a quote ("> - Name: ...") as well
_COLON_LEAD = re.compile(
    r"^[\s>]*(?:[-*+]\s+)?(?:\*{2,3}|_{2,3}|<(?:strong|b)>)([^*_<>:]+?)"
    r"(?::\s*(?:\*{2,3}|_{2,3}|</(?:strong|b)>)|(?:\*{2,3}|_{2,3}|</(?:strong|b)>):)"
    r"|^[\s>]*[-*+]\s+(?:<input[^>]*>\s*)?([A-Z][^:*_<>.;!?]*?):\s")
_LABEL_WORDS = {"example", "examples", "note", "notes"}  # "Example Stunt:", "Important Note:" label a passage
_IMPERATIVE = {"choose", "roll", "determine", "decide", "make", "take", "pick", "select", "add", "apply",
               "resolve", "check", "begin", "end", "move", "use", "record", "spend", "gain"}


def headings(text: str) -> list[tuple[int, str, int]]:
    """(level, text, line number) of every ATX and setext heading."""
    lines = text.splitlines()
    out = []
    for i, line in enumerate(lines):
        if m := _ATX.match(line):
            out.append((len(m.group(1)), clean(m.group(2)), i))
        elif i and re.fullmatch(r"=+\s*", line) and lines[i - 1].strip():
            out.append((1, clean(lines[i - 1]), i - 1))
        elif i and re.fullmatch(r"-{3,}\s*", line) and lines[i - 1].strip() and not lines[i - 1].startswith("|"):
            out.append((2, clean(lines[i - 1]), i - 1))
    return [h for h in out if h[1]]  # a heading with no text left ("##><br />") heads nothing


def clean(text: str) -> str:
    """Markup and a trailing parenthesis go ("Absorption (Very Rare)", "Armor Class (AC)")."""
    text = re.sub(r"<[^>]*>", "", text)  # an HTML tag of a heading or a cell ("Title</h1>")
    return re.sub(r"\s*\([^()]*\)\s*$", "", re.sub(r"[*_`]", "", text).strip(" :.")).strip(" :.")


def tables(text: str, cell=None) -> list[list[list[str]]]:
    """The pipe tables of a text: each a list of rows, header first, of cells read by ``cell``
    (default ``clean``: markup and a trailing parenthesis go)."""
    out, rows = [], []
    for line in [*text.splitlines(), ""]:
        if line.lstrip().startswith("|"):
            cells = [(cell or clean)(c) for c in line.strip().strip("|").split("|")]
            if not all(re.fullmatch(r":?-+:?", c) for c in cells if c):
                rows.append(cells)
        elif rows:
            out.append(rows)
            rows = []
    return out


def sections(text: str) -> list[tuple[list[str], str]]:
    """(heading path, body) of every section."""
    lines, found = text.splitlines(), headings(text)
    out, path = [], []
    for n, (level, name, at) in enumerate(found):
        path = [*path[:level - 1], *[""] * max(0, level - 1 - len(path)), name][:level]
        end = found[n + 1][2] if n + 1 < len(found) else len(lines)
        out.append((path, "\n".join(lines[at + 1:end])))
    return out


def lead_of(line: str) -> tuple[str, str] | None:
    """(the name a line's lead gives, the rest of the line), or None: a bold or italic lead
    closed by a period ("***Name.***"), a bold lead closed by a colon ("**Name:**",
    "<strong>Name</strong>:"), or a list item's plain "- Name: text" of at most five words."""
    if m := _LEAD.match(line):
        return clean(m.group(1)), line[m.end():]
    if (m := _COLON_LEAD.match(line)) and (lead := clean(m.group(1) or m.group(2))) \
            and len(lead.split()) <= 5:
        return lead, line[m.end():]
    return None


def source_names(files: dict[str, str]) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(file stem -> the source names of that book, stem -> the names its structure says are
    no entry), both normalized, from the books' Markdown (``files``: stem -> text)."""
    names: dict[str, set[str]] = defaultdict(set)
    rejects: dict[str, set[str]] = defaultdict(set)
    for stem, text in files.items():
        count: dict[str, int] = defaultdict(int)
        for level, name, _ in headings(text):
            names[stem].add(normalize_name(name))
            count[normalize_name(name)] += 1
            if " and " in name:
                rejects[stem].update(normalize_name(p) for p in re.split(r",\s*| and ", name) if p.strip())
            if name.split()[0].lower() in _IMPERATIVE:
                rejects[stem].add(normalize_name(name))
        rejects[stem].update(k for k, c in count.items() if c >= 3)
        leads: dict[str, int] = defaultdict(int)
        for line in text.splitlines():
            if not (found := lead_of(line)):
                continue
            lead, rest = found
            names[stem].add(normalize_name(lead))
            leads[normalize_name(lead)] += not _LEAD.match(line)
            words = lead.lower().split()
            if re.search(rf"\bthe {re.escape(lead)} column\b", rest, re.IGNORECASE) \
                    or words[0] in _IMPERATIVE or {words[0], words[-1]} & _LABEL_WORDS:
                rejects[stem].add(normalize_name(lead))
        # a colon lead written three or more times in a book is a field label ("**Casting Time:**");
        # a repeated period lead is a trait many entries share ("***Multiattack.***")
        rejects[stem].update(k for k, c in leads.items() if c >= 3)
        for table in tables(text):
            for row in table[1:]:
                if row and row[0]:
                    names[stem].add(normalize_name(row[0]))
                for cell in row[1:]:
                    if cell and not re.search(r"\d", cell):
                        rejects[stem].add(normalize_name(cell))
        for level, name, _ in headings(text):
            if re.fullmatch(r"[A-Z]{2,5}", name):
                rejects[stem].add(normalize_name(name))
            elif count[normalize_name(name)] < 3:  # a heading of the book is no column's value
                rejects[stem].discard(normalize_name(name))
    return names, rejects
