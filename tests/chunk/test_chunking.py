from hypothesis import given, settings
from hypothesis import strategies as st

from crossbook.chunk.chunking import book_title, child_chunks, parent_chunks, split_sections
from crossbook.core.tokens import count_tokens

DOC = """Credits: written for the tests.

# The Book

Intro text.

```
# not a heading, a dice macro
```

Spells
======

## Fire Bolt

Fire Bolt burns.

Setext Sub
----------

Body of the setext section.

## Fire Bolt

A second section with the same heading path.
"""


def test_sections_follow_real_markdown_headings():
    sections = split_sections(DOC)
    assert [s.heading for s in sections] == [None, "The Book", "Spells", "Fire Bolt", "Setext Sub", "Fire Bolt"]
    assert sections[0].text.startswith("Credits")
    assert "# not a heading" in sections[1].text  # stays inside its section: it is in a code fence
    assert sections[2].level == 1 and sections[4].level == 2
    assert sections[3].heading_path == ("Spells", "Fire Bolt")
    assert sections[4].heading_path == ("Spells", "Setext Sub")


def test_sections_concatenate_back_to_the_document():
    assert "".join(s.text for s in split_sections(DOC)) == DOC


def test_book_title_is_a_sole_opening_level_one_heading_else_fallback():
    # two level-1 headings ("# The Book", setext "Spells") are chapters, not a title
    assert book_title(DOC, "stem") == "stem"
    assert book_title("# The Book\n\nText.\n\n## Part\n", "stem") == "The Book"
    assert book_title("## only level two\n", "stem") == "stem"
    assert book_title("no headings at all\n", "stem") == "stem"


def test_chunk_ids_are_stable_and_distinct_for_repeated_paths():
    first = parent_chunks("B", split_sections(DOC))
    second = parent_chunks("B", split_sections(DOC))
    assert [p.id for p in first] == [p.id for p in second]
    assert len({p.id for p in first}) == len(first)
    # another book with the same headings gets other ids
    assert not {p.id for p in first} & {p.id for p in parent_chunks("C", split_sections(DOC))}


def test_editing_one_section_keeps_the_other_ids():
    before = parent_chunks("B", split_sections(DOC))
    after = parent_chunks("B", split_sections(DOC.replace("Fire Bolt burns.", "Fire Bolt burns hotter.")))
    changed = [(a.id, a.sha256) != (b.id, b.sha256) for a, b in zip(before, after)]
    assert changed.count(True) == 1
    # the edited section repeats its heading path, so its id follows its text; the others keep theirs
    assert [a.id == b.id for a, b in zip(before, after)] == [not c for c in changed]
    # a section whose heading path occurs once keeps its id through an edit
    before = parent_chunks("B", split_sections(DOC))
    after = parent_chunks("B", split_sections(DOC.replace("Body of the setext", "Body of the edited setext")))
    assert [a.id for a in before] == [b.id for b in after]


def test_long_section_splits_at_paragraphs_keeping_heading_path():
    paragraphs = "\n\n".join(f"Paragraph {i} " + "word " * 60 for i in range(30))
    doc = f"# Book\n\n## Long\n\n{paragraphs}\n"
    parents = parent_chunks("B", split_sections(doc), parent_tokens=300)
    long_parts = [p for p in parents if p.heading == "Long"]
    assert len(long_parts) > 3
    assert {p.heading_path for p in long_parts} == {("Book", "Long")}
    assert [p.part for p in long_parts] == list(range(len(long_parts)))
    assert all(p.token_count <= 300 for p in long_parts)
    # split at paragraph boundaries: every part after the first starts a paragraph
    assert all(p.text.startswith("Paragraph") for p in long_parts[1:])
    assert "".join(p.text for p in long_parts) == split_sections(doc)[1].text


def test_children_stay_inside_their_parent_and_near_budget():
    doc = "# B\n\n## S\n\n" + "\n\n".join("Sentence number %d is here. " % i * 8 for i in range(20))
    for parent in parent_chunks("B", split_sections(doc)):
        children = child_chunks(parent, child_tokens=120)
        assert "".join(c.text for c in children) == parent.text
        assert all(c.parent_id == parent.id and c.token_count <= 120 for c in children)
        assert all(c.id.startswith(parent.id) for c in children)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["# H\n", "## Sub\n", "text line\n", "\n", "```\n", "# x\n", "Title\n", "===\n"]), max_size=40))
def test_any_document_splits_losslessly(lines):
    doc = "".join(lines)
    sections = split_sections(doc)
    joined = "".join(s.text for s in sections)
    # lossless, except that whitespace before the first heading is not a section of its own
    assert doc.endswith(joined) and not doc[: len(doc) - len(joined)].strip()
    for parent in parent_chunks("B", sections, parent_tokens=50):
        assert count_tokens(parent.text) <= 50 or parent.text.count("\n") <= 1


def test_a_section_inserted_before_others_with_its_heading_path_keeps_their_ids():
    doc = "# B\n\n## Notes\n\nFirst note.\n\n## Notes\n\nSecond note.\n\n## Other\n\nOther text.\n"
    before = {p.text: p.id for p in parent_chunks("B", split_sections(doc))}
    inserted = doc.replace("## Notes\n\nFirst", "## Notes\n\nA new note.\n\n## Notes\n\nFirst", 1)
    after = {p.text: p.id for p in parent_chunks("B", split_sections(inserted))}
    assert len(after) == len(before) + 1 and len(set(after.values())) == len(after)
    assert {text: after[text] for text in before} == before
    # sections with the same path and the same text are still told apart
    twice = parent_chunks("B", split_sections("# B\n\n## Notes\n\nSame.\n\n## Notes\n\nSame.\n"))
    assert len({p.id for p in twice}) == len(twice)
