"""Which names a page's sections show, found in one pass over each section's text. Pure.

Placing an inventory's entries asks, for each entry and each of its name forms, whether a
section shows it: a regular expression per question scans the text again each time, and
20,000 entries on one long page take minutes. Here every name form of the page's entries goes
into one Aho-Corasick automaton, and each section's text is scanned once (when first asked),
so the work is linear in the page's text and its entries. The answers are those of the
expressions they replace: a name shown as code (not inside a longer word, not after a dot),
and an index's words as the text writes them, in any case and with its spaces collapsed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

import ahocorasick


def _word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"  # what ``\w`` matches


class ShownNames:
    """For each section (by index, its text given by ``text_of``), the names among ``names``
    it shows where ``(?<![\\w.])NAME(?!\\w)`` would find them."""

    def __init__(self, names: Iterable[str], text_of: Callable[[int], str]):
        self._automaton = _automaton(names)
        self._text_of = text_of
        self._found: dict[int, set[str]] = {}

    def shows(self, section: int, name: str) -> bool:
        found = self._found.get(section)
        if found is None:
            found = self._found[section] = self._scan(self._text_of(section))
        return name in found

    def _scan(self, text: str) -> set[str]:
        found: set[str] = set()
        if self._automaton is None:
            return found
        for end, name in self._automaton.iter(text):
            if name in found:
                continue
            start = end - len(name) + 1
            before = text[start - 1] if start > 0 else ""
            after = text[end + 1] if end + 1 < len(text) else ""
            if not (before and (_word_char(before) or before == ".")) and not (after and _word_char(after)):
                found.add(name)
        return found


class WrittenWords:
    """For each section, where each of ``forms`` (an index's plain words) first shows in its
    text with its whitespace collapsed, in any case, as ``(?<![\\w.-])FORM(?![\\w-])`` with
    IGNORECASE would find it; ``written`` gives the text as the section writes it."""

    def __init__(self, forms: Iterable[str], text_of: Callable[[int], str]):
        self._automaton = _automaton({form.lower() for form in forms})
        self._text_of = text_of
        self._found: dict[int, tuple[str, dict[str, int]]] = {}

    def written(self, section: int, form: str) -> str | None:
        """``form`` as the section writes it at its first showing, or None."""
        if section not in self._found:
            self._found[section] = self._scan(" ".join(self._text_of(section).split()))
        text, first = self._found[section]
        key = form.lower()
        at = first.get(key)
        if at is None:
            return None
        if at < 0:  # a text whose lower case changes its length: the expression itself
            found = re.search(r"(?<![\w.-])" + re.escape(form) + r"(?![\w-])", text, re.IGNORECASE)
            return found.group(0) if found else None
        return text[at:at + len(key)]

    def _scan(self, text: str) -> tuple[str, dict[str, int]]:
        first: dict[str, int] = {}
        if self._automaton is None:
            return text, first
        lower = text.lower()
        if len(lower) != len(text):
            return text, {form: -1 for _, form in self._automaton.iter(lower)}
        for end, form in self._automaton.iter(lower):
            start = end - len(form) + 1
            if form in first and first[form] <= start:
                continue
            before = text[start - 1] if start > 0 else ""
            after = text[end + 1] if end + 1 < len(text) else ""
            if not (before and (_word_char(before) or before in ".-")) and not (after and (_word_char(after) or after == "-")):
                first[form] = start
        return text, first


def _automaton(names: Iterable[str]):
    automaton = ahocorasick.Automaton()
    for name in names:
        if name:
            automaton.add_word(name, name)
    if len(automaton) == 0:
        return None
    automaton.make_automaton()
    return automaton
