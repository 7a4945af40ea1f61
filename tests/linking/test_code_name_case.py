"""Code names that differ only by case: a TeX command or an option keeps its case in its key
(``\\rangeHsb`` and ``\\rangeHSB``, ``-s`` and ``-S`` are two entities), ordinary names fold
case, and a lookup in any case finds the one that exists or lists both."""

from __future__ import annotations

from pathlib import Path

from crossbook.core.config import load_settings
from crossbook.core.normalize import normalize_name, normalized_tokens, normalized_words
from crossbook.ingest.pipeline import IngestJob, ingest_paths
from crossbook.query.lookup import where_else
from crossbook.storage.db import open_db

MANUAL = """<h1>Colour commands</h1><dl>
<dt><code>\\rangeHsb</code></dt><dd><p>Sets the range of the Hsb model.</p></dd>
<dt><code>\\rangeHSB</code></dt><dd><p>Sets the range of the HSB model.</p></dd>
<dt><code>\\definecolor</code></dt><dd><p>Defines a colour by name.</p></dd></dl>
<h1>Random numbers</h1><dl>
<dt><code>random.random</code></dt><dd><p>Return the next random floating point number.</p></dd>
<dt><code>random.Random</code></dt><dd><p>Class that implements the default pseudo-random generator.</p></dd></dl>
<h1>Options</h1><dl>
<dt><code>-s</code></dt><dd><p>Sort the names before listing them.</p></dd>
<dt><code>-S</code></dt><dd><p>Handle sparse files efficiently.</p></dd></dl>
<h1>Spells</h1><dl>
<dt><strong>Frost Lance</strong></dt><dd><p>The Frost Lance spell freezes a target.</p></dd></dl>"""

USAGE = """<h1>Usage</h1><p>Set <code>\\rangeHSB</code> to 360 before the wheel is drawn.</p>
<p>The frost lance is a spell; pass <code>-S</code> to keep holes.</p>"""


def ingest(tmp_path: Path):
    write = lambda path, text: (path.parent.mkdir(parents=True, exist_ok=True), path.write_text(text))  # noqa: E731
    write(tmp_path / "manual" / "commands.html", MANUAL)
    write(tmp_path / "manual" / "usage.html", USAGE)
    index_dir = tmp_path / "idx"
    settings = load_settings({"index_dir": index_dir, "embedder": "hash"}, {}, None)
    db = open_db(index_dir, create=True)
    ingest_paths(IngestJob(db, settings), [tmp_path / "manual"], as_book=True)
    return db


def test_code_words_keep_their_case_and_ordinary_names_fold_it():
    assert normalize_name("\\rangeHsb") != normalize_name("\\rangeHSB")
    assert normalize_name("-s") != normalize_name("-S")
    assert normalize_name("--Sparse") != normalize_name("--sparse")
    assert normalize_name("random.Random") != normalize_name("random.random")  # a class, a function
    assert normalize_name("U.S. Army") == normalize_name("u.s. army")  # abbreviations are prose
    assert normalize_name("Frost Lance") == normalize_name("frost lance") == "frost_lance"
    assert normalize_name("Time-Sense") == normalize_name("time sense")  # a hyphen inside a word is no option
    # a text's tokens keep the same case, so a code name is found in it as written
    assert f"_{normalized_words('-S')}_" in normalized_tokens("pass -S to keep holes")
    assert f"_{normalized_words('-s')}_" not in normalized_tokens("pass -S to keep holes")


def test_two_commands_that_differ_by_case_stay_two_and_a_lookup_lists_both(tmp_path: Path):
    db = ingest(tmp_path)
    for asked in ("\\rangehsb", "rangeHSB", "\\RANGEHSB"):
        names = {e["name"] for e in where_else(db, asked)["entities"]}
        assert names == {"\\rangeHsb", "\\rangeHSB"}, (asked, names)
    options = {e["name"] for e in where_else(db, "-s")["entities"]}
    assert options == {"-s", "-S"}, options
    qualified = {e["name"] for e in where_else(db, "RANDOM.RANDOM")["entities"]}
    assert qualified == {"random.random", "random.Random"}, qualified
    # only one case exists: a lookup in any case finds it
    assert [e["name"] for e in where_else(db, "\\DefineColor")["entities"]] == ["\\definecolor"]
    assert [e["name"] for e in where_else(db, "FROST LANCE")["entities"]] == ["Frost Lance"]


def test_a_code_name_is_referenced_only_as_written(tmp_path: Path):
    db = ingest(tmp_path)

    def referenced_from_usage(name: str) -> bool:
        found = where_else(db, name)["entities"]
        entity = next(e for e in found if e["name"] == name)
        return any(m["file"] == "usage.html" for g in entity["books"] for m in g["mentions"])

    assert referenced_from_usage("\\rangeHSB") and not referenced_from_usage("\\rangeHsb")
    assert referenced_from_usage("-S") and not referenced_from_usage("-s")
    assert referenced_from_usage("Frost Lance")  # an ordinary name in another case


def test_a_code_names_last_word_keeps_its_plural():
    """``json.dumps`` and ``json.dump`` are two functions, ``--colors`` and ``--color`` two
    options; a prose name still folds its plural ("Fate Points", "Half-Orcs")."""
    from crossbook.core.normalize import normalize_name

    assert normalize_name("json.dumps") != normalize_name("json.dump")
    assert normalize_name("--colors") != normalize_name("--color")
    assert normalize_name("json.dumps()") == normalize_name("json.dumps")
    assert normalize_name("Fate Points") == normalize_name("fate point")
    assert normalize_name("Half-Orcs") == normalize_name("Half-Orc")
