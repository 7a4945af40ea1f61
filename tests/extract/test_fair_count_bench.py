"""The fair count's reading of a book's source names (bench/srd51/eval_definitions): the leads
and headings it takes as names, and the ones its structure says are labels."""

from __future__ import annotations

from bench.srd51.source_gold import headings, source_names

BOOK = """# Powers

* **Extra Movement:** You can move up to two zones for free.
- <strong>Mental Recovery:</strong> You recover from all mental stress.
<b>Gale Step</b>: You run on the wind.
>- Troublesome foe: 3 progress per harm.
	- <input type="checkbox">Inescapable: When you strike, roll +edge.
- when you travel: take +1 supply.
**Example Rule-Changing Stunt:** Because I don't believe in magic...
<strong>Important Note</strong>: read this first.
**Range:** 60 feet
**Range:** 30 feet
**Range:** Self
***Multiattack.*** It attacks twice.
***Multiattack.*** It bites twice.
***Multiattack.*** It claws twice.
- A very long lead of many more words than a name: it is a sentence.
"""


def test_a_colon_lead_in_bold_html_or_a_plain_list_item_is_a_source_name():
    names, rejects = source_names({"book": BOOK})
    for name in ("extra_movement", "mental_recovery", "gale_step", "troublesome_foe", "inescapable",
                 "multiattack"):
        assert name in names["book"] and name not in rejects["book"], name


def test_a_repeated_colon_lead_and_an_example_or_note_lead_are_labels():
    names, rejects = source_names({"book": BOOK})
    assert {"range", "example_rule_changing_stunt", "important_note"} <= rejects["book"]


def test_a_lowercase_or_long_list_lead_is_no_name():
    names, _ = source_names({"book": BOOK})
    assert "when_you_travel" not in names["book"]
    assert not any(n.startswith("a_very_long") for n in names["book"])


def test_an_indented_html_heading_is_a_heading_where_an_indented_hash_line_is_code():
    found = [name for _, name, _ in headings("    ###>Larger Steps</h3>\n    ## not a heading\n")]
    assert found == ["Larger Steps"]
