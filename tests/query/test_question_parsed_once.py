"""A question is read once: retrieve parses it into one ``Question`` (query/question.py) and
every step reads that value; none splits the question's text into words again."""

from __future__ import annotations

from crossbook.api import Shelf
from crossbook.query import bridge, question
from tests.conftest import SAMPLE

ASKED = "How much damage does the spell the Rime Wraith casts when it cannot close the distance deal on a hit?"


def test_retrieve_parses_the_question_once_and_no_step_reads_its_text_again(cli, index_dir, monkeypatch):
    assert cli("-q", "rebuild", SAMPLE / "crossbook.toml").exit_code == 0
    parsed, read = [], []

    def parse(text, pack=None):
        parsed.append(text)
        return parse_question(text, pack)

    def reading(name, fn):
        def wrapper(text, *args, **kwargs):
            if text == ASKED:
                read.append(name)
            return fn(text, *args, **kwargs)
        return wrapper

    parse_question = question.parse_question
    monkeypatch.setattr(question, "parse_question", parse)
    monkeypatch.setattr("crossbook.query.retrieve.parse_question", parse)
    for name in ("content_words", "named_category_words"):
        monkeypatch.setattr(bridge, name, reading(name, getattr(bridge, name)))
    for name in ("question_names", "question_phrases", "question_types", "loose_phrases"):
        monkeypatch.setattr(question, name, reading(name, getattr(question, name)))
    with Shelf(index_dir, embedder="hash") as shelf:
        assert shelf.retrieve(ASKED, hops=2, k=5).chunk_ids
    assert parsed == [ASKED]
    # each reading of the words once, all of them inside parse_question
    assert sorted(read) == sorted(["content_words", "named_category_words", "question_names", "question_phrases",
                                   "question_types", "loose_phrases"])
