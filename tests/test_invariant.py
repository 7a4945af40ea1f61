"""The index invariant: after any sequence of ingest / re-ingest / delete-book, the index
holds exactly what a fresh build from the remaining books holds."""

from hypothesis import HealthCheck, given, settings, strategies as st

from index.config import Settings
from index.db import open_db
from index.pipeline import Ingest
from tests.helpers import render_book, replay_equals_fresh_build

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
WORDS = ["cast", "wield", "the", "light", "and", "Firebolt", "rope"]
BOOKS = ["Alpha", "Beta", "Gamma"]

sentence = st.lists(st.sampled_from(NAMES + WORDS), min_size=1, max_size=6).map(lambda ws: " ".join(ws) + ".")
section = st.tuples(st.sampled_from(["Spells", "Equipment", "Misc"]), st.sampled_from(NAMES), st.lists(sentence, max_size=3))
book_text = st.lists(section, min_size=1, max_size=4)
operation = st.one_of(
    st.tuples(st.just("ingest"), st.sampled_from(BOOKS), book_text),
    st.tuples(st.just("delete"), st.sampled_from(BOOKS), st.none()),
)


render = render_book


def _job(index_dir, pack_path):
    return Ingest(open_db(index_dir, create=True), Settings(index_dir=index_dir, pack=str(pack_path)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(operation, min_size=1, max_size=7))
def test_any_sequence_equals_a_fresh_build(operations):
    replay_equals_fresh_build(operations, PACK, _job)
