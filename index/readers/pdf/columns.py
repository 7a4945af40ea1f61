"""A PDF page's columns, read one by one. Pure (on runs with ``x0``, ``x1`` and ``size``, in points).

Two ways find a gutter, the x between two columns:

- by wide text: on most lines no text crosses it, and on at least five lines each a stretch
  of text at least 28% of the page wide ends just before it and starts just after it (a page
  of prose in two columns);
- by aligned edges, for columns of short entries (an index, a glossary, a list of names),
  where no stretch is wide: the page's text block (from its left margin to its widest line's
  end or the left margin's mirror) is cut into two or three columns of equal width, and each
  cut is an x near it (within 8% of the block's width) that at most one line in six crosses,
  with text left of it on at least ``MIN_LINES`` lines and, right of it, stretches that
  start at one x (within 3 pt) on at least ``MIN_LINES`` lines and a quarter of the lines
  that have one, no further right of the cut than a quarter of its window (the column's
  edge: continuation lines and letter headings start further in). A table's columns are
  aligned too, but not of equal width: its first column is the short one.

Lines are then read in order: each column's lines (grouped again from the column's own
runs), left to right, band by band (a line that crosses a gutter, such as a heading set full
width, ends a band). A page with no gutter across it may hold columns below its prose: an
index that starts under the text before it. The lines after its last line of prose or heading
are then looked at alone, and read in columns where they show gutters of columns alike (not
a table's).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter

MIN_LINES = 8
BAND_LINES = MIN_LINES + 2  # lines a band of columns below (or above) prose needs
PROSE_SHARE = 0.6  # a line of one stretch wider than this share of the text block is prose
FILL_SLACK = 0.25  # a band's column has text this near its gutter (a share of its width)
WIDTH_RATIO = 2.5  # a band's columns' typical stretches differ in width at most so much
MAX_STRETCHES = 2.0  # stretches to a line in a band's column, on average
_NEAR = 0.08


def segments(line) -> list[tuple[float, float]]:
    """A line's stretches of text: runs closer than an em (or 6 pt) apart are one stretch."""
    spans: list[list[float]] = []
    for run in line:
        if spans and run.x0 - spans[-1][1] <= max(run.size, 6):
            spans[-1][1] = max(spans[-1][1], run.x1)
        else:
            spans.append([run.x0, run.x1])
    return [(a, b) for a, b in spans]


def wide_gutter(spans: list[list[tuple[float, float]]], width: float) -> float | None:
    """The x of a two-column page's gutter found by wide stretches of text (see the module doc)."""
    wide = width * 0.28
    # quick no: a right column needs wide stretches that start right of the page's middle third's start
    if len(spans) < 10 or sum(1 for segs in spans for a, b in segs if b - a >= wide and a >= width * 0.35) < 5:
        return None
    best = None
    for step in range(0, 31):
        x = width * (0.35 + step * 0.01)
        crossing = sum(1 for segs in spans if any(a < x < b for a, b in segs))
        left = sum(1 for segs in spans if any(x - 60 <= b <= x and b - a >= wide for a, b in segs))
        right = sum(1 for segs in spans if any(x <= a <= x + 60 and b - a >= wide for a, b in segs))
        if left >= 5 and right >= 5 and crossing <= max(2, len(spans) // 6):
            if best is None or crossing < best[0]:
                best = (crossing, x)
    return best[1] if best else None


def _aligned_cut(spans: list[list[tuple[float, float]]], low: float, high: float) -> float | None:
    """The gutter between ``low`` and ``high`` found by the right column's aligned edge."""
    best = None
    for step in range(0, 21):
        x = low + (high - low) * step / 20
        crossing = sum(1 for line in spans if any(a < x < b for a, b in line))
        if crossing > len(spans) // 6:
            continue
        right = [[(a, b) for a, b in line if a >= x] for line in spans]
        right = [line for line in right if line]
        lefts = sum(1 for line in spans if any(b <= x for _, b in line))
        if len(right) < MIN_LINES or lefts < MIN_LINES:
            continue
        edge = _column_edge(right, high + (high - low) / 4)
        if edge is None:
            continue  # no aligned edge, or only one far off the cut: no column of equal width
        if best is None or crossing < best[0]:
            best = (crossing, edge - 1)
    return best[1] if best else None


def _column_edge(right: list[list[tuple[float, float]]], furthest: float) -> float | None:
    """The x where a column's entries start, right of a cut: many lines have a stretch that
    starts there (a quarter at least of those with text right of the cut: its entries'
    continuation lines and letter headings start further in), no further than ``furthest``,
    and the most text starts there (a column of page numbers ending the column before is
    aligned too, but narrow; so are its entries' leaders). Every stretch counts, not only a
    line's first: a line whose column before ends in a page number set apart starts with it."""
    need = max(MIN_LINES, 0.25 * len(right))
    found = sorted((a, n, b - a) for n, line in enumerate(right) for a, b in line if a <= furthest)
    xs = [a for a, _, _ in found]
    best = None
    for at in dict.fromkeys(xs):
        near = found[bisect_left(xs, at - 3):bisect_right(xs, at + 3)]
        if len({n for _, n, _ in near}) >= need:
            text = sum(w for _, _, w in near)
            if best is None or text > best[0]:
                best = (text, at)
    return best[1] if best else None


def aligned_gutters(spans: list[list[tuple[float, float]]], page_width: float,
                    least: int = 2 * MIN_LINES) -> list[float]:
    """The gutters of a page (or a band: ``least`` lines) of two or three equal columns of
    short entries, or []."""
    stretches = [s for line in spans for s in line]
    if len(spans) < least or not stretches:
        return []
    left_edge = min(a for a, _ in stretches)
    # the text block's right edge: its widest line's, or the left margin's mirror (short
    # entries may end far before it)
    width = max(max(b for _, b in stretches), page_width - left_edge) - left_edge
    for count in (3, 2):
        cuts = []
        for k in range(1, count):
            centre = left_edge + width * k / count
            cut = _aligned_cut(spans, centre - width * _NEAR, centre + width * _NEAR)
            if cut is None:
                break
            cuts.append(cut)
        else:
            return cuts
    return []


def group_lines(runs: list) -> list[list]:
    """Runs on one baseline make a line (a run whose middle lies within the line's height),
    top to bottom, each line's runs left to right."""
    lines: list[list] = []
    for run in sorted(runs, key=lambda r: (-r.y1, r.x0)):
        mid = (run.y0 + run.y1) / 2
        for line in lines[-3:]:
            if min(r.y0 for r in line) <= mid <= max(r.y1 for r in line):
                line.append(run)
                break
        else:
            lines.append([run])
    return [sorted(line, key=lambda r: r.x0) for line in lines]


def columns(lines: list[list], width: float) -> list[list]:
    """Lines (each a list of runs, left to right) in reading order (see the module doc). A
    column's lines are grouped again from its own runs: its baselines need not meet the
    other columns' (a letter heading's space, a taller run next door), and a line grouped
    across the page may hold a run of the line below in another column."""
    spans = [segments(line) for line in lines]
    gutter = wide_gutter(spans, width)
    gutters = [gutter] if gutter is not None else aligned_gutters(spans, width)
    if not gutters:
        return _banded(lines, spans, width)
    return _in_columns(lines, gutters)


def _in_columns(lines: list[list], gutters: list[float]) -> list[list]:
    out: list[list] = []
    parts: list[list] = [[] for _ in range(len(gutters) + 1)]
    for line in lines:
        if any(r.x0 < g < r.x1 for r in line for g in gutters):
            out += [row for column in parts for row in group_lines(column)] + [line]
            parts = [[] for _ in range(len(gutters) + 1)]
            continue
        for k, (low, high) in enumerate(zip([float("-inf"), *gutters], [*gutters, float("inf")])):
            parts[k] += [r for r in line if low <= r.x0 and r.x1 <= high]
    return out + [row for column in parts for row in group_lines(column)]


def _banded(lines: list[list], spans: list[list[tuple[float, float]]], width: float) -> list[list]:
    """A page whose columns fill only its lower part (an index that starts below the text
    before it): the band of lines after the page's last line of prose (one stretch across
    most of the text block) or heading (set larger than the page's text) is read in columns
    when its own lines show gutters of columns alike (``_alike``); the lines above stay as
    they are. A band needs ``BAND_LINES`` lines."""
    stretches = [s for line in spans for s in line]
    if len(lines) < BAND_LINES or not stretches:
        return lines
    block = max(b for _, b in stretches) - min(a for a, _ in stretches)
    sizes = Counter()
    for line in lines:
        for run in line:
            sizes[round(run.size, 1)] += len(run.text)
    body = sizes.most_common(1)[0][0]
    start = len(lines)
    while start > 0 and not (len(spans[start - 1]) == 1 and spans[start - 1][0][1] - spans[start - 1][0][0]
                             > PROSE_SHARE * block) and max(r.size for r in lines[start - 1]) < body * 1.15:
        start -= 1
    band = spans[start:]
    if not 0 < start or len(band) < BAND_LINES:
        return lines
    # aligned edges first: a band is mostly short entries, and a wide stretch's end may be
    # a leader's before its page number
    gutters = aligned_gutters(band, width, BAND_LINES)
    gutter = wide_gutter(band, width) if not gutters else None
    gutters = gutters or ([gutter] if gutter is not None else [])
    if gutters and _alike(band, gutters):
        return lines[:start] + _in_columns(lines[start:], gutters)
    return lines


def _alike(spans: list[list[tuple[float, float]]], gutters: list[float]) -> bool:
    """Whether a band's columns are columns of one kind of text, not a table's: each column
    but the last has text that reaches near its gutter (within ``FILL_SLACK`` of its width),
    and the columns' typical lines are alike in width (a line's longest stretch in it) (at most ``WIDTH_RATIO`` apart). A
    table of short names beside their descriptions is aligned too, but its first column is
    short and unlike the next; a table of many cells sets several stretches to a line of a
    column (at most ``MAX_STRETCHES`` on average: an entry and its page number set apart)."""
    bounds = list(zip([min(a for line in spans for a, _ in line), *gutters], [*gutters, float("inf")]))
    widths: list[float] = []
    for k, (low, high) in enumerate(bounds):
        # each line's longest stretch in the column (an entry, not the page number set apart from it)
        cells = [mine for line in spans if (mine := [(a, b) for a, b in line if low <= a and b <= high])]
        if not cells or sum(len(mine) for mine in cells) > MAX_STRETCHES * len(cells):
            return False  # a table's cells: several stretches to a line of a column
        inside = sorted(max(b - a for a, b in mine) for mine in cells)
        widths.append(inside[len(inside) // 2])
        if k < len(gutters) and max(b for line in spans for a, b in line if low <= a and b <= high) \
                < high - FILL_SLACK * (high - low):
            return False
    return max(widths) <= WIDTH_RATIO * min(widths)
