"""A rule reads its pack words where it runs, not at import: a module-level call of a genre
word reader (core/packs.py) would fix one genre choice for every book, documentation
included. Readers (index/readers/) read their own formats' words and are left out."""

from __future__ import annotations

import ast
from pathlib import Path

INDEX = Path(__file__).resolve().parents[2] / "index"
READERS = ("genre_words", "genre_list", "genre_table", "pack_words")


def import_time_reads(path: Path) -> list[int]:
    """The line of each call of a word reader that runs when the module is imported:
    outside every function and lambda body (a decorator's or default's call runs then too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[int] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for part in (*node.decorator_list, *node.args.defaults, *node.args.kw_defaults):
                if part is not None:
                    visit(part)
            return
        if isinstance(node, ast.Lambda):
            return
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name in READERS:
                found.append(node.lineno)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def test_no_pack_word_read_at_import_outside_readers():
    modules = [p for p in sorted(INDEX.rglob("*.py")) if "readers" not in p.relative_to(INDEX).parts]
    assert [f"{p.relative_to(INDEX.parent)}:{line}" for p in modules for line in import_time_reads(p)] == []


def test_the_check_sees_a_module_level_read_and_not_one_in_a_function(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("from x import genre_words, per_genres\nWORDS = genre_words('rulebook', 'kinds')\n"
                     "@per_genres\ndef later(w=packs.genre_list('rulebook', 'kinds')):\n"
                     "    return genre_words('rulebook', 'kinds')\n", encoding="utf-8")
    assert import_time_reads(probe) == [2, 4]
