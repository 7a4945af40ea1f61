"""crossbook's command line: a thin Typer layer over the ``index`` library."""
