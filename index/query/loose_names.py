"""An entry the question names loosely, linked to the index like a capitalized name
(retrieve.linked_seeds): in lower case ("the pounce of lion"), by the last words of its
name ("mephit" for the Dust, Ice, Magma and Steam Mephits; "sight" for Eldritch Sight), or
with an "X of Y" name turned round ("levitation boots" for Boots of Levitation, "five fates
thief" for Thief of Five Fates). A section whose heading no entity is defined by is an
entry too ("Empty Body", a class feature the extractor gave no entry: ``heading_sections``).

One lowercase word links an entry of a kind of thing only (a creature, a spell, an item, a
feature...; rules and topics are what prose questions talk in), and only a specific one (at
most SPECIFIC_UP_TO sections mention it: "spell" or "condition" are everywhere); a phrase of
words links an entry of any kind. A part of a name stands for entries of any kind when it is
no stopword, has a few letters, is ``distinctive`` (in few of the shelf's sections: "sight",
not "roll") and ends a few names (MAX_PARTS), and only when nothing is named whole; so the
sections that define them become first-hop seeds and the entries' stated relationships are
followed (named_entry.py).
"""

from __future__ import annotations

import sqlite3
from functools import lru_cache

from sqlite_utils import Database

from ..core.normalize import normalize_name
from ..extract.entry_kinds import thing_kinds
from ..storage.index_state import generation
from .question import LOOSE_WORDS, Question

SPECIFIC_UP_TO = 20     # sections mentioning an entity a lowercase phrase may link to
MAX_PARTS = 10          # entries one part of a name may stand for (the linked ones: the most like the question)
PART_MIN_LETTERS = 4    # a shorter part ("orc", "elf") is a word of too many names
PART_SHARE = 0.05       # a part is distinctive in at most this share of the sections ("sight", not "roll")
HEADING_UP_TO = 3       # sections one heading may name ("Spellcasting" under every class names none)
HEADING_WORDS = 2       # a heading names a section by at least this many words

def loose_names(db: Database, question: Question, known: set[str]) -> list[str]:
    """Normalized names of defined entries the question names loosely, not in ``known``:
    whole names in any case and turned-round "X of Y" names, longest phrase first; when
    neither these nor ``known`` name a defined entry, the entries a part of a name stands
    for (``loose_links`` gives the two apart)."""
    whole, parts = loose_links(db, question, known)
    return whole + parts


def loose_links(db: Database, question: Question, known: set[str]) -> tuple[list[str], list[str]]:
    """(whole names, names a part stands for), as ``loose_names`` orders them. A part is a
    word or phrase of the question (its ``loose_phrases``) that is no common entry itself ("creature"), is
    ``distinctive`` ("sight", "mephit"; not "spell", "roll" or "bonus"), ends the names of at
    most MAX_PARTS entries of any kind ("sight": Eldritch Sight, Witch Sight...; which of
    them the question means, its similarity says: retrieve.linked_seeds), and is only looked
    at when nothing is named whole; the longest parts that stand for names win ("energy
    blast": Basic and Master Energy Blast, not "blast": Mental Blast as well)."""
    table, every = _names(db), _every(db)
    exact: dict[str, int] = {}
    parts: dict[str, int] = {}
    written: dict[str, set[str]] = {}  # a part as the question writes it ("attack rolls")
    for part in question.loose_phrases:
        name = normalize_name(" ".join(part))
        if not name:
            continue
        exact[name] = max(exact.get(name, 0), len(part))
        if len(part) >= 2:  # "levitation boots": Boots of Levitation; "five fates thief": Thief of Five Fates
            head, rest = part[-1], " ".join(part[:-1])
            for turned in (f"{head} of {rest}", f"{head} of the {rest}"):
                exact[normalize_name(turned)] = max(exact.get(normalize_name(turned), 0), len(part))
        # a part that is itself a common entry ("target", "creature") stands for no name
        if sum(len(w) for w in part) >= PART_MIN_LETTERS and table.get(name, (0, False))[0] <= SPECIFIC_UP_TO:
            parts[name] = max(parts.get(name, 0), len(part))
            written.setdefault(name, set()).add(" ".join(part).casefold())
    # one lowercase word links a kind of thing only; a phrase of words any defined entry
    ordered = sorted((n for n in exact if n not in known and (_specific(table, n) if exact[n] == 1
                                                               else _specific(every, n))),
                     key=lambda n: (-exact[n], n))
    if ordered or any(n in table or n in _headings(db) for n in known):
        return ordered, []  # a part of a name only when nothing is named whole
    found: list[str] = []
    longest = 0
    for part in sorted(parts, key=lambda p: (-parts[p], p)):
        if parts[part] < longest:
            break  # a longer part stood for names: "energy blast", not "blast" as well
        ending = [n for n in _ends(db, part) if n != part and _specific(every, n) and not every[n][1]]
        if ending and len(ending) <= MAX_PARTS and distinctive(db, {part.replace("_", " "), *written[part]}):
            found += [n for n in ending if n not in found and n not in known]
            longest = parts[part]
    return ordered, found


def distinctive(db: Database, forms: set[str]) -> bool:
    """Whether a part, in any of its ``forms`` ("attack roll", "attack rolls"), occurs as a
    phrase in few of the index's sections (the linker's word index of each section): at
    most PART_SHARE of them, or SPECIFIC_UP_TO on a small shelf. An index without that word
    index says nothing against it."""
    query = " OR ".join('"' + form.replace('"', "") + '"' for form in sorted(forms))
    try:
        total = db.execute("SELECT count(*) FROM link_chunks").fetchone()[0]
        hits = db.execute("SELECT count(*) FROM link_words WHERE link_words MATCH ?", [query]).fetchone()[0]
    except sqlite3.OperationalError:
        return True
    return hits <= max(SPECIFIC_UP_TO, PART_SHARE * total)


def _specific(table: dict[str, tuple[int, bool]], name: str) -> bool:
    return name in table and table[name][0] <= SPECIFIC_UP_TO


def _names(db: Database) -> dict[str, tuple[int, bool]]:
    """normalized name -> (sections mentioning it, a sub-entry) of every defined entity of a
    kind of thing (a creature, a spell, an item, a feature, a class...: entry_kinds.thing_kinds),
    read once per index file and generation."""
    return _read_names(db, _path(db), generation(db), True)


def _all_names(db: Database) -> dict[str, tuple[int, bool]]:
    """As ``_names``, for defined entities of every kind."""
    return _read_names(db, _path(db), generation(db), False)


def _path(db: Database) -> str:
    return next((row[2] for row in db.execute("PRAGMA database_list") if row[1] == "main"), "")


@lru_cache(maxsize=8)
def _read_names(db: Database, path: str, generation: int, things: bool) -> dict[str, tuple[int, bool]]:
    out: dict[str, tuple[int, bool]] = {}
    for normalized, name, entity_type, sections in db.execute(
        "SELECT e.normalized, e.name, e.entity_type, count(DISTINCT m.chunk_id) FROM entities e"
        " JOIN entity_mentions m ON m.entity_id = e.id"
        " WHERE EXISTS (SELECT 1 FROM entity_mentions d WHERE d.entity_id = e.id AND d.mention_type = 'defines')"
        " GROUP BY e.id"):
        if things and entity_type not in thing_kinds():
            continue  # a rule or a topic is no entry a question names loosely
        current = out.get(normalized, (0, False))
        out[normalized] = (max(current[0], sections), current[1] or "›" in name)
    return out


def _ends(db: Database, part: str) -> list[str]:
    """The defined names of any kind ending in ``part``'s words ("mephit": "dust_mephit",
    "ice_mephit" ...; "sight": "eldritch_sight", "witch_sight" ...)."""
    return _suffixes(_all_names(db)).get(part, [])


def heading_sections(db: Database, names: list[str]) -> list[tuple[str, str, str, int]]:
    """(normalized name, heading, section, sections under that heading) for every name of
    ``names`` that no entity is defined by and that heads at most HEADING_UP_TO sections,
    in HEADING_WORDS words or more ("Empty Body", a class feature the extractor gave no
    entry of its own): its section is the entry the question names."""
    table = _headings(db)
    return [(name, heading, chunk_id, len(table[name])) for name in names for heading, chunk_id in table.get(name, ())]


def _headings(db: Database) -> dict[str, list[tuple[str, str]]]:
    """normalized heading -> [(heading, section)] of the headings ``heading_sections`` links."""
    return _read_headings(db, _path(db), generation(db))


@lru_cache(maxsize=8)
def _read_headings(db: Database, path: str, generation: int) -> dict[str, list[tuple[str, str]]]:
    defined = _all_names(db)
    out: dict[str, list[tuple[str, str]]] = {}
    for chunk_id, heading in db.execute(
            "SELECT id, heading FROM chunks WHERE kind = 'parent' AND part = 0 AND heading IS NOT NULL"):
        name = normalize_name(heading)
        if name.count("_") + 1 >= HEADING_WORDS and name not in defined:
            out.setdefault(name, []).append((heading, chunk_id))
    return {name: rows for name, rows in out.items() if len(rows) <= HEADING_UP_TO}


def _every(db: Database) -> dict[str, tuple[int, bool]]:
    """``_all_names`` and the headings ``heading_sections`` links, as (sections, False)."""
    return _read_every(db, _path(db), generation(db))


@lru_cache(maxsize=8)
def _read_every(db: Database, path: str, generation: int) -> dict[str, tuple[int, bool]]:
    return {**{name: (len(rows), False) for name, rows in _headings(db).items()}, **_all_names(db)}


def _suffixes(table: dict[str, tuple[int, bool]]) -> dict[str, list[str]]:
    key = id(table)
    if _SUFFIX_CACHE.get("key") != key:
        by_end: dict[str, list[str]] = {}
        for name in table:
            words = name.split("_")
            for cut in range(1, min(len(words), LOOSE_WORDS + 1)):
                by_end.setdefault("_".join(words[-cut:]), []).append(name)
        _SUFFIX_CACHE.clear()
        _SUFFIX_CACHE.update(key=key, table=table, by_end=by_end)
    return _SUFFIX_CACHE["by_end"]


_SUFFIX_CACHE: dict = {}
