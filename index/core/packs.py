"""Domain packs: entity types, heading-to-type rules, heading stop list and aliases.

A pack is a TOML file: a name shipped in ``index/packs/`` (``generic``, ``gurps``) or a path.
``ontology = ["rulebook"]`` names the relation ontology packs it uses (index/relations/ontology.py).
"""

from __future__ import annotations

import functools
import hashlib
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

from .errors import ConfigError
from .genres import GenrePack, genre_active, genres_now, load_genre_packs

T = TypeVar("T")

PACK_DIR = Path(__file__).resolve().parent.parent / "packs"  # data files, beside the stage packages


@dataclass(frozen=True)
class EntityType:
    name: str
    description: str
    cues: tuple[str, ...] = ()


@dataclass(frozen=True)
class HeadingRule:
    under: re.Pattern
    entity_type: str


@dataclass(frozen=True)
class DomainPack:
    name: str
    description: str
    entity_types: tuple[EntityType, ...]
    heading_rules: tuple[HeadingRule, ...]
    stop_headings: tuple[re.Pattern, ...]
    aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    ontology: tuple[str, ...] = ()  # relation ontology packs (names or paths); () = the default
    fingerprint: str = ""
    text: str = ""  # the TOML it was parsed from, stored in the index for later passes

    @property
    def type_names(self) -> tuple[str, ...]:
        return tuple(t.name for t in self.entity_types)

    def cues_for(self, entity_type: str) -> tuple[str, ...]:
        for t in self.entity_types:
            if t.name == entity_type:
                return t.cues
        return ()

    def is_category(self, heading: str) -> bool:
        return any(rule.under.fullmatch(heading) for rule in self.heading_rules)

    def is_stop(self, heading: str) -> bool:
        return any(p.fullmatch(heading.strip()) for p in self.stop_headings)

    def type_for(self, heading_path: tuple[str, ...]) -> str:
        """The type of the entity a heading names: the nearest ancestor rule wins, else 'other'."""
        for ancestor in reversed(heading_path[:-1]):
            for rule in self.heading_rules:
                if rule.under.fullmatch(ancestor):
                    return rule.entity_type
        return "other"

    @property
    def label(self) -> str:
        return f"{self.name}@{self.fingerprint[:12]}"


def _compile(pattern: str, where: str) -> re.Pattern:
    try:
        return re.compile(pattern, re.IGNORECASE)
    except re.error as exc:
        raise ConfigError(f"pack {where}: bad regular expression {pattern!r} ({exc})") from None


def parse_pack(text: str, where: str) -> DomainPack:
    """Build a DomainPack from TOML text; raises ConfigError naming what is wrong."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"pack {where} is not valid TOML ({exc})") from None
    try:
        types = tuple(
            EntityType(t["name"], t.get("description", ""), tuple(t.get("cues", ())))
            for t in data.get("entity_types", [])
        )
        if not types:
            raise ConfigError(f"pack {where} declares no [[entity_types]]")
        names = {t.name for t in types}
        rules = []
        for rule in data.get("heading_rules", []):
            if rule["type"] not in names:
                raise ConfigError(
                    f"pack {where}: heading rule type '{rule['type']}' is not a declared entity type"
                )
            rules.append(HeadingRule(_compile(rule["under"], where), rule["type"]))
        aliases = {
            canonical: tuple(values if isinstance(values, list) else [values])
            for canonical, values in data.get("aliases", {}).items()
        }
        return DomainPack(
            name=data["name"],
            description=data.get("description", ""),
            entity_types=types,
            heading_rules=tuple(rules),
            stop_headings=tuple(_compile(p, where) for p in data.get("stop_headings", [])),
            aliases=aliases,
            ontology=tuple(data.get("ontology", ())),
            fingerprint=hashlib.sha256(text.encode("utf-8")).hexdigest(),
            text=text,
        )
    except KeyError as exc:
        raise ConfigError(f"pack {where} is missing the key {exc}") from None


@lru_cache(maxsize=16)
def find_pack_file(name_or_path: str, directory: Path, suffixes: tuple[str, ...], what: str) -> Path:
    """A pack file given by path, or shipped in ``directory`` under ``name`` + one of
    ``suffixes``; raises ConfigError naming the shipped ones (``what``: "pack"...)."""
    candidate = Path(name_or_path)
    if candidate.suffix in suffixes or candidate.exists():
        return candidate
    for suffix in suffixes:
        if (directory / f"{name_or_path}{suffix}").is_file():
            return directory / f"{name_or_path}{suffix}"
    shipped = sorted({p.stem for p in directory.glob("*.*") if p.suffix in suffixes})
    raise ConfigError(
        f"unknown {what} '{name_or_path}' (shipped: {', '.join(shipped)}; or give a {'/'.join(suffixes)} path)"
    )


def load_pack(name_or_path: str) -> DomainPack:
    """Load a shipped pack by name or a pack file by path; raises ConfigError."""
    path = find_pack_file(name_or_path, PACK_DIR, (".toml",), "pack")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read pack {path}: {exc}") from None
    return parse_pack(text, str(path))


@lru_cache(maxsize=None)
def _genre_pack(genre: str) -> GenrePack:
    """The shipped genre pack named ``genre`` (as ``shipped_genres`` read it: one reading of
    each file). Raises ConfigError for a genre no pack file gives."""
    for pack in shipped_genres():
        if pack.name == genre:
            return pack
    names = ", ".join(p.name for p in shipped_genres())
    raise ConfigError(f"no genre pack '{genre}' in {PACK_DIR} (has: {names})")


def _word_tables(genre: str) -> dict[str, list[str] | dict[str, str]]:
    return _genre_pack(genre).words


@lru_cache(maxsize=None)
def _shared(genre: str) -> frozenset[str]:
    """The word lists of a genre every book reads by, whatever its genre (``[detect] shared``)."""
    return frozenset(_genre_pack(genre).detect.get("shared", ()))


def _applies(genre: str, key: str) -> bool:
    return genre_active(genre) or key in _shared(genre)


def _word_list(genre: str, key: str):
    tables = _word_tables(genre)
    if key not in tables:
        raise ConfigError(f"pack {genre} has no word list '{key}' (has: {', '.join(sorted(tables))})")
    return tables[key]


@lru_cache(maxsize=None)
def _frozen_words(genre: str, key: str) -> frozenset[str]:
    return frozenset(_word_list(genre, key))


def genre_words(genre: str, key: str) -> frozenset[str]:
    """The word list ``key`` of the shipped genre pack ``genre`` (its ``[words]`` table):
    the words a rule of one genre reads by, kept as data so code holds none of them (a
    mapping's words are its keys). Empty when ``genre`` does not apply to the book being
    worked on (core/genres.genres_in_use) and the list is not one the genre shares with
    every book (``[detect] shared``): read it where the rule runs, not at import, for the
    choice to reach it. Raises ConfigError for a pack or list that does not exist."""
    words = _frozen_words(genre, key)
    return words if _applies(genre, key) else frozenset()


def genre_list(genre: str, key: str) -> tuple[str, ...]:
    """A word list of a genre pack in its order (where the first that applies wins); empty
    when the genre does not apply (``genre_words``)."""
    return tuple(_word_list(genre, key)) if _applies(genre, key) else ()


def genre_table(genre: str, key: str) -> dict[str, str]:
    """A mapping of a genre pack's ``[words.KEY]`` table in its order ("monster" -> "creature");
    empty when the genre does not apply (``genre_words``)."""
    found = _word_list(genre, key)
    if not isinstance(found, dict):
        raise ConfigError(f"pack {genre}: word list '{key}' is a list, not a table of words")
    return dict(found) if _applies(genre, key) else {}


def per_genres(build: Callable[[], T]) -> Callable[[], T]:
    """``build`` (a rule's words, or a pattern made of them) made once for each set of genres
    in use (core/genres.genres_in_use) and kept: a rule reads its pack words where it runs,
    for the genre choice to reach them, and pays for them once."""
    made: dict[frozenset[str] | None, T] = {}

    @functools.wraps(build)
    def cached() -> T:
        key = genres_now()
        if key not in made:
            made[key] = build()
        return made[key]

    return cached


def shipped_genres() -> tuple[GenrePack, ...]:
    """The genre packs shipped in ``index/packs`` (a file with ``[words]`` or ``[detect]``)."""
    return _shipped_genres(PACK_DIR)


@lru_cache(maxsize=4)
def _shipped_genres(directory: Path) -> tuple[GenrePack, ...]:
    return load_genre_packs(directory)


def word_pattern(words) -> str:
    """A regular expression alternation of ``words`` (no group): longest first, so a word is
    never cut short by its prefix, a space matching any run of whitespace."""
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=lambda w: (-len(w), w)))
