"""A member named with its owner, as users type it: ``Basket.tally_all``, ``json.dumps``,
``syn::Ident::new``, ``Document#convert``, ``GtkWidget:visible``.

When no stored name is the whole of it, such a name is read as a member (its last part)
and its owner (the part before, the outer parts around that): the member's own entities
are looked up as any name is, and of their mentions those in the owner's place come first:
a section whose headings name the owner ("API > Context", "Struct syn::token::Lt"), or a
page whose path does (``scala/runtime/RichChar.html``). A stored name that ends with the
whole of it (``click.Context.close`` for ``Context.close``) names the member too.

It reads only what is stored: the member's mentions, their sections' headings and files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlite_utils import Database

from ..core.normalize import normalize_name
from ..core.words import KEY_WORD

# the separators of qualified names in code: C++'s and Rust's "::", Ruby's "#", C's "->",
# a dot (Python, Java, a C field), GTK's ":" before a property; a member's name may hold
# none of them
_SEPARATOR = re.compile(r"::|->|[#.:]")
# what a part of a qualified name is not: a space, or a number alone
_NOT_CODE = re.compile(r"\s|^\d+$")
# owner_rank's: the headings name the owner, the page's path does, neither
IN_OWNER_HEADINGS, ON_OWNER_PAGE, OUTSIDE_OWNER = 0, 1, 2


@dataclass(frozen=True)
class Qualified:
    """A name read as ``owner`` (its innermost qualifier) and ``member``; ``outer``: the
    qualifiers around the owner, outermost first (``syn`` of ``syn::Ident::new``)."""

    owner: str
    member: str
    outer: tuple[str, ...] = ()

    def owner_words(self) -> list[tuple[str, ...]]:
        """Each qualifier's words, case-folded, the owner first."""
        out = []
        for part in (self.owner, *reversed(self.outer)):
            words = tuple(KEY_WORD.findall(part.casefold()))
            if words:
                out.append(words)
        return out


def split_qualified(name: str) -> Qualified | None:
    """``name`` read as a qualified member, or None unless it is two parts or more of code
    between separators: each spells something, holds no space and is no number (``.5``,
    ``a..b``, ``3.14`` and "Frost Lance: Level 2" are not)."""
    text = name.strip().removesuffix("()")
    parts = _SEPARATOR.split(text)
    if len(parts) < 2 or not all(normalize_name(part) and not _NOT_CODE.search(part) for part in parts):
        return None
    return Qualified(owner=parts[-2], member=parts[-1], outer=tuple(parts[:-2]))


def _has_run(words: list[str], run: tuple[str, ...]) -> bool:
    size = len(run)
    return any(tuple(words[i:i + size]) == run for i in range(len(words) - size + 1))


def owner_rank(qualified: Qualified, heading_path: str | None, file: str | None) -> int:
    """How surely a mention's place is the owner's: ``IN_OWNER_HEADINGS`` (its section's
    headings name the owner), ``ON_OWNER_PAGE`` (its page's path does) or ``OUTSIDE_OWNER``
    (an outer qualifier alone is not the owner)."""
    runs = qualified.owner_words()
    if not runs:
        return OUTSIDE_OWNER
    owner = runs[0]
    if _has_run(KEY_WORD.findall((heading_path or "").casefold()), owner):
        return IN_OWNER_HEADINGS
    if _has_run(KEY_WORD.findall((file or "").casefold()), owner):
        return ON_OWNER_PAGE
    return OUTSIDE_OWNER


def names_ending_with(db: Database, name: str) -> list[str]:
    """The entity keys whose entity, or an alias of it, is stored under a name that ends with
    the whole of ``name`` after a separator (``click.Context.close`` for ``Context.close``),
    in any case."""
    key = normalize_name(name)
    if not key:
        return []
    # LIKE folds ASCII case, as a lookup folds a code name's; "_" and "%" escaped to be themselves
    tail = "%\\_" + key.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    found = {r[0] for r in db.execute("SELECT normalized FROM entities WHERE normalized LIKE ? ESCAPE '\\'", [tail])}
    found |= {r[0] for r in db.execute(
        "SELECT DISTINCT a.canonical FROM entity_aliases a WHERE a.normalized LIKE ? ESCAPE '\\'"
        " AND EXISTS (SELECT 1 FROM entities e WHERE e.normalized = a.canonical)", [tail])}
    return sorted(found)
