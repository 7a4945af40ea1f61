"""The MCP server's errors in one sentence an assistant can act on: a malformed call names
the argument and what it must be (not pydantic's dump with its links); a library error
names the tool's arguments, not the CLI's flags."""

from __future__ import annotations

import inspect
import re
from typing import Any, Callable

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import ValidationError

from crossbook.api import CrossbookError

# the CLI's flags (in the library's messages) -> the tools' argument names
FLAG_ARGUMENTS = {
    "--exclude-book": "exclude_books", "--book": "books", "--type": "entity_type", "--defines-only": "defines_only",
    "--limit": "limit", "-n": "limit", "-k": "k", "--hops": "hops", "--page N": "page=N", "--page": "page",
}
_FLAG = re.compile(r"(?<![\w-])(" + "|".join(re.escape(f) for f in sorted(FLAG_ARGUMENTS, key=len, reverse=True))
                   + r")(?![\w-])")
# "see: crossbook books", "crossbook where-else": the CLI's read commands are tools here
_COMMAND = re.compile(r"\bcrossbook (books|where-else|entity|search|retrieve|show)\b")


def neutral(message: str) -> str:
    """A library message with the CLI's flags and read commands named as the tools' arguments
    and tools; a command only the index's keeper can run is said to be theirs."""
    message = _COMMAND.sub(lambda m: f"the {m.group(1).replace('-', '_')} tool", message)
    message = message.replace("run: crossbook ", "whoever keeps the index can run: crossbook ")
    keeper = message.find("whoever keeps the index")
    if keeper >= 0:  # the keeper's command is theirs to type as it is
        return _FLAG.sub(lambda m: FLAG_ARGUMENTS[m.group(1)], message[:keeper].replace(" --json", "")) \
            + message[keeper:]
    message = message.replace(" --json", "")
    return _FLAG.sub(lambda m: FLAG_ARGUMENTS[m.group(1)], message)


def tool_message(exc: CrossbookError) -> str:
    """A library error as a tool error's text: its code, then its message."""
    return f"{exc.code}: {neutral(str(exc))}"


def _what_it_must_be(error: dict[str, Any]) -> str:
    kind, ctx = error["type"], error.get("ctx") or {}
    rules = {
        "missing": "is required",
        "less_than_equal": f"must be at most {ctx.get('le')}",
        "greater_than_equal": f"must be at least {ctx.get('ge')}",
        "too_short": f"needs at least {ctx.get('min_length')} item(s)",
        "string_type": "must be a string",
        "int_type": "must be a whole number", "int_parsing": "must be a whole number",
        "int_from_float": "must be a whole number",
        "bool_type": "must be true or false", "bool_parsing": "must be true or false",
        "list_type": "must be a list of strings",
    }
    return rules.get(kind) or error["msg"][:1].lower() + error["msg"][1:]


def argument_error(tool: str, exc: ValidationError) -> str:
    """One sentence for a call whose arguments do not fit the tool's schema."""
    errors = exc.errors(include_url=False)
    first = errors[0]
    name = ".".join(str(part) for part in first["loc"]) or "the arguments"
    got = "" if first["type"] == "missing" else f" (got {first.get('input')!r:.40})"
    more = f"; {len(errors) - 1} more argument(s) are wrong too" if len(errors) > 1 else ""
    return f"Error executing tool {tool}: {name} {_what_it_must_be(first)}{got}{more}."


class CrossbookServer(MCPServer):
    """The SDK's MCPServer whose malformed calls (a bad value, an argument the tool does not
    take) are refused in one sentence."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.crossbook_arguments: dict[str, list[str]] = {}

    async def serve_streams(self, read_stream: Any, write_stream: Any) -> None:
        """Serve one session over a transport's streams (cli/mcp_runtime.py's stdio)."""
        server = self._lowlevel_server
        await server.run(read_stream, write_stream, server.create_initialization_options())

    def add_tool(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        super().add_tool(fn, *args, **kwargs)
        self.crossbook_arguments[kwargs.get("name") or fn.__name__] = list(inspect.signature(fn).parameters)

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        known = self.crossbook_arguments.get(name)
        unknown = sorted(set(arguments) - set(known)) if known is not None else []
        if unknown:
            takes = ", ".join(known) or "no arguments"
            raise ToolError(f"Error executing tool {name}: it takes no argument {unknown[0]!r} (it takes: {takes}).")
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                raise ToolError(argument_error(name, exc.__cause__)) from exc.__cause__
            raise
