"""The entries of a reference section: code runs that open its paragraphs or table rows. Pure.

A command reference, an options list or a table of keys is a section whose body is mostly
entries that each open with the thing they document in code font (Markdown's backticks,
which HTML's ``<code>`` becomes): "`\\definecolor` defines a colour", "| `width` | the
width |", "- `--all`: show all". In such a section (at least ``MIN_ENTRIES`` blocks, most of
them opening with a code run) each opening run is a term the section defines, typed by what
it looks like (a leading backslash: a command; a leading dash: an option) else by the
heading it is filed under ("Keys", "Options"). A section where code runs open only a few
paragraphs is prose that quotes code: it defines nothing this way, nor does an entry that
is a bare name (a contents tree), an expression ("x + y") or a symbol ("<="), nor a run
that opens several rows of one table (a column of values: a return type), nor a change log's
entry ("Change History": it names what changed). A doc set
(readers/docset/) is not read this way: its markup states its entries (read_book).

A printed guide with no back index (a class guide) states its commands in two more forms,
read in any section (``described_commands``): a description whose label is set in the margin
(the reader prints it as a cell before the text: "`\\cardfrontstyle` | The style of the
front..."), and a declaration line set whole as a command and its placeholder arguments in
italics ("`\\meta{` *<placeholder>* `}`") with its description after it. A usage example
(concrete arguments, or no description after it) defines nothing. Where the book has a back
index, the index is the author's list (readers/passes/printed_index.py) and these are not read.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from ...core.models import DocTerm, Section
from ...core.normalize import normalized_words
from ...core.packs import genre_list
from ..docset.terms import MAX_TERM, heading_kind, option_names
from .index_form import heading_words
from .printed_index import is_back_index

MIN_ENTRIES = 3
# a change log's entries open with what changed ("`\\del`: `\\bf` replaced"): they define nothing
_CHANGE_LOGS = {normalized_words(t) for t in genre_list("documentation", "change_log_titles")}
# a block's opening code run, past a list marker, a table cell's bar or an emphasis mark
_OPENING_RUN = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s+|\|\s*)?[*_]{0,2}`([^`\n]+)`")
_TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}")
_CALL = re.compile(r"^([A-Za-z_][\w.]*)\(.*\)$")
_COMMAND = re.compile(r"^\\(?:[A-Za-z@]+\*?|.)")
_ENVIRONMENT = re.compile(r"^\\begin\{([^{}\s]+)\}")  # "\begin{name}...": the environment it opens
_KEY_VALUE = re.compile(r"^([^\W\d_][\w-]*)=")  # "width=<length>": the key
_FENCE = re.compile(r"^\s*(```|~~~)")
_ALL_CODE = re.compile(r"`[^`\n]*`")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")
# a margin label in code font before its description's text: "`\\name` | The style of..."
_MARGIN_LABEL = re.compile(r"^\s*`([^`\s|]+)`\s*\|\s*(?=[*_]{0,2}[A-Za-z])")
# a declaration line: a command, then only code runs and placeholders in italics
_DECLARATION = re.compile(r"^\s*`(\\[A-Za-z@]+\*?)[^`\n]*`(?:\s*(?:`[^`\n]*`|\*[^*\n]+\*))*\s*$")
_PLACEHOLDER = re.compile(r"(?<!\*)\*[^*\n]+\*(?!\*)")


def _blocks(body: str, lines_are_paragraphs: bool = False) -> list[str]:
    """A section body's entries: its paragraphs and top-level list items (their first line),
    and its tables' body rows; fenced code and a table's header row are left out. Where
    ``lines_are_paragraphs`` (a PDF's text: the reader joins a paragraph's printed lines into
    one and sets no blank line between paragraphs) each line is a paragraph, and a line set
    whole in code font is a line of a code example, left out as fenced code is."""
    blocks: list[str] = []
    fenced = False
    lines = body.split("\n")
    for i, line in enumerate(lines):
        following = lines[i + 1] if i + 1 < len(lines) else ""
        if _FENCE.match(line):
            fenced = not fenced
        elif fenced or not line.strip() or line.lstrip().startswith("#"):
            continue
        elif line.lstrip().startswith("|"):
            # a header row is the one the separator row follows
            if not _TABLE_SEPARATOR.match(line) and not _TABLE_SEPARATOR.match(following):
                blocks.append(line)
        elif _LIST_ITEM.match(line):
            if not line[:1].isspace():  # a nested item is part of its parent entry (a contents tree's branch)
                blocks.append(line)
        elif lines_are_paragraphs:
            if _ALL_CODE.sub("", line).strip(" |"):  # a line set whole in code font is an example's
                blocks.append(line)
        elif i == 0 or not lines[i - 1].strip():
            blocks.append(line)
    return blocks


def _term(run: str, heading: str | None) -> DocTerm | None:
    run = " ".join(run.split())
    if not run or len(run) > MAX_TERM:
        return None
    options = option_names(run)
    if options:
        return DocTerm(options[0], "option", aliases=tuple(options[1:]))
    if " " in run or not re.search(r"[^\W\d_]", run):
        return None  # an expression ("x + y") or a symbol ("<="): no name
    call = _CALL.match(run)
    if call:
        return DocTerm(call.group(1), "function")
    environment = _ENVIRONMENT.match(run)
    if environment:
        return DocTerm(environment.group(1), "environment")
    command = _COMMAND.match(run)
    if command and len(command.group(0)) == 2 and run[2:3].isalpha():
        return None  # a control symbol glued to a word (a line break before "color@x"): no one name
    if command and command.group(0) == "\\end":
        return None  # an environment's end: its \\begin names what it is
    if command:  # "\\definecolor{name}{model}": the command, its arguments left out
        return DocTerm(command.group(0), "command")
    key = _KEY_VALUE.match(run)
    if key:
        return DocTerm(key.group(1), "key")
    return DocTerm(run, heading_kind(heading))


def _declares(line: str) -> bool:
    """Whether ``line`` is a declaration: a command and its placeholders, nothing else."""
    return _DECLARATION.match(line) is not None and _PLACEHOLDER.search(line) is not None


def described_commands(section: Section) -> list[DocTerm]:
    """The names a printed guide's section describes in its margin labels and declaration
    lines (the module doc): declarations one under another share the description after them;
    a line set whole in code after them makes them an example."""
    lines = [line for line in section.text.split("\n") if line.strip()]
    found: list[DocTerm] = []
    for i, line in enumerate(lines):
        label = _MARGIN_LABEL.match(line)
        if label:
            found.append(_term(label.group(1), section.heading))
            continue
        if not _declares(line):
            continue
        following = next((x for x in lines[i + 1:] if not _declares(x)), "")
        if _ALL_CODE.sub("", following).strip(" |*"):
            found.extend(DocTerm(c, "command") for c in re.findall(r"`(\\[A-Za-z@]+\*?)", line))
    named = {t.name: t for t in found if t is not None and t.name not in ("\\begin", "\\end")}
    return list(named.values())


def code_entries(section: Section, lines_are_paragraphs: bool = False) -> list[DocTerm]:
    """The terms a reference section's entries open with; [] for any other section."""
    body = section.text.partition("\n")[2] if section.heading else section.text
    blocks = _blocks(body, lines_are_paragraphs)
    opened = [(b, m) for b, m in ((b, _OPENING_RUN.match(b)) for b in blocks) if m]
    if len(opened) < MIN_ENTRIES or 2 * len(opened) <= len(blocks):
        return []
    # an entry describes what it opens with; a bare name is a list of names (a contents tree)
    runs = [" ".join(m.group(1).split()) for b, m in opened if re.search(r"[^\W\d_]", b[m.end():])]
    # a run opening two or more rows of a table is a column of values ("gboolean" beside each function)
    opening_rows = Counter(" ".join(m.group(1).split()) for b, m in opened if b.lstrip().startswith("|"))
    terms = (_term(run, section.heading) for run in runs if opening_rows[run] < 2)
    return list({t.name: t for t in terms if t is not None}.values())


def with_code_entries(sections: tuple[Section, ...], lines_are_paragraphs: bool = False) -> tuple[Section, ...]:
    """``sections`` with each reference section's code entries added to its terms (a term
    the section's markup already states is kept as it states it); ``lines_are_paragraphs``
    as in ``_blocks``."""
    return tuple(with_section_entries(section, lines_are_paragraphs) for section in sections)


def with_section_entries(section: Section, lines_are_paragraphs: bool = False) -> Section:
    """One section with its code entries added to its terms (``with_code_entries``)."""
    return _with_found(section, lambda: code_entries(section, lines_are_paragraphs))


def with_described_commands(section: Section) -> Section:
    """One section of a printed guide with no back index, with its described commands added to
    its terms (``described_commands``)."""
    return _with_found(section, lambda: described_commands(section))


def _with_found(section: Section, entries) -> Section:
    """``section`` with the terms ``entries()`` finds that its terms do not state already; an
    index or a change log as it is."""
    if is_back_index(section) or any(heading_words(h) in _CHANGE_LOGS for h in section.heading_path):
        return section  # an index's entries are read as the index they are (back_index)
    stated = {t.name for t in section.terms} | {a for t in section.terms for a in t.aliases}
    found = [t for t in entries() if t.name not in stated]
    return replace(section, terms=section.terms + tuple(found)) if found else section
