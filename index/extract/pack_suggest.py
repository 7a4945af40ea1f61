"""``crossbook pack suggest``: a draft domain pack from the heading structure of books. Pure.

Each catalog a book holds (a category heading over three or more entries, as the offline
extractor sees it: index/extract/rules.py) becomes an entity type: the kind its category
names (index/extract/entry_kinds.py: "Spell Descriptions" -> ``spell``, "Monsters A–Z" ->
``creature``) or most of its entries state ("Angels" over stat blocks -> ``creature``), else
its category in the singular ("Powers" -> ``power``), with a heading rule and sample members; the books'
prose headings are listed as stop-heading candidates. The user edits the draft and passes
it with ``--pack``.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict

from ..chunk.chunking import book_title, parent_chunks, split_sections
from ..core.normalize import normalize_name
from ..core.packs import DomainPack, genre_words
from .entry_kinds import heading_kind, own_kind
from .headings import heading_name
from .rules import analyse_headings

SAMPLE_MEMBERS = 5




def _type_name(category: str) -> str:
    if kind := heading_kind(category):
        return kind  # "Spell Descriptions" -> spell, "Monsters A–Z" -> creature: the kinds the extractor gives
    words = normalize_name(category).split("_")
    tails = genre_words("rulebook", "type_name_tails")
    while len(words) > 1 and words[-1] in tails:
        words.pop()  # "Powers Catalog" -> power
    return normalize_name(" ".join(words)) or "other"


def _stated_kinds(parents) -> dict[str, str]:
    """Entry name -> the kind its section states of itself (a stat block, a category line)."""
    out = {}
    for parent in parents:
        named = heading_name(parent.heading) if parent.heading else None
        if named is not None and (kind := own_kind(parent.text, named.qualifier)):
            out[named.name] = kind
    return out


def _entries_kind(entries: list[str], stated: dict[str, str]) -> str | None:
    """The kind most of a catalog's entries state ("Angels" over three stat blocks -> creature)."""
    kinds = Counter(stated[e] for e in entries if e in stated)
    kind, count = kinds.most_common(1)[0] if kinds else (None, 0)
    return kind if count * 2 > len(entries) else None


def _escape(text: str) -> str:
    return re.escape(text).replace("\\ ", " ")


def _toml_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def suggest_pack(books: list[tuple[str, str]], base: DomainPack, name: str = "suggested") -> str:
    """A draft pack (TOML text) for ``books``: (file stem, Markdown text) pairs."""
    members: dict[str, list[str]] = defaultdict(list)
    headings: dict[str, set[str]] = defaultdict(set)
    topical: list[str] = []
    for stem, text in books:
        title = book_title(text, stem)
        parents = parent_chunks(title, split_sections(text))
        analysis = analyse_headings(parents, base, title)
        stated = _stated_kinds(parents)
        for category, entries in analysis.catalogs.items():
            type_name = _entries_kind(entries, stated) or _type_name(category)
            members[type_name].extend(e for e in entries if e not in members[type_name])
            headings[type_name].add(category)
        topical.extend(t for t in analysis.topical if t not in topical)
    lines = [
        f"name = {_toml_string(name)}",
        f"description = {_toml_string('Drafted by crossbook pack suggest from ' + ', '.join(s for s, _ in books) + '; edit before use.')}",
        'ontology = ["rulebook"]',
        "# prose headings seen in the books (they define nothing already; list more here)",
        "stop_headings = [",
        *(f"  {_toml_string(_escape(t))}," for t in topical[:40]),
        "]",
        "",
    ]
    for type_name in sorted(members):
        sample = ", ".join(members[type_name][:SAMPLE_MEMBERS])
        lines += [
            "[[entity_types]]",
            f"name = {_toml_string(type_name)}",
            f"description = {_toml_string('Entries under ' + ' / '.join(sorted(headings[type_name])) + ', e.g. ' + sample)}",
            f"cues = [{_toml_string(type_name)}]",
            "",
        ]
    lines += ["[[entity_types]]", 'name = "other"', 'description = "Anything that fits no other type."', ""]
    for type_name in sorted(members):
        pattern = "|".join(_escape(h) for h in sorted(headings[type_name]))
        lines += ["[[heading_rules]]", f"under = {_toml_string(pattern)}", f"type = {_toml_string(type_name)}", ""]
    lines += ["[aliases]", ""]
    return "\n".join(lines)
