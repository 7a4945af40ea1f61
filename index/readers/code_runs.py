"""Code runs that touch are one run. Pure.

A signature set in several code elements (Sphinx's ``<code class="sig-prename">Basket.</code>
<code class="sig-name">tally</code>``) is converted run by run to "`Basket.``tally`", which
shows neither ``Basket.tally`` nor its parts as the page reads them: the runs are joined
("`Basket.tally`"). Runs with anything between them, a space included, stay apart.
"""

from __future__ import annotations

import re

_TOUCHING = re.compile(r"(?<!`)`([^`\s][^`\n]*)``(?=[^`\s])")


def joined_code_runs(markdown: str) -> str:
    """``markdown`` with each pair of touching single-backtick code runs made one."""
    previous = None
    while previous != markdown:
        previous, markdown = markdown, _TOUCHING.sub(r"`\1", markdown)
    return markdown
