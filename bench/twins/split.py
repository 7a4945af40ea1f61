"""Tune and check halves of every shelf, fixed before any rule of the round changes.

The rule (also in bench/twins/README.md):

- **entities**: a shelf's names (its gold's names and aliases, its kinds' members, the ends
  of its stated relationships, and the names its books' structure gives: headings, bold leads,
  the first cells of table rows), normalized (``normalize_name``), are halved group by group:
  the members of each named kind in the order of its kinds.json (a name in two kinds goes
  with the first), then every other name. A group is sorted, then ``random.seed(0);
  random.shuffle(group)``: its first half (rounded down) is ``tune``, the rest ``check``. So
  each kind is halved too (srd51's 12 classes are 6 and 6). A name outside the list (one an
  index makes up) falls in the half of ``zlib.crc32(name) % 2`` (0 tune, 1 check).
- **questions**: the shelf's question files in a fixed order, each question ``file#index``,
  shuffled the same way after ``random.seed(0)``, halved the same way.
- What a figure counts goes to a half by a name: a definition by its name, a member of a
  kind by its name, a stated relationship by its source, a question by its id.
- srd51's twins (bench/twins/srd_layouts.py) keep srd51's names and questions, so they use
  srd51's halves.

``python -m bench.twins.write_halves`` writes the halves (bench/twins/halves/<shelf>.json) and each
shelf's named kinds (bench/twins/kinds.py) beside its gold; a file that exists is left as it
is (``--force`` writes it again, ``--check`` says whether it would change).
"""

from __future__ import annotations

import json
import random
import zlib
from pathlib import Path

from bench.eval_retrieval import fate_books_dir, srd51_books_dir, vault_books_dir
from bench.srd51 import eval_definitions as D
from bench.twins import kinds as K
from crossbook.core.normalize import normalize_name

ROOT = Path(__file__).resolve().parents[2]

HALVES = ROOT / "bench" / "twins" / "halves"
SHELVES = ("srd51", "fate", "ironsworn", "sample")
QUESTIONS = {
    "srd51": [ROOT / "bench" / "srd51" / "questions.json", ROOT / "bench" / "srd51" / "template_questions.json"],
    "fate": [ROOT / "bench" / "fate" / "questions.json"],
    "ironsworn": [ROOT / "bench" / "ironsworn" / "questions.json"],
    "sample": [ROOT / "sample_corpus" / "questions.json"],
}
KINDS = {"srd51": ROOT / "bench" / "srd51" / "kinds.json", "fate": ROOT / "bench" / "fate" / "kinds.json",
         "ironsworn": ROOT / "bench" / "ironsworn" / "kinds.json", "sample": ROOT / "sample_corpus" / "kinds.json"}
FATE_GOLD, SAMPLE_GOLD = ROOT / "bench" / "fate" / "gold.json", ROOT / "sample_corpus" / "gold.json"
IRONSWORN_GOLD = ROOT / "bench" / "ironsworn" / "gold.json"


def halve(items: list[str]) -> dict[str, list[str]]:
    """``items`` shuffled after random.seed(0): the first half tune, the rest check (each sorted)."""
    items = list(items)
    random.seed(0)
    random.shuffle(items)
    half = len(items) // 2
    return {"tune": sorted(items[:half]), "check": sorted(items[half:])}


def question_ids(shelf: str) -> list[str]:
    return [f"{path.name}#{i}" for path in QUESTIONS[shelf]
            for i in range(len(json.loads(path.read_text(encoding="utf-8"))["questions"]))]


def book_texts(shelf: str) -> dict[str, str]:
    """A shelf's books' Markdown by file stem (the Ironsworn vault: its notes as one book)."""
    if shelf == "srd51":
        return {p.stem: p.read_text(encoding="utf-8") for p in sorted(srd51_books_dir().glob("*.md"))}
    if shelf == "fate":
        return {p.stem: p.read_text(encoding="utf-8") for p in sorted(fate_books_dir().glob("*.md"))
                if p.name != "README.md"}
    if shelf == "ironsworn":
        notes = sorted(p for p in vault_books_dir().rglob("*.md") if ".obsidian" not in p.parts)
        return {"vault": "\n\n".join(p.read_text(encoding="utf-8") for p in notes)}
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted((ROOT / "sample_corpus").glob("*.md"))
            if p.name != "README.md"}


def gold_names(shelf: str) -> set[str]:
    """The names a shelf's gold writes (definitions, aliases, references, relation ends)."""
    names: set[str] = set()
    if shelf == "srd51":
        from bench.eval_statblocks import GOLD
        from bench.srd51.stated_gold import stated

        gold = D.gold(srd51_books_dir())
        names |= set(gold["kinds"]) | gold["entries"]
        names |= {normalize_name(e[k]) for e in stated(srd51_books_dir(), GOLD) for k in ("source", "target")}
    elif shelf == "fate":
        for d in json.loads(FATE_GOLD.read_text(encoding="utf-8"))["definitions"]:
            names |= {normalize_name(n) for n in (d["name"], *d["aliases"])}
        relations = json.loads((ROOT / "bench" / "fate" / "gold_relations.json").read_text(encoding="utf-8"))
        names |= {normalize_name(r[k]) for r in relations["relations"] for k in ("source", "target")}
    elif shelf == "ironsworn":
        gold = json.loads(IRONSWORN_GOLD.read_text(encoding="utf-8"))
        for d in gold["defines"]:
            names |= {normalize_name(n) for n in (d["name"], *d["aliases"])}
        names |= {normalize_name(link["target"]) for link in gold["links"]}
    else:
        for section in json.loads(SAMPLE_GOLD.read_text(encoding="utf-8"))["sections"]:
            names |= {normalize_name(d["name"]) for d in (*section["defines"], *section["references"])}
        relations = json.loads((ROOT / "sample_corpus" / "gold_relations.json").read_text(encoding="utf-8"))
        names |= {normalize_name(r[k]) for r in relations["relations"] for k in ("source", "target")}
    return names


def shelf_kinds(shelf: str) -> list[dict]:
    if shelf == "srd51":
        return K.srd51(srd51_books_dir())
    if shelf == "fate":
        return K.fate(FATE_GOLD)
    if shelf == "ironsworn":
        return K.ironsworn(vault_books_dir())
    return K.sample(SAMPLE_GOLD)


def entity_names(shelf: str, kinds: list[dict]) -> list[str]:
    names, _ = D.source_names(book_texts(shelf))
    universe = set().union(*names.values()) | gold_names(shelf)
    universe |= {normalize_name(m) for k in kinds for m in k["members"]}
    universe.discard("")
    return sorted(universe)


def entity_halves(shelf: str, kinds: list[dict]) -> dict[str, list[str]]:
    """The shelf's names halved kind by kind, then the rest (each group after random.seed(0))."""
    out: dict[str, list[str]] = {"tune": [], "check": []}
    taken: set[str] = set()
    for group in [[normalize_name(m) for m in k["members"]] for k in kinds] + [entity_names(shelf, kinds)]:
        fresh = sorted({n for n in group if n and n not in taken})
        taken |= set(fresh)
        for half, names in halve(fresh).items():
            out[half] += names
    return {half: sorted(names) for half, names in out.items()}


def halves(shelf: str, kinds: list[dict]) -> dict:
    return {"about": "Tune and check halves of the shelf, fixed before the rules of round three changed: "
                     "bench/twins/split.py (the rule is its docstring and bench/twins/README.md).",
            "shelf": shelf, "seed": 0, "entities": entity_halves(shelf, kinds),
            "questions": halve(question_ids(shelf))}


class Halves:
    """A shelf's committed halves: ``of(name)`` and ``of_question(id)`` give "tune" or "check"."""

    def __init__(self, shelf: str):
        data = json.loads((HALVES / f"{shelf}.json").read_text(encoding="utf-8"))
        self.names = {n: half for half in ("tune", "check") for n in data["entities"][half]}
        self.questions = {q: half for half in ("tune", "check") for q in data["questions"][half]}

    def of(self, name: str) -> str:
        """The half of a name (normalized here); a name the list lacks goes by its crc32."""
        key = normalize_name(name)
        return self.names.get(key) or ("tune", "check")[zlib.crc32(key.encode("utf-8")) % 2]

    def of_question(self, qid: str) -> str:
        return self.questions[qid]


def load_kinds(shelf: str) -> list[dict]:
    return json.loads(KINDS[shelf].read_text(encoding="utf-8"))["kinds"]


def write_json(path: Path, data: dict, force: bool, check: bool) -> str:
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    if check:
        return "current" if path.is_file() and path.read_text(encoding="utf-8") == text else "would change"
    if path.is_file() and not force:
        return "kept (exists; --force writes it again)"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return "written"
