"""Shared test helpers: small books, index snapshots for the fresh-build comparison."""

from __future__ import annotations

import json
import re
from pathlib import Path

from index.config import Settings
from index.db import open_db
from tests.fakes import completion_body, passage_of

BOOK_A = """# Core Rules

## Conditions

### Chilled
A Chilled creature loses 1 Speed. Frost Lance causes it.

### Prone
A Prone fighter is easy to hit.

## Equipment

### Shield
A Shield is armor you wield in the off hand.
"""

BOOK_B = """# Grimoire

## Spells

### Frost Lance
Frost Lance costs 3 Ember. It leaves the target Chilled.

### Shield
The Shield spell costs 2 Ember; casters cast it before a fight.
"""


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def snapshot(index_dir: Path) -> dict:
    """What the index holds, independent of row ids and ingest times (for equality checks)."""
    db = open_db(index_dir, create=True)
    entities = sorted(tuple(r) for r in db.execute("SELECT name, normalized, entity_type FROM entities"))
    mentions = sorted(
        tuple(r)
        for r in db.execute(
            "SELECT e.normalized, e.entity_type, m.book, m.chunk_id, m.mention_type, m.name,"
            " m.context, m.source, m.origin_book FROM entity_mentions m JOIN entities e ON e.id = m.entity_id"
        )
    )
    chunks = sorted(tuple(r) for r in db.execute("SELECT id, book, kind, sha256 FROM chunks"))
    out = {"entities": entities, "mentions": mentions, "chunks": chunks}
    if "entity_relationships" in db.table_names():
        out["relationships"] = relationship_rows(db)
    db.conn.close()
    return out


def relationship_rows(db) -> list:
    """Relationships by entity keys (not ids), and the claims with their derived status."""
    rows = db.execute(
        "SELECT s.normalized, s.entity_type, t.normalized, t.entity_type, r.relation_type, r.mapped_from,"
        " r.book, r.chunk_id, r.source_name, r.target_name, r.evidence, r.confidence, r.polarity, r.implicit,"
        " r.status, r.status_reason, r.extractor, r.claims, r.fingerprint"
        " FROM entity_relationships r JOIN entities s ON s.id = r.source_id JOIN entities t ON t.id = r.target_id"
    )
    claims = db.execute(
        "SELECT book, chunk_id, ordinal, source_normalized, source_type, target_normalized, target_type,"
        " relation_type, evidence, extractor, status FROM relation_claims"
    )
    return sorted((tuple(r) for r in rows), key=repr) + sorted((("claim", *r) for r in claims), key=repr)


def heading_responder(extra_refs: dict[str, list[tuple[str, str]]] | None = None):
    """A scripted model: the passage's heading defines an entity of type 'other'; names in
    ``extra_refs[heading]`` are reported as references (context: the first sentence holding them)."""
    extra_refs = extra_refs or {}

    def respond(request: dict):
        passage = passage_of(request)
        match = re.match(r"#+ (.+)", passage)
        entities = []
        if match:
            heading = match.group(1).strip()
            body = passage.split("\n", 1)[1].strip()
            first = re.split(r"(?<=[.!?])\s", body)[0] if body else heading
            entities.append({"name": heading, "type": "other", "mention_type": "defines", "context": first})
            for name, etype in extra_refs.get(heading, []):
                sentence = next((s for s in re.split(r"(?<=[.!?])\s", body) if name in s), body)
                entities.append({"name": name, "type": etype, "mention_type": "references", "context": sentence})
        return 200, {}, completion_body(json.dumps({"entities": entities}))

    return respond


def openai_settings(index_dir: Path, server, **overrides) -> Settings:
    base = dict(index_dir=index_dir, extractor="openai", model="scripted-model", base_url=server.base_url,
                api_key="test-key", max_retries=3, concurrency=4, request_timeout=10.0)
    base.update(overrides)
    return Settings(**base)


def render_book(title: str, sections) -> str:
    """A generated book: ``sections`` are (chapter, heading, sentences) triples."""
    out = [f"# {title}\n"]
    for chapter, name, sentences in sections:
        out.append(f"\n## {chapter}\n\n### {name}\n\n" + " ".join(sentences) + "\n")
    return "".join(out)


def replay_equals_fresh_build(operations, pack_text: str, make_job) -> None:
    """Apply ("ingest", title, sections) / ("delete", title, None) operations to one index,
    build a fresh index from the books that remain (in reverse order), and assert both
    snapshots are equal. ``make_job(index_dir, pack_path)`` returns an Ingest."""
    import tempfile

    from index.pipeline import delete_book, ingest_paths

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        pack = write(tmp / "pack.toml", pack_text)
        job = make_job(tmp / "live", pack)
        current: dict[str, str] = {}
        for op, title, sections in operations:
            if op == "ingest":
                text = render_book(title, sections)
                ingest_paths(job, [write(tmp / f"{title}.md", text)])
                current[title] = text
            elif title in current:
                delete_book(job.db, title)
                del current[title]
        job.db.conn.close()
        fresh = make_job(tmp / "fresh", pack)
        for title in sorted(current, reverse=True):
            ingest_paths(fresh, [write(tmp / f"fresh-{title}.md", current[title])])
        fresh.db.conn.close()
        assert snapshot(tmp / "live") == snapshot(tmp / "fresh")


def shelf_responder(names: list[str]):
    """A scripted model for a whole shelf: the passage's heading defines an entity of type
    'other' and every other name of ``names`` in the passage is a reference, each with the
    verbatim sentence verification would choose (index/extract/verify.py) as its context;
    each reference is also a relationship from the heading's entity. Instructions inside
    the passage are ignored, as the system prompt asks."""
    from index.extract.verify import ChunkText

    def respond(request: dict):
        passage = passage_of(request)
        chunk = ChunkText(passage)
        match = re.match(r"#+ (.+)", passage)
        heading = match.group(1).strip() if match else None
        entities, relationships = [], []
        if heading:
            entities.append({"name": heading, "type": "other", "mention_type": "defines",
                             "context": chunk.sentence_of(heading)})
        for name in names:
            sentence = chunk.sentence_of(name) if name != heading else None
            if sentence:
                entities.append({"name": name, "type": "other", "mention_type": "references", "context": sentence})
                if heading:
                    relationships.append({
                        "source_name": heading, "source_id": None, "target_name": name, "target_id": None,
                        "relation_type": "references", "evidence": sentence, "confidence": 0.9,
                        "polarity": "asserted", "implicit": False})
        return 200, {}, completion_body(json.dumps({"entities": entities, "relationships": relationships}))

    return respond


def shelf_headings(paths) -> list[str]:
    """Every heading text of these Markdown files (the names a shelf_responder knows)."""
    names = []
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            match = re.match(r"#{1,6} (.+)", line)
            if match and match.group(1).strip() not in names:
                names.append(match.group(1).strip())
    return names
