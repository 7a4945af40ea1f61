"""The Fate shelf gold (bench/fate/) is well formed: every definition is named in its book,
every cross-book reference points at an entity another book defines, every relationship's
quote is verbatim in its book and joins two gold entities with a type of the ontology.

The books are the Fate SRDs in corpora/fate/ (see its README.md for license and attribution).
"""

import json
import tomllib
from pathlib import Path

import pytest

from bench.fate.fate_text import BOOKS, CORPUS, evidence_text, read, strip_markup
from bench.fate.names import name_key

# slow: the Fate corpus (`pytest -m "not slow"` leaves it out)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
GOLD = json.loads((ROOT / "bench" / "fate" / "gold.json").read_text(encoding="utf-8"))
RELATIONS = json.loads((ROOT / "bench" / "fate" / "gold_relations.json").read_text(encoding="utf-8"))["relations"]


@pytest.fixture(scope="module")
def texts() -> dict[str, str]:
    return {file: evidence_text(file).casefold() for file in BOOKS}


def gold_keys() -> dict[str, set[str]]:
    """Name key of every gold name and alias -> the books that define it."""
    keys: dict[str, set[str]] = {}
    for d in GOLD["definitions"]:
        for name in [d["name"], *d["aliases"]]:
            keys.setdefault(name_key(name), set()).add(d["book"])
    return keys


def test_the_books_and_their_readme_are_in_the_project():
    assert sorted(p.name for p in CORPUS.glob("*.md")) == sorted([*BOOKS, "README.md"])
    readme = (CORPUS / "README.md").read_text(encoding="utf-8")
    assert "Creative Commons Attribution 3.0" in readme and "Evil Hat Productions" in readme
    assert [b["file"] for b in GOLD["books"]] == list(BOOKS)


def test_every_definition_is_named_in_its_book_at_its_line(texts):
    assert len(GOLD["definitions"]) >= 700
    missing = [d for d in GOLD["definitions"] if d["name"].casefold() not in texts[d["book"]]]
    assert not missing
    for d in GOLD["definitions"]:
        line = strip_markup(read(d["book"]).splitlines()[d["line"] - 1]).casefold()
        # the entry's own line names it; a concept's line is the heading that explains it
        assert d["name"].split()[0].casefold().rstrip("!:.") in line or d["section"].casefold() in line, d
    assert len({(d["book"], name_key(d["name"])) for d in GOLD["definitions"]}) == len(GOLD["definitions"])


def test_every_reference_is_to_an_entity_another_book_defines(texts):
    keys = gold_keys()
    assert len(GOLD["references"]) >= 200
    for ref in GOLD["references"]:
        defined_in = keys[name_key(ref["name"])]
        assert ref["book"] not in defined_in and set(ref["defined_in"]) <= defined_in, ref
        assert ref["surface"].casefold() in texts[ref["book"]], ref


def test_every_relationship_quote_is_verbatim_and_joins_two_gold_entities():
    keys = gold_keys()
    file_of = {b["title"]: b["file"] for b in GOLD["books"]}
    ontology = tomllib.loads((ROOT / "index" / "ontology" / "rulebook.toml").read_text(encoding="utf-8"))
    quotes = {file: evidence_text(file) for file in BOOKS}
    assert len(RELATIONS) >= 80
    for rel in RELATIONS:
        assert rel["evidence"] in quotes[file_of[rel["book"]]], rel
        assert name_key(rel["source"]) in keys and name_key(rel["target"]) in keys, rel
        assert rel["type"] in ontology["types"], rel
    assert len({(r["book"], r["source"], r["target"], r["type"]) for r in RELATIONS}) == len(RELATIONS)


@pytest.mark.parametrize(("a", "b"), [("Aspects", "aspect"), ("Fate Points", "fate point"),
                                       ("The Eye", "eye"), ("Approaches", "approach"), ("CONFLICTS", "conflict")])
def test_names_meet_under_the_singular_fold(a, b):
    assert name_key(a) == name_key(b)


def test_different_names_stay_apart():
    assert name_key("Stress") != name_key("Street") and name_key("Boss") == "boss"


def perfect_index() -> tuple[list[dict], list[dict], dict[str, str]]:
    """What an index that found exactly the gold would hold, in the shapes score_fate reads,
    with names as the books write them (plural, a gold alias) rather than the gold's."""
    title_of = {b["file"]: b["title"] for b in GOLD["books"]}
    mentions = []
    for d in GOLD["definitions"]:
        surface = d["aliases"][0] if d["aliases"] else d["name"]
        mentions.append({"book": title_of[d["book"]], "mention_type": "defines", "mention": surface,
                         "name": surface + ("s" if " " not in surface and surface.isalpha() else ""),
                         "heading_path": d["section"]})
    for r in GOLD["references"]:
        mentions.append({"book": title_of[r["book"]], "mention_type": "references", "mention": r["surface"],
                         "name": r["name"], "heading_path": ""})
    edges = [{"book": r["book"], "source": r["source"], "target": r["target"], "relation_type": r["type"],
              "evidence": r["evidence"]} for r in RELATIONS]
    return mentions, edges, {t: f for f, t in title_of.items()}


def test_an_index_that_found_the_gold_scores_one():
    from bench.fate.score import score_fate

    mentions, edges, title_file = perfect_index()
    result = score_fate(GOLD, RELATIONS, mentions, edges, title_file)
    for figure in ("definitions", "cross_book_references", "relationships"):
        assert (result[figure]["precision"], result[figure]["recall"]) == (1.0, 1.0), figure
    assert result["titles"]["correct"] == 8


def test_a_topical_heading_and_a_missed_entry_cost_precision_and_recall():
    from bench.fate.score import score_fate

    mentions, edges, title_file = perfect_index()
    dropped = next(m for m in mentions if m["mention_type"] == "defines" and m["book"] == "Venture City")
    mentions.remove(dropped)
    mentions.append({"book": "Gods and Monsters", "mention_type": "defines", "mention": "Creating the World",
                     "name": "Creating the World", "heading_path": "Creating the World"})
    result = score_fate(GOLD, RELATIONS, mentions, edges[1:], title_file)
    assert result["definitions"]["recall"] < 1.0 and result["definitions"]["precision"] < 1.0
    assert result["relationships"]["recall"] < 1.0
    assert any(m["name"] == "Creating the World" for m in result["definition_false_positives"])
