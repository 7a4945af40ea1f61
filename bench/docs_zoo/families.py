"""The zoo's families, their projects, where Debian installs them and which half each is in.

The fixed split rule (bench/docs_zoo/README.md): a family of several projects is split by
project, the first half of its list (the order the packages are named in) tuned on, the rest
only checked; a family of one project (man pages) or of many small ones (LaTeX manuals) is
split by member: sorted by name, even positions tuned on, odd ones checked.
"""

from __future__ import annotations

from pathlib import Path

DEFAULT_ZOO = Path("/work/zoo")
PAGES_PER_PROJECT = 30      # HTML pages per project (every k-th of the pages its inventory points at)
MAN_PAGES = 40              # man pages per renderer (every k-th installed section-1 page)
LATEX_MANUALS = 48          # LaTeX manuals with a back index (every k-th that qualifies)
LATEX_MAX_PAGES = 90        # a manual longer than this is left out (the eval's time)

DOC = Path("/usr/share/doc")
GTKDOC = Path("/usr/share/gtk-doc/html")

# family -> [(project, package, installed folder, half)]
SPHINX = [
    ("python", "python3.11-doc", DOC / "python3.11" / "html", "tune"),
    ("sphinx", "sphinx-doc", DOC / "sphinx-doc" / "html", "tune"),
    ("flask", "python-flask-doc", DOC / "python-flask-doc" / "html", "tune"),
    ("click", "python-click-doc", DOC / "python-click-doc" / "html", "check"),
    ("pytest", "python-pytest-doc", DOC / "python-pytest-doc" / "html", "check"),
    ("requests", "python-requests-doc", DOC / "python-requests-doc" / "html", "check"),
]
GTK = [
    ("glib", "libglib2.0-doc", GTKDOC / "glib", "tune"),
    ("gio", "libglib2.0-doc", GTKDOC / "gio", "tune"),
    ("gobject", "libglib2.0-doc", GTKDOC / "gobject", "tune"),
    ("gtk3", "libgtk-3-doc", GTKDOC / "gtk3", "check"),
    ("gdk3", "libgtk-3-doc", GTKDOC / "gdk3", "check"),
    ("cairo", "libcairo2-doc", GTKDOC / "cairo", "check"),
]
LATEX_PACKAGES = ("texlive-latex-extra-doc", "texlive-pictures-doc")
# the seven manuals the documentation shelf was developed on (bench/eval_docs.py): tuned on
LATEX_KNOWN = ("xcolor/xcolor.pdf", "microtype/microtype.pdf", "caption/caption.pdf", "etoolbox/etoolbox.pdf",
               "mathtools/mathtools.pdf", "listings/listings.pdf", "fancyvrb/fancyvrb-doc.pdf")
LATEX_DIR = DOC / "texlive-doc" / "latex"
MAN1 = Path("/usr/share/man/man1")
# the man renderers (name, command reading roff on stdin); the pages are chosen by the first two
MAN_RENDERERS = (
    ("pandoc", ["pandoc", "-f", "man", "-t", "html"]),
    ("groff", ["groff", "-man", "-Thtml"]),
    ("mandoc", ["mandoc", "-Thtml", "-Oman=%N.html"]),
    ("man2html", ["man2html", "-r"]),
)


# the families in their own modules (family_*.py: NAME, PACKAGES, assemble(zoo), score(member, db),
# and bare_copy(folder, target) or INVENTORY_FILES, the patterns of the inventory left out), one a line
FAMILY_MODULES = (
    "family_javadoc",
    "family_doxygen",
    "family_texinfo",
    "family_rustdoc",
    "family_mdbook",
    "family_rdoc",
    "family_mkdocs",
    "family_haddock",
    "family_vimhelp",
    "family_nodejs",
    "family_scaladoc",
    "family_boostbook",
    "family_scribble",
)

APT_PACKAGES = sorted({p for _, p, _, _ in SPHINX + GTK} | set(LATEX_PACKAGES)
                      | {"texlive-latex-recommended-doc", "pandoc", "groff", "mandoc", "man2html-base", "doclifter", "docbook-xsl-ns", "xsltproc",
                         "poppler-utils", "lmodern"})


def half_by_position(names: list[str]) -> dict[str, str]:
    """Sorted by name, even positions tuned on, odd ones checked."""
    return {name: ("tune" if i % 2 == 0 else "check") for i, name in enumerate(sorted(names))}
