"""Ontology packs: the relation vocabulary as data (``index/ontology/*.toml|json``).

A pack declares relation types (``mirror``, ``symmetric``, ``preferred_direction``,
``semantics``, ``aliases``, ``leads``: retrieval follows it from source to target), extra ``[aliases]`` (alias -> type, e.g. for inverse names),
type-pair ``constraints`` (``type``, ``source``, ``target`` entity types), per-source-type
relation ``maps`` (``pair_candidates``, ``signals``, ``anti_signals``, ``constraints`` with
``min_confidence``, ``allow_implicit``, ``requires_evidence``) and ``entity_type_aliases``
(an ontology entity type -> the domain pack types it covers, e.g. faction -> organization).

Several active packs merge in order: the first pack that declares a type fixes its mirror
(a later, conflicting declaration is recorded in ``Ontology.conflicts`` and ignored);
aliases, constraints and map entries are added. Of a mirror pair, the type declared first
is canonical (the stored direction) unless it says ``preferred_direction =
"target_to_source"``; a symmetric type is its own mirror.

Which packs are active: the domain pack's ``ontology = [...]`` (default ``["rulebook"]``),
then each shipped genre's vocabulary (its genre pack's ``[relations] ontology``:
``documentation`` for software documentation), then ``Settings.ontology``. The merged
ontology's source documents are stored in the index (``crossbook_meta.ontology``), so
delete-book and re-derivation use the same vocabulary.

One ontology for a shelf of several genres: every genre's types are in the index's ontology
whatever books it holds (a doc set joining a shelf of rulebooks changes no stored vocabulary,
so nothing is derived again for it), and a book's genres choose which of them its relations
take: a type of a genre's vocabulary applies to a book of that genre only (``applies``), and
the model is asked only for the types read from prose (``prompt_lines``).
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
import unicodedata
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path

from ..core.errors import ConfigError
from ..core.genres import genre_active
from ..core.packs import find_pack_file, shipped_genres

ONTOLOGY_DIR = Path(__file__).resolve().parent.parent / "ontology"
DEFAULT_PACKS = ("rulebook",)

_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)


def snake(raw: str) -> str:
    """``snake("CASTS") == "casts"``, ``snake("worksFor") == "works_for"``,
    ``snake("cast by") == "cast_by"``; '' when nothing is left."""
    text = unicodedata.normalize("NFKC", str(raw)).strip()
    text = _CAMEL.sub(r"\1_\2", text).casefold()
    return _NON_WORD.sub("_", text).strip("_")


@dataclass(frozen=True)
class RelationType:
    name: str
    mirror: str | None        # the inverse name; == name for a symmetric type
    symmetric: bool
    canonical: bool           # stored in this direction (the other of the pair is flipped)
    semantics: str
    pack: str
    leads: bool = False       # retrieval follows it from source to target (an item to the spell it casts)


@dataclass(frozen=True)
class MapEntry:
    """One relation of a per-source-type relation map."""

    source_type: str
    relation_type: str
    pair_candidates: tuple[str, ...]
    description: str = ""
    signals: tuple[str, ...] = ()
    anti_signals: tuple[str, ...] = ()
    min_confidence: float | None = None
    allow_implicit: bool | None = None
    requires_evidence: bool | None = None


@dataclass
class Ontology:
    packs: tuple[str, ...]
    types: dict[str, RelationType]
    aliases: dict[str, str]                              # alias -> type name
    pairs: dict[str, frozenset[tuple[str, str]]]         # canonical type -> allowed (source, target) types
    maps: dict[tuple[str, str], MapEntry]                # (source entity type, type) -> entry
    entity_type_aliases: dict[str, frozenset[str]]       # domain entity type -> ontology types it counts as
    documents: list[tuple[str, dict]] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)

    @property
    def fingerprint(self) -> str:
        return hashlib.sha256(self.to_json().encode("utf-8")).hexdigest()

    def to_json(self) -> str:
        """The source documents (re-merged by :func:`ontology_from_json`)."""
        # not sort_keys: declaration order decides which of a mirror pair is canonical
        return json.dumps([{"name": n, "data": d} for n, d in self.documents], ensure_ascii=False)

    def canonical_types(self) -> list[RelationType]:
        return [t for t in self.types.values() if t.canonical]

    def prose_types(self) -> list[RelationType]:
        """The canonical types a model may read from prose: those of no genre that states its
        relations by structure only (a doc set's members, index/relations/doc_structure.py)."""
        structural = _structure_only_vocabularies()
        return [t for t in self.canonical_types() if t.pack not in structural]

    def leading_types(self) -> list[str]:
        """The stored (canonical) types retrieval follows from source to target (``leads =
        true`` in a pack: what an item casts, what a creature wields or summons)."""
        return sorted(t.name for t in self.canonical_types() if t.leads)

    def inverse_name(self, type_name: str) -> str:
        """The name of ``type_name`` read from the target's side."""
        t = self.types.get(type_name)
        if t is not None and t.mirror:
            return t.mirror
        return f"inverse:{type_name}"

    def equivalents(self, entity_type: str) -> set[str]:
        return {entity_type, *self.entity_type_aliases.get(entity_type, ())}

    def applies(self, type_name: str) -> bool:
        """Whether ``type_name`` is a type the book being worked on may take: one of no genre's
        vocabulary, or of a genre that applies to it (core/genres.genres_in_use)."""
        t = self.types.get(type_name)
        genre = _vocabulary_genres().get(t.pack) if t is not None else None
        return genre is None or genre_active(genre)

    def prompt_lines(self) -> list[str]:
        """'- casts (inverse: cast_by): semantics' for each canonical type a model may read from
        prose (not one a genre states by structure only), in pack order."""
        lines = []
        for t in self.prose_types():
            inverse = "symmetric" if t.symmetric else (f"inverse: {t.mirror}" if t.mirror else "")
            lines.append(f"- {t.name}" + (f" ({inverse})" if inverse else "") + (f": {t.semantics}" if t.semantics else ""))
        return lines


def _read_document(name_or_path: str) -> tuple[str, dict]:
    path = find_pack_file(name_or_path, ONTOLOGY_DIR, (".toml", ".json"), "ontology pack")
    try:
        text = path.read_text(encoding="utf-8")
        data = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read ontology pack {path}: {exc}") from None
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"ontology pack {path} is not valid {path.suffix[1:].upper()} ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("types", {}), dict):
        raise ConfigError(f"ontology pack {path}: expected a table of [types]")
    return str(data.get("name") or path.stem), data


def _as_tuple(value) -> tuple[str, ...]:
    if value is None:
        return ()
    return tuple(value) if isinstance(value, (list, tuple)) else (value,)


@dataclass
class _Merging:
    """What ``merge_ontology`` gathers from the documents, in their order."""

    declared: dict[str, dict] = field(default_factory=dict)  # name -> {mirror, symmetric, semantics, pack, preferred, implicit}
    aliases: dict[str, str] = field(default_factory=dict)
    raw_constraints: list[tuple[str, str, tuple[str, ...], tuple[str, ...]]] = field(default_factory=list)
    maps: dict[tuple[str, str], MapEntry] = field(default_factory=dict)
    eq: dict[str, set[str]] = field(default_factory=dict)
    conflicts: list[str] = field(default_factory=list)


def merge_ontology(documents: list[tuple[str, dict]]) -> Ontology:
    """Merge ontology pack documents (name, parsed data) in order; raises ConfigError."""
    m = _Merging()
    for pack, data in documents:
        for raw_name, spec in data.get("types", {}).items():
            _declare_type(m, pack, snake(raw_name), spec or {})
        for alias, target in (data.get("aliases") or {}).items():
            m.aliases.setdefault(snake(alias), snake(target))
        _gather_constraints(m, pack, data)
        _gather_maps(m, data)
        for ontology_type, domain_types in (data.get("entity_type_aliases") or {}).items():
            for domain_type in _as_tuple(domain_types):
                m.eq.setdefault(domain_type, set()).add(ontology_type)
    types = _relation_types(m.declared)
    for alias in [a for a, t in m.aliases.items() if t not in types or a in types]:
        if m.aliases[alias] not in types:
            m.conflicts.append(f"alias '{alias}' names the unknown type '{m.aliases[alias]}'; ignored")
        del m.aliases[alias]
    return Ontology(
        packs=tuple(n for n, _ in documents), types=types, aliases=m.aliases,
        pairs={k: frozenset(v) for k, v in _constraint_pairs(m, types).items()}, maps=m.maps,
        entity_type_aliases={k: frozenset(v) for k, v in m.eq.items()},
        documents=list(documents), conflicts=m.conflicts,
    )


def _declare_type(m: _Merging, pack: str, name: str, spec: dict) -> None:
    """One relation type of a pack: the first declaration of a name wins (a conflicting
    later one is noted); a declared mirror is declared too, implicitly, as its inverse."""
    symmetric = bool(spec.get("symmetric", False))
    mirror = snake(spec["mirror"]) if spec.get("mirror") else None
    if mirror == name:
        symmetric = True
    if symmetric:
        mirror = name
    entry = {"mirror": mirror, "symmetric": symmetric, "semantics": spec.get("semantics", ""),
             "pack": pack, "preferred": spec.get("preferred_direction", "source_to_target"), "implicit": False,
             "leads": bool(spec.get("leads", False))}
    for alias in _as_tuple(spec.get("aliases")):
        m.aliases.setdefault(snake(alias), name)
    declared = m.declared
    old = declared.get(name)
    if old is not None:
        if (old["mirror"], old["symmetric"]) != (mirror, symmetric):
            m.conflicts.append(f"{pack}: '{name}' (mirror {mirror}) conflicts with {old['pack']} (mirror {old['mirror']}); kept {old['pack']}'s")
        elif old["implicit"]:
            declared[name] = entry
        return
    if mirror and mirror != name and mirror in declared and declared[mirror]["mirror"] != name:
        m.conflicts.append(f"{pack}: '{name}' cannot mirror '{mirror}' (already the mirror of '{declared[mirror]['mirror']}'); kept without a mirror")
        entry["mirror"] = mirror = None
    declared[name] = entry
    if mirror and mirror != name and mirror not in declared:
        declared[mirror] = {"mirror": name, "symmetric": False, "semantics": f"Inverse of {name}.",
                            "pack": pack, "preferred": "source_to_target", "implicit": True, "leads": False}


def _gather_constraints(m: _Merging, pack: str, data: dict) -> None:
    for c in data.get("constraints") or []:
        try:
            m.raw_constraints.append((pack, snake(c["type"]), _as_tuple(c["source"]), _as_tuple(c["target"])))
        except (KeyError, TypeError):
            raise ConfigError(f"ontology pack {pack}: a constraint needs type, source and target") from None


def _gather_maps(m: _Merging, data: dict) -> None:
    """Each source type's map of relation types (the first pack that maps a pair wins)."""
    for source_type, relation_map in (data.get("maps") or {}).items():
        relations = relation_map.get("relations", relation_map) if isinstance(relation_map, dict) else {}
        for raw_type, spec in relations.items():
            limits = spec.get("constraints") or {}
            key = (source_type, snake(raw_type))
            m.maps.setdefault(key, MapEntry(
                source_type=source_type, relation_type=key[1],
                pair_candidates=_as_tuple(spec.get("pair_candidates")),
                description=spec.get("description", ""), signals=_as_tuple(spec.get("signals")),
                anti_signals=_as_tuple(spec.get("anti_signals")),
                min_confidence=limits.get("min_confidence"), allow_implicit=limits.get("allow_implicit"),
                requires_evidence=limits.get("requires_evidence"),
            ))


def _relation_types(declared: dict[str, dict]) -> dict[str, RelationType]:
    """The declared types; of a pair of mirrors, one is canonical (the direction stored)."""
    types: dict[str, RelationType] = {}
    for name, spec in declared.items():
        mirror = spec["mirror"]
        if spec["symmetric"] or not mirror:
            canonical = True
        elif mirror in types:
            canonical = not types[mirror].canonical
        else:
            canonical = spec["preferred"] != "target_to_source"
        types[name] = RelationType(name, mirror, spec["symmetric"], canonical, spec["semantics"], spec["pack"],
                                   spec["leads"])
    return types


def _constraint_pairs(m: _Merging, types: dict[str, RelationType]) -> dict[str, set[tuple[str, str]]]:
    """The (source type, target type) pairs each canonical relation type allows."""
    pairs: dict[str, set[tuple[str, str]]] = {}
    for pack, type_name, sources, targets in m.raw_constraints:
        name = type_name if type_name in types else m.aliases.get(type_name)
        if name is None:
            m.conflicts.append(f"{pack}: constraint on unknown type '{type_name}'; ignored")
            continue
        t = types[name]
        if not t.canonical:
            name, sources, targets = t.mirror, targets, sources
        pairs.setdefault(name, set()).update(product(sources, targets))
    return pairs


def _vocabulary_genres() -> dict[str, str]:
    """ontology pack name -> the genre whose vocabulary it is (core/genres.py)."""
    return {p.vocabulary: p.name for p in shipped_genres() if p.vocabulary}


def _structure_only_vocabularies() -> set[str]:
    """The ontology packs of genres whose relations are never read from prose."""
    return {p.vocabulary for p in shipped_genres() if p.vocabulary and not p.relations.get("prose")}


def genre_vocabularies() -> tuple[str, ...]:
    """Every shipped genre's ontology pack, by genre pack file name."""
    return tuple(p.vocabulary for p in shipped_genres() if p.vocabulary)


def active_pack_names(domain_pack_ontology: tuple[str, ...], extra: tuple[str, ...]) -> tuple[str, ...]:
    """The domain pack's ontology packs (default: rulebook), every genre's vocabulary, then
    the settings' extras."""
    names = list(domain_pack_ontology or DEFAULT_PACKS) + list(genre_vocabularies()) + list(extra)
    return tuple(dict.fromkeys(names))


def load_ontology(names: tuple[str, ...]) -> Ontology:
    """Read and merge the named ontology packs (shipped names or .toml/.json paths)."""
    return merge_ontology([_read_document(n) for n in names])


def ontology_for(settings, pack) -> Ontology:
    """The ontology an ingest with these settings and this domain pack uses."""
    return load_ontology(active_pack_names(getattr(pack, "ontology", ()), tuple(settings.ontology)))


def ontology_from_json(text: str) -> Ontology:
    """The ontology stored in an index (see :meth:`Ontology.to_json`)."""
    return merge_ontology([(d["name"], d["data"]) for d in json.loads(text)])
