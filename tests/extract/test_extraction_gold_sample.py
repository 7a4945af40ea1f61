"""The rules extractor against the sample corpus gold: precision/recall floors (bench/eval_extraction.py prints them).

The floors below sit just under what the extractor measures today, so a regression in
chunking, heading rules, or the linker fails here.
"""

from crossbook.storage.db import open_db
from tests.conftest import SAMPLE
from tests.gold import misses, score_index


def test_rules_extractor_against_the_gold(cli_json, index_dir):
    summary = cli_json("rebuild", SAMPLE / "crossbook.toml")
    assert len(summary["added"]) == 3 and not summary["failed"]
    db = open_db(index_dir)
    scores = score_index(db, SAMPLE / "gold.json")
    fn, fp = misses(db, SAMPLE / "gold.json")
    assert scores["defines"].precision >= 0.95 and scores["defines"].recall >= 0.95, scores["defines"]
    assert scores["cross_book_references"].precision >= 0.95, f"false positives: {fp[:8]}"
    assert scores["cross_book_references"].recall >= 0.95, f"misses: {fn[:8]}"
