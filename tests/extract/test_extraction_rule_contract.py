"""The rule contract of extraction: every mention names the rule that made it (the first in
order when several agree), a veto says why a candidate was dropped, a rule can be switched
off, and every stored mention carries its rule."""

from __future__ import annotations

from crossbook.chunk.chunking import parent_chunks, split_sections
from crossbook.core.models import DocTerm, ParentChunk
from crossbook.core.packs import load_pack
from crossbook.extract import entry_rules, heading_rules
from crossbook.extract.contract import first_rule, rules_off
from crossbook.extract.marks import NoteMarks
from crossbook.extract.registry import STAGES, rule_names
from crossbook.extract.rules import analyse_headings, book_mentions
from crossbook.extract.verify import ChunkText
from crossbook.linking.link_rules import RULES as LINK_RULES
from crossbook.storage.db import open_db
from tests.helpers import BOOK_A, BOOK_B, write

GENERIC = load_pack("generic")
BOOK = ("# Book\n\n## Spells\n\n### Frost Lance\n\nA bolt of ice.\n\n### Ember Ward\n\nA ward of fire.\n\n"
        "### Stone Skin\n\nYour skin turns hard.\n\n## Lore\n\n### The Drowned Gate\n\nThe Drowned Gate is a ruin.\n\n"
        "#### Expertise:\n\nExpertise is what you know.\n\n## Terms\n\n**Chilled.** A chilled creature is slow.\n")


def parents(text: str = BOOK, book: str = "Book") -> list[ParentChunk]:
    return parent_chunks(book, split_sections(text))


def rules_of(text: str = BOOK) -> dict[str, str]:
    return {m.name: m.rule for found in book_mentions(parents(text), GENERIC, "Book") for m in found}


def test_every_mention_names_the_first_rule_that_agrees():
    found = rules_of()
    assert found["Frost Lance"] == found["Stone Skin"] == "catalog_entry"
    # alone under "Lore", "The Drowned Gate is a ruin." defines it (catalog_entry does not agree)
    assert found["The Drowned Gate"] == "defining_sentence"
    assert found["Chilled"] == "bold_lead"


def test_a_veto_says_why_a_heading_defines_nothing():
    analysis = analyse_headings(parents(), GENERIC, "Book")
    vetoed = {p.heading: analysis.vetoed.get(p.id) for p in parents()}
    assert vetoed["Expertise:"] == "lead_in"
    assert vetoed["Spells"] == "category_heading"


def test_a_rule_switched_off_neither_drops_nor_makes():
    with rules_off({"lead_in"}):
        assert rules_of().get("Expertise") is not None  # the veto gone, "Expertise" is a name again
    with rules_off({"catalog_entry"}):  # the next rule that agrees names it: a leaf under "Spells"
        assert rules_of()["Frost Lance"] == "marked_entry"
    # no kind_member either: a spell shows its kind, and this entry states none
    with rules_off({"catalog_entry", "marked_entry"}):
        assert "Frost Lance" not in rules_of()
    assert rules_of()["Frost Lance"] == "catalog_entry"  # and back on outside the block


def test_first_rule_keeps_the_registry_order():
    def yes(*_):
        return True
    assert first_rule((yes, heading_rules.no_name), None, None) == "yes"
    with rules_off({"yes"}):
        assert first_rule((yes,), None) is None


def test_the_registry_lists_every_stage_and_names_are_unique():
    assert set(STAGES) == {"headings", "entries", "documentation conventions, inventories and links", "guesses"}
    names = rule_names()
    assert len(names) == len(set(names))
    assert {"lead_in", "catalog_entry", "bold_lead", "stat_block_field", "doc_link", "wikilink", "page_label"} <= set(names)
    assert entry_rules.VETOES[0].__name__ == "legal_section"


def test_marks_name_their_rule():
    page = ParentChunk(id="p", book="Docs", heading="json — JSON encoder", heading_path=("json — JSON encoder",),
                       part=0, ordinal=0, sha256="x", text="# json — JSON encoder\n\njson.dumps\n: Serialize obj. See pickle for more.\n",
                       token_count=20, terms=(DocTerm("json", "module", True), DocTerm("json.dumps", "function")),
                       links=(("pickle", "pickle", "pickle.html"),), file="json.html")
    marks = NoteMarks(GENERIC, [page], [None])
    found = {m.name: m.rule for m in marks.verify(page, [], ChunkText(page.text)).mentions}
    assert found == {"json": "page_subject", "json.dumps": "doc_term", "pickle": "doc_link"}


def test_every_stored_mention_names_its_rule(tmp_path, index_dir, cli_json):
    cli_json("ingest", write(tmp_path / "a.md", BOOK_A), write(tmp_path / "b.md", BOOK_B))
    db = open_db(index_dir)
    rules = dict(db.execute("SELECT rule, count(*) FROM entity_mentions GROUP BY rule").fetchall())
    linker = {rule.__name__ for rule in LINK_RULES}
    assert "" not in rules and "linker" not in rules and linker & set(rules) and rules.get("catalog_entry"), rules
    assert set(rules) <= {*rule_names(), *linker, "llm"}
    where = cli_json("where-else", "Frost Lance")
    shown = {m["rule"] for entity in where["entities"] for group in entity["books"] for m in group["mentions"]}
    assert shown & linker and shown <= {*rule_names(), *linker}


def test_a_back_index_term_names_the_back_index(tmp_path, index_dir):
    from crossbook.ingest.pipeline import ingest_paths
    from tests.conftest import make_job
    from tests.helpers import make_pdf

    pages = [["Colors in LaTeX documents are named before they are used in the text."],
             ["The \\definecolor command names a colour from a model and its values."],
             ["Recall that \\definecolor takes the model first, then the values."],
             ["D", "\\definecolor . . . . . . 2, 3"]]
    outline = [("Colors", 1, 0), ("Defining colours", 1, 1), ("Recap", 1, 2), ("Index", 1, 3)]
    pdf = make_pdf(tmp_path / "colors.pdf", pages, outline, running=False)
    job = make_job(index_dir, embedder="hash")
    ingest_paths(job, [pdf])
    rules = set(job.db.execute("SELECT mention_type, rule FROM entity_mentions WHERE normalized LIKE '%definecolor%'"))
    assert ("defines", "back_index") in rules, rules
