"""The index invariant: after any sequence of ingest / re-ingest / delete-book, the index
holds exactly what a fresh build from the remaining books holds; with failures interleaved
(an ingest whose chunk fails, and runs killed inside the write transaction or
while syncing vectors) leave every book wholly old or wholly new, and SQLite and Chroma
agree after doctor --repair."""

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.conftest import pack_job
from tests.helpers import KILL_POINTS, render_book, replay_equals_fresh_build

PACK = """
name = "prop"
[[entity_types]]
name = "spell"
cues = ["cast"]
[[entity_types]]
name = "equipment"
cues = ["wield"]
[[entity_types]]
name = "other"
[[heading_rules]]
under = "Spells"
type = "spell"
[[heading_rules]]
under = "Equipment"
type = "equipment"
[aliases]
"Fire Bolt" = ["Firebolt"]
"""

NAMES = ["Shield", "Fire Bolt", "Greater Shield", "Light", "Frost", "Rope"]
WORDS = ["cast", "wield", "the", "light", "and", "Firebolt", "rope", "is frost"]
BOOKS = ["Alpha", "Beta", "Gamma"]

words = st.lists(st.sampled_from(NAMES + WORDS), min_size=1, max_size=6).map(lambda ws: " ".join(ws) + ".")
# a catalog table: its rows define, unless another book defines the name otherwise (derived)
table = st.lists(st.sampled_from(NAMES), min_size=2, max_size=3, unique=True).map(
    lambda rows: "\n\n| Name | Cost |\n|---|---|\n" + "".join(f"| {r} | 1 |\n" for r in rows) + "\n")
sentence = st.one_of(words, words, table)
section = st.tuples(st.sampled_from(["Spells", "Equipment", "Misc", "Conditions"]), st.sampled_from(NAMES),
                    st.lists(sentence, max_size=3))
book_text = st.lists(section, min_size=1, max_size=4)
operation = st.one_of(
    st.tuples(st.just("ingest"), st.sampled_from(BOOKS), book_text),
    st.tuples(st.just("delete"), st.sampled_from(BOOKS), st.none()),
)


render = render_book


@pytest.mark.slow  # random sequences of ingests, hypothesis
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(operation, min_size=1, max_size=7))
def test_any_sequence_equals_a_fresh_build(operations):
    replay_equals_fresh_build(operations, PACK, pack_job)


# the failures interleaved with the operations above, and a title rename (a book is its file)
failure = st.one_of(
    st.tuples(st.just("fail_chunk"), st.sampled_from(BOOKS), book_text),
    st.tuples(st.sampled_from(sorted(KILL_POINTS)), st.sampled_from(BOOKS), book_text),
    st.tuples(st.just("rename"), st.sampled_from(BOOKS), book_text),
)

ONE_BOOK = [("Spells", "Fire Bolt", ["cast Shield and Rope."]), ("Equipment", "Shield", ["wield the Rope."])]


@pytest.mark.slow  # random sequences of ingests, hypothesis
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.one_of(operation, failure), min_size=1, max_size=7))
# always tried: each kill point after the book is in the index (a re-ingest dies), then a repair
@example([("ingest", "Alpha", ONE_BOOK), *[(point, "Alpha", ONE_BOOK[:1]) for point in sorted(KILL_POINTS)]])
@example([("ingest", "Alpha", ONE_BOOK), ("fail_chunk", "Alpha", ONE_BOOK[:1]), ("kill:embed", "Beta", ONE_BOOK)])
# a note that vectors were synced, left from an earlier version, must not hide a later crash
@example([("ingest", "Alpha", ONE_BOOK), ("kill:sync_note", "Alpha", ONE_BOOK[:1]), ("kill:embed", "Alpha", ONE_BOOK)])
@example([("ingest", "Alpha", ONE_BOOK), ("kill:delete_vectors", "Alpha", None), ("kill:embed", "Alpha", ONE_BOOK)])
# a renamed book, then a new book under its old title, then a kill while the renamed one changes
@example([("ingest", "Alpha", ONE_BOOK), ("rename", "Alpha", ONE_BOOK[:1]), ("ingest", "Alpha", ONE_BOOK),
          ("kill:embed", "Alpha", ONE_BOOK[:1])])
def test_any_sequence_with_failures_equals_a_fresh_build(operations):
    replay_equals_fresh_build(operations, PACK, pack_job, vectors=True)


def test_the_failures_happen():
    """Guard against a vacuous property: every kill point is reached, the failed chunk fails,
    and only a kill while a deleted book's vectors are deleted leaves drift that the next
    ingest cannot fix (doctor --repair does)."""
    drifts = {"kill:delete_vectors"}
    for point in sorted(KILL_POINTS):
        replay = replay_equals_fresh_build(
            [("ingest", "Alpha", ONE_BOOK), (point, "Alpha", ONE_BOOK[:1])], PACK, pack_job, vectors=True)
        assert replay.failures_survived == 1, point
        assert replay.vector_repairs == (1 if point in drifts else 0), point
    replay = replay_equals_fresh_build([("fail_chunk", "Alpha", ONE_BOOK)], PACK, pack_job, vectors=True)
    assert replay.failures_survived == 1 and replay.current == {}
