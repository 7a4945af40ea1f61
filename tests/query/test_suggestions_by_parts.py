"""A name that matches nothing is offered code names by their parts (a shared prefix, a shared
``_`` part) before prose words (query/name_parts.py, query/naming.py's ``suggest``)."""

from __future__ import annotations

import pytest

from crossbook.core.config import load_settings
from crossbook.core.errors import EntityNotFound
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.query.lookup import where_else
from crossbook.query.name_parts import by_parts, code_parts
from crossbook.storage.db import open_db

NAMES = ["frob_read_at", "frob_readv", "frob_write", "spool_read", "do_frob_read", "frob", "Frost Reading",
         "Fob Road", "fro", "read", "a_b", "tallyAll", "Spool"]


def test_code_names_are_offered_by_their_parts_closest_first():
    # those it begins (shortest first), those that hold it, those sharing a first part, a part
    assert by_parts("frob_read", NAMES, 10) == ["frob_readv", "frob_read_at", "do_frob_read", "frob_write",
                                                "spool_read"]
    # prose names and ordinary words are never offered by parts
    assert not {"Frost Reading", "Fob Road", "read", "Spool", "frob"} & set(by_parts("frob_read", NAMES, 20))
    assert by_parts("FROB_READ()", NAMES, 2) == ["frob_readv", "frob_read_at"]  # case and a call folded
    assert by_parts("frob_read_all", ["frob_read", "frob_write"], 2) == ["frob_read", "frob_write"]
    assert by_parts("frob read", NAMES, 5) == []  # a name with a space is prose: the fuzzy match offers it
    assert by_parts("x_2", ["y_2", "x_3"], 5) == []  # a number or one letter shared is nothing


def test_the_last_part_typed_may_be_cut_short():
    names = ["cairo_set_font_size", "cairo_set_source_rgb", "cairo_get_source", "gtk_set_source"]
    assert by_parts("cairo_set_sourc", names, 4)[0] == "cairo_set_source_rgb"


def test_what_a_code_name_is():
    assert code_parts("frob_read_at") == ("frob", "read", "at")
    assert code_parts("syn::Ident::new") == ("syn", "ident", "new")
    assert code_parts("tallyAll") == ("tallyall",) and code_parts("\\definecolor") == ("definecolor",)
    for prose in ("Frost Lance", "Spool", "read", ""):
        assert code_parts(prose) is None, prose


@pytest.fixture
def db(tmp_path):
    page = "".join(f"<dt><code>{name}()</code></dt><dd><p>Does {name}.</p></dd>"
                   for name in ("frob_read_at", "frob_readv", "frob_write"))
    (tmp_path / "manual").mkdir()
    (tmp_path / "manual" / "api.html").write_text(f"<html><body><h1>Functions</h1><dl>{page}</dl></body></html>")
    (tmp_path / "manual" / "guide.html").write_text(
        "<html><head><title>Frob Readers</title></head><body><h1>Frob Readers</h1><p>Who reads a frob.</p>"
        "</body></html>")
    settings = load_settings({"index_dir": tmp_path / "idx", "embedder": "hash"}, {}, None)
    db = open_db(tmp_path / "idx", create=True)
    ingest_paths(IngestJob(db, settings), [tmp_path / "manual"], as_book=True)
    yield db
    db.conn.close()


def test_where_else_of_a_name_that_matches_nothing_suggests_code_names_first(db):
    with pytest.raises(EntityNotFound) as raised:
        where_else(db, "frob_read")
    suggestions = raised.value.suggestions
    assert suggestions[:3] == ["frob_readv()", "frob_read_at()", "frob_write()"], suggestions
    assert suggestions[3:] == ["Frob Readers"], suggestions  # the prose name after them
    assert "frob_read_at()" in str(raised.value)
