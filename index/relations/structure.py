"""Where a chunk sits in its book's structure, for the offline relationship path: the block
labels of its book and the entry it belongs to. Read-only SQL and pure helpers.

- A *block label* is a heading a book repeats over sections of different entries ("Actions",
  "Spells", "Gear", "Enhancements" under each power): a heading title that opens
  ``LABEL_MIN`` or more sections with a body of their own (or sections under them), under as
  many different parents.
  A section embedded in several notes (an Obsidian ``![[Note]]``) repeats its title with no
  body of its own, so it is no label. A label is structure, never a relationship's subject
  or target.
- The *owner* of a chunk is the entry it belongs to: the entity defined by the heading of
  the nearest section at or above it that defines exactly one, skipping labels (an
  "Actions" section under a creature belongs to the creature). It is the implicit subject
  of a label section's sentences, and of its sub-entries' ("Cave Bear › Bite"); a spell list
  or gear list section ("Spells", "Starting Equipment") is taken as a label section too, so
  its items are what its entry casts or wields.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable

from sqlite_utils import Database

from ..core.models import SUB_ENTRY_SEPARATOR
from ..core.normalize import normalize_name
from ..extract.entry_kinds import thing_kinds
from ..storage.store import in_values
from .pattern_lists import list_kind
from .patterns import is_category_line

LABEL_MIN = 3
PATH_SEPARATOR = " > "

EntityKey = tuple[str, str]


@dataclass(frozen=True)
class Owner:
    name: str
    key: EntityKey


@dataclass(frozen=True)
class ChunkPlace:
    labels: frozenset[str]          # normalized block labels of the chunk's book
    is_label: bool                  # the chunk's own heading is a block label, or a spell or gear list's
    owner: Owner | None             # the entry the chunk belongs to (None: none above it)
    heading: str = ""               # the chunk's own heading, normalized


def is_label_name(name: str, labels: frozenset[str]) -> bool:
    """Whether an entity's name (or a sub-entry's own name) is one of the book's labels."""
    return normalize_name(name.rpartition(SUB_ENTRY_SEPARATOR)[2]) in labels


def chunk_places(db: Database, chunks: set[str] | None) -> dict[str, ChunkPlace]:
    """The place of each parent chunk (of ``chunks``, or all): its book's labels and owner."""
    condition, params = in_values("id", chunks)
    books = [r[0] for r in db.execute(
        f"SELECT DISTINCT book FROM chunks WHERE kind = 'parent' AND {condition}", params)]
    book_condition, book_params = in_values("c.book", books)
    sections: dict[str, list[tuple[str, str, str, bool]]] = defaultdict(list)
    opening: dict[str, str] = {}
    for chunk_id, book, path, heading, has_body, start in db.execute(
        "SELECT c.id, c.book, c.heading_path, c.heading, CASE WHEN instr(c.text, char(10)) = 0 THEN 0"
        " ELSE trim(substr(c.text, instr(c.text, char(10)) + 1), ' ' || char(9) || char(10) || char(13)) != '' END,"
        f" substr(c.text, 1, 400) FROM chunks c WHERE c.kind = 'parent' AND {book_condition}", book_params,
    ):
        sections[book].append((chunk_id, path, heading or "", bool(has_body)))
        opening[chunk_id] = start
    defined: dict[tuple[str, str], list[Owner]] = defaultdict(list)
    for book, path, name, normalized, entity_type in db.execute(
        "SELECT DISTINCT c.book, c.heading_path, e.name, e.normalized, e.entity_type"
        " FROM entity_mentions m JOIN entities e ON e.id = m.entity_id JOIN chunks c ON c.id = m.chunk_id"
        f" WHERE m.mention_type = 'defines' AND m.source = 'heading' AND {book_condition}", book_params,
    ):
        defined[(book, path)].append(Owner(name, (normalized, entity_type)))
    wanted = None if chunks is None else set(chunks)
    out: dict[str, ChunkPlace] = {}
    for book, rows in sections.items():
        labels = book_labels(rows)
        for chunk_id, path, heading, _ in rows:
            if wanted is not None and chunk_id not in wanted:
                continue
            owner = _owner(book, path, labels, defined)
            is_label = normalize_name(heading) in labels \
                or _list_title(heading, defined.get((book, path), ()), opening[chunk_id]) \
                or _under_a_label(path, labels, owner is not None)
            out[chunk_id] = ChunkPlace(labels, is_label, owner, normalize_name(heading))
    return out


def _list_title(heading: str, defined: Iterable[Owner], text: str) -> bool:
    """True for a spell or gear list's title ("Spells", "Starting Equipment"), unless the
    section defines a thing by that very name and opens with its category line: "Demon
    Armor" + "*Armor (plate), very rare*" is an item, not a list of armor."""
    if list_kind(heading) is None:
        return False
    body = text.split("\n", 1)[1] if text.lstrip().startswith("#") and "\n" in text else text
    first = next((line for line in body.splitlines() if line.strip()), "")
    return not (is_category_line(first) and any(
        normalize_name(o.name) == normalize_name(heading) and o.key[1] in thing_kinds() for o in defined))


def book_labels(rows: list[tuple[str, str, str, bool]]) -> frozenset[str]:
    """The normalized headings that open ``LABEL_MIN`` or more sections with a body, under as
    many different parents; ``rows``: (chunk id, heading path, heading, has a body)."""
    parents: dict[str, set[str]] = defaultdict(set)
    # a heading over sections of its own ("#### Actions" + "##### Bite") has a body too
    opens = {path.rpartition(PATH_SEPARATOR)[0] for _, path, _, _ in rows}
    for _, path, heading, has_body in rows:
        key = normalize_name(heading)
        if key and (has_body or path in opens) and path.endswith(heading):
            parents[key].add(path[: -len(heading)])
    return frozenset(k for k, seen in parents.items() if len(seen) >= LABEL_MIN)


def _under_a_label(path: str, labels: frozenset[str], owned: bool) -> bool:
    """True for a section inside an entry's label section: "Tail Sweep" under the drake's
    "Actions" is a detail of the drake, as the label section is."""
    titles = path.split(PATH_SEPARATOR)[:-1]
    return owned and any(normalize_name(t) in labels for t in titles)


def _owner(book: str, path: str, labels: frozenset[str], defined: dict) -> Owner | None:
    titles = path.split(PATH_SEPARATOR)
    for depth in range(len(titles), 0, -1):
        here = defined.get((book, PATH_SEPARATOR.join(titles[:depth])), [])
        if normalize_name(titles[depth - 1]) in labels or list_kind(titles[depth - 1]):
            continue
        found = [o for o in here if normalize_name(o.name) not in labels]
        if len(found) == 1:
            return found[0]
        if found:
            return None
    return None


def defined_entities(db: Database, names: set[str]) -> dict[str, Owner]:
    """normalized name -> the entity of that name a book defines (one defined by a heading
    first): the owners named by sub-entries ("Cave Bear" of "Cave Bear › Bite")."""
    condition, params = in_values("e.normalized", names)
    out: dict[str, tuple[int, Owner]] = {}
    for name, normalized, entity_type, by_heading in db.execute(
        "SELECT e.name, e.normalized, e.entity_type, max(m.source = 'heading') FROM entities e"
        " JOIN entity_mentions m ON m.entity_id = e.id"
        f" WHERE m.mention_type = 'defines' AND {condition} GROUP BY e.id ORDER BY e.id", params,
    ):
        rank = int(bool(by_heading))
        if normalized not in out or rank > out[normalized][0]:
            out[normalized] = (rank, Owner(name, (normalized, entity_type)))
    return {k: owner for k, (_, owner) in out.items()}
