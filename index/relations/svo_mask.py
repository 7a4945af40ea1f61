"""Entity mentions in a sentence, and the sentence with each mention masked by a placeholder.

Before parsing, each entity mention is replaced by a placeholder name (``Alice``,
``Bob``...): spaCy's small English model mis-tags invented multi-word game terms ("Unweave
counters Cinder Wall" parses "counters" as a noun), but parses "Alice counters Bob" well.
A mention is found as the linker finds names: longest form first, whole words, and a form
with capitals matches only as written (an all-lowercase form matches any case).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Placeholder names spaCy's small model tags reliably as proper nouns. A sentence with more
# mentions than names reuses them with a numeric suffix, still one token each.
_PLACEHOLDERS = (
    "Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi",
    "Ivan", "Judy", "Mallory", "Oscar", "Peggy", "Rupert", "Sybil", "Trent",
)

Mention = tuple[int, int, tuple[int, ...]]   # (start, end, entity ids) in a sentence


@dataclass(frozen=True)
class ChunkEntity:
    """An entity that occurs in the chunk, as the ingest derivation step knows it."""

    name: str                        # entity display name
    surface_forms: tuple[str, ...]   # names as written in this chunk (mention names, aliases)
    key: tuple[str, str]             # (normalized, entity_type)


def _case_ok(form: str, found: str) -> bool:
    # the linker's rule: "Light" is not "dim light"; an all-lowercase form matches any case
    return found == form or form == form.lower() or (found.isupper() and len(found) > 1)


@dataclass(frozen=True)
class Matcher:
    """Every name of a chunk's entities as one regular expression, and each form's entities."""

    pattern: re.Pattern | None
    forms: dict[str, list[tuple[str, tuple[int, ...]]]]   # lower form -> [(form, entity ids)]


def build_matcher(entities: list[ChunkEntity]) -> Matcher:
    """The matcher of the entities' surface forms and names (entity ids: list positions)."""
    forms: dict[str, dict[str, list[int]]] = {}
    for idx, entity in enumerate(entities):
        for form in (*entity.surface_forms, entity.name):
            form = form.strip()
            if form:
                ids = forms.setdefault(form.lower(), {}).setdefault(form, [])
                if idx not in ids:
                    ids.append(idx)
    if not forms:
        return Matcher(None, {})
    # longest first, so "Greater Shield" wins over "Shield" at the same position
    ordered = sorted(forms, key=lambda f: (-len(f), f))
    pattern = re.compile(
        r"(?<!\w)(?:" + "|".join(re.escape(f) for f in ordered) + r")(?!\w)", re.IGNORECASE
    )
    return Matcher(pattern, {k: sorted(v.items()) for k, v in forms.items()})


def find_mentions(matcher: Matcher, sentence: str) -> list[Mention]:
    """Non-overlapping (start, end, entity ids) in the sentence, left to right."""
    if matcher.pattern is None:
        return []
    out = []
    for match in matcher.pattern.finditer(sentence):
        found = match.group(0)
        ids: list[int] = []
        for form, entity_ids in matcher.forms.get(found.lower(), ()):
            if _case_ok(form, found):
                ids.extend(i for i in entity_ids if i not in ids)
        if ids:
            out.append((match.start(), match.end(), tuple(sorted(ids))))
    return out


def _placeholder(n: int) -> str:
    name = _PLACEHOLDERS[n % len(_PLACEHOLDERS)]
    return name if n < len(_PLACEHOLDERS) else f"{name}{n // len(_PLACEHOLDERS)}"


def mask_sentence(sentence: str, mentions: list[Mention]) -> tuple[str, list[tuple[int, int]]]:
    """The sentence with mention k replaced by placeholder k, and each placeholder's offsets."""
    parts, spans, pos, length = [], [], 0, 0
    for k, (start, end, _ids) in enumerate(mentions):
        parts.append(sentence[pos:start])
        length += start - pos
        name = _placeholder(k)
        spans.append((length, length + len(name)))
        parts.append(name)
        length += len(name)
        pos = end
    parts.append(sentence[pos:])
    return "".join(parts), spans
