"""Relations a doc set's structure states (index/relations/doc_structure.py): members from the
page's subject and the terms before them, See also lists, deprecations; no spaCy parse for a
book whose genres read no prose; the documentation types apply to documentation only."""

from __future__ import annotations

from pathlib import Path

import pytest

from crossbook.api import Shelf
from crossbook.core.config import Settings
from crossbook.core.errors import EntityNotFound
from crossbook.relations.doc_structure import DocPlace, Term, structure_claims
from crossbook.relations.ontology import load_ontology
from tests.docset_fixtures import COMMANDS, write_docset
from tests.helpers import BOOK_A, BOOK_B, write

PAGE = """<html><head><title>{name} — Zorp Reference</title><meta name="generator" content="Zeta DocGen 2.0"></head>
<body><h1>{name}</h1><p>{name} — {summary}</p>
<h2>Methods</h2><dl>
<dt><code>{name}.open</code></dt><dd><p>Opens it. See also: <a href="{other}.html">{other}</a>.</p></dd>
<dt><code>{name}.shut</code></dt><dd><p>Deprecated: Use <a href="#{name}.close"><code>{name}.close</code></a> instead.</p></dd>
<dt id="{name}.close"><code>{name}.close</code></dt><dd><p>Closes it.</p></dd>
</dl></body></html>"""


def _ontology():
    return load_ontology(("documentation",))


def _term(name: str, kind: str, source: str = "deflist", defines: bool = True) -> Term:
    return Term(name, name, (name.lower(), kind), source, defines)


def test_a_member_belongs_to_the_nearest_thing_before_it_that_can_own_it():
    text = "## Classes\n\nclass Widget\n\n: A widget.\n\nwidth\n\n: Its width.\n\nbuild()\n\n: Builds one.\n"
    place = DocPlace(subject=_term("widgets", "module", "note"),
                     defined=[_term("Widget", "class"), _term("width", "attribute"), _term("build", "function")])
    claims = {(c.source_name, c.relation_type, c.target_name) for c in structure_claims(text, place, _ontology())}
    # an attribute is its class's; a function is no class's: the module's, the page's subject
    assert claims == {("Widget", "member_of", "widgets"), ("width", "member_of", "Widget"),
                      ("build", "member_of", "widgets")}


def test_no_member_of_a_kind_no_constraint_lets_own_it():
    text = "## Values\n\nred\n\n: A colour.\n\nblue\n\n: Another.\n"
    place = DocPlace(defined=[_term("red", "entry"), _term("blue", "entry")])  # no subject: a list's entries
    assert structure_claims(text, place, _ontology()) == []


def test_see_also_and_replaced_by_belong_to_the_entry_before_them_and_name_what_the_chunk_mentions():
    text = ("frob.shut\n\n: Deprecated: Use `frob.close` instead.\n\nfrob.open\n\n"
            ": Opens it. See also: `frob-list` and `frob.close`.\n")
    place = DocPlace(subject=_term("frob", "class", "note"),
                     defined=[_term("frob.shut", "method"), _term("frob.open", "method")],
                     referenced=[_term("frob.close", "method", "wikilink", False),
                                 _term("frob-list", "command", "wikilink", False)])
    claims = {(c.source_name, c.relation_type, c.target_name) for c in structure_claims(text, place, _ontology())
              if c.relation_type != "member_of"}
    assert claims == {("frob.shut", "replaced_by", "frob.close"), ("frob.open", "see_also", "frob-list"),
                      ("frob.open", "see_also", "frob.close")}


def test_a_replacement_named_in_part_is_no_replacement():
    """"Use `app.json_encoder`" names app.json_encoder, not the "app" the chunk also mentions."""
    text = "encoder\n\n: Deprecated since version 2.2: Use `app.json_encoder` instead.\n"
    place = DocPlace(subject=_term("flask", "module", "note"), defined=[_term("encoder", "attribute")],
                     referenced=[_term("app", "data", "wikilink", False)])
    assert [c for c in structure_claims(text, place, _ontology()) if c.relation_type == "replaced_by"] == []


def test_a_release_number_is_no_member_and_owns_nothing():
    text = "| v16.5.0 | Added in: v16.5.0 |\n| v18.0.0 | Changed. |\n"
    place = DocPlace(subject=_term("fs", "topic", "note"), defined=[_term("v16.5.0", "entry"), _term("v18.0.0", "entry")])
    assert structure_claims(text, place, _ontology()) == []


def _docset(root: Path) -> Path:
    names = list(COMMANDS)
    root.mkdir(parents=True)
    for name, other in zip(names, names[1:] + names[:1]):
        write(root / f"{name}.html", PAGE.format(name=name, summary=COMMANDS[name][0], other=other))
    return root


def test_a_doc_set_gets_structure_relations_and_no_parse(tmp_path, fake_svo):
    folder = _docset(tmp_path / "zorp")
    with Shelf(settings=Settings(index_dir=tmp_path / "index", embedder="hash")) as shelf:
        shelf.ingest([folder])
        rows = shelf.relations().relationships
        members = shelf.relations(relation_type="member_of", source="frob-add").relationships
    assert fake_svo.calls == []  # documentation reads no prose: never parsed
    found = {(r["source"], r["relation_type"], r["target"]) for r in rows}
    assert ("frob-add.open", "member_of", "frob-add") in found
    assert ("frob-add.shut", "replaced_by", "frob-add.close") in found
    assert {r["relation_type"] for r in rows} <= {"member_of", "see_also", "replaced_by"}
    # read from frob-add's side: what it has (and the pair's name, member_of, picks them)
    assert {(r["source"], r["relation_type"], r["target"]) for r in members} == {
        ("frob-add", "has_member", f"frob-add.{m}") for m in ("open", "shut", "close")}


def test_a_rulebook_is_parsed_and_gets_no_documentation_types(tmp_path, fake_svo):
    with Shelf(settings=Settings(index_dir=tmp_path / "index", embedder="hash")) as shelf:
        shelf.ingest([write(tmp_path / "core.md", BOOK_A), write(tmp_path / "grimoire.md", BOOK_B)])
        types = {r["relation_type"] for r in shelf.relations().relationships}
    assert fake_svo.calls and types
    assert not types & {"member_of", "has_member", "see_also", "replaced_by", "replaces"}


def test_a_shelf_of_both_genres_keeps_one_ontology(tmp_path, fake_svo):
    """A doc set joining a shelf of rulebooks changes no stored vocabulary: nothing is derived again for it."""
    from crossbook.storage.index_state import read_state

    with Shelf(settings=Settings(index_dir=tmp_path / "index", embedder="hash")) as shelf:
        shelf.ingest([write(tmp_path / "core.md", BOOK_A), write(tmp_path / "grimoire.md", BOOK_B)])
        before = read_state(shelf.db).ontology
        parsed = len(fake_svo.calls)
        shelf.ingest([write_docset(tmp_path / "quux")])
        after = read_state(shelf.db).ontology
    assert before == after and '"documentation"' in after and '"rulebook"' in after
    assert len(fake_svo.calls) == parsed  # the rulebook's chunks were not parsed again


def test_relations_source_names_an_entity_the_index_holds(tmp_path):
    with Shelf(settings=Settings(index_dir=tmp_path / "index", embedder="hash")) as shelf:
        shelf.ingest([_docset(tmp_path / "zorp")])
        with pytest.raises(EntityNotFound, match="frob-ad"):
            shelf.relations(source="frob-adx")


def test_the_cli_and_the_mcp_answer_which_members_a_command_has(tmp_path, cli_json):
    folder = _docset(tmp_path / "zorp")
    assert cli_json("ingest", str(folder)) is not None
    rows = cli_json("relations", "--type", "member_of", "--source", "frob-list")
    assert {(r["source"], r["relation_type"], r["target"]) for r in rows} == {
        ("frob-list", "has_member", f"frob-list.{m}") for m in ("open", "shut", "close")}
