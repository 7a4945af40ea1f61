import pytest

from crossbook.core.normalize import article_dropped, normalize_name, normalized_tokens


def test_articles_case_and_punctuation_collapse():
    assert normalize_name("The Rapid Strike") == "rapid_strike"
    assert normalize_name("rapid strike") == "rapid_strike"
    assert normalize_name("  Rapid—Strike! ") == "rapid_strike"
    assert normalize_name("Enhanced Time-Sense") == "enhanced_time_sense"


def test_unicode_is_normalized_and_casefolded():
    assert normalize_name("ＦＩＲＥ Bolt") == "fire_bolt"
    assert normalize_name("Straße") == normalize_name("STRASSE")


def test_a_lone_article_is_a_name():
    assert normalize_name("A") == "a"
    assert normalize_name("The") == "the"
    assert normalize_name("!!!") == ""


def test_normalized_tokens_pad_for_whole_word_search():
    tokens = normalized_tokens("Cast the Rapid Strike, now.")
    assert "_rapid_strike_" in tokens
    assert "_rapid_str_" not in tokens


@pytest.mark.parametrize("name, dropped", [
    ("The Drunkard’s Stagger", "Drunkard’s Stagger"),
    ("the Falling Drunkard", "Falling Drunkard"),
    ("An Iron Will", "Iron Will"),
    ("The Game", None),            # one word left: too short to be the same name
    ("Theory of Magic", None),     # no article
    ("Falling Drunkard", None),
])
def test_a_name_less_its_article_keeps_its_key(name, dropped):
    assert article_dropped(name) == dropped
    if dropped:
        assert normalize_name(dropped) == normalize_name(name)
