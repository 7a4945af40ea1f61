"""Code names close to a name that matches nothing, by their parts: what a lookup suggests
before prose words (query/naming.py's ``suggest``).

A code name is written without a space and is cut into parts at ``_``, ``-``, ``.``, ``::``,
``#``, ``->``, ``:`` and ``/`` (``frob_read_at``: frob, read, at); it is not an ordinary word
(``Spool``, "Frost Lance"). A name typed without a space (``frob_read``) is offered, in this
order:

1. the code names that begin with it (``frob_read_at``, ``frob_readv``), shortest first;
2. those that hold it whole, as parts of their own (``do_frob_read``), or that it begins
   with as parts (``frob`` for ``frob_read_all``);
3. those that share parts with it: the most leading parts shared first, then the most parts
   shared (``frob_write`` shares ``frob`` first; ``spool_read`` shares ``read``); the last
   part typed may be cut short (``cairo_set_sourc`` shares three parts with
   ``cairo_set_source_rgb``).

A shared part is two characters or more and not a number, so ``a`` or ``2`` bring nothing.
Case is folded; call parentheses and a command's backslash are left out.
"""

from __future__ import annotations

import re

_CUT = re.compile(r"::|->|[_.#:/\-]")
# a name that is code though it holds no separator: a camelCase or PascalCase hump
# (``tallyAll``, ``RichChar``), a call, a backslash command
_HUMP = re.compile(r"[a-z0-9][A-Z]")


def _bare(name: str) -> str:
    return name.strip().removesuffix("()").lstrip("\\").casefold()


def code_parts(name: str) -> tuple[str, ...] | None:
    """The parts of ``name`` when it is a code name (the module's rule), else None."""
    text = name.strip()
    if not text or any(c.isspace() for c in text):
        return None
    if not (_CUT.search(text) or _HUMP.search(text) or text.endswith("()") or text.startswith("\\")):
        return None
    parts = tuple(part for part in _CUT.split(_bare(text)) if part)
    return parts or None


def _counts(part: str) -> bool:
    return len(part) >= 2 and not part.isdigit()


def _rank(asked: str, asked_parts: tuple[str, ...], name: str, parts: tuple[str, ...]) -> tuple | None:
    """The sort key of a code name ``name`` (its ``parts``) as a suggestion for ``asked``, or
    None when it shares nothing with it that counts."""
    bare = _bare(name)
    if bare == asked:
        return None
    if bare.startswith(asked):
        return (0, len(bare), bare)
    size, whole = len(asked_parts), asked_parts
    holds = any(parts[i:i + size] == whole for i in range(len(parts) - size + 1))
    if holds or (len(parts) < size and asked_parts[:len(parts)] == parts and _counts(parts[0])):
        return (1, len(bare), bare)
    shared = [part for part in asked_parts if _counts(part) and _among(part, part is asked_parts[-1], parts)]
    if not shared:
        return None
    lead = 0
    while lead < min(size, len(parts)) and _same(asked_parts[lead], lead == size - 1, parts[lead]):
        lead += 1
    return (2, -lead, -len(shared), len(bare), bare)


def _same(asked: str, last: bool, part: str) -> bool:
    """Whether a name's ``part`` is the part ``asked`` (the ``last`` part typed may be cut
    short: ``sourc`` of ``source``)."""
    return part == asked or (last and _counts(asked) and part.startswith(asked))


def _among(asked: str, last: bool, parts: tuple[str, ...]) -> bool:
    return any(_same(asked, last, part) for part in parts)


def by_parts(asked: str, names: list[str], limit: int) -> list[str]:
    """Up to ``limit`` of ``names`` (as written) that are code names close to ``asked`` by
    their parts, closest first (the module's order); [] when ``asked`` holds a space."""
    if not asked.strip() or any(c.isspace() for c in asked.strip()):
        return []
    bare = _bare(asked)
    asked_parts = tuple(part for part in _CUT.split(bare) if part)
    if not asked_parts:
        return []
    ranked = []
    for name in names:
        parts = code_parts(name)
        if parts is None:
            continue
        key = _rank(bare, asked_parts, name, parts)
        if key is not None:
            ranked.append((key, name))
    ranked.sort()
    return [name for _, name in ranked[:limit]]
