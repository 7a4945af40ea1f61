"""Definitions that are not headings. Pure: one parent chunk's text in, named spans out.

- glossary paragraphs: ``**Term.** text``, ``***Term.*** text``, ``**Term:** text``,
  ``<strong>Term</strong>: text``, ``__Term.__ text``;
- definition lists: ``Term`` followed by a ``: definition`` line, and ``<dt>Term</dt>``;
- catalog tables: the first column of a table whose first cells are names (an equipment
  table defines its items; a dice table with numbers in its first column defines nothing).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.normalize import singular
from ..core.packs import genre_words
from .headings import clean_text, function_word, heading_name, is_instruction, is_rate, is_topical, topical_strength

_LINE_START = r"^[ \t]*(?:>[ \t]*)*(?P<item>(?:[-*+]|\d+[.)])[ \t]+)?"
_EMPHASIS_LEAD = re.compile(
    _LINE_START + r"(?P<open>\*\*\*|\*\*|__|\*|_|<strong>|<b>|<em>|<i>)\s*(?P<term>[^*_<>\n]{2,90}?)\s*"
    r"(?P<punct>[.:—–])?\s*(?P<close>\*\*\*|\*\*|__|\*|_|</strong>|</b>|</em>|</i>)\s*(?P<after>[.:—–])?[ \t]*(?=(?P<rest>\S))",
    re.MULTILINE,
)
_PLAIN_LEAD = re.compile(_LINE_START + r"(?P<term>[A-Z][^:\n*_<>]{0,40}?):[ \t]+(?P<rest>\S)", re.MULTILINE)
_RUN_GAP = 700   # characters between two entries of one run (a paragraph of text at most)
_RUN_MIN = 3
_DEF_LIST = re.compile(r"^(?P<term>[^\s:|#>*\-][^\n]{0,60})\n:[ \t]+\S", re.MULTILINE)
_DT = re.compile(r"<dt>\s*(?P<term>[^<]{2,60}?)\s*</dt>", re.IGNORECASE)
_TABLE_ROW = re.compile(r"^[ \t]*\|(.+)\|[ \t]*$")
_SEPARATOR = re.compile(r"^[\s|:\-]+$")


@dataclass(frozen=True)
class TermSpan:
    name: str
    aliases: tuple[str, ...]
    start: int       # where the term occurs in the chunk text (for its context sentence)
    end: int
    source: str      # "glossary", "deflist", "table" or "list"
    # a table row's: its first column's header ("" for a table without one); a list item's: the
    # heading that names the kind of the list's items
    column: str | None = None


# bold leads that introduce a remark, not a term
_OUTCOME = re.compile(r"^(?:if|when|whenever|unless|on\s+an?)\b", re.IGNORECASE)


def _remarks() -> frozenset[str]:
    return genre_words("rulebook", "remark_leads")



# who speaks in an example's dialogue ("**You:** I draw my sword"), never a term
_SPEAKERS = {"you", "i", "we", "me", "he", "she", "they", "it"}


def _not_a_lead(raw: str, name: str) -> bool:
    """A bold lead that is no term: an option (``**-F**``, ``**--all**``: documentation's
    option blocks are read by their own reader), a speaker of an example ("**You:**"), or a
    one- or two-character name (a letter is no term a lead defines)."""
    return raw.lstrip().startswith(("-", "+")) or name.casefold() in _SPEAKERS or len(name.strip()) <= 2


def _joins_groups(name: str) -> bool:
    """True for a lead that joins a group to something ("Zones and Ranged Weapons",
    "Equipment Stunts and Weight"): a paragraph about how two things meet, not a name;
    a name that joins two single things ("Cloak and Dagger") stays."""
    parts = re.split(r"\s+(?:and|&)\s+", name)
    if len(parts) < 2:
        return False
    lasts = [re.sub(r"[^\w]", "", p.split()[-1].lower()) for p in parts if p.split()]
    return any(w and singular(w) != w for w in lasts)


def _term(raw: str) -> tuple[str, tuple[str, ...]] | None:
    named = heading_name(raw)
    if named is None or is_topical(named.name) or named.name.lower() in _remarks() or _joins_groups(named.name):
        return None
    if any(c.isdigit() for c in named.name) or is_rate(named.name):
        return None  # "Effect 5", "Rank 2", "X/Day": a numbered row, a level or a rate, not a name
    words = named.name.split()
    if len(words) > 5 or not named.name[0].isupper():
        return None
    if words[0].lower() in ("a", "an"):
        return None
    # a term is a name: short, or its main words capitalized ("Hard to Shake", not "Tokens to represent...")
    if len(words) > 2 and any(w[0].islower() for w in words[1:] if len(w) > 3):
        return None
    return named.name, named.aliases


# the words title case leaves in lower case, however long ("Lies upon Lies", "Better than New")
TITLE_SMALL = {"than", "upon", "onto", "into", "from", "with", "over", "under", "like", "about", "after",
                "before", "within", "without", "through", "across", "along", "among", "around", "behind",
                "beyond", "during", "toward", "towards", "until", "versus"}


def _relaxed_term(raw: str) -> tuple[str, tuple[str, ...]] | None:
    """A term that is one entry of a run of entries: names may be phrases ("Always a Way Out")."""
    named = heading_name(raw)
    if named is None or named.name.lower() in _remarks() or len(named.name.split()) > 12 or _joins_groups(named.name):
        return None
    first = named.name.lstrip("\"“'‘")
    if not first or not (first[0].isupper() or first[0].isdigit()) or any(c.isdigit() for c in named.name) \
            or is_rate(named.name):
        return None
    if _OUTCOME.match(named.name):
        return None  # "On a Weak Hit", "If you tie": an outcome of a roll, not a name
    words = named.name.split()
    long_words = [w for w in words[1:] if len(w) > 3 and w.lower() not in TITLE_SMALL]
    title_case = all(w[0].isupper() for w in long_words)
    if len(words) >= 3 and not title_case:
        return None  # a sentence opening ("Anyone can offer a compel"), not a name
    if topical_strength(named.name) == 2 and not title_case or is_instruction(named.name):
        return None  # a sentence, or a step set in title case ("Describe What Your Character Does")
    return named.name, named.aliases


_LISTED_NAME = r"[\"“‘']?[A-Z][\w’'-]*(?:\s+(?:of\s+|the\s+)?[A-Z][\w’'-]*){0,2}(?:\s*\([^()\n]{1,30}\))?"
_NAME_LIST = re.compile(rf"^[\s:.—–]*{_LISTED_NAME}(?:(?:\s*[,;]\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+){_LISTED_NAME}){{1,}}[\s.]*$")


def _lists_names(term: str, text: str, at: int) -> bool:
    """True when a plural ``term`` is followed, to the end of its line from ``at``, only by a
    list of two or more names ("**Approaches:** Careful, Clever, Flashy, Forceful."): the
    lead labels a group of things, it is not one. A singular lead over a list ("**Battle:**
    Athletics, Melee, Physique") is a thing made of them, and stays."""
    last = re.sub(r"[^\w]", "", term.split()[-1].lower()) if term.split() else ""
    if not last or singular(last) == last:
        return False
    end = text.find("\n", at)
    line = text[at:] if end < 0 else text[at:end]
    return _NAME_LIST.match(re.sub(r"</?\w+[^>]*>|[*_]", "", line)) is not None


_LIST_ITEM = re.compile(r"\n[ \t]*(?:>[ \t]*)*(?:[-*+]|\d+[.)])[ \t]+\S")


def _heads_a_list(text: str, at: int) -> bool:
    """True when nothing but punctuation follows a lead on its line and a list comes next
    ("**Moderate Consequences:**" over a list of them): the lead titles the list, as a
    category heading does; its items are the things."""
    end = text.find("\n", at)
    if end < 0 or re.sub(r"</?\w+[^>]*>", "", text[at:end]).strip(" \t:.—–*_"):
        return False
    return _LIST_ITEM.match(text, end + (1 if text.startswith("\n\n", end) else 0)) is not None


def _emphasis_leads(text: str) -> list[re.Match]:
    """The emphasized leads of ``text``. The text after a lead is only looked at (a bold line
    of its own, "**Actions**", must not swallow the lead of the next line); an italic line of
    its own ("*Huge Beast, Wild*", a creature's size and kind) is a subtitle, not a lead; a
    ``*`` or ``_`` followed by a space opens no emphasis ("* Fair (+2) **Fence**" is a list
    item), as in CommonMark; a bold cell of an HTML table ("<strong>Outcome</strong></td>") is
    the cell's value."""
    return [m for m in _EMPHASIS_LEAD.finditer(text)
            if not (m.group("open") in _ITALIC and "\n" in text[m.end("close"):m.start("rest")])
            and not (m.group("open")[0] in "*_" and text[m.end("open"):m.end("open") + 1].isspace())
            and not (not m.group("item") and _goes_on_a_sentence(text, m.start()))
            and not _CELL_END.match(text, m.end("close"))]


# an HTML table's cell closing after the emphasized text: the cell's value, no lead
_CELL_END = re.compile(r"\s*</t[dh]>", re.IGNORECASE)


_QUOTED = re.compile(r"^[ \t]*(?:>[ \t]*)*")
# a line of its own: a heading, a table row, a list item, an emphasized entry, a callout's title
_OWN_LINE = re.compile(r"^(?:#|\||(?:[-*+]|\d+[.)])[ \t]|\*|_|<(?:strong|b|em|i)>|\[!)")
_SENTENCE_END = re.compile(r"[.!?:;…]['\"’”)\]]*$")


def _goes_on_a_sentence(text: str, at: int) -> bool:
    """True when the line at ``at`` goes on with the sentence the line above left open, in
    one paragraph ("Sets the value of\n*KEY*\nto\n*VALUE*. The value is..."): an emphasized
    word there opens no entry. A line above that is a heading, a list item, a table row or an
    entry itself ("**Aid** 2nd-level\n**Alarm** 1st-level", a catalog a line each) leaves none open."""
    if at == 0:
        return False
    start = text.rfind("\n", 0, at - 1) + 1
    above = _QUOTED.sub("", text[start:at - 1]).strip()
    if re.search(r"<br\s*/?>$", above, re.IGNORECASE):  # a line break ends the line's run
        return False
    words = re.sub(r"</?\w+[^>]*>", "", above).strip()
    if not words or _OWN_LINE.match(above):  # a rule "<hr/>", a heading, an item...
        return False
    return not _SENTENCE_END.search(re.sub(r"[*_]+$", "", words).rstrip())


_ITALIC = ("*", "_", "<em>", "<i>")


def entry_leads(text: str) -> list[tuple[int, int]]:
    """(line start, term start) of every line that opens with an emphasized lead or a
    ``- Name:`` item: where a glossary entry, and the paragraph about it, begins."""
    leads = [*_emphasis_leads(text), *(m for m in _PLAIN_LEAD.finditer(text) if m.group("item"))]
    return sorted((m.start(), m.start("term")) for m in leads)


def _runs(leads: list[re.Match], text: str) -> list[list[re.Match]]:
    runs: list[list[re.Match]] = []
    for lead in leads:
        if runs and lead.start() - runs[-1][-1].end() <= _RUN_GAP and "\n#" not in text[runs[-1][-1].end():lead.start()]:
            runs[-1].append(lead)
        else:
            runs.append([lead])
    return runs


# a paragraph: a run of lines, none blank and none a heading
_PARAGRAPH = re.compile(r"^(?![ \t]*$)(?! {0,3}#).*(?:\n(?![ \t]*$)(?! {0,3}#).*)*", re.MULTILINE)


def _whole_section(run: list[re.Match], text: str) -> bool:
    """Whether every paragraph of the chunk, its headings aside, opens with a lead of ``run``."""
    starts = {lead.start() for lead in run}
    return all(p.start() in starts for p in _PARAGRAPH.finditer(text))


def glossary_terms(text: str) -> list[TermSpan]:
    """Glossary entries and definition-list terms of one chunk, in order.

    A run of three or more entries of one shape (bold or emphasized leads, or ``- Name: text``
    list items) is a catalog: each lead is a term, even a phrase. So is a run of two emphasized
    leads that is the whole section: every paragraph under its heading opens with one of them
    ("### Collateral Damage Effects" and its two entries; two ``- Name:`` items are more often
    the two options of a rule). A lone bold lead is a term only with
    its punctuation (``**Term.** text``) and a name-like shape.
    """
    out: list[TermSpan] = []
    emphasis = _emphasis_leads(text)
    plain = [m for m in _PLAIN_LEAD.finditer(text) if m.group("item")]
    for leads, plain_kind in ((emphasis, False), (plain, True)):
        for run in _runs(leads, text):
            catalog = len(run) >= _RUN_MIN or not plain_kind and len(run) >= 2 and _whole_section(run, text)
            for match in run:
                rest = match.start("rest")
                if plain_kind and not catalog or _lists_names(match.group("term"), text, rest) \
                        or _heads_a_list(text, rest):
                    continue
                punctuated = plain_kind or match.group("punct") or match.group("after")
                if catalog:
                    found = _relaxed_term(match.group("term"))
                elif punctuated and match.group("open") in ("***", "**", "__", "<strong>", "<b>"):
                    found = _term(match.group("term"))
                else:
                    found = None  # "**Note** that ...", "*really*": emphasis, not an entry
                if found and not _not_a_lead(match.group("term"), found[0]):
                    out.append(TermSpan(found[0], found[1], match.start("term"), match.end("term"), "glossary"))
    for pattern in (_DEF_LIST, _DT):
        for match in pattern.finditer(text):
            found = _term(match.group("term"))
            if found:
                out.append(TermSpan(found[0], found[1], match.start("term"), match.end("term"), "deflist"))
    return sorted(out, key=lambda t: t.start)


_ITEM_LINE = re.compile(r"^[ \t]*(?:>[ \t]*)*[-*+][ \t]+\S.*$", re.MULTILINE)
_NAMED_ITEM = re.compile(r"[ \t]*(?:>[ \t]*)*[-*+][ \t]+(?P<term>[A-Z][\w'’-]*(?:[ \t]+[A-Z][\w'’-]*){0,2})"
                         r"[ \t]+[a-z][\w'’-]*[ \t]+\S")
_NAMED_ITEMS_MIN = 2


def named_items(text: str) -> list[TermSpan]:
    """The names a list's items open their sentences with ("- Wounded may be marked when
    you...", "- Cursed is marked when..."): every item of the list (two or more) so opens, no
    name reads as prose ("If you have...", "Each marked..."), and the text writes each name in
    lower case too, as a word of its own ("if you are wounded"): a state or a thing the text
    speaks of, not a sentence's first word. Source ``list``; the caller says of what kind."""
    out: list[TermSpan] = []
    lines = [(m.start(), m.group(0)) for m in _ITEM_LINE.finditer(text)]
    runs: list[list[tuple[int, str]]] = []
    for start, line in lines:
        if runs and text.count("\n", runs[-1][-1][0], start) == 1:
            runs[-1].append((start, line))
        else:
            runs.append([(start, line)])
    for run in runs:
        found = [(start, _NAMED_ITEM.match(line)) for start, line in run]
        if len(run) < _NAMED_ITEMS_MIN or not all(m and not is_topical(m.group("term"))
                                                   and not function_word(m.group("term").split()[0]) for _, m in found):
            continue
        terms = [(start + m.start("term"), m.group("term")) for start, m in found]
        if all(re.search(rf"(?<![\w'’-]){re.escape(term.lower())}(?![\w'’-])", text) for _, term in terms):
            out.extend(TermSpan(term, (), at, at + len(term), "list") for at, term in terms)
    return out


def _cells(line: str) -> list[str]:
    return [c.strip() for c in _TABLE_ROW.match(line).group(1).split("|")]


def _name_like(cell: str) -> bool:
    text = clean_text(cell)
    words = text.split()
    return bool(words) and len(words) <= 5 and text[0].isupper() and not any(ch.isdigit() for ch in text) \
        and not text.endswith((".", "?", "!"))


def table_terms(text: str) -> list[TermSpan]:
    """First-column names of the catalog tables in one chunk (header row excluded)."""
    out: list[TermSpan] = []
    lines = text.splitlines(keepends=True)
    offsets, at = [], 0
    for line in lines:
        offsets.append(at)
        at += len(line)
    i = 0
    while i < len(lines):
        if not _TABLE_ROW.match(lines[i].rstrip("\r\n")):
            i += 1
            continue
        j = i
        while j < len(lines) and _TABLE_ROW.match(lines[j].rstrip("\r\n")):
            j += 1
        rows = [k for k in range(i, j) if not _SEPARATOR.match(lines[k].rstrip("\r\n"))]
        if not rows:  # separator rows only ("|---|---|"): no table of names
            i = j
            continue
        has_header = j - i > 1 and _SEPARATOR.match(lines[i + 1].rstrip("\r\n")) is not None
        body = rows[1:] if has_header else rows
        firsts = [(k, _cells(lines[k].rstrip("\r\n"))[0]) for k in body]
        column = _cells(lines[rows[0]].rstrip("\r\n"))[0] if has_header else ""
        named = [(k, cell) for k, cell in firsts if _name_like(cell)]
        if len(body) >= 2 and len(named) >= max(2, 0.6 * len(body)) and len(_cells(lines[rows[0]].rstrip("\r\n"))) >= 2:
            for k, cell in named:
                found = _term(cell)
                if found:
                    start = offsets[k] + lines[k].index(cell)
                    out.append(TermSpan(found[0], found[1], start, start + len(cell), "table", column))
        i = j
    return out


_ABBREVIATION = re.compile(r"[A-Z]{2,5}")


def abbreviated(text: str, term: TermSpan) -> str | None:
    """The name a table row's abbreviation stands for ("| TL | Threat Level |" -> "Threat
    Level"): its first cell all capitals, the next cell's words' initials (or its first
    letters) spelling it; else None."""
    written = text[term.start:term.end].strip()  # as the cell writes it ("TL", not the name "Tl")
    if term.source != "table" or not _ABBREVIATION.fullmatch(written):
        return None
    line_start = text.rfind("\n", 0, term.start) + 1
    line_end = text.find("\n", term.start)
    cells = _cells(text[line_start:line_end if line_end >= 0 else len(text)].rstrip("\r"))
    if len(cells) < 2:
        return None
    full = re.sub(r"[*_`]", "", cells[1]).strip()
    words = re.findall(r"[A-Za-z]+", full)
    initials = "".join(w[0] for w in words if w[0].isupper())
    if not words or len(words) > 5 or not (initials == written or full.upper().startswith(written)):
        return None
    return full
