"""The zoo's BoostBook family: Boost's reference pages, DocBook XSL's output (libboost1.81-doc),
checked.

Members: a library each (``LIBRARIES``: its reference page, the listing of its headers whose
synopses link each reference page). Per library, the reference pages (``<div class="refentry">``)
its listing links, sorted by path, every k-th so that at most ``PAGES_PER_PROJECT`` are kept,
with the listing page beside them, each at its path below ``doc/html``.

Gold: the package ships no list, so it is read from the pages (``entries``) and committed
(``golds/boostbook.json``, ``python -m bench.docs_zoo.write_golds``). The rule, per reference
page:

- the page defines the thing its title names: the qualified name under the title, less the
  purpose after its dash (``boost::container::flat_set``), its kind the title's words before the name ("Class
  template", "Function", "Macro", "Type definition", "Global"...), its anchor the entry's own
  (``<a name="boost.container.flat_set">``);
- each member the page documents in a list of its own (``flat_set public member functions``,
  ``public static functions``, ``friend functions``...): a list item's signature whose
  identifier follows its anchor (``<a name="idm12368-bb"></a><span class="identifier">get_allocator</span>``)
  defines ``owner::get_allocator`` on the page, kind "member function"; one name once per page
  (overloads are one name); a constructor (the owner's own name), a destructor and an operator
  have no identifier there, and an identifier in capitals is a macro the signature calls
  (``BOOST_DEFAULTED_FUNCTION(...)``): left out;
- each term of the page's own list of values whose anchor is the page's anchor and the term
  (``<dt><code>allow_long</code><a name="boost.program_options.command_line_style.style_t.allow_long">``):
  an enumerator, ``owner::allow_long``, kind "value".

A type the synopsis lists with no entry of its own (``typedef Key key_type;``) is not counted.
"""

from __future__ import annotations

import posixpath
import re
import sqlite3
from html import unescape
from pathlib import Path

from bench.docs_zoo.family_common import committed_gold, every_kth, keyed, score_gold, zoo_member

NAME = "boostbook"
PACKAGES = ("libboost1.81-doc",)
ROOT = Path("/usr/share/doc/libboost1.81-doc/doc/html")
# library -> its reference page, the listing of its headers
LIBRARIES = {"container": "boost_container_header_reference.html",
             "program_options": "program_options/reference.html",
             "string_algo": "string_algo/reference.html"}
RELATIONS = "off"  # ingested as LaTeX is: the relation pass writes claims, never the entities scored
_SUBJECT = re.compile(r'<div class="refentry">\s*<a name="([^"]+)"></a>.*?<span class="refentrytitle">(.*?)</span>'
                      r'</h2>\s*<p>(.*?)</p>', re.DOTALL)
_MEMBER = re.compile(r'<pre class="literallayout">(?:(?!</pre>).)*?<a name="([^"]+-bb)"></a><span class="identifier">(\w+)</span>',
                     re.DOTALL)
# <dt><span class="term"><code class="computeroutput">allow_long</code><a name="boost.x.style_t.allow_long"></a>
_TERM = re.compile(r'<dt><span class="term"><code class="computeroutput">(\w+)</code><a name="([^"]+)"></a>')
_HREF = re.compile(r'href="([^"#:]+\.html)')


def _text(markup: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", "", markup)).split())


def page_entries(html: str) -> list[tuple[str, str, str]]:
    """(name, kind, anchor) of what a reference page defines (the module's rule)."""
    subject = _SUBJECT.search(html)
    if subject is None:
        return []
    anchor, title = subject.group(1), _text(subject.group(2))
    qualified = _text(subject.group(3)).partition(" — ")[0]  # "boost::algorithm::find_iterator — its purpose"
    own = qualified.rpartition("::")[2]
    kind = title[:-len(own)].strip() if title.endswith(own) else title.rpartition(" ")[0]
    out, seen = [(qualified, kind.lower() or "entry", anchor)], {qualified}
    for member_anchor, member in _MEMBER.findall(html):
        name = f"{qualified}::{member}"
        if member != own and not member.isupper() and name not in seen:
            seen.add(name)
            out.append((name, "member function", member_anchor))
    for term, term_anchor in _TERM.findall(html):
        name = f"{qualified}::{term}"
        if term_anchor == f"{anchor}.{term}" and name not in seen:
            seen.add(name)
            out.append((name, "value", term_anchor))
    return out


def entries(root: Path, pages: list[str]) -> list[tuple[str, str, str, str]]:
    """(name, kind, page, anchor) of the gold on ``pages`` (relative to ``root``)."""
    return sorted(keyed([(name, kind, page, anchor) for page in pages
                         for name, kind, anchor in page_entries((root / page).read_text(encoding="utf-8"))]))


def chosen_pages(listing: str, root: Path = ROOT) -> list[str]:
    """The reference pages the library's listing links (paths relative to ``root``), every k-th."""
    hrefs = {posixpath.normpath(posixpath.join(posixpath.dirname(listing), h))
             for h in _HREF.findall((root / listing).read_text(encoding="utf-8"))}
    pages = sorted(h for h in hrefs if (root / h).is_file() and h != listing
                   and page_entries((root / h).read_text(encoding="utf-8")))
    return every_kth(pages)


def assemble(zoo: Path) -> list[dict]:
    members = []
    for library, listing in LIBRARIES.items():
        if not (ROOT / listing).is_file():
            print(f"{NAME}/{library}: {PACKAGES[0]} not installed, left out")
            continue
        members.append(zoo_member(zoo, NAME, library, PACKAGES[0], "check", ROOT, chosen_pages(listing), [listing],
                                  "golds/boostbook.json") | {"index_pages": [listing]})
    return members


def member_gold(member: dict) -> list[tuple[str, str, str, str]]:
    """(name, kind, page, anchor) of the gold on the member's pages."""
    pages = set(member["pages"])
    return [e for e in map(tuple, committed_gold(NAME)) if e[2] in pages]


def score(member: dict, db: sqlite3.Connection) -> dict:
    return score_gold(member_gold(member), set(member["pages"]), db)
