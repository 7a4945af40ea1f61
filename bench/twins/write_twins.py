"""Write srd51's twins in other layouts (bench/twins/srd_layouts.py) into a folder.

    python -m bench.twins.write_twins [--out DIR] [--twin headings|leads|tables]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from bench.srd51 import eval_definitions as D
from bench.twins.srd_layouts import TWINS, relay


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "crossbook-srd51-twins")
    parser.add_argument("--twin", action="append", choices=TWINS)
    args = parser.parse_args()
    markdown = D.shelf()
    conditions = {n for n, k in D.gold(markdown)["kinds"].items() if k == "condition"}
    for twin in args.twin or TWINS:
        print(f"{twin}: {relay(twin, markdown, args.out, conditions)}")


if __name__ == "__main__":
    main()
