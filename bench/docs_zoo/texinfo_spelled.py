"""How many of a Texinfo manual's index entries its text spells at all: the ceiling of
reading the manual with its index tables ignored.

With the tables gone, an entry is stored only where a chunk's text bears it out (every
stored mention is checked against its chunk), so an entry its node's text never writes
("arithmetic evaluation" indexed in "Shell Arithmetic") cannot be defined without
inventing it. For each gold entry (family_texinfo's reading of the index tables), this
looks for its words in the text of the node its row names (the node's element with its
subsections, less the index tables), case aside: as written; with each word's plural
folded (``aliases`` in a text that writes ``alias``); and, for an entry the index inverts
at a comma ("expansion, tilde"), in the order prose writes it ("tilde expansion": the
reader stores the inverted form as that name's alias). Run from the tree's root:

    python -m bench.docs_zoo.texinfo_spelled [--zoo /work/zoo] [--misses N]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import lxml.html

from bench.docs_zoo import family_texinfo as T
from crossbook.core.normalize import normalize_name, normalized_words, singular
from crossbook.readers.docset.markers import uninverted

DEFAULT_ZOO = Path("/work/zoo")
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


def entries(html: str) -> list[tuple[str, str, str]]:
    """(name, index, node id) of every row of the page's index tables with a name crossbook
    keys (the gold's entries: family_texinfo.score)."""
    return [(name, index, node) for name, index, node, _ in T.index_rows(html) if normalize_name(name)]


def _keys(text: str) -> tuple[str, str]:
    """A text's words as written and with each plural folded, ``_``-joined and ``_``-bounded."""
    words = normalized_words(text).split("_")
    return "_" + "_".join(words) + "_", "_" + "_".join(singular(w) for w in words) + "_"


def _node_text(element) -> str:
    """A node's text: its element's, or for an empty anchor (a node without its own
    element) its following siblings' up to the rule that ends the node."""
    if element is None:
        return ""
    if element.text_content().strip():
        # from its heading on: the panel of links to the nodes beside it before the heading
        # ("Next: Command Execution Environment") is not its text (the previous section's)
        children = list(element)
        start = next((i for i, c in enumerate(children) if c.tag in _HEADINGS or any(
            d.tag in _HEADINGS for d in c.iterdescendants())), 0)
        return " ".join(c.text_content() + (c.tail or "") for c in children[start:])
    parts = [element.tail or ""]
    for sibling in element.itersiblings():
        if sibling.tag == "hr":
            break
        parts.append(sibling.text_content() + (sibling.tail or ""))
    return " ".join(parts)


def spelled(page: Path) -> dict:
    """Per index and in all: entries, those their node's text spells as written, with plurals
    folded, and with plurals folded or uninverted (module doc); a list of the misses too."""
    html = page.read_text(encoding="utf-8", errors="replace")
    root = lxml.html.fromstring(T.without_indexes(html))
    texts: dict[str, tuple[str, str]] = {}
    out: dict = {"all": [0, 0, 0, 0], "by_index": {}, "misses": []}
    for name, index, node in entries(html):
        if node not in texts:
            texts[node] = _keys(_node_text(root.get_element_by_id(node, None)))
        as_written, folded = texts[node]
        name_written, name_folded = _keys(name)
        prose_folded = _keys(uninverted(name)[0])[1]
        hits = (1, int(name_written in as_written), int(name_folded in folded),
                int(name_folded in folded or prose_folded in folded))
        for counts in (out["all"], out["by_index"].setdefault(index, [0, 0, 0, 0])):
            for i, hit in enumerate(hits):
                counts[i] += hit
        if not hits[3]:
            out["misses"].append(f"{index} {name} ({node})")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--zoo", type=Path, default=DEFAULT_ZOO)
    parser.add_argument("--misses", type=int, default=0, help="print this many unspelled entries per manual")
    args = parser.parse_args()
    members = [m for m in json.loads((args.zoo / "zoo.json").read_text())["members"] if m["family"] == T.NAME]
    for member in members:
        result = spelled(Path(member["path"]) / member["gold"])
        total, written, folded, prose = result["all"]
        print(f"{member['half']:5s}  {member['project']:10s} gold {total}: spelled by its node's text "
              f"{written}/{total} = {written / total:.3f}, plurals folded {folded}/{total} = {folded / total:.3f}, "
              f"or uninverted {prose}/{total} = {prose / total:.3f}")
        for index, (count, w, f, u) in sorted(result["by_index"].items()):
            print(f"         {index:4s} {w}/{count} = {w / count:.3f}  folded {f}/{count} = {f / count:.3f}"
                  f"  or uninverted {u}/{count} = {u / count:.3f}")
        for miss in result["misses"][:args.misses]:
            print(f"         not spelled: {miss}")


if __name__ == "__main__":
    main()
