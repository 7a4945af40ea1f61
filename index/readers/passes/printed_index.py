"""A book's back-of-book index, read as the author's own list of what the book treats. Pure.

A manual's index ("\\colorlet . . . 12", "draft (option) . . . **34**, 51") names its
commands, options, environments and packages and the pages that treat them. Each entry
becomes, on the sections whose pages the entry lists and whose text shows the name:

- a definition where the index points first (a page number set in bold, the convention for
  "defined here"; else the first page listed), typed by the entry's annotation ("(option)",
  "(package)", "(environment)") or its backslash (a command);
- a reference on each other page it lists.

Pages are the printed numbers the index gives; where the book's page numbers lie a few pages
off them (a front matter numbered with the body), the shift that places most entries is used.

An entry the index does not type that is also an English word or name ("root", "Isaac")
counts only where a page writes it as a key (``root=``, ``{root}``). The index's own letter
headings, dot leaders and page numbers are no names, nor is an entry
of one or two characters without a backslash or a kind (``s``, ``is``: a page's text cannot
show it apart from the words around it; ``\\a`` and "ae (package)" stay). An entry whose
name no listed page shows is left out (nothing is stored that the text does not bear out).
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from ...core.models import DocTerm, Section
from ...core.packs import genre_table
from .index_form import code_line_sections, is_index_section, says_code_lines, split_unmarked_index

# "name (kind) . . . . 12, **34**, 51–53" (a number set apart from its comma, "1 , 4": an underlined
# code line is a run of its own); a column break may fall between name and leader;
# a name set in bold ends its bold before its kind ("**solution** (environment)"), or a kind
# and its leaders are set in bold ("frobwidth **(option) . . . 31**")
_ENTRY = re.compile(
    r"(?P<name>\\[A-Za-z@]+(?:\*(?!\*))?|[A-Za-z][\w@+-]*(?:[-.][\w@+]+)*(?:\*(?!\*))?)"
    r"(?:\s*\**\s*\((?P<kind>[A-Za-z][\w. ]{1,24})\))?"
    r"(?:[\s|*]*(?:\.[\s|]*){2,}|[\s|*]*,[\s|]*|[\s|]+)"
    r"(?P<pages>(?:\**\d{1,4}(?:\s*[\u2013-]\s*\d{1,4})?\**(?:\s*,\s*)?)+)")
_PAGE = re.compile(r"(\*\*)?(\d{1,4})")  # a page set in bold (an italic one is no definition)
_ITALIC = re.compile(r"(?<!\*)\*(\d{1,4})\*(?!\*)")
# an index set whole in bold (every line "**name, 12**") marks nothing: its stars go
_EMPHASIS = re.compile(r"(?m)^\*\*(?=[^*\n]*\*\*\s*$)|(?<=\S)\*\*\s*$")
_KINDS = genre_table("documentation", "back_index_kinds")

RULE = "back_index"  # the rule an entry of the back index is stored under (extract/marks.py)


def is_back_index(section: Section) -> bool:
    """Whether a section is (part of) a back-of-book index (index_form.py)."""
    return is_index_section(section)


def index_entries(text: str) -> list[tuple[str, str, list[int], list[int]]]:
    """(name, kind, numbers, bold numbers, italic numbers) of each name of an index's text, in
    order; a name listed twice (under two headings) has both lists' numbers and the kind one
    of them gives."""
    merged: dict[tuple[str, str], tuple[list[int], list[int], list[int]]] = {}
    for name, kind, pages, bold, italic in _entries(text):
        # "babel (option)" and "babel (package)" are two entries; a plain "babel" joins either
        key = next((k for k in merged if k[0] == name and "other" in (k[1], kind)), (name, kind))
        if key[1] == "other" and kind != "other":
            merged[(name, kind)] = merged.pop(key)
            key = (name, kind)
        known = merged.get(key, ([], [], []))
        merged[key] = (known[0] + pages, known[1] + bold, known[2] + italic)
    return [(name, kind, *numbers) for (name, kind), numbers in merged.items()]


def _entries(text: str):
    out = []
    for match in _ENTRY.finditer(text):
        name = match.group("name")
        annotation = (match.group("kind") or "").strip().casefold()
        kind = _KINDS.get(annotation) or ("command" if name.startswith("\\") else "other")
        pages, bold = [], []
        for stars, number in _PAGE.findall(match.group("pages")):
            pages.append(int(number))
            if stars:
                bold.append(int(number))
        italic = [int(n) for n in _ITALIC.findall(match.group("pages"))]
        out.append((name, kind, pages, bold, italic))
    return out


def _as_code(section: Section, name: str) -> bool:
    """Whether the text writes ``name`` as a key or a value of one (``name=``, ``{name}``,
    ``[name]``, ``name,`` in a key list), not only as a word of its prose."""
    escaped = re.escape(name)
    return re.search(rf"(?<![\w\\]){escaped}\s*=|[{{\[]\s*{escaped}\s*[}},\]=]|,\s*{escaped}\s*[}}\]]",
                     section.text) is not None


@lru_cache(maxsize=8192)
def _english_word(name: str) -> bool:
    from wordfreq import zipf_frequency

    return name.isalpha() and zipf_frequency(name.lower(), "en") >= 3.0


_WORD_RUN = re.compile(r"(\\?)([\w-]+)")  # a word, and the backslash that makes it a command
_ONE_WORD = re.compile(r"[\w-]+")
_COMMAND_RUN = re.compile(r"\\[A-Za-z@]+")


class _Shown:
    """Whether a section's text shows a name whole: a TeX command not followed by more of its
    letters, a word not inside a longer name (nor after a backslash). A whole manual asks
    thousands of entries of thousands of sections: a one-word name or one command is looked
    up in the section's words and commands, read once; any other name is a substring test,
    then its pattern."""

    def __init__(self, sections: tuple[Section, ...]) -> None:
        self.sections = sections
        self.tokens: dict[int, tuple[frozenset[str], frozenset[str]]] = {}

    def _tokens(self, i: int) -> tuple[frozenset[str], frozenset[str]]:
        """Section ``i``'s words (not after a backslash) and its TeX commands, read once."""
        if i not in self.tokens:
            text = self.sections[i].text
            self.tokens[i] = (frozenset(m.group(2) for m in _WORD_RUN.finditer(text) if not m.group(1)),
                              frozenset(_COMMAND_RUN.findall(text)))
        return self.tokens[i]

    def of(self, name: str):
        """A test of a section index for ``name``."""
        if _ONE_WORD.fullmatch(name):
            return lambda i: name in self._tokens(i)[0]
        if _COMMAND_RUN.fullmatch(name):
            return lambda i: name in self._tokens(i)[1]
        if name.startswith("\\"):
            pattern = re.compile(re.escape(name) + r"(?![A-Za-z@])")
        else:
            pattern = re.compile(r"(?<![\w\\-])" + re.escape(name) + r"(?![\w-])")
        return lambda i: name in self.sections[i].text and pattern.search(self.sections[i].text) is not None


def _page_shift(entries, shown_in: dict[str, list[int]], sections: tuple[Section, ...], most: int = 6) -> int:
    """How far the book's page numbers lie from the printed ones the index gives (a front
    matter the page labels do not number apart): the shift that puts the most entries on a
    page whose text shows them, 0 on a tie."""
    def placed(shift: int) -> int:
        return sum(any(sections[i].pages[0] <= p + shift <= sections[i].pages[1] for i in shown_in[name] for p in pages)
                   for name, _, pages, *_ in entries)

    scores = {shift: placed(shift) for shift in range(-most, most + 1)}
    best = max(scores.values(), default=0)
    return min((s for s, v in scores.items() if v == best), key=abs, default=0)


# a name the index sets in math is in italics, its backslash alone ("*\\*frobnorm") or whole
# ("*frobdist*"); an italic number is a page's mark (``_ITALIC``) and keeps its stars
_MATH_BACKSLASH = re.compile(r"(?<![*\w\\])\*\\\*(?=[A-Za-z@])")
_MATH_NAME = re.compile(r"(?<![*\w\\])\*(\\?[A-Za-z@][\w@-]*)\*(?![*\w])")


def _index_text(text: str) -> str:
    # code marks say nothing in an index (a manual may set it whole, leaders too, in code font)
    text = _MATH_NAME.sub(r"\1", _MATH_BACKSLASH.sub(r"\\", text.replace("`", "")))
    return _EMPHASIS.sub("", text)


def with_back_index(sections: tuple[Section, ...]) -> tuple[Section, ...]:
    """``sections`` (a paged book's) with their back index's entries as terms and links."""
    sections = split_unmarked_index(sections, lambda text: len(index_entries(_index_text(text))))
    index = [s for s in sections if is_back_index(s)]
    body = [i for i, s in enumerate(sections) if s.pages and not is_back_index(s)]
    if not index or not body:
        return sections
    text = _index_text("\n".join(s.text for s in index))
    # \c stays, and so does a short name the index types ("ae (package)", "bm (option)")
    entries = [e for e in index_entries(text) if len(e[0]) > 2 or e[0].startswith("\\") or e[1] != "other"]
    shown_in, shown = {}, _Shown(sections)
    for name, kind, *_ in entries:
        # an entry the index does not type that is also an English word or name ("root",
        # "Isaac", "label") counts where the text writes it as a key, not as a word of prose
        wordlike = kind == "other" and _english_word(name)
        shows = shown.of(name)
        shown_in[name] = [i for i in body if shows(i) and (not wordlike or _as_code(sections[i], name))]
    written = {}  # a command entry the text writes bare, as code only: its written name
    for name, *_ in entries:
        if name.startswith("\\") and not shown_in[name]:
            written[name], shown_in[name] = _written_bare(name, sections, body)
    last_page = max(s.pages[1] for s in sections if s.pages)
    numbers = [n for entry in entries for n in entry[2]]
    # numbers past the book's last page are no pages, whether or not the index says so
    if says_code_lines(text) or sum(n > last_page for n in numbers) > 0.3 * len(numbers):
        places = _code_line_places(entries, shown_in, code_line_sections(sections, body), sections)
    else:
        places = _page_places(entries, shown_in, sections)
    terms: dict[int, list[DocTerm]] = {}
    links: dict[int, list[tuple[str, str, str]]] = {}
    for name, kind, *_ in entries:
        first, others = places.get((name, kind), (None, []))
        if first is None:
            continue
        key = f"#index:{name}:{kind}"
        shown = written.get(name, name)
        term = (DocTerm(shown, "other", aliases=(name,), target=key, rule=RULE) if shown != name
                else DocTerm(name, kind, target=key, rule=RULE))
        terms.setdefault(first, []).append(term)
        for where in others:
            if (shown, shown, key) not in links.get(where, []):
                links.setdefault(where, []).append((shown, shown, key))
    return tuple(replace(s, terms=s.terms + tuple(terms.get(i, ())), links=s.links + tuple(links.get(i, ())))
                 for i, s in enumerate(sections))


def _written_bare(name: str, sections: tuple[Section, ...], body: list[int]) -> tuple[str, list[int]]:
    """A command entry no section shows with its backslash (a ``doc`` index prints every name it
    describes so: a TikZ key or a counter as ``\\layerwidth``): its bare name, and the sections
    that write that as code (in code font, ``layerwidth=``, ``{kvtRow}``, ``/tikz/layerwidth}``);
    none when the bare name is no identifier of three characters or more."""
    bare = name[1:]
    if not re.fullmatch(r"[A-Za-z@]{3,}", bare):
        return bare, []
    escaped = re.escape(bare)
    code = re.compile(rf"`{escaped}`|(?<![\w\\@]){escaped}\s*=|[{{/]\s*{escaped}\s*[}}=,]")
    return bare, [i for i in body if code.search(sections[i].text)]


def _page_places(entries, shown_in: dict[str, list[int]], sections: tuple[Section, ...]) -> dict:
    """(name, kind) -> (the section it is defined in, the sections that reference it), by the pages
    the index lists: defined where it points first (a bold page, else the first listed)."""
    shift = _page_shift(entries, shown_in, sections)
    out = {}
    for name, kind, pages, bold, *_ in entries:
        showing = {p: [i for i in shown_in[name] if sections[i].pages[0] <= p + shift <= sections[i].pages[1]]
                   for p in pages}
        first = next((showing[p][0] for p in bold + pages if showing.get(p)), None)
        if first is None:
            continue
        others = [next((i for i in showing[p] if i != first), None) for p in pages]
        out[(name, kind)] = (first, [i for i in others if i is not None])
    return out


def _code_line_places(entries, shown_in: dict[str, list[int]], line_sections: dict[int, int],
                      sections: tuple[Section, ...]) -> dict:
    """(name, kind) -> (defined in, referenced in) in an index of code lines (a documented ``.dtx``):
    its italic numbers are pages (where the entry is described), the others code lines, each
    in the section whose listing prints it; where neither is found the index gives the name
    only: it is defined in the first section that shows it."""
    described = [(name, kind, italic, [], italic) for name, kind, _, _, italic in entries if italic]
    by_page = _page_places(described, shown_in, sections) if described else {}
    out = {}
    for name, kind, numbers, _, italic in entries:
        hits = list(dict.fromkeys(line_sections[n] for n in numbers if n not in italic
                                  and n in line_sections and line_sections[n] in shown_in[name]))
        if (name, kind) in by_page:
            first, others = by_page[(name, kind)]
            out[(name, kind)] = (first, list(dict.fromkeys(i for i in [*others, *hits] if i != first)))
        elif hits:
            out[(name, kind)] = (hits[0], hits[1:])
        elif shown_in[name]:
            out[(name, kind)] = (shown_in[name][0], [])
    return out
