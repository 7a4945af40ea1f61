"""The kinds a rulebook states of its things outside a phrase: a note vault's tags (the last
segment of ``#Asset/Ritual`` is the kind noun a heading "Rituals" would use), and a heading
named by a compound kind ("Gear Knacks": a knack). Invented vault and text."""

from __future__ import annotations

from crossbook.chunk.chunking import parent_chunks
from crossbook.core.packs import load_pack
from crossbook.extract.marks import NoteMarks
from crossbook.readers.vault import read
from tests.helpers import vault

NOTES = {
    "Assets/Glimmer Rite.md": "# Glimmer Rite\n#Asset/Ritual \n\n- When you perform this ritual, roll +wits.\n",
    "Assets/Brawler.md": "# Brawler\n#Asset/Combat_Talent\n## If you fight unarmed\n- When you strike, add +1.\n",
    "Assets/Hound.md": "# Hound\n#Asset/Companion\n- Your hound tracks by scent.\n",
    "Assets/Two Minds.md": "# Two Minds\n#Ritual #Talent\n- Both at once.\n",
}


def note_types(tmp_path) -> dict[str, str]:
    book = read(vault(tmp_path / "v", NOTES))
    parents = parent_chunks("v", list(book.sections))
    marks = NoteMarks(load_pack("generic"), parents, [None] * len(parents))
    return {file.rpartition("/")[2].removesuffix(".md"): kind for file, kind in marks.note_types.items()}


def test_a_tag_whose_segment_is_a_kind_word_types_the_note(tmp_path):
    found = note_types(tmp_path)
    assert found["Glimmer Rite"] == "spell"
    assert found["Brawler"] == "feature"  # "Combat_Talent": a talent
    assert found["Hound"] == "other"  # no kind word among its tags
    assert found["Two Minds"] == "other"  # tags that name two kinds state neither
