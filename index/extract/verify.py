"""Verify proposed mentions against the text of their chunk (nothing invented is stored).

A mention survives when its name (normalized) occurs in the chunk as whole words and its
context is a verbatim substring of the chunk (whitespace-normalized). Everything else is
dropped with a reason, and the reasons are counted per book.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..models import MENTION_TYPES, RawMention
from ..normalize import collapse_whitespace, normalize_name, normalized_tokens, normalized_words


@dataclass
class Verified:
    mentions: list[RawMention] = field(default_factory=list)
    dropped: Counter = field(default_factory=Counter)


class ChunkText:
    """A chunk's text prepared once for many checks."""

    def __init__(self, text: str):
        self.text = text
        self.collapsed = collapse_whitespace(text)
        self.tokens = normalized_tokens(text)

    def has_name(self, name: str) -> bool:
        key = normalized_words(name)
        return bool(key) and f"_{key}_" in self.tokens

    def has_quote(self, quote: str) -> bool:
        collapsed = collapse_whitespace(quote)
        return bool(collapsed) and collapsed in self.collapsed


def verify_mentions(
    mentions: list[RawMention], chunk: ChunkText, entity_types: tuple[str, ...]
) -> Verified:
    """Keep the mentions grounded in the chunk; one per (normalized name, type, mention_type)."""
    out = Verified()
    seen: set[tuple[str, str, str]] = set()
    for mention in mentions:
        if not normalize_name(mention.name):
            out.dropped["empty_name"] += 1
        elif mention.mention_type not in MENTION_TYPES:
            out.dropped["bad_mention_type"] += 1
        elif not chunk.has_name(mention.name):
            out.dropped["name_not_in_chunk"] += 1
        elif not chunk.has_quote(mention.context):
            out.dropped["context_not_verbatim"] += 1
        else:
            entity_type = mention.entity_type if mention.entity_type in entity_types else "other"
            key = (normalize_name(mention.name), entity_type, mention.mention_type)
            if key in seen:
                continue  # the same claim twice is one mention, not a failure
            seen.add(key)
            out.mentions.append(
                RawMention(
                    name=collapse_whitespace(mention.name),
                    entity_type=entity_type,
                    mention_type=mention.mention_type,
                    context=collapse_whitespace(mention.context),
                    source=mention.source,
                    # an alias is kept only when the chunk gives it too
                    aliases=tuple(a for a in mention.aliases if chunk.has_name(a)),
                )
            )
    return out
