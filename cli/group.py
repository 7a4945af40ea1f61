"""The root command group: global options are accepted after the command too.

``crossbook books --index X`` reads like ``crossbook --index X books``: Click only knows the
group's options before the command name, so the group moves them there before parsing.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import typer
from rich.markup import escape
from typer.core import TyperArgument, TyperGroup

from crossbook.cli.coercion import quick_coercion


class GlobalOptionsGroup(TyperGroup):
    """A TyperGroup whose own options (``--index DIR``, ``--debug``...) may appear anywhere
    on the command line before a ``--``; ``--help`` stays with the command it follows.
    Its help reads like Click's: ``--force``, ``--book TEXT``, ``PATHS...``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        plain_help(self)

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)
        for param in params:  # typer adds --install-completion after __init__
            plain_param(param)
        return params

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


class PlainArgument(TyperArgument):
    """An argument shown as ``NAME`` (``[NAME]`` when optional) with no ``<type>``."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None

    def get_usage_pieces(self, ctx: Any) -> list[str]:
        return [self.metavar if self.required else f"[{self.metavar}]"]


def plain_help(command: Any) -> None:
    """Give every parameter of ``command`` and its subcommands a Click-style metavar:
    flags show none (not ``<bool>``), options their value kind (``TEXT``, ``INTEGER``,
    ``PATH``), arguments their name in capitals (``PATHS...``, not ``{paths}...``). Help
    text is plain text: brackets are escaped so rich shows ``[[books]]`` as written."""
    if getattr(command, "plain_help_done", False):
        return
    command.plain_help_done = True
    for attr in ("help", "short_help", "epilog"):
        if getattr(command, attr, None):
            setattr(command, attr, escape(getattr(command, attr)))
    for param in command.params:
        plain_param(param)
    command.get_help_option = _plain_help_option(command.get_help_option)
    for sub in getattr(command, "commands", {}).values():
        plain_help(sub)


def plain_param(param: Any) -> None:
    """One parameter's part of plain_help (once: escaping twice would show the backslashes)."""
    if getattr(param, "plain_help_done", False):
        return
    param.plain_help_done = True
    quick_coercion(param)
    if getattr(param, "help", None):
        param.help = escape(param.help)
    if param.param_type_name == "option":
        if param.is_flag or param.count:
            param.metavar = ""
        elif param.metavar is None:
            param.metavar = _value_kind(param)
    elif isinstance(param, TyperArgument):
        if param.metavar is None:
            param.metavar = param.name.upper() + ("..." if param.nargs != 1 else "")
        param.__class__ = PlainArgument


def _plain_help_option(make: Any) -> Any:
    """``--help`` is made per context, outside ``params``: drop its ``<bool>`` too."""

    def get_help_option(ctx: Any) -> Any:
        option = make(ctx)
        if option is not None:
            option.metavar = ""
            quick_coercion(option)
        return option

    return get_help_option


def examples(*lines: str) -> str:
    """A command's help epilog: its example command lines, one per line."""
    return "Examples:\n" + "\n".join(f"  {line}" for line in lines)


def _value_kind(option: Any) -> str:
    """TEXT, INTEGER, FLOAT or PATH for an option's value (typer's own types)."""
    described = option.type_descriptor
    if described.is_path:
        return "PATH"
    name = described.ranged_type_name if described.is_ranged else option.bare_type()
    name = name.removeprefix("list[").removesuffix("]")
    return {"str": "TEXT", "int": "INTEGER", "float": "FLOAT", "Path": "PATH"}.get(name, name.upper())


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
    """``args`` with the group's options (and their values) moved in front, in order, and
    a ``--json`` given before the command moved after it (every command has its own).

    An option already before the command name, anything after ``--``, and a value-taking
    option left without its value (Click then reports it) stay where they are."""
    options = _global_options(group)
    front: list[str] = []
    rest: list[str] = []
    late: list[str] = []
    seen_command = False
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            return front + rest + late + args[i:]
        if arg == "--json" and not seen_command:
            late.append(arg)
            i += 1
            continue
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
    return front + rest + late
