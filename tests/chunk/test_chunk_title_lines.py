"""A heading a conversion lost to a plain line (index/chunk/markdown_repair.py title_lines): a
name in title case alone before its description, in a list of siblings of one shape, is read
as the heading its siblings have; a plain line of any other shape stays text."""

from __future__ import annotations

from crossbook.chunk.chunking import split_sections_report

POWER = "## {name}\n\nYou bend {thing} to your will.\n\n### Enhancements\n\n**Master {name}:** More of it.\n\n"
LOST = "{name}\n\nYou bend {thing} to your will.\n\n### Enhancements\n\n**Master {name}:** More of it.\n\n"


def _book(*parts: str) -> str:
    return "# Powers\n\n" + "".join(parts)


def test_a_title_line_in_its_siblings_shape_is_their_heading():
    text = _book(POWER.format(name="Fire Control", thing="fire"), POWER.format(name="Ice Control", thing="ice"),
                 LOST.format(name="Storm Calling", thing="storms"))
    sections, report = split_sections_report(text)
    assert report.title_lines == 1
    storm = [s for s in sections if s.heading == "Storm Calling"]
    assert len(storm) == 1 and storm[0].level == 2 and storm[0].text.startswith("Storm Calling\n")
    enhancements = [s.heading_path for s in sections if s.heading == "Enhancements"]
    assert enhancements[-1] == ("Powers", "Storm Calling", "Enhancements")


def test_one_sibling_is_no_list():
    text = _book(POWER.format(name="Fire Control", thing="fire"), LOST.format(name="Storm Calling", thing="storms"))
    assert split_sections_report(text)[1].title_lines == 0


def test_a_line_of_another_shape_stays_text():
    siblings = POWER.format(name="Fire Control", thing="fire") + POWER.format(name="Ice Control", thing="ice")
    lowercase = LOST.format(name="storm calling", thing="storms")
    sentence = LOST.format(name="Storms come when called.", thing="storms")
    label = "Storm Calling\n\n- one\n- two\n\n### Enhancements\n\nMore.\n\n"
    other_child = "Storm Calling\n\nYou bend storms to your will.\n\n### Drawbacks\n\nLess.\n\n"
    for lost in (lowercase, sentence, label, other_child):
        assert split_sections_report(_book(siblings, lost))[1].title_lines == 0, lost


def test_a_title_line_in_a_fence_stays_code():
    siblings = POWER.format(name="Fire Control", thing="fire") + POWER.format(name="Ice Control", thing="ice")
    fenced = "```\nStorm Calling\n\nYou bend storms to your will.\n```\n\n### Enhancements\n\nMore.\n\n"
    assert split_sections_report(_book(siblings, fenced))[1].title_lines == 0
