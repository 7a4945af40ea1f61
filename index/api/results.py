"""The API's results: typed views of the JSON documents the CLI prints with ``--json``.

Each result keeps the document (``to_dict()`` is exactly what ``crossbook ... --json``
prints, one schema for both) and exposes its main parts as typed attributes.
"""

from __future__ import annotations

import copy
import json
from typing import Any, Iterator


def _plain(value: Any) -> Any:
    """``value`` as plain JSON data: what the CLI's json.dumps(default=...) makes of it."""
    def default(item: Any) -> Any:
        if hasattr(item, "to_dict"):
            return item.to_dict()
        if isinstance(item, (set, tuple)):
            return list(item)
        return str(item)

    return json.loads(json.dumps(value, ensure_ascii=False, default=default))


class Result:
    """One answer. ``to_dict()`` is the CLI's ``--json`` document; ``to_json()`` its text."""

    def __init__(self, document: Any):
        self._document = _plain(document)

    def to_dict(self) -> Any:
        return copy.deepcopy(self._document)

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self._document, ensure_ascii=False, indent=indent)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._document == self._document  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.to_json(None)[:200]})"


class ListResult(Result):
    """An answer that lists things: it iterates over them and its length is their number
    (``for mention in shelf.where_else("Frost Lance")``, ``len(shelf.search("frost"))``,
    ``result[0]``); the items are plain dicts, copies of the document's. An empty one is falsy."""

    def _items(self) -> list:
        raise NotImplementedError

    def __iter__(self) -> Iterator[dict]:
        return iter(self._items())

    def __len__(self) -> int:
        return len(self._items())

    def __getitem__(self, index: int) -> dict:
        return self._items()[index]


class WhereElse(ListResult):
    """Every mention of an entity across books, grouped by book, definitions first."""

    @property
    def query(self) -> str:
        return self._document["query"]

    @property
    def matched_by(self) -> str:
        """How the name matched: "name", "alias", "accents", "sub-entry", or for a member typed
        with its owner (``Basket.tally_all``) "qualified" (found in the owner's place) or
        "member" (the owner's place not found: every mention of the member)."""
        return self._document["matched_by"]

    @property
    def entities(self) -> list[dict]:
        """[{id, name, entity_type, books: [{book, mentions: [{chunk_id, heading_path,
        mention_type, context, pages, file, ...}]}]}]"""
        return copy.deepcopy(self._document["entities"])

    @property
    def mentions(self) -> list[dict]:
        """Every mention, flattened, each with its entity's name under "entity"."""
        return [{**copy.deepcopy(m), "entity": e["name"]} for e in self._document["entities"]
                for group in e["books"] for m in group["mentions"]]

    def _items(self) -> list:
        return self.mentions


class EntityDetail(ListResult):
    """One entity (or the few a name stands for): type, definitions, references per book, relationships."""

    @property
    def query(self) -> str:
        return self._document["query"]

    @property
    def entities(self) -> list[dict]:
        """[{name, entity_type, definitions: [{book, heading_path, chunk_id, context, pages, file}],
        references_by_book: {book: n}, related: [...]}]"""
        return copy.deepcopy(self._document["entities"])

    def _items(self) -> list:
        return self.entities


class Explanation(ListResult):
    """Why a name is stored as it is: each mention with the rule that stored it, each
    candidate a veto dropped; it iterates over the mentions."""

    @property
    def mentions(self) -> list[dict]:
        """[{book, heading_path, chunk_id, mention_type, name, entity_type, source, rule, pages, file}]"""
        return copy.deepcopy(self._document["mentions"])

    @property
    def vetoes(self) -> list[dict]:
        """[{book, heading_path, chunk_id, stage, name, rule, pages, file}]"""
        return copy.deepcopy(self._document["vetoes"])

    def _items(self) -> list:
        return self.mentions


class EntityList(ListResult):
    """What ``entities`` gives: the entities by name, with a count per type."""

    @property
    def count(self) -> int:
        return self._document["count"]

    @property
    def by_type(self) -> dict[str, int]:
        return dict(self._document["by_type"])

    @property
    def entities(self) -> list[dict]:
        """[{id, name, entity_type, defined_in: [book], books, mentions}]"""
        return copy.deepcopy(self._document["entities"])

    def _items(self) -> list:
        return self.entities


class Passages(ListResult):
    """Sections found by ``search`` or ``retrieve``, best first."""

    def __init__(self, document: dict):
        super().__init__(document)
        # the library's Passage objects, when the shelf built this result: their scores
        # unrounded (the JSON rounds them to 4 places), for a display that rounds its own way
        self._passages = [p for p in document["results"] if not isinstance(p, dict)]

    @property
    def passages(self) -> list:
        """The results as typed ``Passage`` objects (``p.book``, ``p.section`` (its heading path), ``p.score``,
        ``p.hop``, ``p.via``...), best first; empty for a result made from plain JSON."""
        return list(self._passages)

    @property
    def results(self) -> list[dict]:
        """[{chunk_id, book, heading_path, score, similarity, hop, text, pages, file, via, ...}]"""
        return copy.deepcopy(self._document["results"])

    def _items(self) -> list:
        return self.results

    @property
    def chunk_ids(self) -> list[str]:
        return [r["chunk_id"] for r in self._document["results"]]


class Sections(ListResult):
    """What ``show`` gives: sections with their text, book, heading path and pages."""

    @property
    def sections(self) -> list[dict]:
        """[{chunk_id, book, heading_path, pages, file, text, chunk_ids}]"""
        return copy.deepcopy(self._document["sections"])

    def _items(self) -> list:
        return self.sections

    @property
    def text(self) -> str:
        """The sections' text, one after another."""
        return "\n\n".join(s["text"] for s in self._document["sections"])


class Relationships(ListResult):
    """Typed relationships between entities (``to_dict()`` is a list, as the CLI prints it)."""

    @property
    def relationships(self) -> list[dict]:
        """[{id, relation_type, source, target, book, heading_path, chunk_id, evidence, status, review_state, ...}]"""
        return copy.deepcopy(self._document)

    def _items(self) -> list:
        return self.relationships


class Deleted(Result):
    """What ``delete_book`` removed."""

    @property
    def title(self) -> str:
        return self._document["title"]

    @property
    def entities_removed(self) -> int:
        return self._document["entities_removed"]


class Rebuilt(Result):
    """What ``rebuild`` did: the titles ``added``, ``updated``, ``deleted`` and ``unchanged``,
    and the books ``failed`` ([{path, error}]: each keeps its previous version)."""

    @property
    def failed(self) -> list[dict]:
        return copy.deepcopy(self._document["failed"])

    @property
    def added(self) -> list[str]:
        return list(self._document["added"])

    @property
    def updated(self) -> list[str]:
        return list(self._document["updated"])

    @property
    def deleted(self) -> list[str]:
        return list(self._document["deleted"])

    @property
    def unchanged(self) -> list[str]:
        return list(self._document["unchanged"])


class Reembedded(Result):
    """What ``reembed`` did: the ``embedder`` now, the ``previous`` one, chunks ``embedded``."""

    @property
    def embedder(self) -> str:
        return self._document["embedder"]

    @property
    def embedded(self) -> int:
        return self._document["embedded"]


class Reviewed(Result):
    """A relationship as a review decision left it ({id, source, relation_type, target,
    status, review_state, ...})."""

    @property
    def relationship(self) -> dict:
        return copy.deepcopy(self._document)
