"""A member's qualified forms: the names users type a method or field by, its owner first
(``Basket.tally_all``, ``Type::method``). Pure.

A page whose subject is an owner (a class, module, crate... the documentation pack's
``owner_kinds``) documents its members: each term of the page whose name is one code-like
name (an identifier, not a phrase nor an option) has the owner's forms as aliases, built
from the subject's name as the page gives it: the owner's innermost name, and its whole
qualified name when it has one, joined by the separator the page writes after the owner
(``Basket.``, ``Basket::``, ``Basket#``), else the owner name's own, else a dot.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ...core.models import DocTerm

# one code-like name: an identifier (Ruby's "empty?", "save!"), no phrase, no option
_MEMBER = re.compile(r"^[A-Za-z_$][\w$]*[!?]?(?:\(\))?$")
_SEPARATORS = ("::", ".", "#")
# the kinds a term's name says nothing of code by: a heading's, a list's plain entry
_PLAIN_KINDS = frozenset({"topic", "chapter", "section", "entry", "other"})


def owner_forms(owner: str, text: str) -> list[str]:
    """The prefixes a member of ``owner`` is typed with ("Basket." for "Basket";
    "Delimiter::" and "proc_macro2::Delimiter::" for "proc_macro2::Delimiter"), by the
    separators ``text`` (the page's) writes after the owner's innermost name."""
    own_sep = next((s for s in _SEPARATORS if s in owner), None)
    inner = re.split(r"::|\.|#", owner)[-1]
    if not _MEMBER.match(inner.rstrip("%")):
        return []
    shown = [s for s in _SEPARATORS if f"{inner}{s}" in text]
    seps = shown or [own_sep or "."]
    forms = [f"{inner}{s}" for s in seps]
    if own_sep is not None:
        forms.extend(f"{owner}{s}" for s in seps if s == own_sep)
    return list(dict.fromkeys(forms))


def qualified(term: DocTerm, forms: list[str]) -> DocTerm:
    """``term`` with its qualified forms (``forms``: the owner's prefixes) as aliases, when it
    is a code-like member name; else ``term`` as it is."""
    if term.subject or term.kind in _PLAIN_KINDS or not _MEMBER.match(term.name):
        return term
    extra = tuple(f"{form}{term.name}" for form in forms)
    return replace(term, aliases=tuple(dict.fromkeys((*term.aliases, *extra))))
