"""A documentation section's terms go on the part of a long section that shows them."""

from __future__ import annotations

from crossbook.chunk.chunking import parent_chunks
from crossbook.core.models import DocTerm, Section


def test_a_tex_command_goes_on_the_part_that_shows_it_whole():
    first = "\n\n".join(f"{n} `\\advance\\@temp@length by {n}pt`" for n in range(60))
    second = "\n\n".join(f"{n} `\\@tfor\\@temp:=\\x{n}\\do{{}}`" for n in range(100, 160))
    term = DocTerm("\\@temp", "command", target="#index:\\@temp:command", rule="back_index")
    section = Section("Code", 1, ("Code",), f"# Code\n\n{first}\n\n{second}\n", 0, pages=(5, 9), terms=(term,))
    parents = parent_chunks("book", [section], parent_tokens=400)
    assert len(parents) > 1
    holding = [p for p in parents if p.terms]
    assert len(holding) == 1 and "\\@tfor\\@temp:" in holding[0].text
