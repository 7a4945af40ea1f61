"""Anchors are the authors' inventory: the name an element's id spells in its text. Pure.

Authors put an anchor on every thing they document (an element's ``id``, HTML 4's ``<a
name>``) and spell it after the thing: ``<h4 id="blend-2">blend(a, b) → mix</h4>``, ``<a
id="v:insert">insert</a>``, ``<a name="knob_spool_depth"></a><h3>KNOB spool_depth</h3>``.
An id spells a text when both read alike after folding, no generator's convention named:

- case, and every separator (``-``, ``_``, ``.``, ``::``, ``/``, spaces, punctuation);
- an arity or overload suffix of the id (``blend-2``, ``blend/2``, ``blend(int)``,
  ``map[B](f)``), and the arguments of the text (``blend(a, b)``: ``blend``);
- escapes of punctuation as codes (``_005f`` for ``_``, ``-3F`` for ``?``, ``%3C``, ``-35-``
  for ``#``): any marker, the code's two or four hex digits (or decimal ones between dashes),
  a punctuation character;
- a prefix the page's own ids share (``v:``, ``method.``, ``knob_``): learnt from the page
  (``learnt_prefixes``), never listed.

An id spelled nowhere in its text (``#id17``, ``#section-3``, a hash) names no thing here.
What an anchored element's text shows around the name (``KNOB``, ``Class:``, ``→ mix``) is
kept for its shape (readers/docset/sibling_runs.py); whether the name is one is decided
there and in readers/docset/anchor_terms.py.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from urllib.parse import unquote

from ..html_markdown import HEADINGS, kept_elements, tag_of
from ..inventories.heading_names import heading_names
from .terms import MAX_TERM

SEPARATORS = "-_.:/"
MIN_PREFIXED = 2         # ids sharing a prefix for it to be the page's own
MAX_WORDS = 6            # words of a name at most
MAX_SCANNED = 14         # words of an element's text a name is looked for in
MARKED_WORDS = 40        # words after an empty anchor a name is looked for in
MARKED_BLOCKS = 3        # blocks after an empty anchor a name is looked for in
_CODE_TAGS = ("code", "tt", "kbd", "samp", "var")
_CONTAINERS = ("section", "div", "article", "li", "details", "aside", "tr", "tbody", "table", "dl", "header",
               "summary", "main", "figure", "ul", "ol")
_BLOCKS = ("p", "dt", "dd", "li", "td", "th", "pre", "div", "section", "article", "blockquote", "caption",
           "summary", *HEADINGS)
_ESCAPE = re.compile(r"[-_.%:]?([0-9A-Fa-f]{4}|[0-9A-Fa-f]{2})")
_DECIMAL_ESCAPE = re.compile(r"-(\d{2,3})-")  # a code in decimal between two dashes ("-35-": "#")
# what follows the thing's name in an id: an arity ("-2", "/2", ".1"), an overload's
# parameters ("(int)", "[B](f:A=>B)", "<T>") or a type after a name of two letters or more
# ("size:Int"; never a prefix's colon, "v:")
_SUFFIX = re.compile(r"(?:[-_./]\d{1,2}|[(\[<].*|(?<=\w\w):(?!:).*)$")
# a name that only counts places: a word, a separator and a number ("Section 3", "section-3")
_PARAMETERS = re.compile(r"\w[(\[].*[)\]]$")
_ORDINAL = re.compile(r"^[^\W\d_]*[-_. :]\d+$")  # one word (letters), then its number
_VERSION = re.compile(r"^[vV]?\d+(?:\.\d+)+\w*$")
_MARKED = re.compile(r"[_:.()<>!#=@*/]|[a-z][A-Z]|^-")  # a mark of code in one token (``repr(C)``)
_TYPE_PARAMETERS = re.compile(r"(?<=\w)\[[^\[\]]*\]$")  # "isInstanceOf[T0]": the name less its type parameters
_CALLED_TYPE_PARAMETERS = re.compile(r"(?<=\w)\[[^\[\]]+\]$")  # "map[B]" of "map[B](f)", never "operator[]"
_LABEL = re.compile(r"[A-Za-z][A-Za-z ]*")  # a label's words before its colon ("Static method")
_DEFAULT = re.compile(r"^([A-Za-z_][\w.]*)=[\w.'\"-]+$")  # an argument and its default value
_QUALIFIER = re.compile(r"::|(?<=\w)\.(?=[A-Za-z_])")  # between an owner and its member's name
_QUOTES = "'\"`\u2018\u2019\u201c\u201d"


@dataclass(frozen=True)
class Anchored:
    """What one anchor names: its id, the name its element's text spells (as written, less
    its arguments), whether the page sets it as code, and the text around it."""

    ident: str
    name: str
    place: tuple[str, ...]   # where the element that shows the name stands (sibling_runs.place)
    line: str                # the element's text (or its line of a preformatted block)
    code: bool               # set as code: <code>, <tt>, <kbd>, <samp>, <var>, <pre>, a signature's id
    prefix: str = ""         # the prefix its page's ids share that the id spells the name after
    element: int = 0         # which element of the page shows the name (two ids on one heading)
    linked_away: bool = False  # the name is a link to another thing (``impl <a>Debug</a>``)
    wraps: bool = False      # the anchor's own element is the name, outside any heading (``<a id="v:Node">Node</a>``)
    by_links: bool = False   # named by the page's links to the anchor, not by its id
    slug: bool = False       # the whole id spells the whole text: a heading's slug, if in words
    also: tuple[str, ...] = ()  # the other names a heading's code lead gives (``-h``/``--help``: ``--help``)
    marks: bool = False      # an empty marker (no text of its own) naming a term of the text after it


def skeleton(text: str) -> str:
    """``text``'s letters and digits, case-folded: what an id and its text share."""
    return "".join(c for c in text.casefold() if c.isalnum())


def learnt_prefixes(ids) -> tuple[str, ...]:
    """The prefixes (ending in a separator) that ``MIN_PREFIXED`` or more of a page's ids
    share before more of their own (``v:`` of ``v:insert``, ``method.`` of ``method.new``),
    shortest first (``method.`` before ``method.from_``: a prefix never cuts a name)."""
    counts: Counter = Counter()
    for ident in set(ids):
        counts.update(_prefixes_of(ident))
    return tuple(sorted((p for p, n in counts.items() if n >= MIN_PREFIXED), key=len))


_ID_ATTRIBUTE = re.compile(rb"""\s(?:id|name)\s*=\s*["']([^"'<>]{1,200})["']""")


_COUNTER = re.compile(r"^(.*[^-_./])[-_.](\d{1,2})$")  # an id, then a separator and a count ("cflags-2")


def repeated_ids(ids) -> dict[str, str]:
    """id -> the id it repeats, for each of a page's ids that is another of its ids and then
    a count (``index-cflags-2`` beside ``index-cflags``: the same term anchored again, its
    count no part of the name)."""
    known = set(ids)
    out = {}
    for ident in known:
        found = _COUNTER.match(ident)
        if found and found.group(1) in known:
            out[ident] = found.group(1)
    return out


def set_prefixes(pages) -> tuple[str, ...]:
    """The prefixes a doc set's ids share across its pages (``pages``: a sample of their
    bytes): ``MIN_PREFIXED`` ids or more, on two pages or more (``method-c-`` of one class
    method a page), shortest first."""
    ids: dict[str, int] = {}
    for data in pages:
        if isinstance(data, bytes):
            for ident in {m.decode("utf-8", "replace") for m in _ID_ATTRIBUTE.findall(data)}:
                ids[ident] = ids.get(ident, 0) + 1
    counts: Counter = Counter()
    pages_of: Counter = Counter()
    for ident, found_on in ids.items():
        for prefix in _prefixes_of(ident):
            counts[prefix] += 1
            pages_of[prefix] += found_on
    return tuple(sorted((p for p, n in counts.items() if n >= MIN_PREFIXED and pages_of[p] >= 2), key=len))


def _prefixes_of(ident: str) -> set[str]:
    """The prefixes of an id that end at a separator (``v:`` of ``v:insert``)."""
    return {ident[:at + 1] for at, char in enumerate(ident[:-1]) if char in SEPARATORS and at > 0}


def _unescaped(ident: str) -> str:
    """``ident`` with each hex escape of a punctuation character decoded (``_005f``: ``_``)."""
    def decode(match: re.Match) -> str:
        char = chr(int(match.group(1), 16))
        return char if char.isascii() and not char.isalnum() and char.isprintable() else match.group(0)

    def decimal(match: re.Match) -> str:
        char = chr(int(match.group(1)))
        return char if char.isascii() and not char.isalnum() and char.isprintable() else match.group(0)

    return _ESCAPE.sub(decode, _DECIMAL_ESCAPE.sub(decimal, ident))


def id_forms(ident: str, prefixes: tuple[str, ...]) -> list[tuple[str, str]]:
    """The skeletons ``ident`` may spell a name by (module doc), each with the learnt prefix
    taken off ("" for none), in the order they are tried: whole ids before those less an
    arity or overload suffix, each with its learnt prefix off first."""
    bare = [(ident[len(p):], p) for p in prefixes if ident.startswith(p) and len(ident) > len(p)]
    out: dict[str, str] = {}
    for cut in (False, True):
        for form, prefixed in [*bare, (ident, "")]:
            for variant in (form, _unescaped(form)):
                key = skeleton(_SUFFIX.sub("", variant) if cut else variant)
                if key and not key.isdigit():
                    out.setdefault(key, prefixed)
    return list(out.items())


def called_id(ident: str) -> bool:
    """An id that spells a signature: a name, then its parameters (``max(int,int)``,
    ``map[B](f:A=>B)``)."""
    return bool(_PARAMETERS.search(ident))


def is_ordinal(name: str) -> bool:
    """A name that counts places (``section-3``, "Chapter 3") rather than naming a thing, or
    that has no letter."""
    return bool(_ORDINAL.match(name) or _VERSION.match(name)) or not any(c.isalpha() for c in name)


def place(element) -> tuple[str, ...]:
    """An element's place on its page: its tag and classes, and its ancestors' (no id)."""
    steps = []
    node = element
    while node is not None and tag_of(node) not in ("body", "html"):
        classes = " ".join(sorted((node.get("class") or "").split()))
        steps.append(f"{tag_of(node)}.{classes}" if classes else str(tag_of(node)))
        node = node.getparent()
    return tuple(reversed(steps))


def _without_arguments(text: str) -> str:
    """A name less its arguments and what follows them (``blend(a, b) → mix``: ``blend``)."""
    head = text.split("(", 1)[0] if "(" in text[1:] else text
    return head.strip().rstrip(",;:").strip()


def _spans(words: list[str]):
    """Each run of up to ``MAX_WORDS`` consecutive words, shortest first."""
    for size in range(1, MAX_WORDS + 1):
        for start in range(0, len(words) - size + 1):
            yield " ".join(words[start:start + size])


def spelled_name(text: str, forms: list[tuple[str, str]], runs: list[str] = (),
                 words: int = MAX_SCANNED, ident: str = "") -> tuple[str, str] | None:
    """(name, prefix) that one of ``forms`` (``id_forms`` of ``ident``, tried in order)
    spells in ``text``: a code run of the element first (``runs``), else the shortest run of
    its first ``words`` words, each with and without its arguments; None when no form does."""
    shown: dict[str, str] = {}
    for candidate in [*runs, *_spans(text.split()[:words]), text]:
        bare = _without_arguments(candidate)
        for form in (candidate.strip("[]{}();,") or candidate, candidate, bare, _QUALIFIER.split(bare)[-1]):
            if len(form) <= MAX_TERM and _balanced(form):  # "Any): Boolean" straddles a signature
                shown.setdefault(skeleton(form), form)
    for key, prefixed in forms:
        name = _cleaned(_without_arguments(shown[key]), "(" in shown[key], ident) if key in shown else ""
        if name and _plausible(name):
            return name, prefixed
    return None


def _balanced(text: str) -> bool:
    return all(text.count(a) == text.count(b) for a, b in ("()", "[]", "{}"))


def _plausible(name: str) -> bool:
    """A name, not a piece of a list or of an argument list (no comma, brackets balanced)
    nor a result type after its colon (``: AnyRef``)."""
    if "," in name or name[0] in "([{)]}" or name.startswith(": "):
        return False
    return _balanced(name)


def _unmarked(name: str) -> str:
    """A name less the symbols a page marks it with that no code spells (a permalink's
    "◆", "¶", "§" glued to it)."""
    start, end = 0, len(name)
    while start < end and not name[start].isascii() and unicodedata.category(name[start])[0] in "SP":
        start += 1
    while end > start and not name[end - 1].isascii() and unicodedata.category(name[end - 1])[0] in "SP":
        end -= 1
    return name[start:end].strip()


def _cleaned(name: str, called: bool = False, ident: str = "") -> str:
    """A name as shown, less the punctuation around it that is no part of it (a label's
    colon, a trailing comma) and the keywords before a code name (``new Agent``, "Class:
    FileHandle": ``Agent``, ``FileHandle``), unless the id spells them too (``set -e`` of
    ``index-set-_002de``); quotes and brackets around the whole stay
    (``'close'``, ``<Zone>``). A word before a colon that the id ``ident`` writes before its
    own colon is the name, not a label (``debugLevel: Int`` of ``debugLevel:Int``)."""
    name = _unmarked(name.strip().rstrip(",;.").strip())
    label = name.partition(": ")[0]
    if ": " in name and _LABEL.fullmatch(label) and f"{label}:" not in ident:  # "Class: FileHandle": the label goes
        name = name.rpartition(": ")[2]
    elif ": " in name and not name.startswith(":"):  # "isInstanceOf[T0]: Boolean": its result type goes
        name = _TYPE_PARAMETERS.sub("", name.partition(": ")[0])
    default = _DEFAULT.match(name)
    if default:  # "accepted_media_type=None": an argument, less its default value
        return default.group(1)
    words = name.split(" ")
    if len(words) > 1 and all(w.isalpha() and w.islower() for w in words[:-1]) and (
            called or not words[-1].isalpha()) and not skeleton(_unescaped(ident)).endswith(skeleton(name)):
        name = words[-1]  # "new Agent(", "static from(": a keyword, then the name
    if called:  # "map[B](f: A)": the name less its type parameters, as "isInstanceOf[T0]: Boolean"
        name = _CALLED_TYPE_PARAMETERS.sub("", name)
    return name


class Shown:
    """The text a page shows of its elements: what its Markdown keeps (a permalink's "#",
    a hidden anchor, navigation left out), whitespace collapsed."""

    def __init__(self, root):
        self.kept = list(kept_elements(root))
        self._kept = set(self.kept)
        self._texts: dict = {}
        self._numbers: dict | None = None
        self._lines: dict = {}

    def text(self, element) -> str:
        found = self._texts.get(element)
        if found is None:
            found = " ".join("".join(self._parts(element)).replace("\u00b6", " ").split())
            self._texts[element] = found
        return found

    def _parts(self, element):
        yield element.text or ""
        for child in element:
            if child in self._kept:
                yield from self._parts(child)
            if child.tail:
                yield child.tail

    def lines(self, block) -> list[str]:
        """A preformatted block's lines, whitespace collapsed."""
        found = self._lines.get(block)
        if found is None:
            found = [" ".join(line.split()) for line in "".join(block.itertext()).split("\n")]
            self._lines[block] = found
        return found

    def shown(self, element) -> bool:
        return element in self._kept

    def number(self, element) -> int:
        """An element's number on the page (its first kept ancestor's when it is not kept)."""
        if self._numbers is None:
            self._numbers = {e: i for i, e in enumerate(self.kept)}
        node = element
        while node is not None and node not in self._numbers:
            node = node.getparent()
        return self._numbers.get(node, -1) if node is not None else -1


def element_ids(shown: Shown) -> list[tuple[object, str]]:
    """(element, id) of every anchor the page shows, in order; an anchor a heading or a
    definition term holds but does not show (a permalink's id, a hidden legacy anchor) is
    the heading's."""
    out = []
    for element in shown.kept:
        tag = tag_of(element)
        ident = element.get("id") or (element.get("name") if tag == "a" else None)
        if ident:
            out.append((element, ident))
        if tag in HEADINGS or tag == "dt":
            out.extend((element, d.get("id") or d.get("name")) for d in element.iterdescendants()
                       if tag_of(d) in ("a", "span") and not shown.shown(d) and (d.get("id") or d.get("name")))
    return out


def _following_texts(anchor, shown: Shown) -> list[tuple[object, str]]:
    """(element, text) an empty anchor may mark, in order: the words after it, else the next
    sibling elements with text (past other empty anchors: an index's markers stand together
    before the paragraphs that show their terms), ``MARKED_BLOCKS`` at most; a heading
    alone."""
    tail = " ".join((anchor.tail or "").split())
    if tail:
        return [(anchor.getparent(), tail)]
    out: list[tuple[object, str]] = []
    node = anchor.getnext()
    while node is not None and len(out) < MARKED_BLOCKS:
        text = shown.text(node) if tag_of(node) is not None and shown.shown(node) else ""
        if text:
            if tag_of(node) in HEADINGS:
                return out or [(node, text)]  # an anchor before a heading: the heading's
            out.append((node, text))
        if " ".join((node.tail or "").split()):
            out.append((node.getparent(), " ".join(node.tail.split())))
        node = node.getnext()
    return out


def _first_titled(container, shown: Shown, depth: int = 4):
    """The element a container's entry is titled by: a heading among its children (past a
    source link or a badge before it), else its first child with text, looked into while
    that child is a container of blocks."""
    children = [c for c in container if tag_of(c) is not None and shown.shown(c) and shown.text(c)]
    if not children or (container.text or "").strip():
        return None
    heading = next((c for c in children[:3] if tag_of(c) in HEADINGS), None)
    if heading is not None:
        return heading
    child = children[0]
    if depth and tag_of(child) in _CONTAINERS and any(tag_of(c) in _BLOCKS for c in child):
        return _first_titled(child, shown, depth - 1)
    return child


def titled_elements(element, shown: Shown) -> list[tuple[object, str]]:
    """(element, text) an anchored element may name its thing in: a heading or an element
    with text itself; an empty anchor what it marks (``_following_texts``); a container its
    first title."""
    tag = tag_of(element)
    text = shown.text(element)
    if tag in HEADINGS or (tag not in _CONTAINERS and text):
        return [(element, text)]
    if not text:
        return _following_texts(element, shown)
    titled = _first_titled(element, shown)
    return [(titled, shown.text(titled))] if titled is not None else []


def _line_of(element, text: str, shown: Shown) -> tuple[str, bool]:
    """(the text an inline element stands in, whether it is preformatted): its block's text,
    or the line of a ``<pre>`` that holds it."""
    block = element
    while block is not None and tag_of(block) not in _BLOCKS:
        block = block.getparent()
    if block is None or block is element:
        return text, False
    if tag_of(block) == "pre" or any(tag_of(a) == "pre" for a in block.iterancestors()):
        return next((ln for ln in shown.lines(block) if text in ln), text), True
    whole = shown.text(block)[:4 * MAX_TERM]
    return (whole if text in whole else text), False


def _code_runs(element, shown: Shown) -> list[str]:
    own = [element] if tag_of(element) in _CODE_TAGS else []
    return [t for t in (shown.text(e) for e in [*own, *element.iterdescendants()] if tag_of(e) in _CODE_TAGS) if t]


def _child_runs(element, shown: Shown) -> list[str]:
    """The texts of an element's inline children (a name set apart: ``<span>Lantern</span> Knob``)."""
    return [t for t in (shown.text(c) for c in element.iterdescendants()
                        if tag_of(c) not in _BLOCKS and shown.shown(c)) if t]


def _linked_away(titled, name: str, ident: str, shown: Shown, prefix: str = "", element=None) -> bool:
    """Whether the name is shown as a link to something else than its own anchor; a link to
    a whole page from an entry whose id (no prefix, less its suffix) spells the name alone is
    the thing's own page: its entry here sums it up (``<a id="Lamp"></a> class <a
    href="Lamp.html">Lamp</a>``), unlike ``impl <a>Debug</a> for Span`` (``#impl-Debug``: a
    prefix the page's ids share, then the linked name) and a link that is its
    own anchor (``<a href="Lamp.html" name="Lamp">``: the link's target's)."""
    alone = not prefix and skeleton(_SUFFIX.sub("", ident)) == skeleton(name)
    for link in titled.iter("a"):
        href, text = link.get("href"), shown.text(link)
        if href and text and (name == text or name.startswith(text + "<")) and unquote(href.partition("#")[2]) != ident:
            if alone and "#" not in href and ":" not in href and element is not None and element is not link \
                    and not (link.get("id") or link.get("name")):
                continue
            return True
    return False


def _named_as_code(name: str, titled, code_runs: list[str], pre: bool) -> bool:
    if pre or any(tag_of(a) in (*_CODE_TAGS, "pre") for a in titled.iterancestors()):
        return True
    word = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")
    if any(tag_of(d) == "pre" and word.search("".join(d.itertext())) for d in titled.iter()):
        return True  # a marker before an example that writes the name ("esac" of a syntax block)
    return any(name in (run, _without_arguments(run), run.strip(_QUOTES)) for run in code_runs)


def anchored(element, ident: str, prefixes: tuple[str, ...], shown: Shown,
             link_names: dict[str, list[str]] | None = None, repeats: str = "") -> Anchored | None:
    """What the anchor ``ident`` on ``element`` names (module doc), or None when its id
    spells nothing its element shows; an id that spells nothing (a hash) may be named by
    the texts of the page's links to it (``link_names``) that its element shows; an id that
    repeats another (``repeated_ids``) spells what that one does (``repeats``)."""
    forms = id_forms(repeats or ident, prefixes)
    for titled, text in titled_elements(element, shown):
        code_runs = _code_runs(titled, shown)
        runs = [*code_runs, *_child_runs(titled, shown)]
        words = MAX_SCANNED if titled is element or tag_of(element) in _CONTAINERS else MARKED_WORDS
        spelled = spelled_name(text, forms, runs, words, ident)
        by_links = False
        if spelled is None and link_names and link_names.get(ident):
            linked = [(skeleton(n), "") for t in link_names[ident] for n in _link_forms(_without_arguments(t))]
            spelled, by_links = spelled_name(text, [f for f in linked if f[0]], runs, words), True
        if spelled is not None:
            break
    else:
        return None
    name, prefix = spelled
    slug = skeleton(ident) == skeleton(text)
    lead = _code_lead(text, code_runs) if slug and tag_of(titled) in HEADINGS else []
    if lead:  # "<code>--cfg</code>: configure the environment", its slug the id: the code names the thing
        name, prefix = lead[0], ""
    elif slug and tag_of(titled) in HEADINGS and "(" in text and heading_names(text) == [text]:
        lead = [name, text]  # a call alone its id spells whole ("repr(C)"): so written too, an alias
    if not name or is_ordinal(name):
        return None
    line, pre = _line_of(titled, text, shown) if tag_of(titled) not in HEADINGS else (text, False)
    wraps = titled is element and text == name and not any(
        tag_of(e) in HEADINGS for e in (element, *element.iterancestors(), *element.iterdescendants()))
    qualified = _qualified_forms(name, text)
    # a name the text writes after its owner (``int TiXmlBase::Row ()``) is code, a word-like one too
    after_owner = bool(qualified) and qualified[1].endswith(name) and len(qualified[1]) > len(name)
    code = bool(lead) or called_id(ident) or _named_as_code(name, titled, code_runs, pre) or after_owner
    lead = lead if len(lead) > 1 else qualified or lead
    return Anchored(ident, name, place(titled), line, code, prefix,
                    shown.number(titled), _linked_away(titled, name, ident, shown, prefix, element), wraps, by_links, slug,
                    tuple(lead[1:]), titled is not element and tag_of(element) not in HEADINGS
                    and tag_of(titled) not in HEADINGS and not shown.text(element))  # a heading's label marks no term


def _qualified_forms(name: str, text: str) -> list[str]:
    """[name, the other form] of a name the text writes qualified (``pkg.mod.Thing`` or
    ``Owner::thing``: with ``Thing``, ``thing``; ``convert`` of "Markdown.convert(source)",
    its id ``convert``: with ``Markdown.convert``), the other an alias; [] for a name
    written alone."""
    parts = _QUALIFIER.split(name)
    if len(parts) > 2 or "::" in name:  # one dot alone may be a file's ("mkdocs.yml"), never cut
        return [name, parts[-1]] if parts[-1] else []
    found = re.search(rf"(?<![\w.:])((?:[A-Za-z_]\w*(?:\.|::))+){re.escape(name)}(?![\w])", text)
    return [name, found.group(1) + name] if found else []


def _link_forms(text: str) -> list[str]:
    """The forms a link's text names its anchor by: as written, then less its qualifiers
    (``sigc::ptr_fun0`` of a member list names the heading ``ptr_fun0()``)."""
    short = _QUALIFIER.split(text)[-1]
    return [text, short] if short and short != text else [text]


def _code_lead(text: str, code_runs: list[str]) -> list[str]:
    """The names a heading whose id is its slug gives as code, alone or before the colon of
    a description ("``-h``/``--help``: get help": ``-h``, ``--help``; "``async`` and
    ``await``"): each set as code, spelled as code, or a word in lower case alone (``nav``,
    ``absolute-paths``: authors capitalise a heading of prose, never a key or a command's
    name); [] for a heading of prose ("Summary", "Getting started") and for a call alone,
    named less its arguments."""
    names = heading_names(text)
    if len(names) == 1 and ": " not in text and "(" in names[0]:
        return []  # a call alone ("hmac.digest([encoding])"): the name less its arguments
    return names if names and all(n in code_runs or _MARKED.search(n) or n[0].islower() for n in names) else []


def in_page_links(shown: Shown, own: str = "") -> dict[str, list[str]]:
    """id -> the texts the page's own links to it show (``<a href="#a8b0f">frob</a>``, or
    ``own#a8b0f``: ``own`` is the page's file name)."""
    out: dict[str, list[str]] = {}
    for element in shown.kept:
        href = element.get("href") if tag_of(element) == "a" else None
        address, _, fragment = (href or "").partition("#")
        if fragment and address in ("", own) and element.get("id") != fragment:
            text = shown.text(element)
            if text:
                out.setdefault(unquote(fragment), []).append(text)
    return out


@dataclass(frozen=True)
class PageIds:
    """A page's ids as its anchors are read: (element, id) in order, the prefixes learnt from
    them and those its set's pages share, and the ids that repeat another (``repeated_ids``)."""

    ids: list[tuple[object, str]]
    prefixes: tuple[str, ...]
    repeats: dict[str, str]


def page_ids(shown: Shown, skip: frozenset = frozenset(), shared: tuple[str, ...] = ()) -> PageIds:
    """The page's ``PageIds``, less those of the elements in ``skip``."""
    ids = [(e, i) for e, i in element_ids(shown) if e not in skip]
    prefixes = tuple(sorted({*learnt_prefixes(ident for _, ident in ids), *shared}, key=len))
    return PageIds(ids, prefixes, repeated_ids(ident for _, ident in ids))


def read_anchors(root, skip: frozenset = frozenset(), shared: tuple[str, ...] = (),
                 own: str = "") -> tuple[list[Anchored], Shown, PageIds]:
    """``page_anchors``, with the page's ``PageIds`` they were read from."""
    shown = Shown(root)
    known = page_ids(shown, skip, shared)
    links = in_page_links(shown, own)
    found = (anchored(element, ident, known.prefixes, shown, links, known.repeats.get(ident, ""))
             for element, ident in known.ids)
    return [a for a in found if a is not None], shown, known


def page_anchors(root, skip: frozenset = frozenset(), shared: tuple[str, ...] = (),
                 own: str = "") -> tuple[list[Anchored], Shown]:
    """Every anchor of a page that spells a name its element shows (``anchored``), in order,
    the prefixes learnt from all the page's ids and those its set's pages share (``shared``,
    ``set_prefixes``); and the page's shown text. ``skip``: the elements whose anchors name
    nothing here (an index's rows); ``own``: the page's file name (its links to itself)."""
    found, shown, _ = read_anchors(root, skip, shared, own)
    return found, shown
