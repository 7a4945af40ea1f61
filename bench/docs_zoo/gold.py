"""The zoo's gold, read from the authors' own files independently of crossbook's readers.

- a Sphinx build's ``objects.inv`` (with sphobjinv): every entry, every role;
- a gtk-doc build's ``*.devhelp2``: every keyword (function, macro, struct, property...);
- a man page's NAME line, from the page's roff source;
- a LaTeX manual's back index, as ``pdftotext`` reads it (any layout: dot leaders or a comma).
"""

from __future__ import annotations

import gzip
import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

# gtk-doc keyword names carry their kind: "g_main_loop_new ()", "struct GList", "The “x” property"
_DEVHELP_NAME = re.compile(r"^(?:struct|union|enum|typedef)\s+|\s*\(\)$")
_PROPERTY = re.compile(r"^The “(.+)” (?:child |style )?(?:property|signal)$")


def sphinx_inventory(path: Path) -> list[tuple[str, str, str]]:
    """(name, domain:role, page) of every entry of an objects.inv."""
    import sphobjinv

    inv = sphobjinv.Inventory(str(path))
    return [(o.name, f"{o.domain}:{o.role}", o.uri_expanded.partition("#")[0]) for o in inv.objects]


def devhelp_entries(path: Path) -> list[tuple[str, str, str]]:
    """(name, type, link with its anchor) of every keyword of a devhelp2 file; a property's
    or signal's name is the quoted one ("The “label” property": label)."""
    out = []
    for element in ET.parse(path).getroot().iter():
        if not element.tag.endswith("keyword"):
            continue
        name, link = element.get("name", ""), element.get("link", "")
        quoted = _PROPERTY.match(name)
        name = quoted.group(1) if quoted else _DEVHELP_NAME.sub("", name).strip()
        if element.get("type") == "member":  # a C field the keyword writes as its anchor: tv-sec is tv_sec
            owner, dot, field = name.rpartition(".")
            name = owner + dot + field.replace("-", "_")
        if name and link:
            out.append((name, element.get("type", "other"), link))
    return out


def devhelp_keywords(path: Path) -> list[tuple[str, str, str]]:
    """(name, type, page) of every keyword of a devhelp2 file (``devhelp_entries``)."""
    return [(name, kind, link.partition("#")[0]) for name, kind, link in devhelp_entries(path)]


def man_name_line(source: Path) -> list[str]:
    """The names a man page's NAME line gives ("git-add \\- Add file contents": git-add)."""
    data = source.read_bytes()
    text = (gzip.decompress(data) if source.suffix == ".gz" else data).decode("utf-8", "replace")
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if re.match(r"^\.Sh\s+NAME", line):  # mdoc: ".Nm erb" lines up to ".Nd"
            names = []
            for following in lines[i + 1:]:
                if following.startswith((".Nd", ".Sh")):
                    break
                found = re.match(r"^\.Nm\s+(\S+)", following)
                if found:
                    names.append(found.group(1).rstrip(","))
            return names
        if re.match(r'^\.S[Hh]\s+"?(NAME|Name)"?\s*$', line):
            body = []
            for following in lines[i + 1:]:
                if following.startswith(".SH"):
                    break
                if following.startswith(".") and not following.startswith((".B ", ".Nm")):
                    continue
                body.append(re.sub(r"^\.(?:B|Nm)\s+", "", following))
                if "\\-" in following or " - " in following:
                    break
            joined = " ".join(body)
            # "name \- what", "name - what", "name\(em what", and "name- what" (a dash before a space)
            head = re.split(r"\s\\-|\\\(em|\s-\s|\\?-\s", joined, maxsplit=1)[0]
            head = re.sub(r"\\f[BIRP]|\\&|\\\(\w\w|\\", "", head)
            return [n.strip() for n in head.split(",") if n.strip()]
    return []


# "name (kind), 12, 34–36" / "name . . . 12" / "\name 12" on a line of pdftotext's output
_ENTRY = re.compile(r"^\s*(\\[A-Za-z@]+\*?|[A-Za-z][\w@.:-]*\*?)(?: \((option|package|environment|env\.|key)\))?"
                    r"(?:,\s*| (?:\. ?){2,}\s*| +)(\d[\d, –-]*)\s*$")


def back_index(pdf: Path) -> list[tuple[str, str, set[int]]]:
    """(name, annotation, numbers) of a manual's back-index entries that name a command (a
    backslash) or an annotated option, package or environment, from the last heading
    "Index" on (pdftotext's reading order, which takes columns one by one)."""
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, check=True).stdout.decode("utf-8", "replace")
    starts = [m.end() for m in re.finditer(r"(?m)^\f?\s*(?:\d+(?:\.\d+)*\s+)?(?:INDEX|Index|Index of [A-Za-z ]+)\s*$",
                                           text)]
    late = [a for a in starts if a > 0.5 * len(text)]
    if not late:
        return []
    # a change history printed after the index is no part of it
    after = re.search(r"(?m)^\f?\s*(?:Change History|Changes|Version History)\s*$", text[late[0]:])
    region = text[late[0]:late[0] + after.start()] if after else text[late[0]:]
    out = []
    for line in region.splitlines():
        match = _ENTRY.match(line)
        if not match:
            continue
        name, annotation, numbers = match.groups()
        if not (name.startswith("\\") or annotation):
            continue
        pages = set()
        for part in re.split(r",\s*", numbers.strip(" ,")):
            bounds = [int(n) for n in re.findall(r"\d+", part)]
            if bounds and bounds[-1] - bounds[0] < 50:
                pages.update(range(bounds[0], bounds[-1] + 1))
        out.append((name, annotation or "", pages))
    return out


def code_line_index(pdf: Path) -> bool:
    """Whether the manual says its index's numbers are code lines (a documented .dtx package:
    "numbers refer to the code lines", "All numbers denote code lines")."""
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, check=True).stdout.decode("utf-8", "replace")
    if re.search(r"(?:numbers?|entr)[^.;]{0,80}code\s+lines?", text, re.IGNORECASE):
        return True
    # or its numbers run past the last page: no pages, whether or not it says so
    pages = text.count("\f") + 1
    numbers = [int(n) for _, _, found in back_index(pdf) for n in found]
    return sum(n > pages for n in numbers) > 0.3 * max(len(numbers), 1)
