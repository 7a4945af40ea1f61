"""Genre knowledge is data: a genre's word lists live in its pack's ``[words]`` table
(index/packs/rulebook.toml, documentation.toml), never in Python code. A few sentinel words of
each list must not appear in a string literal anywhere under index/ (docstrings aside: they
give examples); the check reads the code with ast, so comments do not count either."""

from __future__ import annotations

import ast
import re
from functools import lru_cache
from pathlib import Path

import pytest

from crossbook.core.packs import genre_list, genre_table, genre_words

INDEX = Path(__file__).resolve().parents[2] / "index"

# (genre, list) -> sentinel words of it
SENTINELS = {
    ("rulebook", "qualifier_words"): ("sidebar", "revised"),
    ("rulebook", "spell_schools"): ("abjuration", "necromancy", "transmutation"),
    ("rulebook", "creature_sizes"): ("gargantuan",),
    ("rulebook", "item_rarities"): ("legendary", "uncommon"),
    ("rulebook", "stat_block_labels"): ("armor class", "hit points"),
    ("rulebook", "catalog_words"): ("compendium", "alphabetical"),
    ("rulebook", "title_suffixes"): ("System Reference Document",),
    ("rulebook", "stat_block_fences"): ("statblocks", "stat-block"),
    ("rulebook", "state_words"): ("affliction",),
    ("rulebook", "spell_list_titles"): ("spellcasting", "prayers"),
    ("rulebook", "gear_list_titles"): ("possessions", "loadout"),
    ("rulebook", "kind_sections"): ("stunts", "tricks"),
    ("rulebook", "roll_words"): ("saving throw",),
    ("rulebook", "kind_words"): ("treasure", "adversary", "non-player character"),
    ("rulebook", "remark_leads"): ("errata", "gm tip"),
    ("rulebook", "column_values"): ("underdark", "grassland"),
    ("rulebook", "generic_labels"): ("other details",),
    ("documentation", "sphinx_kinds"): ("decoratormethod", "confval", "pdbcommand"),
    ("documentation", "index_titles"): ("general index", "index of commands"),
    ("documentation", "heading_kinds"): ("environment variable",),
}


@lru_cache(maxsize=None)
def code_literals(root: Path) -> tuple[tuple[Path, int, str], ...]:
    """(module, line, literal) for every module under ``root``, parsed once for all the checks."""
    return tuple((path, line, text) for path in sorted(root.rglob("*.py")) for line, text in literals(path))


def literals(path: Path):
    """Every string literal of a module (f-string parts too), docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.lineno, node.value


def found_in_code(word: str, root: Path = INDEX) -> list[str]:
    # a space in the word matches what a regular expression writes for one (\s+, \s)
    pattern = re.compile(r"(?<![\w-])" + r"(?:\s+|\\s[+*]?|\\ )".join(map(re.escape, word.split())) + r"(?![\w-])",
                         re.IGNORECASE)
    return [f"{path.relative_to(root.parent)}:{line}" for path, line, text in code_literals(root)
            if pattern.search(text)]


@pytest.mark.parametrize(("where", "words"), SENTINELS.items(), ids=[f"{g}.{k}" for g, k in SENTINELS])
def test_a_genre_word_lives_in_its_pack_not_in_code(where, words):
    genre, key = where
    listed = {w.lower() for w in genre_words(genre, key)}
    for word in words:
        assert word.lower() in listed, f"{word!r} is not in {genre}.toml's {key} any more: pick another sentinel"
        assert found_in_code(word) == [], f"{word!r} ({genre} {key}) is written in code; read it with genre_words"


def test_a_tools_files_live_in_its_inventory_module_not_in_a_pack():
    """A pack holds words; a documentation tool's file names and folders are facts of the tool,
    kept with the module that reads its inventory (readers/inventories)."""
    import tomllib

    from crossbook.readers.inventories import inventories

    files = re.compile(r"^[\w./*-]+\.(?:js|json|inv|html|tag|devhelp2)$|^[\w-]+-list$")
    for pack in sorted((INDEX / "packs").glob("*.toml")):
        words = tomllib.loads(pack.read_text(encoding="utf-8")).get("words", {})
        flat = [w for value in words.values() for w in (value if isinstance(value, list) else [*value, *value.values()])]
        assert not [w for w in flat if isinstance(w, str) and files.match(w)], pack.name
    markers = {marker for inventory in inventories() for marker in inventory.markers}
    assert {"objects.inv", "crates.js", "element-list", "book.js"} <= markers


def test_the_check_sees_a_word_in_code(tmp_path):
    """It can fail: a sentinel written in a regular expression is found, not in a docstring."""
    module = tmp_path / "index" / "mod.py"
    module.parent.mkdir()
    module.write_text('"""Doc: a Gargantuan dragon."""\nimport re\nSIZE = re.compile(r"huge|gargantuan")\n'
                      'LABEL = r"armor\\s+class"\n', encoding="utf-8")
    assert found_in_code("gargantuan", tmp_path / "index") == ["index/mod.py:3"]
    assert found_in_code("armor class", tmp_path / "index") == ["index/mod.py:4"]


def test_ordered_lists_and_tables_keep_the_packs_order():
    assert genre_list("rulebook", "creature_types")[0] == "creature"
    assert genre_table("rulebook", "kind_words")["monster"] == "creature"
    assert genre_table("documentation", "sphinx_kinds")["cmdoption"] == "option"
