"""What a documentation page's markup says it documents, and what kind of thing it is. Pure.

One convention per documentation tool, never one manual's names:

- a Sphinx object entry (``<dl class="py function"><dt id="json.dump">``): the name it shows
  (``json.dump``, alias ``dump``; ``get`` inside a class, alias ``dict.get``), typed by its class;
- an options block (``<dt>-a, --all</dt>``, a man page's ``-A, --catenate``): the option,
  its other spellings as aliases;
- a definition term that is one code or bold run (``<dt><code>--check-device</code></dt>``),
  typed by the heading it is filed under ("Options", "Environment", "Commands"); the same
  as a paragraph followed by its indented description (a man page's ``-a, --all``);
- a man page's NAME line (``tar - an archiving utility``, ``ls, dir - list ...``);
- a page title that names what the page documents: ``tar-create(1)``, "``json`` — JSON
  encoder and decoder", "The ``\\definecolor`` command".
"""

from __future__ import annotations

import re

from ...core.models import DocTerm
from ...core.packs import genre_list, genre_table
from ..doc_kinds import SPHINX_KINDS

# a word of the heading a term is filed under -> the kind of its entries
_HEADING_KINDS = tuple(genre_table("documentation", "heading_kinds").items())
# the kinds a title may name after the thing it documents ("The \definecolor command")
TITLE_KINDS = genre_list("documentation", "title_kinds")
_OPTION = r"(?:--?|\+)[\w?@#][\w.-]*"
_OPTION_BLOCK = re.compile(rf"^\s*({_OPTION})(?:[ =\[][^,]*)?((?:,\s*{_OPTION}(?:[ =\[][^,]*)?)*)\s*$")
_OPTION_NAME = re.compile(_OPTION)
_MAN_TITLE = re.compile(r"^(\S+)\((\d)[\w+]*\)$")
_MAN_KINDS = genre_table("documentation", "man_kinds")
# "ls, dir - list ...": names, then a dash between spaces (or only after one: "hishrink- translating")
_NAME_LINE = re.compile(r"^\s*([^\s,]+(?:\s*,\s*[^\s,]+)*)\s*(?:\\?[-\u2013\u2014])\s+\S")
_TITLE_SPLIT = re.compile(r"\s+[\u2014\u2013-]\s+|:\s+")
_STRONG_TAGS = ("strong", "b", "code", "tt", "samp", "kbd")
MAX_TERM = 60


def text_of(element) -> str:
    """An element's text, whitespace collapsed, with the Sphinx "¶" permalink left out."""
    return " ".join("".join(element.itertext()).replace("\u00b6", " ").split())


def _classes(element) -> list[str]:
    return (element.get("class") or "").split()


def heading_kind(heading: str | None) -> str:
    """The kind a heading's words give the entries filed under it ("Options" -> option)."""
    words = (heading or "").casefold()
    for word, kind in _HEADING_KINDS:
        if re.search(rf"\b{word}s?\b", words):
            return kind
    return "other"


def parts_heading(heading: str | None) -> bool:
    """Whether a heading files the parts of the entry above it, never things of their own (a
    class template's "Template Parameters": ``T``, ``Allocator``): the documentation pack's
    ``parts_headings``, its structure number aside."""
    words = " ".join(re.sub(r"^[\d.\s]+", "", heading or "").casefold().rstrip(":").split())
    return words in genre_list("documentation", "parts_headings")


def option_names(text: str) -> list[str] | None:
    """The options an options block's term names (``-a, --all``; ``-f ARCHIVE, --file=ARCHIVE``),
    the long ones first; None when the term is not an options block."""
    if not _OPTION_BLOCK.match(text):
        return None
    found = (_OPTION_NAME.match(part.strip()) for part in text.split(","))
    names = [m.group(0).rstrip(".") for m in found if m]
    return sorted(dict.fromkeys(names), key=lambda n: not n.startswith("--")) or None


def _sphinx_term(dt, dl) -> DocTerm | None:
    names = [e for e in dt.iter() if isinstance(e.tag, str) and "sig-name" in _classes(e)]
    if not names:
        return None
    prefix = next((text_of(e) for e in dt.iter() if isinstance(e.tag, str) and "sig-prename" in _classes(e)), "")
    name = (prefix + text_of(names[0])).strip().lstrip("@")  # a decorator shows its "@"
    role = (_classes(dl) + ["", ""])[1]
    kind = SPHINX_KINDS.get(role, "other")
    anchor = dt.get("id") or ""
    if kind == "option":
        found = option_names(text_of(dt)) or [name]
        return DocTerm(found[0], kind, aliases=tuple(found[1:]), target=anchor)
    if not name or len(name) > MAX_TERM:
        return None
    # the name as the entry shows it ("json.dump": the json module's dump, not pickle's), with
    # the object's own name as an alias; a method shown bare inside its class ("get") has its
    # qualified name ("dict.get") as the alias
    short = text_of(names[0]).lstrip("@")
    full = anchor if anchor and "." in anchor and anchor.endswith("." + short) else name
    alias = short if name != short else full
    return DocTerm(name, kind, aliases=(alias,) if alias != name else (), target=anchor)


# one word, then a bracketed list (a command's keys: "digit-argument (M-0, M-1, … M--)")
_NAME_THEN_LIST = re.compile(r"\S+ \([^()]*\)")


def _one_run(dt) -> str | None:
    """The term when a ``<dt>`` is one code or bold run (arguments in italics may follow): of
    four words at most, or one and a bracketed list after it."""
    runs = [e for e in dt.iter() if isinstance(e.tag, str) and e.tag.lower() in _STRONG_TAGS and e is not dt]
    if not runs:
        return None
    first = text_of(runs[0])
    lead = (dt.text or "").strip()
    if lead or not first or len(first) > MAX_TERM or (len(first.split()) > 4 and not _NAME_THEN_LIST.fullmatch(first)):
        return None
    return first


def dt_term(dt, dl, heading: str | None) -> DocTerm | None:
    """The term a ``<dt>`` documents (module doc), or None for a plain-text term (the rules
    extractor reads those as a definition list)."""
    if dl is not None and len(_classes(dl)) >= 2 and _classes(dl)[0] in ("py", "std", "c", "cpp", "js", "rst"):
        term = _sphinx_term(dt, dl)
        if term is not None:
            return term
    text = text_of(dt)
    options = option_names(text)
    if options:
        return DocTerm(options[0], "option", aliases=tuple(options[1:]), target=dt.get("id") or "")
    run = _one_run(dt)
    if run is None:
        return None
    # a name before its list of keys ("delete-char (C-d)") is found by itself too
    head = run.partition(" (")[0] if _NAME_THEN_LIST.fullmatch(run) else ""
    return DocTerm(run, heading_kind(heading), aliases=(head,) if head else (), target=dt.get("id") or "")


def paragraph_term(paragraph, heading: str | None) -> DocTerm | None:
    """The term of a paragraph that a definition follows indented (a ``<blockquote>`` or
    ``<dd>`` next to it: the form man pages take, ``-a, --all`` then its description): an
    options block, or one code or bold run; None for any other paragraph."""
    following = paragraph.getnext()
    if following is not None and isinstance(following.tag, str) and following.tag.lower() == "div" \
            and len(following) and isinstance(following[0].tag, str) and following[0].tag.lower() == "blockquote":
        following = following[0]  # docbook-xsl wraps it: <div class="blockquote"><blockquote>
    if following is None or not isinstance(following.tag, str) or (
            following.tag.lower() not in ("blockquote", "dd") and not indented_under(following, paragraph)):
        return None
    if any(isinstance(a.tag, str) and a.tag.lower() in ("blockquote", "dd") for a in paragraph.iterancestors()):
        return None  # a value listed inside an entry's description ("lineNumber" under a color slot)
    text = text_of(paragraph)
    if not text or len(text) > MAX_TERM:
        return None
    options = option_names(text)
    if options:
        return DocTerm(options[0], "option", aliases=tuple(options[1:]), target=paragraph.get("id") or "")
    run = _one_run(paragraph)
    if run is None or run != text:
        return None
    return DocTerm(run, heading_kind(heading), target=paragraph.get("id") or "")


_MARGIN = re.compile(r"margin-left:\s*([\d.]+)\s*(%|em|px|pt)?", re.IGNORECASE)


def _margin(element) -> tuple[float, str] | None:
    match = _MARGIN.search(element.get("style") or "")
    return (float(match.group(1)), (match.group(2) or "").lower()) if match else None


def indented_under(following, paragraph) -> bool:
    """Whether a paragraph is set further in than the one before it, by its style (``groff
    -Thtml`` indents an option's description so: ``margin-left:17%`` under ``11%``)."""
    if not isinstance(following.tag, str) or following.tag.lower() != "p":
        return False
    mine, theirs = _margin(paragraph), _margin(following)
    return mine is not None and theirs is not None and mine[1] == theirs[1] and theirs[0] > mine[0]


def name_line(text: str) -> list[str]:
    """The names a man page's NAME line gives (``tar - an archiving utility`` -> ["tar"];
    ``ls, dir - list ...`` -> ["ls", "dir"]), or [] when the line is not one."""
    # the first paragraph, its lines joined: groff breaks a long NAME line before its dash
    first = " ".join(text.strip().split("\n\n", 1)[0].split("\n")).replace("\\-", "-").replace("\\", "")
    match = _NAME_LINE.match(first)
    if not match:
        return []
    return [n.strip() for n in match.group(1).split(",") if n.strip()]


_MAN_REF = re.compile(r"(?<![\w.-])([\w.:+-]+)\((\d)[\w+]*\)")


def man_kind(text: str, name: str) -> str | None:
    """The kind a man section gives ``name`` where ``text`` writes it so ("malloc(3)" -> function,
    "git-add(1) Manual Page" -> command); None when it does not."""
    for match in _MAN_REF.finditer(text or ""):
        if match.group(1).casefold() == name.casefold():
            return _MAN_KINDS.get(match.group(2))
    return None


_NAMED = re.compile(r"^[\w$]+(?:(?:::|[.#:])[\w$]+)*$")
# a name a kind's mark must show (a file's extension): a plus or a hyphen is a letter of it ("stdc++.h", "json-util.h")
_MARKED_NAMED = re.compile(r"^[\w$+-]+(?:\.[\w$+-]+)+$")


# a word of a title with the type parameters written after it ("Test< T * >", "pair<A, B>")
_TITLE_WORD = re.compile(r"[^\s<]+\s*<(?:[^<>]|<[^<>]*>)*>|\S+")


def _lead_kind(words: list[str], kinds: dict) -> str:
    """The kind the kind's words before a name give: the last that gives one ("Enum Class":
    a class; "Class template": a class, "template" a word that only qualifies a kind)."""
    return next((kinds[w.casefold()] for w in reversed(words) if kinds[w.casefold()]), "")


def _kind_led(title: str) -> tuple[str, str] | None:
    """(name, kind) of a title that leads with the kind of what it documents ("Class
    EnumUtils", "Struct syn::Ident", "Enum Class Mode", "Interface Source<T>", "Class template
    basic_string"): the name less its type parameters, when it reads as code (a qualified or
    compound name; one word of prose, "Module Overview", is none); or that names it before
    its kind (``_kind_trailed``)."""
    kinds = genre_table("documentation", "title_lead_kinds")
    words = title.split(" ")
    lead = 0
    while lead < min(2, len(words) - 1) and words[lead].casefold() in kinds:
        lead += 1
    name = " ".join(words[lead:]).split("<", 1)[0].strip()
    kind = _lead_kind(words[:lead], kinds)
    if not kind or not _NAMED.match(name) or not re.search(r"[a-z\d][A-Z]|^[A-Z]{2,}[a-z]|::|[._#$]", name):
        return _kind_trailed(_TITLE_WORD.findall(title.rpartition(": ")[2]), kinds)  # past a site's name and colon
    return name, kind


def _kind_trailed(words: list[str], kinds: dict) -> tuple[str, str] | None:
    """(name, kind) of a title that names its thing, then its kind, then at most one word
    of its own ("Tag Class Reference", "Vehicle Struct Reference", "Frob class", "Test< T * >
    Class Template Reference": a word qualifying the kind may follow it). The name keeps the
    type parameters the title writes (``Test< T * >``)."""
    while len(words) > 2 and words[2].casefold() in kinds and not kinds[words[2].casefold()]:
        words = [*words[:2], *words[3:]]  # "Class Template Reference": the kind's qualifier goes
    if len(words) not in (2, 3) or words[1].casefold() not in kinds:
        return None
    mark = genre_table("documentation", "title_kind_marks").get(words[1].casefold(), "")
    if not (_MARKED_NAMED if mark else _NAMED).match(words[0].split("<")[0].strip()):
        return None
    if len(words) == 3 and (not words[2][:1].isupper() or words[2].casefold() in kinds):
        return None
    kind = kinds[words[1].casefold()]
    if not kind or mark not in words[0]:  # "Config File Format" names no file: a file's name shows its extension
        return None
    return words[0], kind


def title_subject(title: str, code_runs: list[str], module_hint: bool = False) -> tuple[str, str]:
    """(name, kind) of what a page or section title says it documents: ``tar-create(1)`` (a
    command), "Class EnumUtils" (a kind's word, then a name written as code), "json — JSON
    encoder and decoder" whose ``json`` is code (a module when the title's code is a module
    reference), "The \\definecolor command"; else the title itself, a topic (kind ``other``)."""
    title = " ".join(title.replace("\u00b6", " ").split())
    man = _MAN_TITLE.match(title)
    if man:
        return man.group(1), _MAN_KINDS.get(man.group(2), "other")
    led = _kind_led(title)
    if led is not None:
        return led
    runs = [r for r in (" ".join(c.split()) for c in code_runs) if r and r in title]
    left = _TITLE_SPLIT.split(title, 1)[0].strip()
    if left != title and (left in runs or (len(left.split()) == 1 and not left[:1].isupper())):
        return left, "module" if module_hint else "other"
    for run in runs:
        after = title[title.index(run) + len(run):].strip().casefold()
        kind = next((k for k in TITLE_KINDS if after.startswith(k)), None)
        if kind:
            return run, kind
    return title, "other"
