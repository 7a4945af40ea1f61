"""The corpus linker: whole words, case-aware, longest match, cue-based disambiguation."""

from crossbook.linking.linker import Linker, LinkTarget

CUES = {"spell": ("cast", "casts"), "equipment": ("wield", "wields", "armor")}


def linker(*targets):
    return Linker([LinkTarget(key, set(names), set(books)) for key, names, books in targets], CUES)


SHIELDS = linker(
    (("shield", "spell"), {"Shield"}, {"Grimoire"}),
    (("shield", "equipment"), {"Shield"}, {"Core"}),
    (("greater_shield", "spell"), {"Greater Shield"}, {"Grimoire"}),
    (("light", "spell"), {"Light"}, {"Grimoire"}),
)


def names(matches):
    return [(m.name, m.key[1]) for m in matches]


def test_longest_match_wins_and_each_entity_once():
    found = SHIELDS.link("Cast Greater Shield. Cast Greater Shield again.", "X", set())
    assert names(found) == [("Greater Shield", "spell")]


def test_case_aware_ordinary_words_are_not_references():
    assert names(SHIELDS.link("In dim light the guards wait.", "X", set())) == []
    assert names(SHIELDS.link("She casts Light on the door.", "X", set())) == [("Light", "spell")]
    assert names(SHIELDS.link("SHE CASTS LIGHT.", "X", set())) == [("LIGHT", "spell")]


def test_whole_words_with_english_plurals():
    assert names(SHIELDS.link("Lightning struck. Shieldwall.", "X", set())) == []
    assert names(SHIELDS.link("Two guards wield Shields.", "X", set())) == [("Shields", "equipment")]


def test_ambiguous_name_goes_to_the_nearest_cue_type():
    found = SHIELDS.link("The knight wields a Shield and casts Shield on itself.", "X", set())
    assert names(found) == [("Shield", "equipment"), ("Shield", "spell")]


def test_ambiguous_name_without_cues_prefers_its_own_book_else_is_skipped():
    assert names(SHIELDS.link("A Shield is here.", "Core", set())) == [("Shield", "equipment")]
    skipped = linker((("shield", "spell"), {"Shield"}, {"G"}), (("shield", "equipment"), {"Shield"}, {"C"}))
    assert names(skipped.link("A Shield is here.", "Other", set())) == []
    assert skipped.ambiguous["Shield"] == 1


def test_ambiguous_name_without_cues_goes_to_the_kind_its_chunks_other_names_have():
    # a row of a table of spells (no cue word): Shield among Light and Greater Shield is the spell
    homonyms = linker((("shield", "spell"), {"Shield"}, {"G"}), (("shield", "equipment"), {"Shield"}, {"C"}),
                      (("light", "spell"), {"Light"}, {"G"}), (("mend", "spell"), {"Mend"}, {"G"}),
                      (("rope", "equipment"), {"Rope"}, {"C"}))
    assert names(homonyms.link("| Light | 1st |\n| Shield | 1st |\n| Mend | 0 |", "Other", set())) == [
        ("Light", "spell"), ("Shield", "spell"), ("Mend", "spell")]
    # one name of each kind beside it: no kind leads, skipped
    assert ("Shield", "spell") not in names(homonyms.link("| Light | 1st |\n| Shield | 1st |\n| Rope | 1 |", "Other", set()))


def test_skip_set_and_context_sentence():
    [match] = SHIELDS.link("Intro. Then she casts Light twice! End.", "X", {("shield", "spell")})
    assert match.context == "Then she casts Light twice!"
    assert SHIELDS.link("casts Light", "X", {("light", "spell")}) == []


def test_origin_book_is_the_defining_book():
    [match] = SHIELDS.link("She casts Light.", "Elsewhere", set())
    assert match.origin_book == "Grimoire"


def test_known_limit_sentence_initial_ordinary_word_is_linked():
    """Documented limit: a capitalized ordinary word at a sentence start looks like a name."""
    assert names(SHIELDS.link("Light rain fell.", "X", set())) == [("Light", "spell")]


def test_empty_linker_links_nothing():
    assert Linker([], CUES).link("Anything at all.", "X", set()) == []


def test_an_emphasized_lowercase_word_is_the_name_the_book_emphasizes():
    # stat blocks write spell names in lowercase italics: "it casts *light*"
    assert names(SHIELDS.link("The lich casts *light* at will.", "X", set())) == [("light", "spell")]
    assert names(SHIELDS.link("It casts <em>light</em> at will.", "X", set())) == [("light", "spell")]
    assert names(SHIELDS.link("It casts _light_ at will.", "X", set())) == [("light", "spell")]
    # the same word, plain or inside a longer emphasized phrase, stays an ordinary word
    assert names(SHIELDS.link("In dim light it waits.", "X", set())) == []
    assert names(SHIELDS.link("It waits *in dim light* for you.", "X", set())) == []


def test_a_state_links_in_lowercase_where_a_state_goes():
    # books write conditions in lowercase; a rare one is no corpus term, but "is weakened"
    # names the condition the shelf files under Conditions
    states = Linker([LinkTarget(("weakened", "other"), {"Weakened"}, {"Core"}, "Conditions"),
                     LinkTarget(("stuck", "other"), {"Stuck"}, {"Core"}, "Conditions"),
                     LinkTarget(("frozen", "other"), {"Frozen"}, {"Core"}, "Conditions"),
                     LinkTarget(("blessed", "other"), {"Blessed"}, {"Core"}, "Spells")], CUES)
    assert names(states.link("Hit: the target is weakened until the end of its turn.", "X", set())) == [
        ("weakened", "other")]
    assert names(states.link("The target is also stuck (save ends).", "X", set())) == [("stuck", "other")]
    assert names(states.link("It ends the stuck condition.", "X", set())) == [("stuck", "other")]
    # elsewhere, or where the word describes a noun or is an idiom's adjective, it is a word
    assert names(states.link("A weakened wall falls; we are here, stuck.", "X", set())) == []
    assert names(states.link("The wraith is the frozen ghost of a traveler.", "X", set())) == []
    assert names(states.link("It is weakened to the bone? No: frozen.", "X", set())) == []
    # a name filed elsewhere (a spell) is no state
    assert names(states.link("The cleric is blessed.", "X", set())) == []
