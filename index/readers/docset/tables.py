"""Entries a documentation page states in tables and in an options section's prose. Pure.

- A table filed under a label of an entry's description (a ``<dd>`` after "Parameters" or
  "Returns:") names the entry's parts, no things of their own: its rows define nothing, and
  neither does the label.
- A table row whose first cell is a documented name defines it: a code run (``<code>frob_open</code>``),
  a name that cannot be a word (``frob_write``, ``json.dump``, ``--all``, ``f()``), a
  function's signature (``frob_merge(a, b) → frob``, ``int frob_merge(int a)``), or one
  token in a column or section whose heading says what it holds ("Key", "Option",
  "Function"); and another cell describes it; a text that opens other rows of the table too
  is a column of values ("gboolean" beside each function), no name, and so is a version
  (a history table's ``v18.0.0``); a row each of whose cells
  is a link and nothing else (an index's "entry | section where it is") points at where a
  name is defined, and defines nothing itself. What its cells are decides, not
  the table's length: a table of plain words ("If", "To", "In") with no description
  defines nothing. The kind is the column's heading's, else the section heading's.
- In a section whose heading names options (or keys, settings, parameters), a ``key=value``
  term that opens a list item or a sentence (``width=N sets the width``) defines the key,
  an option.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from ...core.models import DocTerm
from ...core.packs import genre_words
from ..html_markdown import tag_of
from .terms import MAX_TERM, heading_kind, text_of

_CODE_TAGS = ("code", "tt", "kbd", "samp", "var")
# a name that cannot be an ordinary word: an identifier, a dotted or called name, an option, a TeX command
_NOT_A_WORD = re.compile(r"^(?:\\[A-Za-z@]+\*?|--?[A-Za-z][\w-]*|[A-Za-z_][\w]*(?:[._:][\w]+)+|[a-z]+[A-Z]\w*"
                         r"|[A-Za-z_][\w.:]*\(\))$")
_CALL = re.compile(r"^([A-Za-z_][\w.:]*)\s*\(.*\)$")
# a signature: a call's name and its parameters, after a return type or qualifiers ("static frob *")
# or before a return annotation ("frob_merge(a, b) → frob", "-> Frob", ": Frob")
_SIGNATURE = re.compile(r"^(?P<before>(?:[\w:<>\[\],]+\s*[*&]*\s+[*&]*){0,4})(?P<name>[A-Za-z_][\w.:]*)\s*"
                        r"\((?P<args>(?:[^()]|\([^()]*\))*)\)\s*(?:const\b\s*)?;?\s*"
                        r"(?P<after>(?:->|\u2192|=>|\u21d2|:)\s*\S.*)?$")
# a name written as code, not as a word: an underscore, a qualifier's dot or colons, an inner capital
_CODE_LIKE = re.compile(r"_|\w[.:]+\w|[a-z][A-Z]")
_TOKEN = re.compile(r"^[\w.:@-]+$")
_KEY_VALUE = re.compile(r"(?:^|(?<=[.!?;:]\s))\W{0,2}([A-Za-z][\w.-]*)=(?:\S)")
_VERSION = re.compile(r"^[vV]?\d+(?:\.\d+)+\w*$")  # a history table's "v18.0.0": a value, no name
MIN_DESCRIPTION_WORDS = 1
# what follows a member's linked name in its row: its arguments, and its qualifiers after them
_ARGUMENTS = re.compile(r"^\s*\(.*$")
_PLAIN_WORDS = re.compile(r"^[A-Za-z]+(?: [A-Za-z]+){0,3}$")  # a label's words ("Template Parameters")
_NAME_RUNS = ("a", "b", "strong", "code", "tt", "em")  # the runs a call's name is set apart in


def _cells(row) -> list:
    return [c for c in row if isinstance(c.tag, str) and c.tag.lower() in ("td", "th")]


def _is_code(cell, text: str) -> bool:
    runs = [e for e in cell.iter() if isinstance(e.tag, str) and e.tag.lower() in _CODE_TAGS]
    return bool(runs) and " ".join(text_of(r) for r in runs).strip() == text


def _only_links(cells: list) -> bool:
    """Every cell that shows text shows only the text of its links (an index row)."""
    shown = [c for c in cells if text_of(c)]
    return bool(shown) and all(
        " ".join(text_of(a) for a in c.iter("a") if a.get("href")).strip(" :") == text_of(c).strip(" :") for c in shown)


def _table_of(row):
    return next((a for a in row.iterancestors() if isinstance(a.tag, str) and a.tag.lower() == "table"), None)


@lru_cache(maxsize=4)
def _first_cells(table) -> Counter:
    """How many rows of ``table`` open with each text (a table's rows are asked in turn)."""
    return Counter(text_of(cells[0]) for r in table.iter("tr") if (cells := _cells(r)))


def _repeated_in_column(row, text: str) -> bool:
    """True when another row of the table opens with the same text: a column of values
    (a return type, "gboolean" beside each function of a summary table), not of names."""
    table = _table_of(row)
    return table is not None and _first_cells(table)[text] > 1


def _named_after(cells: list) -> bool:
    """Whether a row names its thing in its second cell: as the link that second cell opens
    with, nothing after it but the thing's arguments and qualifiers (``void | <a
    href="#a22">example</a> ()``, ``int | <a href="#a3">globVar</a>``, a member list's
    ``<a href="#t1">Mode</a> | <a href="#a7">get_mode</a> () const``, whose first cell may
    link the result's type where arguments follow the link), or as a call, its name set apart, the first cell linking nothing
    (``void | <b>member</b> ()``; never prose, "Surrogates (SG)"): the first cell is what
    the thing is or returns."""
    if _CALL.match(text_of(cells[0])):
        return False  # a first cell that is a call is the thing itself ("failIf(a) | assertFalse(a)"), no type
    link = next((a for a in cells[1].iter("a") if a.get("href")), None)
    shown, written = (text_of(link) if link is not None else ""), text_of(cells[1])
    after = written[len(shown):] if shown and written.startswith(shown) else None
    if after is not None and _ARGUMENTS.match(after):
        return True  # a member's link and its arguments, whatever the first cell links
    if any(a.get("href") for a in cells[0].iter("a")):
        return False  # "<a>Sized</a> | <a>Mapping</a>": a table of things and what they derive from
    if after == "":
        return True  # never a description opening with a link ("TRUE if ...")
    call = _CALL.match(written)
    return bool(call) and any(  # "void | <b>member</b> ()": a call, its name set apart, its result type before it
        text_of(e) == call.group(1) for e in cells[1].iterdescendants() if tag_of(e) in _NAME_RUNS)


def _anchored_here(row, cell, kind: str) -> DocTerm | None:
    """The name a row's link shows when the anchor it points at is in the row itself (a
    member documented by its summary row alone: ``<a id="a28"></a>double | <a
    href="#a28">DoubleValue</a> () const``); None when it points elsewhere (a reference)."""
    link = next((a for a in cell.iter("a") if a.get("href")), None)
    fragment = (link.get("href") or "").partition("#")[2] if link is not None else ""
    own = {e.get("id") or e.get("name") for e in row.iter() if isinstance(e.tag, str)} - {None}
    if not fragment or fragment not in own:
        return None
    return DocTerm(text_of(link), "function" if kind == "other" and _ARGUMENTS.match(
        text_of(cell)[len(text_of(link)):]) else kind if kind != "other" else "entry", target=fragment)


def is_label(term) -> bool:
    """Whether a definition term is a label an entry's description files its parts under
    ("Parameters", "Returns:", "Deprecated:", "Since 2.4:"), not a thing: a term that ends
    with a colon, or plain words with no run set as code; never an anchored term, a thing the
    authors link to (a directive's ``asserts``, its option ``:caption:``)."""
    text = text_of(term).strip()
    if term.get("id") or any(e.get("id") or e.get("name") for e in term.iterdescendants()):
        return False
    return text.endswith(":") or bool(_PLAIN_WORDS.match(text)) and not any(
        tag_of(e) in _CODE_TAGS for e in term.iterdescendants())


def _parts_of_an_entry(row) -> bool:
    """Whether a row's table is filed under a label in an entry's description (a ``<dd>``
    after "Parameters"): each row names a part of that entry (an argument), no thing of its own."""
    description = next((a for a in row.iterancestors() if tag_of(a) == "dd"), None)
    if description is None:
        return False
    term = description.getprevious()
    while term is not None and tag_of(term) != "dt":
        term = term.getprevious()
    return term is not None and is_label(term)


def _column_heading(row) -> str:
    """The first column's header cell (a ``<th>`` in the table's first row), or ""."""
    table = _table_of(row)
    if table is None:
        return ""
    first = next((r for r in table.iter("tr")), None)
    cells = _cells(first) if first is not None else []
    return text_of(cells[0]) if cells and cells[0].tag.lower() == "th" else ""


def row_term(row, heading: str | None) -> DocTerm | None:
    """The name a table row defines (module doc), or None."""
    cells = _cells(row)
    if len(cells) < 2 or cells[0].tag.lower() == "th" or _only_links(cells) or _parts_of_an_entry(row):
        return None
    text = text_of(cells[0])
    column = heading_kind(_column_heading(row))
    kind = column if column != "other" else heading_kind(heading)
    if _named_after(cells):  # "void | <a>example</a> ()": the first cell is the type of what the second names
        call = _CALL.match(text_of(cells[1]))
        if call and not any(a.get("href") for a in cells[1].iter("a")):  # "void | <b>func</b> ()": no anchor names it
            return DocTerm(call.group(1), "function" if kind == "other" else kind, target=row.get("id") or "")
        return _anchored_here(row, cells[1], kind)
    described = sum(len(text_of(c).split()) for c in cells[1:]) >= MIN_DESCRIPTION_WORDS
    if not text or len(text) > MAX_TERM or not described or _repeated_in_column(row, text) or _VERSION.match(text):
        return None
    call = _CALL.match(text)
    if call:
        return DocTerm(call.group(1), "function" if kind == "other" else kind, target=row.get("id") or "")
    code = _is_code(cells[0], text)
    name = signature_name(text, code)
    if name:
        return DocTerm(name, "function" if kind == "other" else kind, target=cells[0].get("id") or row.get("id") or "")
    if not (code or _NOT_A_WORD.match(text) or (kind != "other" and _TOKEN.match(text))):
        return None
    if code and (" " in text and not text.startswith("-")):
        return None  # an example in code ("x = 1"), not a name
    name = text.split()[0] if text.startswith("-") else text
    return DocTerm(name, kind if kind != "other" else "entry", target=cells[0].get("id") or row.get("id") or "")


def signature_name(text: str, code: bool) -> str | None:
    """The function a signature names ("frob_merge(a, b) → frob", "static int frob_merge(int a)"),
    when a return type or annotation goes with the call and the text is set as code or its
    name is written as code (``frob_merge``, ``Spool.wind``, ``spoolWind``); else None (prose
    such as "See the manual (chapter 3)" names no function, nor does a constructor whose
    parentheses hold a function type, "Some Text Bytes (Bytes -> Decoding)")."""
    found = _SIGNATURE.match(text)
    if found is None or not (found.group("before") or found.group("after")):
        return None
    name = found.group("name")
    if re.search(r"->|\u2192", found.group("args")) or re.search(r"(?:^|\W)operator$", name):
        return None  # a type in parentheses (a constructor's field "(Text -> Text)"), an operator's elided call
    return name if code or _CODE_LIKE.search(name) else None


def option_leads(element, heading: str | None) -> list[DocTerm]:
    """The keys ``key=value`` terms define where they open a list item or a sentence of an
    options section (module doc)."""
    kind = heading_kind(heading)
    if kind not in genre_words("documentation", "option_section_kinds"):
        return []
    text = text_of(element)
    return [DocTerm(m.group(1), "option", target=element.get("id") or "")
            for m in _KEY_VALUE.finditer(text) if len(m.group(1)) > 1]
