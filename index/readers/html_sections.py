"""A page's section tree from its containers and its own repetition, as heading levels. Pure.

The HTML reader's sections are its headings (index/readers/html_markdown.py): a heading's
section runs to the next heading of its level or above. Pages say more than their tags:

- **A container ends a section.** A heading's section ends with the nearest container that
  holds the heading and content after it: an ``<article>``, a ``<section>`` or a ``<div>``.
  A wrapper that holds the heading alone (a title block: the heading, a subtitle, an empty
  anchor) ends nothing. A heading after that container is no child of the heading inside
  it, whatever their tags; text after it, before the next heading, is the enclosing
  section's again (a heading repeating that section's title is put before it).
- **A repeated sub-heading is a label.** A heading whose words come back under most of the
  page's entries ("Parameters", "Returns" under each function) labels the entry above it:
  it is that entry's child, and never the parent of the next entry (a heading at the
  entry's level or above). How many entries is the page's own count, no list of words.

Both are said as Markdown levels (``LEVEL_ATTR`` on the headings whose level changes): the
tree split_sections builds from the Markdown is the one above.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from lxml import etree

CONTAINERS = frozenset({"article", "section", "div"})
MIN_REPEATS = 3        # a label comes back at least this often on its page
MOST = 0.5             # ... under this share of the page's entries or more
CONTINUES_ATTR = "data-crossbook-continues"  # a heading put in to say the enclosing section goes on


@dataclass(eq=False)
class _Open:
    element: object
    tag_level: int
    level: int
    container: object | None
    label: bool = False
    entry_level: int = 0   # a label's: the tag level of the entry it labels
    children: list = field(default_factory=list)


def tag_of(element) -> str | None:
    """An element's lower-case tag; None for a comment or processing instruction."""
    return element.tag.lower() if isinstance(element.tag, str) else None


def _words(element) -> str:
    return " ".join("".join(element.itertext()).split()).rstrip(":").casefold()


def _shows_text(element, is_heading, shown) -> bool:
    """Whether ``element`` (shown) or its shown descendants hold text outside headings
    (its own tail aside)."""
    pending = [element]
    while pending:
        node = pending.pop()
        if node not in shown or is_heading(node):
            continue
        if (node.text or "").strip():
            return True
        for child in node:
            if (child.tail or "").strip():
                return True
            pending.append(child)
    return False


def _content_after(container, heading, is_heading, shown) -> bool:
    """Whether ``container`` shows text after ``heading`` that no heading holds."""
    node = heading
    while node is not container and node is not None:
        if (node.tail or "").strip():
            return True
        if any(_shows_text(sibling, is_heading, shown) or (sibling.tail or "").strip()
               for sibling in node.itersiblings() if isinstance(sibling.tag, str)):
            return True
        node = node.getparent()
    return False


def ending_container(heading, is_heading, shown):
    """The nearest ``CONTAINERS`` ancestor of ``heading`` holding text after it, or None;
    ``shown``: the elements the page's Markdown shows."""
    for ancestor in heading.iterancestors():
        if tag_of(ancestor) in ("body", "html"):
            return None
        if tag_of(ancestor) in CONTAINERS and _content_after(ancestor, heading, is_heading, shown):
            return ancestor
    return None


def label_texts(headings: list, tag_level) -> set[str]:
    """The words of the headings that label the page's entries (module doc): repeated
    ``MIN_REPEATS`` times or more, under ``MOST`` of the entries, an entry being a heading of
    words met once on the page, at the level most of the repeated heading's owners have."""
    words = [_words(h) for h in headings]
    counts = Counter(words)
    out = set()
    for text, count in counts.items():
        if count < MIN_REPEATS or not text:
            continue
        owners = []
        for i, w in enumerate(words):
            if w == text:
                owner = next((j for j in range(i - 1, -1, -1) if counts[words[j]] == 1), None)
                if owner is not None:
                    owners.append(owner)
        if len(set(owners)) < MIN_REPEATS:
            continue
        level = Counter(tag_level(headings[j]) for j in owners).most_common(1)[0][0]
        entries = sum(1 for h, w in zip(headings, words) if counts[w] == 1 and tag_level(h) == level)
        if count >= MOST * entries:
            out.add(text)
    return out


class _Shown(set):
    """The elements a page's Markdown shows; every element when built from nothing."""

    def __contains__(self, element) -> bool:
        return not self or set.__contains__(self, element)


def _is_closed(entry: _Open, heading) -> bool:
    return entry.container is not None and entry.container not in heading.iterancestors()


def section_levels(headings: list, tag_level, is_heading, shown=frozenset()) -> tuple[dict, list]:
    """The page's section tree (module doc) as ({heading: its Markdown level} for the
    headings whose level changes, [(container, the enclosing heading still open, the
    heading after the container or None at the page's end)] for each container that ended
    a section while another heading stays open). ``headings``: the page's shown headings in
    order; ``tag_level``: a heading's level by its tag; ``is_heading``: whether an element
    is one; ``shown``: the elements the page's Markdown shows (empty: every element)."""
    shown = shown if isinstance(shown, _Shown) else _Shown(shown)
    labels = label_texts(headings, tag_level)
    stack: list[_Open] = []
    levels: dict = {}
    closings: list = []
    last_entry: _Open | None = None
    for heading in headings:
        chain = list(stack)
        closed = next((i for i, e in enumerate(stack) if _is_closed(e, heading)), None)
        if closed is not None:
            closings.extend(_closings(stack, closed, heading))
            del stack[closed:]
        own = tag_level(heading)
        is_label = _words(heading) in labels
        if is_label and last_entry is not None and last_entry in stack:
            del stack[stack.index(last_entry) + 1:]
        else:
            while stack and (stack[-1].tag_level >= own or (stack[-1].label and own <= stack[-1].entry_level)):
                stack.pop()
        parent = stack[-1] if stack else None
        low = parent.level if parent is not None else 0
        high = min((e.level for e in chain[len(stack):]), default=6)
        level = own if low < own <= high else min(low + 1, 6)
        if level != own:
            levels[heading] = level
        entry = _Open(heading, own, level, ending_container(heading, is_heading, shown), is_label,
                      last_entry.tag_level if is_label and last_entry is not None else 0)
        if not is_label:
            last_entry = entry
        stack.append(entry)
    closed = next((i for i, e in enumerate(stack) if e.container is not None), None)
    if closed is not None:  # text after the last containers, at the page's end
        closings.extend(_closings(stack, closed, None))
    return levels, closings


def _closings(stack: list[_Open], closed: int, following) -> list:
    """(container, enclosing heading, ``following``) for each open heading from ``closed``
    up whose container ends, innermost first, one each container."""
    out = []
    for i in range(len(stack) - 1, max(closed, 1) - 1, -1):
        if stack[i].container is not None and stack[i].container is not stack[i - 1].container \
                and not any(stack[i].container is c for c, _, _ in out):
            out.append((stack[i].container, stack[i - 1], following))
    return out


def _text_between(kept: list, position: dict, container, following, is_heading, within=None) -> bool:
    """Whether the page shows text after ``container`` ends and before ``following`` (a
    heading; None: the page's end), inside ``within`` (None: anywhere), that no heading holds."""
    stop = position[following] if following is not None else len(kept)
    above = set(following.iterancestors()) if following is not None else set()
    ends = [container]
    for ancestor in container.iterancestors():
        if ancestor is within or ancestor in above or ancestor not in position:
            break
        ends.append(ancestor)
    if any((e.tail or "").strip() for e in ends):
        return True
    last = max((position[d] for d in container.iterdescendants() if d in position), default=position[container])
    # a container that opens after this one and holds the next heading: the text before
    # that heading in it (a navigation line, a title block) is the next section's
    stop = min([stop, *(position[a] for a in above if a in position and position[a] > last)])
    for element in kept[last + 1:stop]:
        if within is not None and within not in element.iterancestors():
            break
        if is_heading(element) or any(is_heading(a) for a in element.iterancestors()):
            continue
        if (element.text or "").strip() or (element not in above and (element.tail or "").strip()):
            return True
    return False


def restructure(kept: list, tag_level, is_heading, level_attr: str) -> None:
    """Set the Markdown level (``level_attr``) of each heading of ``kept`` (a page's shown
    elements, in order) whose level its containers and labels change, and put a heading
    repeating the enclosing section's title after each container that ended a section
    before text of the enclosing one (module doc)."""
    headings = [e for e in kept if is_heading(e)]
    if len(headings) < 2 or any(h.get(CONTINUES_ATTR) is not None for h in headings):
        return
    levels, closings = section_levels(headings, tag_level, is_heading, _Shown(kept))
    for heading, level in levels.items():
        heading.set(level_attr, str(level))
    position = {element: n for n, element in enumerate(kept)}
    for container, enclosing, following in closings:
        if not _text_between(kept, position, container, following, is_heading, enclosing.container):
            continue
        again = etree.Element(enclosing.element.tag)
        again.text = " ".join("".join(enclosing.element.itertext()).split())
        again.set(level_attr, str(enclosing.level))
        again.set(CONTINUES_ATTR, "")
        again.tail, container.tail = container.tail, None
        container.addnext(again)

