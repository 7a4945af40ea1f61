"""No rule fails a book: a rule that raises on one section costs that section's output, with
one warning naming the book, the section and the rule; in strict mode (the test suite's) it
raises as it always did."""

from __future__ import annotations

import pytest

from crossbook.chunk.chunking import parent_chunks, split_sections
from crossbook.core import rule_guard
from crossbook.core.packs import load_pack
from crossbook.extract import glossary
from crossbook.extract.rules import RulesExtractor
from crossbook.readers import read_book
from crossbook.storage.db import open_db
from tests.conftest import make_job
from tests.helpers import write

GENERIC = load_pack("generic")
LANTERN = "# Lantern\n\nThe lantern.\n\n## Layout\n\n|---|---|\n|---|---|\n"
BOOK = ("# Grimoire\n\n## Terms\n\n**Chilled.** A chilled creature is slow.\n\n**Dazed.** A dazed creature is slow.\n\n"
        "## Odd\n\n**Brittle.** A brittle creature breaks.\n\n| Name | Cost |\n|---|---|\n| Boom | 1 |\n| Bang | 2 |\n\n"
        "## More\n\n**Frozen.** A frozen creature stops.\n")


@pytest.fixture
def lenient():
    """Failures caught, as a user's ingest catches them."""
    before = rule_guard.raise_failures(False)
    yield
    rule_guard.raise_failures(before)


def _boom_on(monkeypatch, marker: str) -> None:
    """The table rule raises on a cell that reads ``marker`` (a bug of the rule's)."""
    real = glossary._name_like

    def name_like(cell: str) -> bool:
        if marker in cell:
            raise IndexError("list index out of range")
        return real(cell)

    monkeypatch.setattr(glossary, "_name_like", name_like)


def _names(run) -> dict[str, set[str]]:
    return {c.chunk_id: {m.name for m in c.mentions} for c in run.chunks}


def test_separator_only_table_is_no_table(cli, tmp_path):
    book = write(tmp_path / "lantern.md", LANTERN)
    result = cli("ingest", book, "--json")
    assert result.exit_code == 0, result.stderr
    assert "failed" not in result.stderr


def test_a_rule_that_raises_costs_its_section_only(monkeypatch, lenient):
    _boom_on(monkeypatch, "Boom")
    parents = parent_chunks("Grimoire", split_sections(BOOK))
    run = RulesExtractor(GENERIC).extract("Grimoire", parents)
    names = set().union(*_names(run).values())
    assert {"Chilled", "Dazed", "Frozen"} <= names
    assert "Brittle" not in names
    assert len(run.warnings) == 1
    line = run.warnings[0]
    assert "Grimoire" in line and "Odd" in line and "table_terms" in line


def test_strict_mode_raises(monkeypatch):
    _boom_on(monkeypatch, "Boom")
    parents = parent_chunks("Grimoire", split_sections(BOOK))
    with pytest.raises(IndexError):
        RulesExtractor(GENERIC).extract("Grimoire", parents)


def test_the_book_is_stored_with_one_warning(monkeypatch, lenient, index_dir, tmp_path):
    from crossbook.ingest.pipeline import ingest_paths

    _boom_on(monkeypatch, "Boom")
    job = make_job(index_dir)
    before = rule_guard.caught_count()
    results = ingest_paths(job, [write(tmp_path / "grimoire.md", BOOK)])
    assert rule_guard.caught_count() == before + 1
    warnings = [w for r in results for w in r.warnings if "failed" in w]
    assert len(warnings) == 1 and "Odd" in warnings[0]
    db = open_db(job.settings.index_dir)
    stored = {r[0] for r in db.execute("SELECT name FROM entity_mentions WHERE mention_type = 'defines'")}
    assert {"Chilled", "Dazed", "Frozen"} <= stored and "Brittle" not in stored
    assert db.execute("SELECT count(*) FROM chunks WHERE book = 'Grimoire' AND kind = 'parent'").fetchone()[0] >= 3


def test_a_post_pass_that_raises_leaves_the_book_as_read(monkeypatch, lenient, tmp_path):
    from crossbook.readers.passes import reference_entries as code_entries

    def broken(section, lines_are_paragraphs=False):
        raise ValueError("odd entry")

    monkeypatch.setattr(code_entries, "code_entries", broken)
    book = read_book(write(tmp_path / "grimoire.md", BOOK))
    assert [s.heading for s in book.sections][-1] == "More"
    assert any("odd entry" in w and "grimoire.md" in w for w in book.warnings)


def test_halving_finds_the_items_that_raise(lenient):
    def attempt(items):
        if 3 in items or 7 in items:
            raise KeyError("bad")
        return sum(items)

    labels = []
    total, failed = rule_guard.without_failures(list(range(10)), attempt, "Book", str, labels)
    assert failed == [3, 7] and total == sum(range(10)) - 10
    assert len(labels) == 2 and "section '3'" in labels[0]


def test_items_that_raise_only_together_are_left_out_together(lenient):
    def attempt(items):
        if 1 in items and 8 in items:
            raise KeyError("pair")
        return len(items)

    count, failed = rule_guard.without_failures(list(range(10)), attempt, "Book", str)
    assert 1 in failed or 8 in failed
    assert count == 10 - len(failed)
