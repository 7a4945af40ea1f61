"""Which genre packs apply to a book, chosen from what the book shows once it is read.

Each genre pack (index/packs/*.toml with ``[words]`` or ``[detect]``; core/genres.py) declares
as data the signals that show a book is of its genre, each a ``[[detect.signals]]`` table
with a ``name`` and one of these forms, and ``at_least`` (how many it takes, default 1):

- ``formats = ["docset"]``: the reader that read the book (a reader of a convention *is* it);
- ``terms = true``: sections in which a reader found what the page documents (a Sphinx
  entry, a man page's NAME line, an inventory's entry), ``term_rule`` narrowing them to one
  reader rule (``"back_index"``: a manual's back index);
- ``bold_labels = "KEY"``: sections that open at least ``per_section`` (default 2) lines with
  different bold labels of the pack's word list KEY ("**Armor Class** 17": a stat block);
- ``pattern = 'REGEX'``: sections the regular expression matches in (dice notation);
- ``words = "KEY"``: occurrences of the pack's words KEY as whole words, per ten thousand
  words of the book (``at_least`` is that rate).

A genre applies when one of its signals holds; genres combine (a rulebook PDF has a back
index). A book that shows no genre keeps every genre's words, as before there was a choice.
``--pack NAME`` of a genre (``Settings.pack``; core/pack_option.py) chooses instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from ..core.errors import ConfigError
from ..core.genres import GenrePack, genres_fingerprint
from ..core.models import Section
from ..core.packs import word_pattern

_WORD = re.compile(r"[A-Za-z][\w'’-]*")


@dataclass(frozen=True)
class GenreChoice:
    """The genres that apply to one book, the signals that chose each, and the label that
    tells whether a stored book was chosen the same way (``auto@FINGERPRINT`` or ``pack:NAMES``)."""

    genres: tuple[str, ...]
    signals: dict[str, list[str]] = field(default_factory=dict)
    label: str = ""


def choice_label(packs: Sequence[GenrePack], override: Sequence[str] | None) -> str:
    """How a choice is made, as stored with a book: a change makes an unchanged book re-extracted."""
    if override is not None:
        return "pack:" + ",".join(sorted(override))
    return "auto@" + genres_fingerprint(packs)


def choose_genres(format_name: str, sections: Iterable[Section], packs: Sequence[GenrePack],
                  override: Sequence[str] | None = None) -> GenreChoice:
    """The genres of ``packs`` that apply to a book read as ``format_name`` with ``sections``:
    those ``override`` names (``--pack``), else those whose signals the book shows, else all."""
    label = choice_label(packs, override)
    if override is not None:
        return GenreChoice(tuple(sorted(override)), {name: ["--pack"] for name in override}, label)
    sections = list(sections)
    shown: dict[str, list[str]] = {}
    for pack in packs:
        held = [name for name, count, at_least in _signals(pack, format_name, sections) if count >= at_least]
        if held:
            shown[pack.name] = held
    if not shown:
        return GenreChoice(tuple(sorted(p.name for p in packs)), {}, label)
    return GenreChoice(tuple(sorted(shown)), shown, label)


def _signals(pack: GenrePack, format_name: str, sections: list[Section]):
    """Each signal of ``pack`` as (its name, what the book shows of it, the threshold)."""
    for i, signal in enumerate(pack.detect.get("signals", [])):
        name = str(signal.get("name", f"{pack.name} signal {i + 1}"))
        yield name, _measure(pack, signal, format_name, sections), float(signal.get("at_least", 1))


def _measure(pack: GenrePack, signal: dict, format_name: str, sections: list[Section]) -> float:
    if "formats" in signal:
        return float(format_name in signal["formats"])
    if "terms" in signal:
        rule = signal.get("term_rule")
        return sum(1 for s in sections if any(rule is None or t.rule == rule for t in s.terms))
    if "bold_labels" in signal:
        labels = _label_pattern(tuple(_words_of(pack, signal["bold_labels"])))
        need = int(signal.get("per_section", 2))
        return sum(1 for s in sections
                   if len({" ".join(m.group(1).lower().split()) for m in labels.finditer(s.text)}) >= need)
    if "pattern" in signal:
        pattern = _compiled(signal["pattern"], pack.name)
        return sum(1 for s in sections if pattern.search(s.text))
    if "words" in signal:
        return _rate(_words_of(pack, signal["words"]), sections)
    raise ConfigError(f"genre pack {pack.name}: a [[detect.signals]] table has no form "
                      "(formats, terms, bold_labels, pattern or words)")


def _words_of(pack: GenrePack, key: str) -> list[str]:
    if key not in pack.words:
        raise ConfigError(f"genre pack {pack.name}: a signal reads the word list '{key}', which [words] lacks")
    return sorted(pack.words[key])


def _rate(words: list[str], sections: list[Section]) -> float:
    """Occurrences of ``words`` per ten thousand words of the sections."""
    pattern = _word_run(tuple(words))
    total = found = 0
    for section in sections:
        total += len(_WORD.findall(section.text))
        found += len(pattern.findall(section.text))
    return 10000.0 * found / total if total else 0.0


@lru_cache(maxsize=64)
def _label_pattern(words: tuple[str, ...]) -> re.Pattern:
    return re.compile(rf"^[ \t>]*(?:[-*+][ \t]+)?(?:\*\*|__)({word_pattern(words)})\b", re.IGNORECASE | re.MULTILINE)


@lru_cache(maxsize=64)
def _word_run(words: tuple[str, ...]) -> re.Pattern:
    return re.compile(rf"(?<![\w'’-])(?:{word_pattern(words)})(?![\w'’-])", re.IGNORECASE)


@lru_cache(maxsize=64)
def _compiled(pattern: str, genre: str) -> re.Pattern:
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise ConfigError(f"genre pack {genre}: bad signal pattern {pattern!r} ({exc})") from None
