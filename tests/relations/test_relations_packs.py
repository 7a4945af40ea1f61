"""Ontology packs (loading, merging) and the pure normalization / validation of relationships."""

import json

import pytest

from crossbook.core.config import Settings
from crossbook.core.errors import ConfigError
from crossbook.core.packs import load_pack
from crossbook.relations.normalize import INVALID, READY, normalize_type, orient, validate
from crossbook.relations.ontology import (
    active_pack_names,
    load_ontology,
    merge_ontology,
    ontology_for,
    ontology_from_json,
    snake,
)


@pytest.fixture(scope="module")
def rulebook():
    return load_ontology(("rulebook",))


@pytest.fixture(scope="module")
def ttrpg():
    return load_ontology(("ttrpg",))


@pytest.fixture(scope="module")
def story():
    return load_ontology(("story",))


def test_snake_folds_case_camel_and_spaces():
    assert snake("CASTS") == "casts"
    assert snake("worksFor") == "works_for"
    assert snake(" cast by ") == "cast_by"
    assert snake("REPORTS_TO") == "reports_to"
    assert snake("--") == ""


def test_shipped_packs_load_and_declare_their_types(rulebook, ttrpg, story):
    assert {"requires", "modifies", "variant_of", "part_of", "casts", "inflicts", "counters", "wields"} <= {
        t.name for t in rulebook.canonical_types()}
    assert rulebook.types["cast_by"].mirror == "casts" and not rulebook.types["cast_by"].canonical
    assert ttrpg.types["owns"].canonical and ttrpg.types["owned_by"].mirror == "owns"
    assert all(ttrpg.types[t].symmetric for t in ("knows", "friend_of", "enemy_of", "allied_with"))
    # seed 000's list declares both directions: the first of each pair is the stored one
    assert story.types["parent_of"].canonical and not story.types["child_of"].canonical
    assert story.types["sibling_of"].symmetric and story.types["sibling_of"].mirror == "sibling_of"
    assert ("character", "member_of") in story.maps and story.maps[("character", "owns")].allow_implicit is False
    assert not (rulebook.conflicts or ttrpg.conflicts or story.conflicts)


def test_ttrpg_constraints_are_seeded_in_canonical_direction(ttrpg):
    assert ("npc", "item") in ttrpg.pairs["owns"]
    # works_for (npc -> faction) is an alias of employed_by: stored as employs (faction -> npc)
    assert normalize_type("works_for", ttrpg) == "employed_by"
    assert ("faction", "npc") in ttrpg.pairs["employs"] and ("npc", "faction") not in ttrpg.pairs["employs"]
    assert len(ttrpg.pairs) == 13  # 14 recommended rows, works_for folded into employs


def test_merge_keeps_the_first_declaration_and_records_conflicts(ttrpg):
    merged = load_ontology(("ttrpg", "story"))
    assert merged.types["contains"].mirror == "located_at"  # ttrpg's, declared first
    assert merged.types["located_in"].mirror is None
    assert any("located_in" in c for c in merged.conflicts)
    # both packs' vocabularies are available
    assert {"owns", "mentor_of", "sibling_of"} <= set(merged.types)


def test_merge_of_custom_documents_preferred_direction_and_aliases():
    doc = {"types": {"eaten_by": {"mirror": "eats", "preferred_direction": "target_to_source"}},
           "aliases": {"devours": "eats", "ghost": "nowhere"},
           "constraints": [{"type": "eaten_by", "source": ["plant"], "target": ["animal"]}]}
    onto = merge_ontology([("food", doc)])
    assert onto.types["eats"].canonical and not onto.types["eaten_by"].canonical
    assert onto.aliases["devours"] == "eats" and "ghost" not in onto.aliases
    assert onto.pairs["eats"] == frozenset({("animal", "plant")})
    assert any("ghost" in c for c in onto.conflicts)


def test_active_packs_come_from_the_domain_pack_then_the_genres_then_settings(tmp_path):
    assert load_pack("generic").ontology == ("rulebook",) and load_pack("gurps").ontology == ("rulebook",)
    # every genre's vocabulary (index/packs/*.toml [relations]), whatever books the index holds
    assert active_pack_names((), ()) == ("rulebook", "documentation")
    assert active_pack_names(("rulebook",), ("ttrpg", "rulebook")) == ("rulebook", "documentation", "ttrpg")
    custom = tmp_path / "mine.json"
    custom.write_text(json.dumps({"name": "mine", "types": {"haunts": {"mirror": "haunted_by"}}}))
    onto = ontology_for(Settings(ontology=("ttrpg", "story", str(custom))), load_pack("generic"))
    assert onto.packs == ("rulebook", "documentation", "ttrpg", "story", "mine") and "haunted_by" in onto.types
    # what the index stores re-merges to the same ontology
    again = ontology_from_json(onto.to_json())
    assert again.types == onto.types and again.pairs == onto.pairs and again.fingerprint == onto.fingerprint


def test_unknown_or_broken_ontology_pack_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="unknown ontology pack 'nope'.*rulebook"):
        load_ontology(("nope",))
    bad = tmp_path / "bad.toml"
    bad.write_text("types = [")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_ontology((str(bad),))


@pytest.mark.parametrize("raw, expected", [
    ("casts", "casts"), ("CASTS", "casts"), ("HURLS", "casts"), ("Cast By", "cast_by"),
    ("causes", "inflicts"), ("LEAVES", "inflicts"), ("resists", "counters"), ("NEGATES", "counters"),
    ("cures", "counters"), ("ends", "counters"), ("wielded by", "wielded_by"), ("VARIANT_OF", "variant_of"),
    ("befriends", "custom:befriends"), ("SINGS_TO", "custom:sings_to"), ("custom:Sings To", "custom:sings_to"),
    ("custom:casts", "casts"), ("  ", None),
])
def test_normalize_type(rulebook, raw, expected):
    assert normalize_type(raw, rulebook) == expected


def test_inverse_types_are_flipped_to_the_canonical_direction(rulebook, ttrpg):
    wyrm, lance = ("frost_wyrm", "creature"), ("frost_lance", "spell")
    o = orient("cast_by", lance, wyrm, rulebook)
    assert (o.relation_type, o.source, o.target, o.flipped) == ("casts", wyrm, lance, True)
    o = orient("owned_by", ("sword", "item"), ("ari", "npc"), ttrpg)
    assert (o.relation_type, o.source, o.target) == ("owns", ("ari", "npc"), ("sword", "item"))
    o = orient("custom:sings_to", lance, wyrm, rulebook)
    assert (o.source, o.target, o.flipped) == (lance, wyrm, False)


def test_symmetric_types_have_one_endpoint_order(ttrpg):
    a, b = ("ari", "npc"), ("bo", "npc")
    one, other = orient("enemy_of", b, a, ttrpg), orient("enemy_of", a, b, ttrpg)
    assert (one.source, one.target) == (other.source, other.target) == (a, b)
    assert one.flipped and not other.flipped


def test_type_pair_constraints(ttrpg):
    assert validate("owns", "npc", "item", ttrpg) == (READY, None)
    assert validate("owns", "item", "npc", ttrpg) == (INVALID, "invalid_type_pair")
    assert validate("enemy_of", "npc", "faction", ttrpg) == (READY, None)
    assert validate("enemy_of", "faction", "npc", ttrpg) == (READY, None)   # symmetric: either order
    assert validate("allied_with", "npc", "npc", ttrpg) == (INVALID, "invalid_type_pair")
    assert validate("custom:haunts", "item", "npc", ttrpg) == (READY, None)  # unconstrained
    assert validate("owns", "npc", "npc", ttrpg, same_entity=True) == (INVALID, "self_relation")


def test_per_source_type_maps(story):
    def check(*args, **kw):
        return validate(*args, story, **{"evidence": "quoted", "confidence": 0.8, **kw})
    assert check("member_of", "character", "faction") == (READY, None)
    assert check("member_of", "character", "location") == (INVALID, "invalid_type_pair")
    assert check("member_of", "character", "faction", confidence=0.3) == (INVALID, "below_min_confidence")
    assert check("owns", "character", "artifact", implicit=True) == (INVALID, "implicit_not_allowed")
    assert check("owns", "character", "artifact", evidence=" ") == (INVALID, "missing_evidence")
    # the location map speaks about owned_by: it is checked from the target's side of owns
    assert check("owns", "faction", "location", confidence=0.58) == (INVALID, "below_min_confidence")
    assert check("owns", "faction", "location", confidence=0.61) == (READY, None)
    # domain types count as the ontology's: a generic 'person' is a story 'character'
    assert check("member_of", "person", "organization") == (READY, None)
    assert check("member_of", "person", "place") == (INVALID, "invalid_type_pair")
