import json

import pytest

from crossbook.core.models import RawMention
from crossbook.extract.parse import ParseError, parse_extraction
from crossbook.extract.verify import ChunkText, verify_mentions

CHUNK = ChunkText("### Frost Lance\n\nFrost Lance costs 3 Ember.  It inflicts\nChilled on a hit.\n")
TYPES = ("spell", "condition", "other")


def answer(*entities):
    return json.dumps({"entities": [dict(zip(("name", "type", "mention_type", "context"), e)) for e in entities]})


def test_parses_a_well_formed_answer():
    extraction = parse_extraction(answer(("Frost Lance", "spell", "defines", "Frost Lance costs 3 Ember.")), "c1")
    assert extraction.chunk_id == "c1"
    assert extraction.mentions == [RawMention("Frost Lance", "spell", "defines", "Frost Lance costs 3 Ember.", "llm", rule="llm")]


def test_json_in_a_code_fence_is_accepted():
    raw = "```json\n" + answer(("Chilled", "condition", "references", "Chilled on a hit.")) + "\n```"
    assert parse_extraction(raw, "c").mentions[0].name == "Chilled"


@pytest.mark.parametrize("raw", ["", "   ", "not json", '{"entities": "x"}', "[1, 2]", '{"entities": [', '{"other": []}'])
def test_malformed_answers_are_rejected_whole(raw):
    with pytest.raises(ParseError):
        parse_extraction(raw, "c")


def test_malformed_items_are_dropped_and_counted():
    raw = json.dumps({"entities": [
        {"name": "Chilled", "type": "condition", "mention_type": "references", "context": "Chilled on a hit."},
        {"name": "X", "type": "spell", "mention_type": "mentions", "context": "x"},
        {"name": "Y"},
        "just a string",
    ]})
    extraction = parse_extraction(raw, "c")
    assert [m.name for m in extraction.mentions] == ["Chilled"]
    assert extraction.dropped == {"malformed_entity": 3}


def test_verification_keeps_grounded_mentions_only():
    mentions = [
        RawMention("Frost Lance", "spell", "defines", "Frost Lance costs 3 Ember.", "llm"),
        RawMention("chilled", "condition", "references", "It inflicts Chilled on a hit.", "llm"),  # whitespace differs
        RawMention("Fireball", "spell", "references", "Frost Lance costs 3 Ember.", "llm"),  # name not in chunk
        RawMention("Frost Lance", "spell", "references", "It costs 3 Ember and more.", "llm"),  # context invented
        RawMention("Frost", "spell", "references", "Frost Lance costs 3 Ember.", "llm"),  # whole words: 'Frost' occurs
        RawMention("Lanc", "spell", "references", "Frost Lance costs 3 Ember.", "llm"),  # partial word
        RawMention("Frost Lance", "weird-type", "defines", "Frost Lance costs 3 Ember.", "llm"),
        RawMention("", "spell", "defines", "Frost Lance costs 3 Ember.", "llm"),
    ]
    verified = verify_mentions(mentions, CHUNK, TYPES)
    kept = [(m.name, m.entity_type, m.mention_type) for m in verified.mentions]
    assert kept == [
        ("Frost Lance", "spell", "defines"),
        ("chilled", "condition", "references"),
        ("Frost", "spell", "references"),
        ("Frost Lance", "other", "defines"),  # unknown types become 'other'
    ]
    assert verified.dropped == {"name_not_in_chunk": 2, "context_not_verbatim": 1, "empty_name": 1}


def test_the_same_claim_twice_is_one_mention():
    m = RawMention("Chilled", "condition", "references", "Chilled on a hit.", "llm")
    assert len(verify_mentions([m, m], CHUNK, TYPES).mentions) == 1


def test_the_situating_context_is_read_with_its_whitespace_collapsed():
    raw = json.dumps({"situating_context": "  The Grimoire's spell list:\n the Frost Lance entry. ",
                      "entities": json.loads(answer(("Chilled", "condition", "references", "Chilled on a hit.")))["entities"]})
    extraction = parse_extraction(raw, "c")
    assert extraction.situating_context == "The Grimoire's spell list: the Frost Lance entry."
    assert [m.name for m in extraction.mentions] == ["Chilled"]  # never a mention


@pytest.mark.parametrize("value", [None, 42, ["a sentence"], {"text": "x"}, "", "   \n", "word " * 61])
def test_a_missing_malformed_or_oversized_situating_context_is_absent_and_the_chunk_still_counts(value):
    from crossbook.extract.parse import MAX_SITUATING_CHARS

    data = json.loads(answer(("Chilled", "condition", "references", "Chilled on a hit.")))
    if value is not None:
        data["situating_context"] = value
    extraction = parse_extraction(json.dumps(data), "c")
    assert extraction.situating_context is None
    assert [m.name for m in extraction.mentions] == ["Chilled"] and not extraction.dropped
    assert len(" ".join(("word " * 61).split())) > MAX_SITUATING_CHARS  # the oversized case is over the cap


def test_a_situating_context_at_the_cap_is_kept():
    from crossbook.extract.parse import MAX_SITUATING_CHARS

    text = ("x" * (MAX_SITUATING_CHARS - 1)) + "."
    raw = json.dumps({"situating_context": text, "entities": []})
    assert parse_extraction(raw, "c").situating_context == text
