"""The index invariant: after any sequence of ingest / re-ingest / delete-book, the index
holds exactly what a fresh build from the remaining books holds."""

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from index.config import Settings
from index.db import open_db
from index.pipeline import Ingest, delete_book, ingest_paths
from tests.helpers import snapshot, write

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


def render(title, sections):
    out = [f"# {title}\n"]
    for chapter, name, sentences in sections:
        out.append(f"\n## {chapter}\n\n### {name}\n\n" + " ".join(sentences) + "\n")
    return "".join(out)


def _job(index_dir, pack_path):
    return Ingest(open_db(index_dir, create=True), Settings(index_dir=index_dir, pack=str(pack_path)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(operation, min_size=1, max_size=7))
def test_any_sequence_equals_a_fresh_build(operations):
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        pack = write(tmp / "pack.toml", PACK)
        job = _job(tmp / "live", pack)
        current: dict[str, str] = {}
        for op, title, sections in operations:
            if op == "ingest":
                text = render(title, sections)
                ingest_paths(job, [write(tmp / f"{title}.md", text)])
                current[title] = text
            elif title in current:
                delete_book(job.db, title)
                del current[title]
        job.db.conn.close()
        # a fresh build of what remains, in reverse order for good measure
        fresh = _job(tmp / "fresh", pack)
        for title in sorted(current, reverse=True):
            ingest_paths(fresh, [write(tmp / f"fresh-{title}.md", current[title])])
        fresh.db.conn.close()
        live, rebuilt = snapshot(tmp / "live"), snapshot(tmp / "fresh")
        assert live == rebuilt
