"""Option and argument values converted without pydantic, for the types crossbook uses.

typer 0.29 converts every parameter's value with a pydantic TypeAdapter built when the
command line is parsed: importing pydantic and building the adapters costs about 0.1 s of
CPU per run, more than crossbook's own work in ``where-else``. :class:`QuickCoercion`
converts the plain cases itself (a ``str``; a decimal ``int`` or ``float`` inside its
``min``/``max``; a ``Path`` without path checks; lists of those; a missing value) and hands
anything else to typer's adapter, so a value typer would reject is rejected by typer, with
its own message.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Callable, get_args, get_origin

_INT = re.compile(r"[0-9]+")
_FLOAT = re.compile(r"[0-9]+(?:\.[0-9]+)?")
_NOT_QUICK = object()
# a Path parameter with these ParameterInfo values needs no check beyond "readable if it exists"
_PLAIN_PATH = {"exists": False, "file_okay": True, "dir_okay": True, "writable": False, "readable": True,
               "resolve_path": False, "allow_dash": False, "path_type": None}


def quick_coercion(param: Any) -> None:
    """Have typer's ``param`` convert its values with a QuickCoercion."""
    quick = QuickCoercion(param.get_runtime_param)
    param.get_runtime_param = lambda: quick


class QuickCoercion:
    """What typer's ``get_runtime_param()`` returns, for one parameter: ``coerce`` converts
    the plain cases and asks typer's own (built on first need) for the rest."""

    def __init__(self, typer_runtime: Callable[[], Any]):
        self.typer_runtime = typer_runtime

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        multiple = param.multiple or param.nargs == -1
        if value is None:
            return () if multiple else None
        if not (multiple and isinstance(value, str)):
            descriptor = param.type_descriptor
            quick = _quick(descriptor.annotation, descriptor.parameter_info, value)
            if quick is not _NOT_QUICK:
                return quick
        return self.typer_runtime().coerce(value, param=param, ctx=ctx)


def _quick(annotation: Any, info: Any, value: Any) -> Any:
    """``value`` converted as typer would convert it, or _NOT_QUICK."""
    if info.parser is not None:
        return _NOT_QUICK
    if get_origin(annotation) is list:
        if not isinstance(value, (list, tuple)):
            return _NOT_QUICK
        (item_type,) = get_args(annotation)
        items = [_quick(item_type, info, item) for item in value]
        return _NOT_QUICK if any(item is _NOT_QUICK for item in items) else items
    if not isinstance(value, str):
        return _NOT_QUICK
    if annotation is str:
        return value
    if annotation in (int, float):
        pattern = _INT if annotation is int else _FLOAT
        if info.clamp or not pattern.fullmatch(value):
            return _NOT_QUICK
        number = annotation(value)
        if (info.min is not None and number < info.min) or (info.max is not None and number > info.max):
            return _NOT_QUICK  # typer's message says which bound
        return number
    if annotation is Path and all(getattr(info, k) == v for k, v in _PLAIN_PATH.items()):
        path = Path(value)
        if os.path.exists(path) and not os.access(path, os.R_OK):
            return _NOT_QUICK  # typer's "is not readable"
        return path
    return _NOT_QUICK
