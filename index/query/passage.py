"""A section a search or a retrieval returns (``Passage``) and how a later hop reached it
(``Via``): the values, apart from the search that finds them, so what describes a result's
shape (index/api/shapes.py) reads them without loading the vector store."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass
class Via:
    """How a hop-2+ result was reached."""

    entity: str
    entity_type: str
    from_chunk: str              # the previous hop's section that mentions the entity
    from_book: str
    from_section: str
    mention_type: str            # how this section mentions it: "defines" or "references"
    weight: float = 0.0          # the entity's weight (entity_weight)


@dataclass
class Passage:
    """One parent section in a result list."""

    chunk_id: str
    book: str
    section: str                 # heading path, " > "-joined
    score: float                 # the ranking score: fused over the hops' lists (rank_fusion)
    similarity: float            # cosine similarity of the best child chunk to the question
    hop_score: float             # its score within its hop's list: similarity, or hop_score()
    hop: int
    child_id: str                # the child chunk that matched
    text: str
    via: Via | None = None
    defines: bool = False        # hop 2+: this section defines the entity it was reached by
    found_at: list[int] = field(default_factory=list)  # every hop that reached this section
    pages: list[int] | None = None  # [first, last] page of the section in its source (a PDF)
    file: str | None = None         # the section's chapter file or note (an EPUB, a vault)
    # the places the path visited: books, and a vault's notes (entity_graph.PLACE_SQL)
    path_books: tuple[str, ...] = field(default=(), repr=False)

    def to_dict(self) -> dict:
        out = asdict(self)
        out.pop("path_books")
        out["heading_path"] = self.section  # the key every result uses; "section" stays one release
        out["score"] = round(self.score, 4)
        out["similarity"] = round(self.similarity, 4)
        out["hop_score"] = round(self.hop_score, 4)
        if out["via"] is not None:
            out["via"]["weight"] = round(out["via"]["weight"], 4)
            out["via"]["from_heading_path"] = self.via.from_section  # "from_section" stays one release
        return out
