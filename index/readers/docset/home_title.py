"""A doc set's title: its home page's ``<title>`` as a reader would say the set's name.

The home page is the folder's own index page, else its shallowest page when that page
documents no thing of its own (a command's page, "afmtodit(1)", names one command, not the
set). Its title's parts (a site joins its name to a page's: "Index | Acme v2.1
Documentation") give the name: the part the set's pages repeat (the site's name) first, then
the home page's own parts, then the parts the other pages repeat; each less its version
numbers and the documentation pack's ``home_title_words`` ("documentation", "welcome
to"...). None when nothing is left: the folder's name titles the set then.
"""

from __future__ import annotations

import re

from ...core.packs import genre_words
from .boilerplate import title_parts

# a version number: "3.11.4", "v18.20.4", "-0.6.4.1", "2.0rc1" (joined to a name by a hyphen or a space)
_VERSION = re.compile(r"(?:^|(?<=[\s(])|-)[vV]?\d+(?:\.\d+)+(?:[-.]?(?:rc|a|b|alpha|beta|dev|post)\d*)?(?=[\s,:;)]|$)"
                      r"|(?:^|(?<=\s))[vV]\d+(?=[\s,:;)]|$)")
_EDGES = " \t-\u2014\u2013|:,;.!\u00b7\u00bb\u203a"


def cleaned_title(text: str) -> str:
    """A title part less its version numbers and the pack's words that say it is
    documentation ("Acme v2.1 Documentation" -> "Acme"); "" when nothing else is left."""
    words = sorted(genre_words("documentation", "home_title_words"), key=len, reverse=True)
    text = _VERSION.sub(" ", text)
    if words:
        pattern = r"(?<!\w)(?:" + "|".join(re.escape(w) for w in words) + r")(?!\w)"
        text = re.sub(pattern, " ", text, flags=re.IGNORECASE)
    text = " ".join(text.split())
    text = re.sub(r"\s+([!?.,:;])", r"\1", text).strip(_EDGES)
    text = re.sub(r"['\u2019]s$", "", text)  # "Welcome to Acme's documentation!": "Acme"
    return text if re.search(r"[^\W\d_]", text) else ""


def home_title(title: str, site: frozenset[str]) -> str | None:
    """The set's name from its home page's ``title`` and the parts of the pages' titles most
    of them repeat (``site``), cleaned (``cleaned_title``); None when none is left."""
    own = title_parts(title)
    ordered = [p for p in own if p in site] + own + sorted(site)
    return next((found for found in map(cleaned_title, ordered) if found), None)
