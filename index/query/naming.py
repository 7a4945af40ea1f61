"""Naming a book or an entity as a user types it: what the query commands and the API resolve first.

A book is named by its title in any case, a unique prefix of one, or its id
(``resolve_book``; a name that fits none, or several, is an error that lists the close
ones). An entity is named by any of its names, normalized (``resolve_entity``); an
unknown name is an EntityNotFound that suggests the closest known names (``suggest``).
"""

from __future__ import annotations

from sqlite_utils import Database

from ..core.errors import BadInput, BookNotFound, EntityNotFound
from ..core.normalize import case_folded, fold_accents, normalize_name, normalized_tokens, unslashed

# -- naming a book ----------------------------------------------------------------------------

def _book_rows(db: Database) -> list[tuple[int, str]]:
    return [(r[0], r[1]) for r in db.execute("SELECT rowid, title FROM books ORDER BY title")]


def _listing(titles: list[str], limit: int = 10) -> str:
    shown = ", ".join(f"'{t}'" for t in titles[:limit])
    return shown + (f" and {len(titles) - limit} more" if len(titles) > limit else "")


def resolve_book(db: Database, name: str, option: str = "--book") -> str:
    """The title of the one book ``name`` stands for: the exact title, the same title in
    any case or accents, the book's id (``crossbook books`` shows it), or a unique prefix
    of the title (a leading "The" optional: "ashen" finds "The Ashen Grimoire").

    ``option`` names where the name was given (``--book``), for the errors; "" for a
    command's own argument (``delete-book``, ``show``). Every command that names a book
    resolves it here. Raises BookNotFound naming the candidates when none or several
    books match, BadInput for an empty name.
    """
    rows = _book_rows(db)
    titles = [title for _, title in rows]
    if name in titles:
        return name
    key = fold_accents(normalize_name(name))
    named = f"{option} '{name}'" if option else f"book '{name}'"
    if not key:
        raise BadInput(f"{option or 'the book'} is empty (give a book title, a prefix of one, or its id; see: crossbook books)")
    same = [t for t in titles if fold_accents(normalize_name(t)) == key]
    if len(same) == 1:
        return same[0]
    if name.strip().isdigit():
        by_id = [t for rowid, t in rows if rowid == int(name)]
        if by_id:
            return by_id[0]
    prefixed = same or [t for t in titles if _starts_with(t, key)]
    if len(prefixed) == 1:
        return prefixed[0]
    if prefixed:
        raise BookNotFound(f"{named} matches several books: {_listing(prefixed)} (give more of the title)")
    if not titles:
        raise BookNotFound(f"{named}: the index has no books yet (run: crossbook ingest BOOK)")
    close = _closest(name, titles)
    hint = f"did you mean {_listing(close)}?" if close else f"books: {_listing(titles)}"
    missing = f"{option} '{name}' is not a book in the index" if option else f"book '{name}' is not in the index"
    raise BookNotFound(f"{missing} ({hint} see: crossbook books)")


def resolve_book_to_change(db: Database, name: str, option: str = "") -> str:
    """``resolve_book`` for a command that changes or removes the book (delete-book): a
    number that is one book's id and also the start of another book's title ("1" beside
    "1984") names neither, and BookNotFound lists both."""
    title = resolve_book(db, name, option)
    if title != name and name.strip().isdigit():
        rows = _book_rows(db)
        key = fold_accents(normalize_name(name))
        by_id = [t for rowid, t in rows if rowid == int(name)]
        prefixed = [t for _, t in rows if _starts_with(t, key) and t not in by_id]
        if by_id and prefixed:
            raise BookNotFound(f"'{name}' is both the id of '{by_id[0]}' and the start of {_listing(prefixed)}:"
                               " give the whole title (see: crossbook books)")
    return title


def resolve_books(db: Database, names: tuple[str, ...] | list[str], option: str = "--book") -> tuple[str, ...]:
    """``resolve_book`` for each name, in order, without repeats."""
    return tuple(dict.fromkeys(resolve_book(db, name, option) for name in names))


def books_left(db: Database, books: tuple[str, ...] | list[str],
               exclude_books: tuple[str, ...] | list[str]) -> tuple[str, ...] | None:
    """The titles a query keeps: ``books`` (every book when none is named) without
    ``exclude_books``, both named as resolve_book() takes them. Returns () for "every
    book" (nothing to filter), None when the exclusions leave no book. Raises BookNotFound."""
    titles = resolve_books(db, books)
    excluded = resolve_books(db, exclude_books, "--exclude-book")
    if not excluded:
        return titles
    every = [row[0] for row in db.execute("SELECT title FROM books ORDER BY title")]
    kept = tuple(t for t in (titles or every) if t not in excluded)
    return kept or None


def _starts_with(title: str, key: str) -> bool:
    """Whether ``key`` (a folded name key) begins the title, with or without its article."""
    keys = (normalize_name(title), normalized_tokens(title).strip("_"))
    return any(fold_accents(k).startswith(key) for k in keys)


def _closest(query: str, choices: list[str], limit: int = 5, cutoff: float = 60) -> list[str]:
    """``choices`` most similar to ``query`` first (rapidfuzz WRatio over case- and
    accent-folded text), those under ``cutoff`` left out."""
    from rapidfuzz import fuzz, process, utils

    matches = process.extract(query, choices, scorer=fuzz.WRatio, limit=limit, score_cutoff=cutoff,
                              processor=lambda text: utils.default_process(fold_accents(text)))
    return [m[0] for m in matches]


# -- naming an entity -------------------------------------------------------------------------

def _known_names(db: Database) -> dict[str, tuple[str, set[str]]]:
    """Every name the index knows an entity by -> (that name as written, the entities'
    normalized keys): entity names, names mentions were written with (an alias the linker
    found), the aliases the books declare, and the aliases of the index's domain pack."""
    names: dict[str, tuple[str, set[str]]] = {}

    def add(written: str, key: str) -> None:
        names.setdefault(normalize_name(written), (written, set()))[1].add(key)

    for written, key in db.execute("SELECT name, normalized FROM entities ORDER BY name"):
        add(written, key)
    for written, key in db.execute(
        "SELECT DISTINCT m.name, e.normalized FROM entity_mentions m JOIN entities e ON e.id = m.entity_id"
        " WHERE m.normalized != e.normalized OR m.name != e.name ORDER BY 1"
    ):
        add(written, key)
    for written, key in db.execute(  # names a book gives an entity: "Frost Lance (Ice Spear)", "aka", aliases:
        "SELECT DISTINCT a.alias, a.canonical FROM entity_aliases a"
        " WHERE EXISTS (SELECT 1 FROM entities e WHERE e.normalized = a.canonical) ORDER BY 1"
    ):
        add(written, key)
    from ..storage.store import index_pack  # the pack parser is only needed off the fast path

    pack = index_pack(db)
    if pack is not None:
        keys = {r[0] for r in db.execute("SELECT DISTINCT normalized FROM entities")}
        for canonical, aliases in pack.aliases.items():
            if normalize_name(canonical) in keys:
                for alias in aliases:
                    add(alias, normalize_name(canonical))
    return names


def suggest(db: Database, name: str, limit: int = 5) -> list[str]:
    """Entity names closest to ``name``: code names that share its parts first (a prefix, a
    ``_`` part: query/name_parts.py), then the most similar (rapidfuzz over case- and
    accent-folded names); an alias counts, and suggests the entity's own name."""
    from .name_parts import by_parts

    known = _known_names(db)
    canonical = {key: written for written, key in db.execute("SELECT name, normalized FROM entities ORDER BY name")}
    by_written = {written: keys for written, keys in known.values()}
    written_names = sorted(by_written)
    out: list[str] = []
    for written in by_parts(name, written_names, limit * 3) + _closest(name, written_names, limit=limit * 3):
        for key in sorted(by_written[written]):
            if canonical.get(key) and canonical[key] not in out:
                out.append(canonical[key])
    return out[:limit]


def as_typed(name: str) -> set[str]:
    """The forms of ``name`` an entity's own name may spell as typed, case and all: the name,
    without its call parentheses, and a qualified name's member (``tally_all`` of
    ``Basket.tally_all()``)."""
    from .qualified import split_qualified

    typed = name.strip()
    forms = {typed, typed.removesuffix("()")}
    qualified = split_qualified(typed)
    if qualified is not None:
        forms.add(qualified.member)
    return forms


def check_name(name: str) -> str:
    if not name or not name.strip():
        raise BadInput("entity name is empty (give a name, e.g. crossbook where-else 'Frost Lance')")
    normalized = normalize_name(name)
    if not normalized:
        raise BadInput(f"entity name '{name}' has no letters or digits")
    return normalized


def backslash_twins(db: Database, normalized: str) -> list[str]:
    """The entity keys ``normalized`` names with a word's opening backslash and its case
    folded, itself first: "definecolor" finds ``\\definecolor``, "caption" lists the
    ``\\caption`` command beside the caption package, and "\\rangehsb" lists ``\\rangeHsb``
    and ``\\rangeHSB`` (each stays an entity of its own)."""
    bare = case_folded(unslashed(normalized))
    # code words keep their case in a key (\\rangeHsb, \\rangeHSB, -s, -S): the name asked in
    # any case finds each of them (NOCASE folds ASCII, the letters of code names)
    found = [r[0] for r in db.execute(
        "SELECT DISTINCT normalized FROM entities WHERE normalized COLLATE NOCASE IN (?, ?, ?)",
        [normalized, bare, "\\" + bare])]
    return sorted(found, key=lambda key: (key != normalized, case_folded(key) != case_folded(normalized), key))


def resolve_entity(db: Database, name: str) -> tuple[list[str], str]:
    """The normalized keys of the entities ``name`` stands for, and how it matched: by
    name in any case ("name"), by an alias or another name the index saw it written as
    ("alias"), or with accents folded ("accents": "veloute" finds Velouté).

    Raises BadInput for an empty name and EntityNotFound with ranked suggestions."""
    normalized = check_name(name)
    twins = backslash_twins(db, normalized)
    if twins:
        return twins, "name"
    known = _known_names(db)
    if normalized in known:
        return sorted(known[normalized][1]), "alias"
    folded = fold_accents(normalized)
    keys = {key for name_key, (_, ks) in known.items() if fold_accents(name_key) == folded for key in ks}
    if keys:
        return sorted(keys), "accents"
    raise _not_found(db, name)


def _not_found(db: Database, name: str, what: str = "") -> EntityNotFound:
    suggestions = suggest(db, name)
    hint = f" Did you mean: {', '.join(suggestions)}?" if suggestions else ""
    return EntityNotFound(f"no entity named '{name}' in the index{what}.{hint}", suggestions)
