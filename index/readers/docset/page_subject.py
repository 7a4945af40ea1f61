"""What a documentation page says it documents: its subject, and the other names it declares. Pure.

- A man page's NAME line names its command whatever the page's title says (``groff -Thtml``
  titles it "GIT-ADD", asciidoctor "git-add(1) Manual Page", docbook-xsl "git-add"); a NAME
  heading may be numbered ("1. Name"). Its other names (``malloc, free, calloc - allocate``)
  are declared by the page too: each is defined there, not an alias of the first. The kind
  is the man section's when the title or a heading shows it (``malloc(3)``: a function).
- Any other page: the heading that names it, unless that heading is a numbered structure
  heading ("1. Overview") or a structure label ("Overview", "Contents"); then its title less
  the site's name (the title parts most pages repeat, readers/docset/boilerplate.py). A page whose
  title is the site's name alone is the site's home: it documents the site, no one thing.
- A topic many pages of a set share ("Documentation", "Classes") is a label (``shared_topics``).
"""

from __future__ import annotations

import re

from ...core.normalize import normalized_words
from ...core.titles import unescape_markdown
from ..html_markdown import HEADINGS, kept_elements, tag_of
from .terms import man_kind, name_line, text_of, title_subject

_NUMBERED = re.compile(r"^\s*(?:\d+(?:\.\d+)*\.?|[IVXLC]+\.|[A-Z]\.)\s+(?=\S)")


def unnumbered(heading: str) -> str:
    """A heading less its structure number ("2.1. Syntax" -> "Syntax")."""
    return _NUMBERED.sub("", heading, count=1)


def numbered(heading: str) -> bool:
    return bool(_NUMBERED.match(heading))


def is_name_heading(heading: str | None) -> bool:
    """A man page's NAME heading, numbered or not ("NAME", "Name", "1. Name")."""
    return bool(heading) and normalized_words(unnumbered(heading)) == "name"


def declared_names(body: str, title: str, headings: list[str]) -> tuple[list[str], str] | None:
    """(names, kind) a NAME section's text declares, the first the page's subject; None when
    it holds no NAME line."""
    names = name_line(body)
    if not names:
        return None
    kind = next((k for k in (man_kind(t, names[0]) for t in [title, *headings[:2]]) if k), "command")
    return names, kind


# a C-like prototype in a signature block: "int frob_open(const char *path);", "void *malloc(size_t);"
_PROTOTYPE = re.compile(r"(?m)^\s*(?:[A-Za-z_][\w]*[\s*]+)+\**([A-Za-z_]\w*)\s*\([^;{}]*\)\s*;")


def signature_names(body: str) -> list[str]:
    """The functions a SYNOPSIS section's prototypes declare, in order."""
    return list(dict.fromkeys(m.group(1) for m in _PROTOTYPE.finditer(body.replace("`", "").replace("\\", ""))))


def is_synopsis_heading(heading: str | None) -> bool:
    return bool(heading) and normalized_words(unnumbered(heading)) == "synopsis"


def _is_label(heading: str) -> bool:
    from ...core.packs import load_pack

    return load_pack("generic").is_stop(heading)


def titled_subject(root, title: str | None, site: set[str], repeated: set[str] = frozenset()
                   ) -> tuple[str, str, str] | None:
    """(name, kind, heading text or "") of a page with no NAME line; None for the site's home
    page. ``title``: the page's <title> (or first <h1>); ``site``: its repeated parts;
    ``repeated``: the headings most pages repeat (a site header), which name no page."""
    from .boilerplate import page_subject_title

    titled = page_subject_title(title, site) if title else ""
    if site and title and not titled:
        return None
    if titled:
        name, kind = title_subject(titled, [])
        if kind != "other":  # the title names its thing and kind ("Tag Class Reference"): its headings may not
            return name, kind, ""
    for element in kept_elements(root):
        if tag_of(element) not in HEADINGS:
            continue
        text = text_of(element)
        if not text or text in repeated:
            continue
        if numbered(text) or _is_label(text) or _is_label(unnumbered(text)):
            break  # a structure heading: the title says what the page documents
        runs = [text_of(e) for e in element.iter() if tag_of(e) in ("code", "tt", "samp", "kbd")]
        module = any("py-mod" in (e.get("class") or "") for e in element.iter() if isinstance(e.tag, str))
        name, kind = title_subject(text, runs, module)
        return name, kind, text
    if titled:
        name, kind = title_subject(titled, [])
        return name, kind, ""
    return "", "other", ""  # nothing names it: the caller names it by its file


MIN_SHARED_TOPIC = 3  # pages that share a topic's name for it to be the set's label


def shared_topics(subjects) -> set[str]:
    """The normalized names of the topics (``subjects``: each page's subject term, or None)
    that ``MIN_SHARED_TOPIC`` or more pages of a set are about: a word that titles many pages
    ("Documentation", a member list's "Classes") is the set's label, no page's subject. A
    thing named as code (a class, a command) may be documented on several pages, and stays."""
    counts: dict[str, int] = {}
    for subject in subjects:
        if subject is not None and subject.kind == "topic":
            key = normalized_words(subject.name)
            counts[key] = counts.get(key, 0) + 1
    return {key for key, count in counts.items() if count >= MIN_SHARED_TOPIC}


def shown_in(name: str, text: str) -> bool:
    """Whether a section's Markdown ``text`` shows ``name``, its escapes read as what they escape
    (``\\_\\_pool`` shows ``__pool``, ``std::\\_Tuple`` shows ``std::_Tuple``)."""
    return name in text or name in unescape_markdown(text)


def _top_parts(name: str) -> list[str]:
    """``name``'s parts between the scope marks (``::``) outside its type parameters."""
    parts, depth, start, at = [], 0, 0, 0
    while at < len(name):
        depth += (name[at] == "<") - (name[at] == ">")
        if depth == 0 and name.startswith("::", at):
            parts.append(name[start:at])
            start = at = at + 2
            continue
        at += 1
    return [*parts, name[start:]]


def own_names(*names: str) -> tuple[str, ...]:
    """The own names (the last part past a scope, ``::``) of a subject written qualified
    (``ranges::views::tail_fn``: ``tail_fn``, as its owner's index lists it; a member is
    defined by its own name the same way); none for a name with no scope."""
    out = []
    for name in names:
        parts = _top_parts(name)
        if len(parts) > 1 and parts[-1].strip() and parts[-1] not in out:
            out.append(parts[-1].strip())
    return tuple(out)
