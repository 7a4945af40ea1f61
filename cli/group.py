"""The root command group: global options are accepted after the command too.

``crossbook books --index X`` reads like ``crossbook --index X books``: Click only knows the
group's options before the command name, so the group moves them there before parsing.
"""

from __future__ import annotations

from typing import Any

from typer.core import TyperGroup


class GlobalOptionsGroup(TyperGroup):
    """A TyperGroup whose own options (``--index DIR``, ``--debug``...) may appear anywhere
    on the command line before a ``--``; ``--help`` stays with the command it follows."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        return super().parse_args(ctx, hoist_global_options(self, args))


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
