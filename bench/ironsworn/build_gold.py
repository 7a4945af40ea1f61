"""Build bench/ironsworn/gold.json from the Ironsworn vault, mechanically (see GOLD.md).

Per note: the entity it defines (its file name) and its front-matter title and aliases.
Per wikilink an author wrote (``[[Note]]``, ``[[Note|shown]]``, ``[[Note#Heading]]``,
``[[Note#^block]]``, ``[[folder/Note]]``, embeds ``![[Note]]``; not inside code): the note
it names, resolved as Obsidian does (exact path, else the unique or shortest-path note of
that name, the linking note's folder first), and the text shown. Links to the linking note
itself and to no note are listed apart. Independent of crossbook's reader: only the
standard library.

    python -m bench.ironsworn.build_gold [--vault DIR] [--check]
"""

from __future__ import annotations

import argparse
import json
import posixpath
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
GOLD = Path(__file__).resolve().parent / "gold.json"
_LINK = re.compile(r"(!?)\[\[([^\[\]|#]*)(#[^\[\]|]*)?(?:\|([^\[\]]*))?\]\]")
_FENCE = re.compile(r"^\s*(?:>\s*)*(`{3,}|~{3,})")


def vault_dir() -> Path | None:
    for candidate in (ROOT / "corpora" / "ironsworn" / "vault", ROOT.parent / "shared" / "corpora" / "ironsworn" / "vault"):
        if candidate.is_dir():
            return candidate
    return None


def front_matter(text: str) -> dict:
    """title and aliases from a note's YAML front matter (the two shapes this vault uses:
    ``key: value`` and ``key:`` followed by ``- item`` lines)."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return {}
    out, key = {}, None
    for line in lines[1:]:
        if line.strip() in ("---", "..."):
            return out
        item = re.match(r"^\s+-\s+(.*)$", line)
        if item and key:
            out.setdefault(key, []).append(item.group(1).strip().strip("\"'"))
            continue
        pair = re.match(r"^([A-Za-z_][\w-]*):\s*(.*)$", line)
        if pair:
            key = pair.group(1).lower()
            value = pair.group(2).strip()
            if value:
                out[key] = [v.strip().strip("\"'") for v in value.strip("[]").split(",") if v.strip()] \
                    if key in ("aliases", "alias") else value.strip("\"'")
    return {}


def resolve(target: str, source: str, notes: list[str]) -> str | None:
    target = target.strip()
    if target.lower().endswith(".md"):
        target = target[:-3]
    if not target:
        return None
    by_path = {n[:-3].casefold(): n for n in notes}
    for candidate in (target, posixpath.normpath(posixpath.join(posixpath.dirname(source), target))):
        if candidate.casefold() in by_path:
            return by_path[candidate.casefold()]
    tail = "/" + target.casefold()
    matches = [n for n in notes if ("/" + n[:-3].casefold()).endswith(tail)]
    if not matches:
        return None
    near = [n for n in matches if posixpath.dirname(n) == posixpath.dirname(source)]
    return (near or sorted(matches, key=lambda n: (n.count("/"), n)))[0]


def build(vault: Path) -> dict:
    notes = sorted(p.relative_to(vault).as_posix() for p in vault.rglob("*.md")
                   if not any(part.startswith(".") for part in p.relative_to(vault).parts))
    defines, links, self_links, unresolved = [], [], 0, []
    for note in notes:
        text = (vault / note).read_text(encoding="utf-8")
        meta = front_matter(text)
        aliases = [a for a in meta.get("aliases", meta.get("alias", [])) if a]
        if meta.get("title"):
            aliases.append(meta["title"])
        defines.append({"file": note, "name": Path(note).stem, "aliases": aliases})
        fenced = False
        for line in text.split("\n"):
            if _FENCE.match(line):
                fenced = not fenced
                continue
            if fenced:
                continue
            # inline code and %%comments%% are not read as links (Obsidian does not render them)
            for m in _LINK.finditer(re.sub(r"%%.*?%%", "", re.sub(r"`[^`]*`", "", line))):
                target = resolve(m.group(2).rstrip("\\"), note, notes)  # [[Note\\|x]] in a table
                if target is None:
                    if m.group(2).strip():
                        unresolved.append({"file": note, "link": m.group(0)})
                    continue
                if target == note:
                    self_links += 1
                    continue
                links.append({"file": note, "target_file": target, "target": Path(target).stem,
                              "shown": (m.group(4) or "").strip() or None, "embed": bool(m.group(1))})
    return {
        "about": "Mechanical gold of the Ironsworn vault (bench/ironsworn/GOLD.md): the entity each note "
                 "defines, and the note each author's wikilink references.",
        "vault": "corpora/ironsworn/vault",
        "notes": len(notes),
        "defines": defines,
        "links": links,
        "self_links": self_links,
        "unresolved_links": unresolved,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vault", type=Path, default=None)
    parser.add_argument("--check", action="store_true", help="exit 1 when gold.json is not what the vault gives")
    args = parser.parse_args()
    vault = args.vault or vault_dir()
    if vault is None:
        print("Ironsworn vault not found (corpora/ironsworn/vault or ../shared/corpora/ironsworn/vault)", file=sys.stderr)
        return 1
    gold = build(vault)
    text = json.dumps(gold, ensure_ascii=False, indent=1) + "\n"
    if args.check:
        current = GOLD.read_text(encoding="utf-8") if GOLD.is_file() else ""
        print("gold.json is current" if current == text else "gold.json is stale: run build_gold.py")
        return 0 if current == text else 1
    GOLD.write_text(text, encoding="utf-8")
    pairs = {(link["file"], link["target_file"]) for link in gold["links"]}
    print(f"{gold['notes']} notes, {len(gold['links'])} links ({len(pairs)} note pairs), "
          f"{gold['self_links']} self-links, {len(gold['unresolved_links'])} unresolved")
    return 0


if __name__ == "__main__":
    sys.exit(main())
