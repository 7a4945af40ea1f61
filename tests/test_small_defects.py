"""Small defects of issue 10 (items 8 and 9): each test failed before its fix."""

from __future__ import annotations

from index.db import open_db
from index.pipeline import delete_book, ingest_paths
from tests.helpers import BOOK_A, BOOK_B, snapshot, write
from tests.test_store import ScriptedExtractor, _job, m


def test_after_delete_book_no_entity_keeps_a_name_from_a_deleted_mention(tmp_path):
    """'Alpha' names Frost Lance in lowercase, which the linker references while 'Core'
    defines it; 'Zeta' references it as FROST LANCE. Once 'Core' is deleted, the linker
    reference goes: the entity's name must come from a mention that is left."""
    books = {
        "Core": "# Core\n\n## Frost Lance\nFrost Lance is a cold spell.\n",
        "Alpha": "# Alpha\n\n## Tactics\nOpen with a frost lance at range.\n",
        "Zeta": "# Zeta\n\n## Lore\nThe FROST LANCE was first cast by Ari.\n",
    }
    script = {
        "Frost Lance": [m("Frost Lance", "spell", "defines", "Frost Lance is a cold spell.")],
        "Lore": [m("FROST LANCE", "spell", "references", "The FROST LANCE was first cast by Ari.")],
    }
    paths = {title: write(tmp_path / f"{title}.md", text) for title, text in books.items()}
    live = _job(tmp_path / "live", ScriptedExtractor(script))
    ingest_paths(live, list(paths.values()))
    delete_book(live.db, "Core")
    fresh = _job(tmp_path / "fresh", ScriptedExtractor(script))
    ingest_paths(fresh, [paths["Alpha"], paths["Zeta"]])
    names = live.db.execute("SELECT name FROM entities WHERE normalized = 'frost_lance'").fetchall()
    assert names == [("FROST LANCE",)]
    live.db.conn.close()
    fresh.db.conn.close()
    assert snapshot(tmp_path / "live") == snapshot(tmp_path / "fresh")
