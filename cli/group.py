"""The root command group: global options are accepted after the command too.

``crossbook books --index X`` reads like ``crossbook --index X books``: Click only knows the
group's options before the command name, so the group moves them there before parsing.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import typer
from typer.core import TyperGroup


class GlobalOptionsGroup(TyperGroup):
    """A TyperGroup whose own options (``--index DIR``, ``--debug``...) may appear anywhere
    on the command line before a ``--``; ``--help`` stays with the command it follows."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        return super().parse_args(ctx, hoist_global_options(self, args))

    def main(self, args: list[str] | None = None, *pos: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        """Click's main, with usage errors as plain Click prints them (``Error: ...`` on one
        line, exit 2) instead of a boxed panel; under ``--json`` they are also a JSON
        document on stdout, ``{"error": {"code": "usage", "message": ...}}``."""
        args = list(sys.argv[1:] if args is None else args)
        if not standalone_mode:
            return super().main(args, *pos, standalone_mode=False, **kwargs)
        as_json = "--json" in _before_double_dash(args)
        try:
            returned = super().main(args, *pos, standalone_mode=False, **kwargs)
        except typer.TyperException as exc:  # Click's usage errors derive from it
            if as_json:
                _print_json_error("usage", exc.format_message())
            exc.show()
            sys.exit(exc.exit_code)
        except typer.Abort:
            if as_json:
                _print_json_error("aborted", "aborted")
            sys.stderr.write("Aborted!\n")
            sys.exit(1)
        sys.exit(returned if isinstance(returned, int) else 0)


def _print_json_error(code: str, message: str) -> None:
    sys.stdout.write(json.dumps({"error": {"code": code, "message": message}}, ensure_ascii=False, indent=2) + "\n")


def _before_double_dash(args: list[str]) -> list[str]:
    return args[: args.index("--")] if "--" in args else args


def _global_options(group: Any) -> dict[str, bool]:
    """Each option name of ``group`` -> whether it takes a value."""
    names: dict[str, bool] = {}
    for param in group.params:
        if param.param_type_name == "option":  # typer vendors its own click: no isinstance
            for name in (*param.opts, *param.secondary_opts):
                if name != "--help":
                    names[name] = not (param.is_flag or param.count)
    return names


def hoist_global_options(group: Any, args: list[str]) -> list[str]:
    """``args`` with the group's options (and their values) moved in front, in order.

    An option already before the command name, anything after ``--``, and a value-taking
    option left without its value (Click then reports it) stay where they are."""
    options = _global_options(group)
    front: list[str] = []
    rest: list[str] = []
    seen_command = False
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            rest.extend(args[i:])
            break
        name = arg.split("=", 1)[0] if arg.startswith("--") else arg
        if name in options:
            takes_value = options[name] and "=" not in arg
            if takes_value and i + 1 >= len(args):
                rest.append(arg)
                break
            target = rest if not seen_command else front
            target.append(arg)
            if takes_value:
                target.append(args[i + 1])
                i += 1
        else:
            if not arg.startswith("-"):
                seen_command = True
            rest.append(arg)
        i += 1
    return front + rest
