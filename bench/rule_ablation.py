"""Each extraction rule's worth (bench/eval_extraction.py prints it): the mentions a rule made
on a shelf, how many of its hand-read ones read right (bench/hand_labels, by the rule the
labelled mention has now), and on the Fate shelf the definitions' figures with the rule
switched off.

The switched-off figures are quick: each book's sections are kept from the shelf's ingest and
the heading and entry stages run again with the rule off (``crossbook.extract.contract.rules_off``);
the definitions they lose or gain replace the stored ones before scoring. So they count
definitions only, and as the rules propose them: a reference or a relationship that follows a
definition is not re-derived (``--without RULE`` ingests the whole shelf with the rule off).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from bench.hand_sample import def_key, load_labels
from crossbook.extract import rules
from crossbook.extract.contract import rules_off
from crossbook.extract.registry import STAGES

# the rules of the stages a book's sections alone decide (the marks need a reader's marks)
SECTION_RULES = tuple(dict.fromkeys(r.__name__ for r in (*STAGES["headings"], *STAGES["entries"])))


@contextmanager
def kept_books() -> Iterator[list[tuple]]:
    """Keep (book, parents, pack) of every book the rules extractor reads inside the block."""
    calls: list[tuple] = []
    original = rules.book_mentions

    def keeping(parents, pack, book, vetoes=None):
        calls.append((book, parents, pack))
        return original(parents, pack, book, vetoes)

    rules.book_mentions = keeping
    try:
        yield calls
    finally:
        rules.book_mentions = original


def rule_counts(db) -> dict[str, int]:
    """Mentions stored per rule (definitions and references)."""
    return dict(db.execute("SELECT rule, count(*) FROM entity_mentions GROUP BY rule ORDER BY count(*) DESC").fetchall())


def hand_by_rule(shelf: str, definitions: list[dict]) -> dict[str, list[int]]:
    """rule -> [right, read] of the hand-labelled definitions the index still stores."""
    labels = load_labels(shelf, "defs")
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for item in definitions:
        label = labels.get(tuple(def_key(item)))
        if label is not None:
            out[item["rule"]][0] += label["verdict"] == "right"
            out[item["rule"]][1] += 1
    return dict(out)


def _definitions(calls: list[tuple]) -> set[tuple[str, str, str]]:
    found = set()
    for book, parents, pack in calls:
        for parent, mentions in zip(parents, rules.book_mentions(parents, pack, book), strict=True):
            found.update((book, parent.path_str, m.name) for m in mentions if m.mention_type == "defines")
    return found


def switched_off(calls: list[tuple], mentions: list[dict], score: Callable[[list[dict]], dict],
                 names: tuple[str, ...] = SECTION_RULES) -> dict[str, dict]:
    """rule -> {"lost", "gained", and the figures ``score`` gives the stored mentions with the
    definitions the rule's absence loses taken out and those it gains put in}."""
    base = _definitions(calls)
    out = {}
    for name in names:
        with rules_off({name}):
            without = _definitions(calls)
        lost, gained = base - without, without - base
        if not lost and not gained:
            out[name] = {"lost": 0, "gained": 0}
            continue
        kept = [dict(m) for m in mentions if not (m["mention_type"] == "defines"
                                                   and (m["book"], m["heading_path"], m["mention"]) in lost)]
        kept += [{"book": book, "mention_type": "defines", "mention": name_, "name": name_, "heading_path": path}
                 for book, path, name_ in sorted(gained)]
        out[name] = {"lost": len(lost), "gained": len(gained), **score(kept)}
    return out


def _references(db, linker, chunks: list[tuple]) -> set[tuple[str, str, str, str]]:
    """(book, heading path, the text linked, the entity's name) of every reference ``linker``
    makes in ``chunks`` (present: what each chunk's own mentions already name)."""
    names = {(r[0], r[1]): r[2] for r in db.execute("SELECT normalized, entity_type, name FROM entities")}
    found = set()
    for book, path, text, present in chunks:
        for match in linker.link(text, book, present):
            found.add((book, path, match.name, names.get(match.key, match.name)))
    return found


def linker_off(db, pack, mentions: list[dict], score: Callable[[list[dict]], dict]) -> dict[str, dict]:
    """rule -> {"lost", "gained", and the figures ``score`` gives the stored mentions with the
    references the linker's rule's absence loses taken out and those it gains put in}: each
    rule of linking/link_rules.py switched off in turn over the shelf's chunks."""
    from crossbook.changes.derived import build_linker
    from crossbook.core.genres import genres_in_use
    from crossbook.linking.link_rules import RULES
    from crossbook.storage.book_genres import books_genres

    genres, present = books_genres(db), defaultdict(set)
    for chunk_id, normalized, entity_type in db.execute(
            "SELECT chunk_id, normalized, declared_type FROM entity_mentions WHERE source != 'linker'"):
        present[chunk_id].add((normalized, entity_type))
    chunks = [(book, path, text, present[chunk_id]) for chunk_id, book, path, text in db.execute(
        "SELECT id, book, heading_path, text FROM chunks WHERE kind = 'parent' ORDER BY book, ordinal")]
    linker = build_linker(db, pack)

    def linked() -> set[tuple[str, str, str, str]]:
        out = set()
        for book in sorted({c[0] for c in chunks}):
            with genres_in_use(genres.get(book)):
                out |= _references(db, linker, [c for c in chunks if c[0] == book])
        return out

    base, out = linked(), {}
    for rule in RULES:
        with rules_off({rule.__name__}):
            without = linked()
        lost, gained = base - without, without - base
        if not lost and not gained:
            out[rule.__name__] = {"lost": 0, "gained": 0}
            continue
        kept = [dict(m) for m in mentions if not (m["mention_type"] == "references"
                                                   and (m["book"], m["heading_path"], m["mention"], m["name"]) in lost)]
        kept += [{"book": book, "mention_type": "references", "mention": shown, "name": name, "heading_path": path}
                 for book, path, shown, name in sorted(gained)]
        out[rule.__name__] = {"lost": len(lost), "gained": len(gained), **score(kept)}
    return out


def print_linker_rules(result: dict) -> None:
    """The Fate references' figures with each linker rule off (``linker_off``)."""
    off = result.get("rules", {}).get("linker_off")
    if not off:
        return
    base = result["cross_book_references"]
    print("\nlinker rules (linking/link_rules.py): Fate references with each off, lost / gained, P / R")
    for name, figure in off.items():
        if not figure["lost"] and not figure["gained"]:
            print(f"  {name:<20} no change")
            continue
        print(f"  {name:<20} -{figure['lost']} / +{figure['gained']}, {figure['precision']:.3f} / {figure['recall']:.3f}"
              f" ({figure['precision'] - base['precision']:+.3f} / {figure['recall'] - base['recall']:+.3f})")


def print_rules(results: list[dict]) -> None:
    """Per rule: mentions made on each shelf (hand-read right / read), and the Fate
    definitions' figures with the rule off."""
    shelves = [r for r in results if "rules" in r]
    if not shelves:
        return
    totals: Counter = Counter()
    for r in shelves:
        totals.update(r["rules"]["counts"])
    fate = next((r for r in shelves if r["shelf"] == "fate"), None)
    off = fate["rules"].get("off", {}) if fate else {}
    names = [n for n, _ in totals.most_common()] + [n for n in off if n not in totals]
    print("\nrules: mentions each made (hand-read definitions right / read); Fate definitions with it off")
    header = " | ".join(f"{r['shelf']:>18}" for r in shelves)
    print(f"| {'rule':<20} | {header} | {'fate off: lost / gained, P / R':>32} |")
    print(f"|{'-' * 22}|" + "|".join("-" * 20 for _ in shelves) + f"|{'-' * 34}|")
    base = fate["definitions"] if fate else None
    for name in names:
        cells = []
        for r in shelves:
            made = r["rules"]["counts"].get(name, 0)
            right, read = r["rules"]["hand"].get(name, (0, 0))
            cells.append(f"{made:>6} ({right}/{read})" if read else f"{made:>6}")
        figure = off.get(name)
        if figure is None or (not figure["lost"] and not figure["gained"]):
            change = "-" if figure is None else "no change"
        else:
            change = (f"-{figure['lost']} / +{figure['gained']}, {figure['precision']:.3f} / {figure['recall']:.3f}"
                      + (f" ({figure['precision'] - base['precision']:+.3f} / {figure['recall'] - base['recall']:+.3f})"
                         if base else ""))
        print(f"| {name:<20} | " + " | ".join(f"{c:>18}" for c in cells) + f" | {change:>32} |")
