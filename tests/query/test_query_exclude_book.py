"""``--exclude-book`` is documented for where-else, search, retrieve, entities,
relations and review, but only where-else had it (the others exited 2, "No such option").
Each command must leave the excluded book out, and keep the others."""

from __future__ import annotations

import json

import pytest

from tests.conftest import SAMPLE

GRIMOIRE = "The Ashen Grimoire"


@pytest.fixture
def sample_index(cli):
    assert cli("-q", "rebuild", SAMPLE / "crossbook.toml").exit_code == 0


def _books_of(command: str, document) -> list[str]:
    """The books a command's JSON result names, row by row."""
    if command == "where-else":
        return [g["book"] for e in document["entities"] for g in e["books"]]
    if command in ("search", "retrieve"):
        return [p["book"] for p in document["results"]]
    if command in ("relations", "review"):
        return [r["book"] for r in document]
    raise AssertionError(command)


@pytest.mark.parametrize("args", [
    ["where-else", "Shield"], ["search", "Shield spell cost"], ["retrieve", "What does Frost Lance cost?"],
    ["relations"], ["review"],
])
def test_exclude_book_leaves_the_book_out(cli, sample_index, args):
    before = cli(*args, "--json")
    assert before.exit_code == 0, before.stderr
    assert GRIMOIRE in _books_of(args[0], json.loads(before.stdout))
    after = cli(*args, "--exclude-book", "ashen grimoire", "--json")  # any case, a prefix of the title
    assert after.exit_code == 0, after.stderr
    books = _books_of(args[0], json.loads(after.stdout))
    assert books and GRIMOIRE not in books


def test_entities_exclude_book_drops_its_mentions(cli_json, sample_index):
    every = {e["name"]: e for e in cli_json("entities")["entities"]}
    without = {e["name"]: e for e in cli_json("entities", "--exclude-book", "The Ashen Grimoire")["entities"]}
    only_grimoire = {e["name"] for e in cli_json("entities", "--book", "The Ashen Grimoire")["entities"]}
    assert without and set(without) < set(every)
    assert "Frost Lance" in every and without["Frost Lance"]["mentions"] < every["Frost Lance"]["mentions"]
    assert all(GRIMOIRE not in e["defined_in"] or e["name"] in only_grimoire for e in without.values())
    assert all(e["books"] <= every[name]["books"] for name, e in without.items())


@pytest.mark.parametrize("command", [["search", "x"], ["retrieve", "x"], ["entities"]])
def test_excluding_every_book_leaves_nothing(cli, sample_index, command):
    result = cli(*command, "--exclude-book", "ashen", "--exclude-book", "bestiary", "--exclude-book", "emberfall",
                 "--json")
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert (document.get("results") if "results" in document else document["entities"]) == []


@pytest.mark.parametrize("command", [["search", "x"], ["retrieve", "x"], ["entities"], ["relations"], ["review"]])
def test_an_unknown_excluded_book_is_one_error_line(cli, sample_index, command):
    result = cli(*command, "--exclude-book", "no such book")
    assert result.exit_code == 1 and "--exclude-book 'no such book' is not a book" in result.stderr
