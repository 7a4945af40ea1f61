"""Genre packs: the packs of one genre's words (``[words]``) and of the signs that a book is
of that genre (``[detect]``), and which genres apply to the book being worked on.

A genre pack is a TOML file in the packs folder (index/packs/) that has a ``[words]`` or a
``[detect]`` table (``rulebook.toml``, ``documentation.toml``); the domain packs (``generic``,
``gurps``: entity types) have neither. Adding a genre is adding such a file: nothing lists
the genres in code.

A genre pack's ``[relations]`` table chooses the relation vocabulary of its books:
``ontology`` names its ontology pack (index/ontology/), ``prose`` says whether its relations
are read from sentences (the pattern families and spaCy's parse: a rulebook's "casts",
"inflicts"), ``structure`` whether from what a book's structure states (a documentation page's
members, See also lists, deprecations: index/relations/doc_structure.py). A book whose genres
read no prose gets no parse (``reads_prose``).

Which genres apply is a context (``genres_in_use``), set by the ingest pipeline around the
work on one book (extraction, and the linking and relationship passes over its chunks) from
the genres chosen for it (index/extract/genre_choice.py). Outside any such context, as in
the readers (which run before the choice: a reader of an inventory *is* the documentation
convention), every genre applies; inside one, a genre left out gives its word lists empty
(``core/packs.genre_words``).
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path

from .errors import ConfigError

# None: no book's genres are set, every genre applies
_IN_USE: ContextVar[frozenset[str] | None] = ContextVar("crossbook_genres_in_use", default=None)


def genre_active(genre: str) -> bool:
    """Whether the words of ``genre`` apply to the work under way (always, outside ``genres_in_use``)."""
    in_use = _IN_USE.get()
    return in_use is None or genre in in_use


def genres_now() -> frozenset[str] | None:
    """The genres that apply to the work under way; None: every genre."""
    return _IN_USE.get()


@contextmanager
def genres_in_use(genres: Iterable[str] | None) -> Iterator[None]:
    """Within the block only ``genres`` apply (None: every genre, as outside any block)."""
    token = _IN_USE.set(None if genres is None else frozenset(genres))
    try:
        yield
    finally:
        _IN_USE.reset(token)


@dataclass(frozen=True)
class GenrePack:
    """One genre pack: its name, its word lists and the signals that show a book is of it."""

    name: str
    description: str
    words: dict = field(default_factory=dict)
    detect: dict = field(default_factory=dict)
    fingerprint: str = ""
    relations: dict = field(default_factory=dict)  # [relations]: ontology, prose, structure

    @property
    def vocabulary(self) -> str | None:
        """The ontology pack of this genre's relations (``[relations] ontology``), or None."""
        name = self.relations.get("ontology")
        return str(name) if name else None


def parse_genre_pack(text: str, where: str, stem: str) -> GenrePack | None:
    """The genre pack of a TOML text, or None when it has neither ``[words]`` nor ``[detect]``
    (a domain pack). Raises ConfigError for a file that is not TOML."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"pack {where} is not valid TOML ({exc})") from None
    if "words" not in data and "detect" not in data:
        return None
    return GenrePack(name=str(data.get("name", stem)), description=str(data.get("description", "")),
                     words=dict(data.get("words", {})), detect=dict(data.get("detect", {})),
                     fingerprint=hashlib.sha256(text.encode("utf-8")).hexdigest(),
                     relations=dict(data.get("relations", {})))


def load_genre_packs(directory: Path) -> tuple[GenrePack, ...]:
    """Every genre pack in ``directory``, by file name. Raises ConfigError for an unreadable one."""
    packs = []
    for path in sorted(directory.glob("*.toml")):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"cannot read pack {path}: {exc}") from None
        pack = parse_genre_pack(text, str(path), path.stem)
        if pack is not None:
            packs.append(pack)
    return tuple(packs)


def _chosen(packs: Iterable[GenrePack], genres: Iterable[str] | None) -> list[GenrePack]:
    """The packs of ``genres`` (None: every pack, as for a book that shows no genre)."""
    return list(packs) if genres is None else [p for p in packs if p.name in set(genres)]


def reads_prose(packs: Iterable[GenrePack], genres: Iterable[str] | None) -> bool:
    """Whether a book of ``genres`` has its relations read from its sentences (the pattern
    families, spaCy's parse): one of its genres says ``prose = true``, or it has none of the
    packs' genres (a book of no known genre is read as every book was before genres chose)."""
    chosen = _chosen(packs, genres)
    return not chosen or any(bool(p.relations.get("prose")) for p in chosen)


def reads_structure(packs: Iterable[GenrePack], genres: Iterable[str] | None) -> bool:
    """Whether a book of ``genres`` has relations read from its structure (``structure = true``)."""
    return any(bool(p.relations.get("structure")) for p in _chosen(packs, genres))


def genres_fingerprint(packs: Iterable[GenrePack]) -> str:
    """One short fingerprint of the genre packs a choice was made with."""
    digest = hashlib.sha256()
    for pack in sorted(packs, key=lambda p: p.name):
        digest.update(f"{pack.name}:{pack.fingerprint}\n".encode())
    return digest.hexdigest()[:12]
