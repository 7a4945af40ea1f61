"""Which characters of a PDF text page each of PDFium's text boxes holds.

PDFium splits a page's text into boxes (one font, one line) but gives a box's text only by
area, and an area also catches a neighbour's glyph that reaches into it: a letter kerned
back under the one before it (the raised A and lowered E of the TeX logo) or a slanted
italic letter was read twice ("LALATEX" for "LATEX"). Walking the characters in text order
and giving each to the box it lies in gives every character to one box.
"""

from __future__ import annotations

import ctypes
from dataclasses import replace

_TOLERANCE = 0.6  # points a glyph's box may stick out of its text box


def _inside(box: tuple[float, float, float, float], rect: tuple[float, float, float, float]) -> bool:
    return (box[0] >= rect[0] - _TOLERANCE and box[2] <= rect[2] + _TOLERANCE
            and box[1] >= rect[1] - _TOLERANCE and box[3] <= rect[3] + _TOLERANCE)


def char_boxes(textpage) -> list[tuple[float, float, float, float]]:
    """Each character's (left, bottom, right, top); a generated one (a space PDFium adds
    between words, a line break) is a point or empty."""
    import pypdfium2.raw as pdfium_c

    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    refs = ctypes.byref(left), ctypes.byref(right), ctypes.byref(bottom), ctypes.byref(top)
    get_box, raw, empty = pdfium_c.FPDFText_GetCharBox, textpage.raw, (0.0, 0.0, 0.0, 0.0)
    return [(left.value, bottom.value, right.value, top.value) if get_box(raw, index, *refs) else empty
            for index in range(textpage.count_chars())]


def rect_ranges(boxes: list[tuple[float, float, float, float]],
                rects: list[tuple[float, float, float, float]]) -> list[tuple[int, int]]:
    """Each text box's characters as (start, end) indices, in text order: a character goes
    to the next box when it starts it (its left edge is the box's), else to the box it lies
    in, trying the current box and the next few; a character with no area (a generated space) stays with the current box.
    A box that gets no character is (0, 0)."""
    ranges = [[-1, -1] for _ in rects]
    current, count = 0, len(rects)
    for index, box in enumerate(boxes):
        if not count:
            break
        if box[2] > box[0] or box[3] > box[1]:
            following = current + 1
            if following < count and abs(box[0] - rects[following][0]) < 0.3 and _inside(box, rects[following]):
                current = following
            elif not _inside(box, rects[current]):
                current = next((j for j in range(following, min(current + 5, count)) if _inside(box, rects[j])),
                               current)
        span = ranges[current]
        if span[0] < 0:
            span[0] = index
        span[1] = index + 1
    return [(a, b) if a >= 0 else (0, 0) for a, b in ranges]


def tex_logo_case(runs: list) -> list:
    """The TeX logos' lowercase letters: TeX sets the e of "TeX" as a lowered capital E and
    the a of "LaTeX" as a small raised capital A, each its own box, so the text layer says
    "LATEX"; a lone E between a T and an X set below them, and a lone A after an L set smaller
    and above it, read as e and a ("LaTeX", "pdfTeX")."""
    out = list(runs)
    for i in range(1, len(out) - 1):
        before, run, after = out[i - 1], out[i], out[i + 1]
        text = run.text.strip()
        drop = before.size * 0.15
        if (text == "E" and before.text.endswith("T") and after.text.startswith("X")
                and run.y1 < before.y1 - drop and run.y1 < after.y1 - drop):
            out[i] = replace(run, text=run.text.replace("E", "e"))
        elif (text == "A" and before.text.endswith("L") and after.text.startswith("T")
                and run.size < before.size * 0.9 and run.y0 > before.y0 + drop):
            out[i] = replace(run, text=run.text.replace("A", "a"))
    return out
