"""Answers sized for an assistant's context: a page of a list, a cursor that walks the rest
in order, a text cut at a character budget.

A cursor is opaque to the client: the tool, a fingerprint of the arguments that decide the
answer, where the next page starts and the index's generation when it was given
(``crossbook.storage.index_state.generation``, which every write bumps). A cursor from another
generation is refused: the answer it continues may have changed under it.
"""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Any

from crossbook.api import BadInput


def fingerprint(arguments: dict[str, Any]) -> str:
    """A short hash of the arguments that decide an answer (not the page size, not the cursor)."""
    text = json.dumps(arguments, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def make_cursor(tool: str, arguments: dict[str, Any], generation: int, offset: int | list[int]) -> str:
    """The cursor that continues ``tool``'s answer for ``arguments`` at ``offset``."""
    raw = json.dumps({"t": tool, "h": fingerprint(arguments), "g": generation, "o": offset}, separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def read_cursor(cursor: str, tool: str, arguments: dict[str, Any], generation: int, first: Any = 0) -> Any:
    """Where the page ``cursor`` asks for starts: an offset of the form of ``first`` (the
    first page's: a count, or a list of that many counts). Raises BadInput, in one sentence,
    for a cursor this server did not give (a negative offset, one of another form), one given
    for another query, or one from before the index changed."""
    again = f"call {tool} again without a cursor"
    try:
        padded = cursor.strip() + "=" * (-len(cursor.strip()) % 4)
        data = json.loads(base64.urlsafe_b64decode(padded.encode()))
        offset, made_for, made_at = data["o"], (data["t"], data["h"]), int(data["g"])
    except (ValueError, KeyError, TypeError):
        raise BadInput(f"the cursor is not one this server gave: {again}") from None
    if made_for != (tool, fingerprint(arguments)):
        raise BadInput(f"the cursor belongs to another query: {again} or with the arguments it came with")
    if made_at != generation:
        raise BadInput(f"the index changed since this cursor was given (a book was added or removed): {again}")
    if not _offset_like(offset, first):
        raise BadInput(f"the cursor is not one this server gave: {again}")
    return offset


def _offset_like(offset: Any, first: Any) -> bool:
    """Whether ``offset`` is one a page can start at: a count from 0 where ``first`` is a
    count, a list of as many counts where it is a list (``show``: a section and a character)."""
    if isinstance(first, list):
        return isinstance(offset, list) and len(offset) == len(first) and all(map(_count, offset))
    return _count(offset)


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def cut(text: str, budget: int) -> tuple[str, bool]:
    """``text`` cut to ``budget`` characters (at a word boundary when one is near), and
    whether it was cut."""
    if len(text) <= budget:
        return text, False
    head = text[:budget]
    space = head.rfind(" ", budget - 80)
    return (head[:space] if space > 0 else head).rstrip() + " …", True


def flat_mentions(entities: list[dict]) -> list[tuple[int, int, dict]]:
    """where_else's mentions in order, each with the index of its entity and book group."""
    return [(e, b, mention) for e, entity in enumerate(entities)
            for b, group in enumerate(entity["books"]) for mention in group["mentions"]]


def mentions_page(entities: list[dict], offset: int, limit: int) -> list[dict]:
    """The entities and book groups of the mentions ``offset`` to ``offset + limit``, in the
    same nesting as where_else's answer; an entity or a book with none on the page is left out."""
    out: list[dict] = []
    placed: dict[tuple[int, int], list] = {}
    for e, b, mention in flat_mentions(entities)[offset:offset + limit]:
        if (e, b) not in placed:
            if not out or out[-1]["_index"] != e:
                entity = {k: v for k, v in entities[e].items() if k != "books"}
                out.append({**entity, "books": [], "_index": e})
            placed[(e, b)] = []
            out[-1]["books"].append({"book": entities[e]["books"][b]["book"], "mentions": placed[(e, b)]})
        placed[(e, b)].append(mention)
    for entity in out:
        del entity["_index"]
    return out
