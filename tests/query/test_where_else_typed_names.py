"""Names as users type them in where-else: a member qualified by its owner (``Basket.tally_all``,
``frob::Cart::tally_all``, ``Cart#tally_all``) finds the member in its owner's place, and among
code names that differ only in case the one typed so comes first (query/qualified.py,
query/lookup.py)."""

from __future__ import annotations

import pytest

from crossbook.core.config import load_settings
from crossbook.core.errors import EntityNotFound
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.query.lookup import where_else
from crossbook.query.qualified import IN_OWNER_HEADINGS, ON_OWNER_PAGE, OUTSIDE_OWNER, owner_rank, split_qualified
from crossbook.storage.db import open_db

PAGES = {
    "basket.html": """<h1>Basket</h1><p>A basket of goods.</p>
<dl><dt><code>tally_all()</code></dt><dd><p>Counts every good in the basket.</p></dd>
<dt><code>empty()</code></dt><dd><p>Empties the basket.</p></dd></dl>""",
    "cart.html": """<h1>Cart</h1><p>A cart of goods; unlike a basket it rolls.</p>
<dl><dt><code>tally_all()</code></dt><dd><p>Counts every good in the cart.</p></dd></dl>""",
    "struct.Reel.html": """<h1>Methods</h1>
<dl><dt><code>wind()</code></dt><dd><p>Winds the thread on.</p></dd></dl>""",
    "loom.html": """<h1>Loom</h1>
<dl><dt><code>wind()</code></dt><dd><p>Winds the warp.</p></dd></dl>""",
    "spool.html": """<h1>Classes</h1>
<dl><dt><code>Spool</code></dt><dd><p>The Spool class holds thread.</p></dd></dl>
<h1>Settings</h1>
<dl><dt><code>SPOOL</code></dt><dd><p>The folder spooled files go to.</p></dd></dl>""",
}


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    root = tmp_path_factory.mktemp("typed")
    for name, body in PAGES.items():
        path = root / "manual" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"<html><head><title>{name}</title></head><body>{body}</body></html>")
    settings = load_settings({"index_dir": root / "idx", "embedder": "hash"}, {}, None)
    db = open_db(root / "idx", create=True)
    ingest_paths(IngestJob(db, settings), [root / "manual"], as_book=True)
    yield db
    db.conn.close()


def _files(found: dict) -> list[str]:
    return [m["file"] for e in found["entities"] for g in e["books"] for m in g["mentions"]]


@pytest.mark.parametrize("typed, page", [
    ("Basket.tally_all", "basket.html"),        # Class.method
    ("Cart.tally_all()", "cart.html"),          # called
    ("frob::Cart::tally_all", "cart.html"),     # crate::Type::method: the owner is the innermost
    ("Cart#tally_all", "cart.html"),            # Owner#method
    ("basket.tally_all", "basket.html"),        # module.func, the owner in any case
    ("Reel::wind", "struct.Reel.html"),         # the owner named by its page's path only
    ("Loom.wind", "loom.html"),
])
def test_a_member_typed_with_its_owner_is_found_in_the_owners_place(db, typed, page):
    found = where_else(db, typed)
    assert found["matched_by"] == "qualified"
    files = _files(found)
    assert files and set(files) == {page}, files
    assert found["entities"][0]["books"][0]["mentions"][0]["mention_type"] == "defines"


def test_an_owner_named_nowhere_gives_every_mention_of_the_member(db):
    found = where_else(db, "Crate.tally_all")
    assert found["matched_by"] == "member"
    assert sorted(set(_files(found))) == ["basket.html", "cart.html"]


def test_a_qualified_name_whose_member_is_nothing_is_not_found(db):
    with pytest.raises(EntityNotFound):
        where_else(db, "Basket.weave")


def test_a_name_stored_whole_is_not_read_as_qualified(db):
    assert where_else(db, "tally_all")["matched_by"] == "name"
    assert sorted(set(_files(where_else(db, "tally_all")))) == ["basket.html", "cart.html"]


def test_among_code_names_that_differ_by_case_the_one_typed_so_comes_first(db):
    """The setting SPOOL and the class Spool are two entities (their kinds differ); the one
    typed in its case leads, whatever the kinds' order; typed in neither case, the kinds decide."""
    assert [e["name"] for e in where_else(db, "SPOOL")["entities"]] == ["SPOOL", "Spool"]
    assert [e["name"] for e in where_else(db, "Spool")["entities"]] == ["Spool", "SPOOL"]
    by_kind = [e["entity_type"] for e in where_else(db, "spool")["entities"]]
    assert by_kind == sorted(by_kind)


def test_what_a_qualified_name_is():
    assert split_qualified("syn::Ident::new") == split_qualified("syn::Ident::new()")
    assert (split_qualified("syn::Ident::new").owner, split_qualified("syn::Ident::new").outer) == ("Ident", ("syn",))
    assert split_qualified("GtkWidget:visible").member == "visible"
    assert split_qualified("a->b").owner == "a"
    for not_qualified in ("tally_all", "3.14", ".5", "a..b", "Frost Lance: Level 2", "end."):
        assert split_qualified(not_qualified) is None, not_qualified


def test_how_surely_a_place_is_the_owners():
    reel = split_qualified("frob::Reel::wind")
    assert owner_rank(reel, "Struct frob::Reel > Methods", "struct.Reel.html") == IN_OWNER_HEADINGS
    assert owner_rank(reel, "Methods", "frob/struct.Reel.html") == ON_OWNER_PAGE
    # a word of the owner is not the owner; the outer qualifier alone is not it either
    assert owner_rank(reel, "Reels and reeling", "frob/index.html") == OUTSIDE_OWNER
    assert owner_rank(split_qualified("Big.Reel.wind"), "Reel", None) == IN_OWNER_HEADINGS
    assert owner_rank(split_qualified("BigReel.wind"), "Big Reel", None) == OUTSIDE_OWNER

