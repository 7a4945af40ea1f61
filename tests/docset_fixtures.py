"""Synthetic doc sets for the conventions tests: a generator crossbook knows nothing of.

The navigation words ("Voriges", "Hoch", "Heimat", "Weiter"), the site's name ("Quux
Handbuch") and the class names (``zq-kopf``, ``zq-fuss``) are invented, so a rule that
finds them must find them by their repetition, not by a list.
"""

from __future__ import annotations

from pathlib import Path

COMMANDS = {
    "frob-add": ("add a widget to the frobnicator", "name", "if-missing"),
    "frob-remove": ("remove a widget", "name", "force"),
    "frob-list": ("list the widgets", "format", "sort-key"),
    "frob-rename": ("rename a widget", "name", "to"),
    "frob-export": ("export the widgets", "format", "target"),
}
SITE = "Quux Handbuch"


def _nav(kind: str, prev: str, nxt: str) -> str:
    if kind == "kopf":
        return (f'<div class="zq-kopf"><table width="100%"><tr><th colspan="3">{SITE}</th></tr>'
                f'<tr><td><a accesskey="p" href="{prev}.html">Voriges</a></td><td></td>'
                f'<td><a accesskey="n" href="{nxt}.html">Weiter</a></td></tr></table><hr></div>')
    return (f'<div class="zq-fuss"><hr><table width="100%"><tr><td><a href="{prev}.html">Voriges</a></td>'
            f'<td><a href="index.html">Hoch</a></td><td><a href="{nxt}.html">Weiter</a></td></tr>'
            f'<tr><td>{prev} </td><td><a href="index.html">Heimat</a></td><td> {nxt}</td></tr></table></div>')


def command_page(command: str, prev: str, nxt: str, generator: bool = True, site_header: bool = True) -> str:
    summary, first, second = COMMANDS[command]
    others = [c for c in COMMANDS if c != command]
    see = others[0]
    meta = '<meta name="generator" content="Zeta DocGen 2.0">' if generator else ""
    header = f'<h1 class="zq-site"><a href="index.html">{SITE}</a></h1>' if site_header else ""
    spaced = command.replace("-", " ")
    return f"""<html><head><title>{command} — {SITE}</title>{meta}</head><body>
{_nav("kopf", prev, nxt)}{header}
<div class="zq-ref"><h2>Name</h2><p>{command} — {summary}</p>
<h2>Synopsis</h2><pre>{spaced} [--verbose] &lt;{first}&gt; [&lt;{second}&gt;]</pre>
<h2>Description</h2><p>The <code>{spaced}</code> command acts on the frobnicator.
See <a href="{see}.html"><span class="command"><strong>{see}</strong></span>(1)</a> for more.</p>
<h2>Options</h2><dl><dt><span class="term"><code>--verbose</code></span></dt><dd><p>Say more.</p></dd>
<dt><span class="term"><em>{first}</em></span></dt><dd><p>The {first} the command acts on.</p></dd>
<dt><span class="term"><em>{second}</em></span></dt><dd><p>The {second}, when given.</p></dd></dl>
</div>
{_nav("fuss", prev, nxt)}
<p class="zq-copy">Copyright 2026 the Quux authors.</p>
</body></html>"""


def index_page(generator: bool = True) -> str:
    items = "".join(f'<li><a href="{c}.html">{c}</a> — {s}</li>' for c, (s, _, _) in COMMANDS.items())
    meta = '<meta name="generator" content="Zeta DocGen 2.0">' if generator else ""
    return f"""<html><head><title>{SITE}</title>{meta}</head><body>
<h1 class="zq-site"><a href="index.html">{SITE}</a></h1>
<div class="zq-toc"><h2>Table of Contents</h2><ul>{items}</ul></div>
<p class="zq-copy">Copyright 2026 the Quux authors.</p></body></html>"""


def write_docset(root: Path, generator: bool = True, site_header: bool = True) -> Path:
    """A folder of pages as a documentation generator writes them (no marker file)."""
    root.mkdir(parents=True, exist_ok=True)
    names = list(COMMANDS)
    (root / "index.html").write_text(index_page(generator), encoding="utf-8")
    for i, command in enumerate(names):
        prev = names[i - 1] if i else "index"
        nxt = names[i + 1] if i + 1 < len(names) else "index"
        page = command_page(command, prev, nxt, generator, site_header)
        (root / f"{command}.html").write_text(page, encoding="utf-8")
    return root
