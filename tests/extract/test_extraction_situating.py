"""The situating context (contextual embeddings): the OpenAI extractor's single call per parent also
returns one or two sentences situating the passage in its book; they are stored per parent
chunk and join the embedding text of its children. Exercised through the scripted
OpenAI-compatible server with the real client, the CLI and the hash embedder."""

from __future__ import annotations

import hashlib
import json
import re

import pytest

from crossbook.storage.db import open_db
from crossbook.vectors.children import CHUNK_CONTEXT, SITUATING_CONTEXT, child_rows, children_digest
from crossbook.vectors.embed import HashEmbedder
from crossbook.vectors.sync_notes import META_CONTEXT
from tests.fakes import passage_of
from tests.helpers import BOOK_A, BOOK_B, heading_responder, write

# a section long enough for several child chunks (250 tokens each with the hash embedder)
LONG = ("# Bestiary\n\n## Monsters\n\n### Cloaker\n\n"
        + "\n\n".join(f"The Cloaker hunts in cave {n}, where it waits folded against the ceiling "
                      f"for travellers who carry light number {n} and never look up." for n in range(40))
        + "\n\n### Grue\n\nA Grue lives in the dark and fears the light.\n")


def situating(heading: str) -> str:
    """The context the scripted model writes for a passage under ``heading``."""
    return f"This passage describes {heading} in its chapter of the book; zqxsituated{heading.replace(' ', '')}."


def situating_responder(skip: tuple[str, ...] = (), write_context=situating):
    """heading_responder's answer plus a situating_context, except for headings in ``skip``
    (whose answer has no such field, as an older prompt's answer)."""
    clean = heading_responder()

    def respond(request: dict):
        status, headers, body = clean(request)
        match = re.match(r"#+ (.+)", passage_of(request))
        heading = match.group(1).strip() if match else "the preface"
        if heading not in skip:
            answer = json.loads(body["choices"][0]["message"]["content"])
            body["choices"][0]["message"]["content"] = json.dumps(
                {"situating_context": write_context(heading), **answer})
        return status, headers, body

    return respond


@pytest.fixture
def openai_cli(cli, scripted_openai, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")

    def ingest(*args, model: str = "scripted"):
        result = cli("ingest", *args, "--extractor", "openai", "--base-url", scripted_openai.base_url,
                     "--model", model, "--json")
        assert result.exit_code == 0, result.stderr
        return json.loads(result.stdout)

    return ingest


@pytest.fixture
def embedded(monkeypatch) -> list[str]:
    """Every text the hash embedder is asked to embed (questions included)."""
    texts: list[str] = []
    real = HashEmbedder.embed
    monkeypatch.setattr(HashEmbedder, "embed", lambda self, batch: texts.extend(batch) or real(self, batch))
    return texts


def _contexts(index_dir) -> dict[str, str]:
    db = open_db(index_dir)
    return dict(db.execute("SELECT chunk_id, context FROM situating_contexts").fetchall())


def _heading_of(db, chunk_id: str) -> str:
    return db.execute("SELECT heading FROM chunks WHERE id = ?", [chunk_id]).fetchone()[0]


def _stored(index_dir) -> tuple[dict, dict]:
    """(id -> metadata, id -> embedding) of the index's vectors."""
    from crossbook.core.config import load_settings
    from crossbook.vectors.chroma import open_vectors

    db = open_db(index_dir)
    vectors = open_vectors(load_settings({"index_dir": index_dir}, {}), db, check=False)
    page = vectors.collection.get(include=["metadatas", "embeddings"])
    return (dict(zip(page["ids"], page["metadatas"])),
            {vid: [float(x) for x in vector] for vid, vector in zip(page["ids"], page["embeddings"])})


def test_the_single_extraction_call_asks_for_the_situating_context(tmp_path, openai_cli, scripted_openai):
    scripted_openai.responder = situating_responder()
    [result] = openai_cli(write(tmp_path / "a.md", BOOK_A))
    assert result["llm_calls"] == result["parents"] == len(scripted_openai.chat_calls)  # no extra call
    for request in scripted_openai.chat_calls:
        schema = request["response_format"]["json_schema"]["schema"]
        assert schema["properties"]["situating_context"] == {"type": "string"}
        assert "situating_context" in schema["required"]  # strict mode: every property is required
        assert "situating_context" in request["messages"][-1]["content"]


def test_the_context_is_stored_per_parent_and_embedded_with_every_child_of_it(
        tmp_path, index_dir, openai_cli, scripted_openai, embedded, cli):
    scripted_openai.responder = situating_responder(skip=("Grue",))
    [result] = openai_cli(write(tmp_path / "bestiary.md", LONG))
    db = open_db(index_dir)
    contexts = _contexts(index_dir)
    assert result["situating_contexts"] == len(contexts) == result["parents"] - 1  # said in the result
    parents = [r[0] for r in db.execute("SELECT id FROM chunks WHERE kind = 'parent'")]
    assert {_heading_of(db, p) for p in contexts} == {_heading_of(db, p) for p in parents} - {"Grue"}
    assert all(contexts[p] == situating(_heading_of(db, p)) for p in contexts)
    rows = child_rows(db)
    cloaker = [r for r in rows if r.heading_path.endswith("Cloaker")]
    assert len(cloaker) >= 3  # the context reaches each of several children, not only the first
    metadata, _ = _stored(index_dir)
    for row in rows:
        [text] = [t for t in embedded if row.text in t]
        context = contexts.get(row.parent_id)
        if context is None:  # the Grue's answer had no context: its child is embedded as before
            assert "zqxsituated" not in text and metadata[row.id]["context"] == CHUNK_CONTEXT
            assert "situating_sha256" not in metadata[row.id]
        else:
            assert text.startswith(row.heading_path) and text.index(context) < text.index(row.text)
            assert metadata[row.id]["context"] == SITUATING_CONTEXT
    # the index records the variant, and this crossbook serves it
    assert db.execute("SELECT value FROM crossbook_meta WHERE key = ?", [META_CONTEXT]).fetchone()[0] == SITUATING_CONTEXT
    assert cli("search", "zqxsituatedCloaker").exit_code == 0 and cli("doctor").exit_code == 0
    # a context is the model's, never a mention nor evidence
    assert not db.execute("SELECT count(*) FROM entity_mentions WHERE context LIKE '%zqxsituated%'").fetchone()[0]


def test_a_cached_reingest_makes_no_call_and_the_same_vectors_and_delete_book_removes_the_contexts(
        tmp_path, index_dir, openai_cli, scripted_openai, cli):
    scripted_openai.responder = situating_responder()
    a, b = write(tmp_path / "a.md", BOOK_A), write(tmp_path / "bestiary.md", LONG)
    openai_cli(a, b)
    first_contexts, (_, first_vectors) = _contexts(index_dir), _stored(index_dir)
    db = open_db(index_dir)
    bestiary = {p for p in first_contexts if db.execute("SELECT book FROM chunks WHERE id = ?", [p]).fetchone()[0] == "Bestiary"}
    calls = len(scripted_openai.chat_calls)

    assert cli("delete-book", "Bestiary").exit_code == 0
    assert set(_contexts(index_dir)) == set(first_contexts) - bestiary and bestiary
    metadata, _ = _stored(index_dir)
    assert {m["book"] for m in metadata.values()} == {"Core Rules"}

    [again] = openai_cli(b)  # its answers are still in the LLM cache
    assert (again["llm_calls"], again["cache_hits"]) == (0, again["parents"])
    assert len(scripted_openai.chat_calls) == calls
    assert _contexts(index_dir) == first_contexts
    _, vectors = _stored(index_dir)
    assert vectors.keys() == first_vectors.keys()
    assert all(vectors[v] == pytest.approx(first_vectors[v]) for v in vectors)


def test_an_answer_without_a_situating_context_still_ingests_as_before(tmp_path, index_dir, openai_cli, scripted_openai, cli):
    scripted_openai.responder = heading_responder()  # an answer to an older prompt: no such field
    [result] = openai_cli(write(tmp_path / "a.md", BOOK_A))
    assert result["mentions"] >= result["parents"] and not result.get("partial")
    assert _contexts(index_dir) == {}
    db = open_db(index_dir)
    assert db.execute("SELECT value FROM crossbook_meta WHERE key = ?", [META_CONTEXT]).fetchone()[0] == CHUNK_CONTEXT
    metadata, _ = _stored(index_dir)
    assert metadata and all(m["context"] == CHUNK_CONTEXT for m in metadata.values())
    assert cli("doctor").exit_code == 0


def test_a_changed_context_re_embeds_the_children_of_its_parent(tmp_path, index_dir, openai_cli, scripted_openai, embedded):
    scripted_openai.responder = situating_responder()
    book = write(tmp_path / "a.md", BOOK_A)
    openai_cli(book)
    before, _ = _stored(index_dir)
    # another model (another cache key) situates the Prone section differently
    scripted_openai.responder = situating_responder(
        write_context=lambda h: situating(h) if h != "Prone" else "zqxrewritten: the Prone condition of Core Rules.")
    embedded.clear()
    openai_cli(book, model="scripted-2")
    after, _ = _stored(index_dir)
    db = open_db(index_dir)
    prone = {r.id for r in child_rows(db) if r.heading_path.endswith("Prone")}
    assert prone and {v for v in after if after[v] != before[v]} == prone
    assert sum("zqxrewritten" in t for t in embedded) == len(prone)


def test_reembed_moves_vectors_made_without_the_contexts_to_them(tmp_path, index_dir, openai_cli, scripted_openai, cli):
    scripted_openai.responder = situating_responder()
    openai_cli(write(tmp_path / "a.md", BOOK_A))
    # as a crossbook that embeds only "book-path" leaves it: vectors without the context
    db = open_db(index_dir)
    from crossbook.core.config import load_settings
    from crossbook.vectors.chroma import open_vectors

    vectors = open_vectors(load_settings({"index_dir": index_dir}, {}), db, check=False)
    stored = vectors.stored()
    vectors.collection.update(ids=list(stored), metadatas=[
        {k: v for k, v in meta.items() if k != "situating_sha256"} | {"context": CHUNK_CONTEXT}
        for meta in stored.values()])
    with db.atomic():
        db.execute("UPDATE crossbook_meta SET value = ? WHERE key = ?", [CHUNK_CONTEXT, META_CONTEXT])
    doctor = json.loads(cli("doctor", "--json").stdout)
    assert not doctor["ok"] and sorted(doctor["stale"]) == sorted(stored)
    moved = cli("reembed", "--json")
    assert moved.exit_code == 0, moved.stderr
    assert json.loads(moved.stdout)["embedded"] == len(stored)
    assert cli("doctor").exit_code == 0
    assert db.execute("SELECT value FROM crossbook_meta WHERE key = ?", [META_CONTEXT]).fetchone()[0] == SITUATING_CONTEXT


def test_an_unknown_chunk_context_is_refused(tmp_path, index_dir, openai_cli, scripted_openai, cli):
    scripted_openai.responder = situating_responder()
    openai_cli(write(tmp_path / "a.md", BOOK_A))
    db = open_db(index_dir)
    with db.atomic():  # as a later crossbook might record another variant
        db.execute("UPDATE crossbook_meta SET value = 'book-path+situating-v2' WHERE key = ?", [META_CONTEXT])
    refused = cli("search", "Prone")
    assert refused.exit_code == 1 and refused.stdout == ""
    assert "chunk context 'book-path+situating-v2'" in refused.stderr and "reembed" in refused.stderr


def test_a_rules_extractor_index_is_unchanged(tmp_path, index_dir, cli, embedded):
    """Existing indexes keep working without a reembed: the same embedding texts, vector
    metadata, recorded variant and sync notes as before situating contexts existed."""
    from crossbook.vectors.embed import embedding_text

    assert cli("ingest", write(tmp_path / "a.md", BOOK_A), write(tmp_path / "b.md", BOOK_B)).exit_code == 0
    db = open_db(index_dir)
    assert _contexts(index_dir) == {}
    assert db.execute("SELECT value FROM crossbook_meta WHERE key = ?", [META_CONTEXT]).fetchone()[0] == CHUNK_CONTEXT
    rows = child_rows(db)
    assert sorted(embedded) == sorted(embedding_text(r.heading_path, r.text, r.book) for r in rows)
    metadata, _ = _stored(index_dir)
    for row in rows:
        assert metadata[row.id] == {"book": row.book, "parent_id": row.parent_id, "heading_path": row.heading_path,
                                    "sha256": row.sha256, "context": CHUNK_CONTEXT}
    for book in ("Core Rules", "Grimoire"):  # the digest the sync notes of existing indexes hold
        book_rows = [r for r in rows if r.book == book]
        digest = hashlib.sha256(CHUNK_CONTEXT.encode())
        for r in book_rows:
            digest.update("\x1f".join([r.id, r.book, r.parent_id, r.heading_path, r.sha256]).encode() + b"\x1e")
        assert children_digest(book_rows) == digest.hexdigest()


def test_ingest_sizes_children_for_a_context_only_with_the_extractor_that_writes_one(
        tmp_path, openai_cli, scripted_openai, cli, monkeypatch):
    from crossbook.ingest import pipeline

    asked = []
    real = pipeline.child_splitter
    monkeypatch.setattr(pipeline, "child_splitter",
                        lambda *args, **kwargs: asked.append(kwargs.get("situating", False)) or real(*args, **kwargs))
    scripted_openai.responder = situating_responder()
    openai_cli(write(tmp_path / "a.md", BOOK_A))
    assert cli("ingest", write(tmp_path / "b.md", BOOK_B)).exit_code == 0  # the rules extractor
    assert asked == [True, False]


def test_a_situating_extractors_children_leave_room_for_a_context_at_the_cap():
    """With an embedder that counts its own tokens (MiniLM's tokenizer here), children of an
    extractor that situates are cut short enough that the path, a context of the longest
    kept length and the text still fit its window (else each full child's tail would go
    unembedded)."""
    from crossbook.chunk.chunking import parent_chunks, split_sections
    from crossbook.extract.parse import MAX_SITUATING_CHARS
    from crossbook.vectors import minilm
    from crossbook.vectors.embed import child_splitter, embedding_text

    class MiniLMWindow:  # the tokenizer only: no model is loaded
        max_tokens = minilm.window()
        count_tokens = staticmethod(minilm.count_tokens)

    context = ("Ce passage du Bestiaire, chapitre Monstres, décrit le Cloaker (Manteleur), prédateur "
               "d'embuscade qui s'accroche, replié, aux plafonds des grottes; il appartient au catalogue "
               "des créatures souterraines et explique où il chasse et comment il attend les voyageurs "
               "qui portent une lanterne.")
    assert len(context) <= MAX_SITUATING_CHARS
    [parent] = [p for p in parent_chunks("Bestiary", split_sections(LONG), 100_000) if p.heading == "Cloaker"]
    for situates, fits in ((True, True), (False, False)):
        children = child_splitter(250, MiniLMWindow(), situating=situates)(parent)
        assert "".join(c.text for c in children) == parent.text
        longest = max(minilm.count_tokens(embedding_text(parent.path_str, c.text, parent.book, context))
                      for c in children)
        assert (longest + 2 <= MiniLMWindow.max_tokens) is fits
