"""The linker's rules (linking/link_rules.py) in the rule contract: each link names the rule
that made it, and switching one rule off changes that rule's links alone."""

from __future__ import annotations

from crossbook.extract.contract import rules_off
from crossbook.linking.linker import Linker, LinkTarget
from crossbook.linking.matchview import match_view

CUES = {"spell": ("cast", "casts"), "condition": ("is",), "function": ()}
TEXT = ("The wizard casts Frost Lance, then *ember ward*. The shield holds; the target is chilled. "
        "Call `sorted` on the list to get sorted order.")


def _linker() -> Linker:
    targets = [LinkTarget(("frost lance", "spell"), {"Frost Lance"}, {"Grimoire"}),
               LinkTarget(("ember ward", "spell"), {"Ember Ward"}, {"Grimoire"}),
               LinkTarget(("shield", "spell"), {"Shield"}, {"Grimoire"}),
               LinkTarget(("chilled", "condition"), {"Chilled"}, {"Grimoire"}, "Conditions"),
               LinkTarget(("sorted", "function"), {"sorted"}, {"Docs"})]
    return Linker(targets, CUES, terms={"shield"}, doc_books={"Docs"})


def _links() -> dict[str, str]:
    return {m.key[0]: m.rule for m in _linker().link(TEXT, "Grimoire", set(), match_view(TEXT))}


def test_each_link_names_the_rule_that_made_it():
    assert _links() == {"frost lance": "as_written", "ember ward": "any_case", "shield": "corpus_term",
                        "chilled": "state_word", "sorted": "as_written"}


def test_switching_a_rule_off_changes_its_links_alone():
    every = _links()
    for rule, gone in (("corpus_term", "shield"), ("state_word", "chilled")):
        with rules_off([rule]):
            assert _links() == {k: v for k, v in every.items() if k != gone}, rule
    with rules_off(["any_case"]):  # the emphasized lowercase occurrence is still a term
        assert _links()["ember ward"] == "emphasized_term"


def test_a_common_word_name_in_prose_links_only_with_its_veto_off():
    text = "Sorting keeps sorted order."
    assert [m.key[0] for m in _linker().link(text, "Docs", set(), match_view(text))] == []
    with rules_off(["code_only_in_prose"]):
        assert [m.key[0] for m in _linker().link(text, "Docs", set(), match_view(text))] == ["sorted"]
