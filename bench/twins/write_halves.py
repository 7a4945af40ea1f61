"""Write each shelf's named kinds and its halves (bench/twins/split.py's rule), or --check them.

    python -m bench.twins.write_halves [--shelf NAME] [--force] [--check]
"""

from __future__ import annotations

import argparse

from bench.twins.split import HALVES, KINDS, ROOT, SHELVES, halves, shelf_kinds, write_json


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shelf", action="append", choices=SHELVES)
    parser.add_argument("--force", action="store_true", help="write the files again though they exist")
    parser.add_argument("--check", action="store_true", help="say whether each file is current; write nothing")
    args = parser.parse_args()
    stale = 0
    for shelf in args.shelf or SHELVES:
        kinds = shelf_kinds(shelf)
        about = ("The kinds the shelf's books state and their members (bench/twins/kinds.py); type: the "
                 "crossbook type an index should give them, null where none fits (named, not scored).")
        for path, data in ((KINDS[shelf], {"about": about, "shelf": shelf, "kinds": kinds}),
                           (HALVES / f"{shelf}.json", halves(shelf, kinds))):
            state = write_json(path, data, args.force, args.check)
            stale += state == "would change"
            print(f"{shelf}: {path.relative_to(ROOT)} {state}")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
