"""`make zoo`: install the zoo's Debian doc packages (as root) and assemble the zoo folder.

    python -m bench.docs_zoo.assemble [--zoo /work/zoo] [--no-apt]

The zoo (outside the repository) holds one folder per family and a ``zoo.json`` that lists
each member, its half (tune or check), its gold file and its source package; the caps and
the split rule are bench/docs_zoo/README.md's. Running it again rebuilds the folder.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.docs_zoo import docbook
from bench.docs_zoo import families as F
from bench.docs_zoo.family_common import every_kth, family_modules, pin, pinned, zoo_member
from bench.docs_zoo.gold import back_index, code_line_index, devhelp_keywords, man_name_line, sphinx_inventory

HERE = Path(__file__).resolve().parent
# the man pages and LaTeX manuals sampled at the zoo's first assembly (family_common.pinned)
MAN_PIN = HERE / "man_sample.json"
LATEX_PIN = HERE / "latex_sample.json"


def install() -> None:
    if os.geteuid() != 0:
        print("not root: the doc packages are not installed (run make zoo as root)", file=sys.stderr)
        return
    subprocess.run(["apt-get", "install", "-y", "-o", "DPkg::Lock::Timeout=600", "--no-install-recommends",
                    *F.APT_PACKAGES, *(p for m in family_modules().values() for p in m.PACKAGES)], check=True)


def html_family(zoo: Path, family: str, projects: list, gold_of) -> list[dict]:
    members = []
    for project, package, folder, half in projects:
        gold_files = sorted(folder.glob("objects.inv")) + sorted(folder.glob("*.devhelp2"))
        if not gold_files:
            print(f"{family}/{project}: {package} not installed, left out")
            continue
        # the pages the inventory points a documented thing at (a page's title or a section's
        # label is structure: std:doc, std:label)
        linked = sorted({page for _, role, page in gold_of(gold_files[0]) if page and (folder / page).is_file()
                         and role not in ("std:doc", "std:label")
                         and not re.search(r"(genindex|modindex|search|api-index|index-all)", page)})
        members.append(zoo_member(zoo, family, project, package, half, folder, every_kth(linked, F.PAGES_PER_PROJECT),
                              [g.name for g in gold_files], gold_files[0].name))
    return members


def _render(command, roff: bytes, stem: str) -> bytes | None:
    if callable(command):  # docbook: lifted to DocBook, then rendered (bench/docs_zoo/docbook.py)
        return command(roff, stem)
    with tempfile.TemporaryDirectory() as scratch:  # grohtml writes a page's images where it runs
        done = subprocess.run(command, input=roff, capture_output=True, cwd=scratch)
    if done.returncode != 0 or not done.stdout.strip():
        return None
    if command[0] == "man2html":  # a CGI program: its output opens with a Content-type header
        page = done.stdout.split(b"\n\n", 1)[-1]
        return None if b"<TITLE>Invalid Man Page</TITLE>" in page else page  # roff it cannot read
    return done.stdout


def _man_stem(page: Path) -> str:
    return page.name[:-len(".1.gz")]


def _man_rendered(sources: list[Path], renderers: list) -> tuple[list, dict]:
    """The first ``MAN_PAGES`` of ``sources`` that have a NAME line, are no ``.so`` alias and
    that pandoc and groff both render, with each renderer's page; and each one's names."""
    chosen, names = [], {}
    for source in sources:
        found = man_name_line(source)
        roff = gzip.decompress(source.read_bytes())
        if not found or b".so " in roff[:200]:
            continue
        stem = _man_stem(source)
        rendered = {name: _render(command, roff, stem) for name, command in renderers}
        if rendered.get("pandoc") and rendered.get("groff"):
            chosen.append((source, rendered))
            names[stem] = found
        if len(chosen) == F.MAN_PAGES:
            break
    return chosen, names


def man_family(zoo: Path) -> list[dict]:
    if shutil.which("pandoc") is None or shutil.which("groff") is None:
        print("man: pandoc or groff missing, left out")
        return []
    # every installed section-1 page but git's (the man shelf of bench/eval_docs.py is git's)
    # one page per command family (the name's part before "_", "-" or "."; gcloud alone has
    # thousands of pages), the family's first by name; chosen by the first two renderers,
    # the others render the same pages (a page one of them fails on is left out of its folder)
    sources = {}
    for page in sorted(F.MAN1.glob("*.1.gz")):
        sources.setdefault(re.split(r"[_.-]", page.name)[0], page)
    sources = [p for family, p in sorted(sources.items()) if family != "git"]
    renderers = [(name, command) for name, command in F.MAN_RENDERERS if shutil.which(command[0])]
    if docbook.available():
        renderers.append(("docbook", docbook.render_page))
    kept = pinned(MAN_PIN, sources, _man_stem)
    chosen, names = _man_rendered(every_kth(sources, F.MAN_PAGES * 3) if kept is None else kept, renderers)
    if kept is None:
        pin(MAN_PIN, [source for source, _ in chosen], _man_stem)
    halves = F.half_by_position(list(names))
    members = []
    for renderer, _ in renderers:
        for half in ("tune", "check"):
            target = zoo / "man" / f"{renderer}-{half}"
            target.mkdir(parents=True, exist_ok=True)
            pages = {}
            for source, rendered in chosen:
                stem = _man_stem(source)
                if halves[stem] == half and rendered[renderer]:
                    (target / f"{stem}.html").write_bytes(rendered[renderer])
                    pages[f"{stem}.html"] = names[stem]
            members.append({"family": "man", "project": f"{renderer}-{half}", "package": "installed man pages",
                            "half": half, "path": str(target), "gold": "name-lines", "names": pages})
    if docbook.available():
        members += _docbook_books(zoo, chosen, names, halves)
    return members


def _docbook_books(zoo: Path, chosen: list, names: dict, halves: dict) -> list[dict]:
    """Each half's pages as one chunked DocBook manual (navigation on every page, a contents page)."""
    members = []
    for half in ("tune", "check"):
        lifted = {}
        for source, _ in chosen:
            stem = _man_stem(source)
            if halves[stem] == half:
                xml = docbook.lift(gzip.decompress(source.read_bytes()), stem)
                if xml is not None:
                    lifted[stem] = xml
        target = zoo / "man" / f"docbook-book-{half}"
        files = docbook.render_book(lifted, f"Installed commands ({half})", target)
        members.append({"family": "man", "project": f"docbook-book-{half}", "package": "installed man pages",
                        "half": half, "path": str(target), "gold": "name-lines",
                        "names": {file: names[stem] for stem, file in files.items()}})
    return members


def _pdf_pages(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True).stdout.decode("utf-8", "replace")
    found = re.search(r"(?m)^Pages:\s+(\d+)", info)
    return int(found.group(1)) if found else 0


def _package_pdfs(package: str) -> list[Path]:
    listed = subprocess.run(["dpkg", "-L", package], capture_output=True).stdout.decode("utf-8", "replace")
    return [Path(p) for p in listed.splitlines() if p.endswith(".pdf") and Path(p).is_file()]


def latex_qualified() -> tuple[list[Path], int]:
    """The LaTeX packages' manuals that qualify for the zoo (4 to ``LATEX_MAX_PAGES`` pages, an
    index of at least 10 entries the gold reader finds), sorted by path; and how many PDFs the
    packages install."""
    candidates = sorted({p for package in F.LATEX_PACKAGES for p in _package_pdfs(package)})
    qualified = []
    for pdf in candidates:
        pages = _pdf_pages(pdf)
        if not 4 <= pages <= F.LATEX_MAX_PAGES:
            continue
        # its last pages hold an index: the gold reader finds at least 10 entries there
        if len(back_index(pdf)) >= 10:
            qualified.append(pdf)
    return qualified, len(candidates)


def latex_family(zoo: Path) -> list[dict]:
    qualified, candidates = latex_qualified()
    chosen = pinned(LATEX_PIN, qualified, str)
    if chosen is None:
        chosen = every_kth(qualified, F.LATEX_MANUALS)
        pin(LATEX_PIN, chosen, str)
    known = [F.LATEX_DIR / k for k in F.LATEX_KNOWN if (F.LATEX_DIR / k).is_file()]
    halves = F.half_by_position([str(p) for p in chosen])
    target = zoo / "latex"
    target.mkdir(parents=True, exist_ok=True)
    members = []
    for pdf in [*known, *chosen]:
        half = "tune" if pdf in known else halves[str(pdf)]
        link = target / half / pdf.name
        link.parent.mkdir(exist_ok=True)
        if not link.exists():
            link.symlink_to(pdf)
        members.append({"family": "latex", "project": pdf.stem, "package": "known" if pdf in known else "extra/pictures",
                        "half": half, "path": str(link), "gold": "back-index", "code_lines": code_line_index(pdf)})
    print(f"latex: {len(qualified)} manuals of {candidates} qualify; {len(chosen)} kept, and {len(known)} known")
    return members


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--zoo", type=Path, default=F.DEFAULT_ZOO)
    parser.add_argument("--no-apt", action="store_true", help="do not install the packages")
    parser.add_argument("--family", action="append", help="assemble only these families")
    args = parser.parse_args()
    if not args.no_apt:
        install()
    modules = family_modules()
    wanted = set(args.family or ("sphinx", "gtkdoc", "man", "latex", *modules))
    manifest_path = args.zoo / "zoo.json"
    old = json.loads(manifest_path.read_text()) if manifest_path.is_file() else {"members": []}
    members = [m for m in old["members"] if m["family"] not in wanted]
    for family in sorted(wanted):
        shutil.rmtree(args.zoo / family, ignore_errors=True)
    if "sphinx" in wanted:
        members += html_family(args.zoo, "sphinx", F.SPHINX, sphinx_inventory)
    if "gtkdoc" in wanted:
        members += html_family(args.zoo, "gtkdoc", F.GTK, devhelp_keywords)
    if "man" in wanted:
        members += man_family(args.zoo)
    if "latex" in wanted:
        members += latex_family(args.zoo)
    for name in sorted(wanted & set(modules)):
        members += modules[name].assemble(args.zoo)
    args.zoo.mkdir(parents=True, exist_ok=True)
    manifest_path.write_text(json.dumps({"members": members}, indent=1), encoding="utf-8")
    for family in sorted({m["family"] for m in members}):
        own = [m for m in members if m["family"] == family]
        print(f"{family}: {len(own)} members ({sum(m['half'] == 'tune' for m in own)} tune,"
              f" {sum(m['half'] == 'check' for m in own)} check)")
    print(f"zoo: {args.zoo}")


if __name__ == "__main__":
    main()
