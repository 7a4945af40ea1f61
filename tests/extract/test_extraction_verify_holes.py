"""Verification holes: each case stored although wrong, or dropped although right."""

from __future__ import annotations

import unicodedata

import pytest

from crossbook.core.models import RawMention
from crossbook.extract.verify import ChunkText, verify_mentions

TYPES = ("spell", "condition", "other")


def kept(text: str, *mentions: RawMention):
    return verify_mentions(list(mentions), ChunkText(text), TYPES)


def ref(name: str, context: str, mention_type: str = "references") -> RawMention:
    return RawMention(name, "other", mention_type, context, "llm")


# -- stored although wrong ------------------------------------------------------------------

def test_a_context_that_does_not_contain_the_name_is_not_stored_as_is():
    text = "Frost Lance costs 3 Ember. The Chilled condition slows you."
    verified = kept(text, ref("Frost Lance", "The Chilled condition slows you."))
    assert verified.mentions == [] and verified.dropped == {"name_not_in_context": 1}
    # a definition is kept, with a verbatim sentence that holds the name
    verified = kept(text, ref("Frost Lance", "The Chilled condition slows you.", "defines"))
    assert [m.context for m in verified.mentions] == ["Frost Lance costs 3 Ember."]
    assert verified.repaired == {"context_repaired": 1}


def test_the_light_is_not_verified_by_dim_light():
    text = "The room is in dim light. Nothing else here."
    verified = kept(text, ref("The Light", "The room is in dim light."))
    assert verified.mentions == [] and verified.dropped == {"name_not_in_chunk": 1}


def test_a_lowercase_name_still_matches_any_case_and_a_capitalised_one_its_own():
    text = "The Light spell glows. A Chilled foe is slow."
    verified = kept(text, ref("The Light", "The Light spell glows."), ref("chilled", "A Chilled foe is slow."))
    assert [m.name for m in verified.mentions] == ["The Light", "chilled"]


def test_cpp_is_not_verified_by_c():
    text = "Write it in C. It compiles."
    verified = kept(text, ref("C++", "Write it in C."))
    assert verified.mentions == [] and verified.dropped == {"name_not_in_chunk": 1}
    assert [m.name for m in kept("Write it in C++ today.", ref("C++", "Write it in C++ today.")).mentions] == ["C++"]


def test_zmir_is_not_verified_by_izmir():
    text = "The caravan reached İzmir at dawn."
    verified = kept(text, ref("Zmir", "The caravan reached İzmir at dawn."))
    assert verified.mentions == [] and verified.dropped == {"name_not_in_chunk": 1}


def test_an_overlong_context_is_cut_to_the_sentence_of_the_name():
    filler = "Nothing happens here at all. " * 160   # ~4,800 characters
    text = filler + "Frost Lance costs 3 Ember. " + filler
    verified = kept(text, ref("Frost Lance", text.strip()))
    assert [m.context for m in verified.mentions] == ["Frost Lance costs 3 Ember."]
    assert verified.repaired == {"context_trimmed": 1}


# -- dropped although right -----------------------------------------------------------------

def test_an_nfd_chunk_verifies_an_nfc_context_and_keeps_the_chunk_text():
    nfc = "Le Café Noir sert du thé. Rien d'autre."
    text = unicodedata.normalize("NFD", nfc)
    verified = kept(text, ref("Café Noir", "Le Café Noir sert du thé."))
    assert len(verified.mentions) == 1 and not verified.dropped
    assert verified.mentions[0].context == unicodedata.normalize("NFD", "Le Café Noir sert du thé.")


@pytest.mark.parametrize("book, model", [("’", "'"), ("'", "’"), ("“”", '""')])
def test_curly_and_straight_quotes_are_the_same_quote(book, model):
    def quoted(marks: str, s: str) -> str:
        return s.replace("'", marks[0]).replace('"', marks[-1]) if len(marks) == 1 else \
            s.replace('"', marks[0], 1).replace('"', marks[1], 1)
    sentence = 'The Dragon\'s Breath is "hot" today.' if len(book) == 1 else 'The Dragon Breath is "hot" today.'
    name = "Dragon's Breath" if len(book) == 1 else "Dragon Breath"
    text = quoted(book, sentence) + " More text."
    verified = kept(text, ref(quoted(model, name), quoted(model, sentence)))
    assert len(verified.mentions) == 1 and not verified.dropped
    assert verified.mentions[0].context == quoted(book, sentence)   # the book's own characters


def test_a_definition_with_a_paraphrased_context_is_kept_with_a_verbatim_sentence():
    """64 of 1,548 definitions were lost that way although the name is in the text."""
    text = "### Fireball\n\nA Fireball explodes in a 20-foot radius. It costs 3 Ember."
    verified = kept(text, ref("Fireball", "Fireball is an explosion twenty feet wide.", "defines"))
    assert [(m.name, m.mention_type, m.context) for m in verified.mentions] == [
        ("Fireball", "defines", "A Fireball explodes in a 20-foot radius.")]
    assert verified.repaired == {"context_repaired": 1} and not verified.dropped
    # a reference with an invented context is still dropped: nothing to define, nothing to save
    verified = kept(text, ref("Fireball", "Fireball is an explosion twenty feet wide."))
    assert verified.mentions == [] and verified.dropped == {"context_not_verbatim": 1}


def test_a_tex_command_glued_to_the_one_before_it_is_found():
    # a listing defines it right after \def: its backslash opens it; a word before it still does not
    chunk = ChunkText("19 `\\def\\@Friday{Friday}` and `\\let\\x\\relax`")
    assert chunk.name_spans("\\@Friday")
    assert chunk.name_spans("\\x")
    assert not ChunkText("the \\\\x break").name_spans("\\x")
    assert not ChunkText("Tuesday").name_spans("day")


def test_a_tex_command_ends_at_a_digit_and_goes_on_through_an_at():
    assert ChunkText("\\advance\\baselineskip\\dp0 }").name_spans("\\dp")
    assert ChunkText("\\ifdim\\fontdimen6\\font").name_spans("\\fontdimen")
    assert not ChunkText("\\def\\foo@bar{}").name_spans("\\foo")
