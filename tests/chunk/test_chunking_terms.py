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


def test_a_lower_case_term_goes_on_the_part_that_shows_it_in_any_case_and_a_cased_one_only_as_written():
    text = "# 3.7.2 Command Search and Execution\n\nAfter a command has been split into words, it runs.\n"
    terms = (DocTerm("command search", "entry", rule="anchor_name"), DocTerm("Command search", "entry"),
             DocTerm("command lookup", "entry"))
    section = Section("3.7.2 Command Search and Execution", 1, ("3.7.2 Command Search and Execution",), text, 0,
                      terms=terms)
    [parent] = parent_chunks("book", [section])
    assert [t.name for t in parent.terms] == ["command search"]
