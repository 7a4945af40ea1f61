"""The zoo's lookups: 100 names drawn from the check halves' golds, each written as users of
its family type it, and whether ``where-else`` ranks the defining section first.

    python -m bench.docs_zoo.lookups [--zoo /work/zoo] [--misses]     # score the committed lookups
    python -m bench.docs_zoo.lookups --keep DIR                        # ... keeping the shelves in DIR (reused)
    python -m bench.docs_zoo.lookups --draw                            # draw them again (lookups.json)
    python -m bench.docs_zoo.lookups --redraw man                      # ... one family's, in its places

The draw (``draw``), made once before any rule was tuned on them and committed in
``lookups.json``: the check members of every family but LaTeX (a back index lists every page
that mentions a command: it names no defining page), each member's gold entries on its
pages; per family, the entries sorted and shuffled with ``random.seed(0)`` set once, the
families in name order; then one entry of each family in turn, round after round, until 100.
The man family's 8 were drawn again (``--redraw man``) when its sample was first pinned
(``man_sample.json``): the pages drawn first were sampled from another machine's installed
pages, and none of them was in the zoo any more. The others are the first draw's.
A typed form two gold entries of a member share on different pages accepts either page.

The typed form (``typed``): a member qualified by its owner, the owner by its innermost name,
with the family's own separator; a thing no owner qualifies as the gold names it:

- Python (sphinx): the last two parts of the dotted name (``Context.invoke``, ``click.echo``);
  a hook, setting or variable of its own role as it is (``pytest_addoption``);
- GObject (gtkdoc): a function, macro, type or constant as it is (C has no qualifier); a
  property ``GtkWidget:visible``, a signal ``GtkWidget::destroy``, a field ``GdkEventKey.keyval``
  (GTK's own notations), the owner read from the keyword's anchor;
- C++ (doxygen, boostbook): the last two ``::`` parts, template arguments dropped
  (``vector::push_back``, ``std::sort``, ``flat_set::insert``, ``container::flat_set``);
- Rust (rustdoc): ``crate::Type::method``, the crate and the last two parts of the path;
- Java, Scala (javadoc, scaladoc): ``Class.member``, the class by its own name (a nested
  class's ``ComparableCheckBuilder.greaterThan``); Ruby (rdoc): the
  owner's last ``::`` part, then ``#`` or ``.`` and the method (``Document#convert``);
- Racket (scribble): a method ``frame%.show``; a procedure, form or value bare (Racket
  writes no qualified name);
- commands, options, settings, macros, headings (man, mdbook, mkdocs, texinfo): as they are.

Scoring (``score``): each lookup's member ingested as eval_zoo does (rules extractor, no
vectors: where-else reads SQLite only; relations off), inventories read (the doc set as
shipped); a lookup comes first when the first mention ``where-else`` returns is a
definition on the expected page (for a Texinfo manual on one page: in the section of the
node its index names).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import tempfile
from pathlib import Path

from bench.docs_zoo import scorers
from bench.docs_zoo.families import DEFAULT_ZOO
from bench.docs_zoo.family_common import family_modules
from bench.docs_zoo.gold import devhelp_entries, sphinx_inventory

HERE = Path(__file__).resolve().parent

LOOKUPS = HERE / "lookups.json"
COUNT = 100
LEFT_OUT = ("latex",)


def _last(name: str, separator: str, parts: int = 2) -> str:
    return separator.join(name.split(separator)[-parts:])


def _gtk(name: str, kind: str, link: str) -> str:
    anchor = link.partition("#")[2]
    if kind == "property":
        return f"{anchor.partition('--')[0]}:{name}"
    if kind == "signal":
        return f"{anchor.partition('-')[0]}::{name}"
    if kind == "member":
        owner, _, field = name.rpartition(".")
        return f"{owner.replace('-', '_')}.{field}"
    return name


def _cpp(name: str) -> str:
    while re.search(r"<[^<>]*>", name):
        name = re.sub(r"\s*<[^<>]*>", "", name)
    return _last(name, "::")


def _rust(name: str) -> str:
    parts = name.split("::")
    return "::".join([parts[0], *parts[-2:]]) if len(parts) > 3 else name


def _ruby(name: str) -> str:
    owner, separator, method = re.split(r"([#.])", name, maxsplit=1) if re.search(r"[#.]", name) else (name, "", "")
    return f"{owner.rpartition('::')[2]}{separator}{method}" if separator else name


def typed(family: str, name: str, kind: str, link: str = "") -> str:
    """The form users of ``family`` type a gold entry's name in (the module's rules)."""
    if family == "sphinx":
        return _last(name, ".") if kind.startswith("py:") else name
    if family == "gtkdoc":
        return _gtk(name, kind, link)
    if family in ("doxygen", "boostbook"):
        return _cpp(name)
    if family == "rustdoc":
        return _rust(name)
    if family == "rdoc":
        return _ruby(name)
    if family in ("javadoc", "scaladoc"):
        return _last(name, ".")
    return name


def _gold(member: dict, modules: dict) -> list[tuple[str, str, str]]:
    """(typed form, page, section) of the member's gold entries on its pages."""
    family, folder, pages = member["family"], Path(member["path"]), set(member.get("pages", ()))
    if family == "sphinx":
        found = [(typed(family, n, k), p, "") for n, k, p in sphinx_inventory(folder / member["gold"])
                 if k not in scorers.SPHINX_STRUCTURE]
    elif family == "gtkdoc":
        found = [(typed(family, n, k, link), link.partition("#")[0], "")
                 for n, k, link in devhelp_entries(folder / member["gold"])]
    elif family == "man":
        return [(names[0], page, "") for page, names in member["names"].items()]
    elif family == "texinfo":
        module = modules[family]
        return [(n, member["gold"], node) for n, _, node in module.index_nodes(folder / member["gold"])]
    else:
        found = [(typed(family, n, k), p, "") for n, k, p, *_ in _entries(member, modules[family])]
    return [e for e in found if e[1] in pages]


def _entries(member: dict, module) -> list[tuple]:
    """A module family's gold entries, (name, kind, page, ...), read its own way."""
    folder = Path(member["path"])
    if hasattr(module, "member_gold"):
        return module.member_gold(member)
    if hasattr(module, "gold"):  # rustdoc, mdbook, rdoc, mkdocs
        return module.gold(folder)
    if hasattr(module, "gold_entries"):  # doxygen
        return module.gold_entries(folder)
    return module.index_all(folder / member["gold"])  # javadoc


def draw(members: list[dict]) -> list[dict]:
    """The 100 lookups (the module's draw rule): dicts of family, member, name, pages, section."""
    modules = family_modules()
    pools: dict[str, dict[tuple, dict]] = {}
    for member in members:
        if member["half"] != "check" or member["family"] in LEFT_OUT or not Path(member["path"]).exists():
            continue
        pool = pools.setdefault(member["family"], {})
        for name, page, section in _gold(member, modules):
            key = (member["project"], name, section)
            entry = pool.setdefault(key, {"family": member["family"], "member": member["project"], "name": name,
                                          "pages": [], "section": section})
            entry["pages"] = sorted({*entry["pages"], page})
    random.seed(0)
    queues = []
    for family in sorted(pools):
        entries = [pools[family][key] for key in sorted(pools[family])]
        random.shuffle(entries)
        queues.append(entries)
    out: list[dict] = []
    round_ = 0
    while len(out) < COUNT and any(round_ < len(queue) for queue in queues):
        out.extend(queue[round_] for queue in queues if round_ < len(queue))
        round_ += 1
    return out[:COUNT]


def first_hit(index: Path, lookup: dict) -> tuple[bool, str]:
    """Whether ``where-else`` on the shelf at ``index`` ranks a definition of the lookup's name
    on its expected page (and section) first; and what came first, to read."""
    from crossbook import CrossbookError, Shelf

    with Shelf(index, read_only=True) as shelf:
        try:
            found = shelf.where_else(lookup["name"])
        except CrossbookError as error:
            return False, f"no entity ({type(error).__name__})"
    if not found.mentions:
        return False, "no mention"
    first = found.mentions[0]
    where = f"{first['mention_type']} {first['file']} > {first['heading_path']} ({found.entities[0]['name']})"
    hit = first["mention_type"] == "defines" and first["file"] in lookup["pages"]
    if hit and lookup["section"]:
        hit = any(_node(heading) == _node(lookup["section"]) for heading in (first["heading_path"] or "").split(" > "))
    return hit, where


def _node(heading: str) -> str:
    return re.sub(r"^(?:[A-Z]|\d+)(?:\.\d+)*\.?\s+", "", heading.strip()).casefold()


def score(lookups: list[dict], index_of) -> dict:
    """{"first", "total", "misses"} of ``lookups`` whose member ``index_of(family, member)``
    gives a shelf for (None: not built, left out of the total)."""
    out = {"first": 0, "total": 0, "misses": [], "by_family": {}}
    for lookup in lookups:
        index = index_of(lookup["family"], lookup["member"])
        if index is None:
            continue
        hit, where = first_hit(index, lookup)
        counts = out["by_family"].setdefault(lookup["family"], [0, 0])
        counts[0] += hit
        counts[1] += 1
        out["first"] += hit
        out["total"] += 1
        if not hit:
            out["misses"].append(f"{lookup['family']}/{lookup['member']} {lookup['name']!r}"
                                 f" (expected {', '.join(lookup['pages'])}{' > ' + lookup['section'] if lookup['section'] else ''}):"
                                 f" first {where}")
    return out


def report(result: dict, misses: bool) -> None:
    print(f"\nlookups: {result['first']}/{result['total']} come first in where-else"
          + (f" ({COUNT - result['total']} of {COUNT} not run: their families were left out)" if result["total"] < COUNT
             else ""))
    print("           " + ", ".join(f"{family} {hit}/{count}" for family, (hit, count) in sorted(result["by_family"].items())))
    if misses:
        for miss in result["misses"]:
            print(f"           miss: {miss}")


def main() -> None:
    from bench.eval_docs import ingest

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--zoo", type=Path, default=DEFAULT_ZOO)
    parser.add_argument("--draw", action="store_true", help="draw the lookups again and write lookups.json")
    parser.add_argument("--redraw", metavar="FAMILY", help="draw this family's lookups again, in the places its"
                        " old ones held, and keep the others (its pages changed: bench/docs_zoo/man_sample.json)")
    parser.add_argument("--misses", action="store_true", help="print the lookups that do not come first")
    parser.add_argument("--keep", type=Path, help="build the members' shelves in this folder and reuse those it holds"
                        " (a change of the queries alone needs no new ingest)")
    args = parser.parse_args()
    members = json.loads((args.zoo / "zoo.json").read_text(encoding="utf-8"))["members"]
    if args.draw:
        drawn = draw(members)
        LOOKUPS.write_text(json.dumps({"rule": " ".join(__doc__.split()), "lookups": drawn}, indent=1,
                                      ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"{len(drawn)} lookups -> {LOOKUPS.name}")
        return
    lookups = json.loads(LOOKUPS.read_text(encoding="utf-8"))["lookups"]
    if args.redraw:
        fresh = iter([e for e in draw(members) if e["family"] == args.redraw])
        lookups = [next(fresh, e) if e["family"] == args.redraw else e for e in lookups]
        LOOKUPS.write_text(json.dumps({"rule": " ".join(__doc__.split()), "lookups": lookups}, indent=1,
                                      ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"{args.redraw}: lookups drawn again -> {LOOKUPS.name}")
        return
    by_key = {(m["family"], m["project"]): m for m in members if m["half"] == "check"}
    with tempfile.TemporaryDirectory(prefix="crossbook-lookups-") as tmp:
        built: dict[tuple, Path] = {}
        where = args.keep or Path(tmp)

        def index_of(family: str, project: str) -> Path | None:
            member = by_key.get((family, project))
            if member is None or not Path(member["path"]).exists():
                return None
            if (family, project) not in built:
                index = where / f"{family}-{project}"
                built_mark = index / "lookups-built"  # an ingest stopped half way is built again
                if not (args.keep and built_mark.exists()):
                    ingest([Path(member["path"])], index, relations="off")
                    built_mark.touch()
                built[(family, project)] = index
            return built[(family, project)]

        report(score(lookups, index_of), args.misses)


if __name__ == "__main__":
    main()
