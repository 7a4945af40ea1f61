"""``crossbook mcp --http HOST:PORT``: the same tools over the SDK's streamable HTTP
transport, so a team shares one index.

Loopback (127.0.0.1, ::1, localhost) by default; any other address needs a bearer token,
which every request then carries (``Authorization: Bearer TOKEN``). The Host of a loopback
server must be a loopback name (DNS rebinding), and a request from a browser page must come
from an allowed Origin (a loopback page for a loopback server, else only those given). The
writing tools come only with the folders ingest may read, and ``delete_book`` over HTTP only
with a second flag.
"""

from __future__ import annotations

import hmac
import ipaddress
import socket
from dataclasses import dataclass, field
from typing import Any, Callable
from urllib.parse import urlsplit

from crossbook.api import BadInput

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
PATH = "/mcp"


@dataclass
class HttpAccess:
    """Who may call a server listening on ``host``: the bearer ``token`` (None: no token
    asked) and the browser ``origins`` allowed beside the loopback ones."""
    host: str
    port: int
    token: str | None = None
    origins: list[str] = field(default_factory=list)

    @property
    def loopback(self) -> bool:
        return is_loopback(self.host)

    def url(self, port: int | None = None) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{port if port is not None else self.port}{PATH}"


def is_loopback(host: str) -> bool:
    if host.casefold() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def parse_address(address: str) -> tuple[str, int]:
    """``HOST:PORT``, ``:PORT`` or ``PORT`` (loopback), ``[::1]:PORT``. Raises BadInput."""
    text = address.strip()
    host, _, port = text.rpartition(":") if ":" in text else ("", "", text)
    host = host.strip("[]") or "127.0.0.1"
    if not port.isdigit() or int(port) > 65535:
        raise BadInput(f"--http takes HOST:PORT, :PORT or PORT (got '{address}')")
    return host, int(port)


def access_for(address: str, token: str | None, origins: list[str]) -> HttpAccess:
    """The access rules for serving on ``address``. Raises BadInput when a non-loopback
    address comes without a token, or for a token of blanks or with a space inside (no header
    could carry it as one token)."""
    host, port = parse_address(address)
    if token:
        token = token.strip()
        if not token or len(token.split()) > 1:
            raise BadInput("--token (CROSSBOOK_MCP_TOKEN) must be one word of visible characters, not blanks"
                           " and with no space inside: a client sends it as Authorization: Bearer TOKEN")
    access = HttpAccess(host, port, token or None, [o.rstrip("/") for o in origins])
    if not access.loopback and not access.token:
        raise BadInput(f"serving on {host} (not loopback) needs a bearer token: give --token TOKEN"
                       " (or CROSSBOOK_MCP_TOKEN), which each client then sends")
    return access


def _origin_allowed(origin: str, access: HttpAccess) -> bool:
    if origin.rstrip("/") in access.origins:
        return True
    host = urlsplit(origin).hostname or ""
    return access.loopback and is_loopback(host)


def _host_allowed(host_header: str, access: HttpAccess) -> bool:
    if not access.loopback:
        return True  # the token guards a shared server; its name is the network's business
    host = urlsplit(f"//{host_header}").hostname or ""
    return is_loopback(host)


def bearer_token(authorization: str) -> str | None:
    """The token of an ``Authorization`` header's Bearer credentials, the scheme in any case
    (RFC 7235: ``bearer`` and ``BEARER`` are ``Bearer``); None for another scheme or none."""
    scheme, _, credentials = authorization.strip().partition(" ")
    return credentials.strip() if scheme.casefold() == "bearer" else None


def _token_matches(authorization: str, token: str) -> bool:
    sent = bearer_token(authorization)
    return sent is not None and hmac.compare_digest(sent.encode(), token.encode())


def guard(app: Callable, access: HttpAccess) -> Callable:
    """``app`` behind the access rules: 421 for a loopback server reached by another name,
    403 for a browser page from an origin not allowed, 401 without the bearer token."""

    async def guarded(scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            return await app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        refusal = None
        if not _host_allowed(headers.get("host", ""), access):
            refusal = (421, "this server answers on a loopback name only (127.0.0.1, localhost, [::1])", {})
        elif headers.get("origin") and not _origin_allowed(headers["origin"], access):
            refusal = (403, f"origin {headers['origin']} is not allowed (the server's --allow-origin)", {})
        elif access.token and not _token_matches(headers.get("authorization", ""), access.token):
            refusal = (401, "this server needs its bearer token: Authorization: Bearer TOKEN",
                       {"www-authenticate": 'Bearer realm="crossbook"'})
        if refusal is None:
            return await app(scope, receive, send)
        status, message, extra = refusal
        body = message.encode()
        await send({"type": "http.response.start", "status": status, "headers": [
            (b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode()),
            *((k.encode(), v.encode()) for k, v in extra.items())]})
        await send({"type": "http.response.body", "body": body})

    return guarded


def http_app(server: Any, access: HttpAccess) -> Callable:
    """The ASGI app: the MCPServer's streamable HTTP app (its session manager runs in the
    app's lifespan) behind ``guard``."""
    from mcp.server.transport_security import TransportSecuritySettings

    # the SDK's own Host/Origin check would refuse a shared server's real name; guard() does it
    security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    return guard(server.streamable_http_app(streamable_http_path=PATH, transport_security=security,
                                            host=access.host), access)


def without_delete(server: Any) -> None:
    """Leave ``delete_book`` out: over HTTP it needs a flag of its own."""
    if "delete_book" in getattr(server, "crossbook_arguments", {}):
        server.remove_tool("delete_book")
        del server.crossbook_arguments["delete_book"]


def listen(access: HttpAccess) -> socket.socket:
    """The listening socket (port 0: one the system picks)."""
    family = socket.AF_INET6 if ":" in access.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((access.host, access.port))
    except OSError as exc:
        sock.close()
        raise BadInput(f"cannot listen on {access.host}:{access.port}: {exc.strerror}") from None
    sock.listen(128)
    return sock


def serve_http(server: Any, access: HttpAccess, announce: Callable[[str], None]) -> None:
    """Serve ``server`` over HTTP until interrupted; ``announce`` hears the URL once listening."""
    import uvicorn

    sock = listen(access)
    config = uvicorn.Config(http_app(server, access), log_level="warning", lifespan="on")
    announce(access.url(sock.getsockname()[1]))
    uvicorn.Server(config).run(sockets=[sock])


def serve_shared(shelf: Any, address: str, *, token: str | None, origins: list[str], allow_ingest: Any,
                 allow_delete: bool) -> None:
    """``crossbook mcp --http``: the access rules checked first (a bad address or a missing
    token is one line, before anything listens), then the tools served until interrupted."""
    import sys

    from crossbook.cli.mcp_runtime import start
    from crossbook.cli.mcp_server import build_server

    access = access_for(address, token, origins)
    if allow_delete and not allow_ingest:
        raise BadInput("--allow-delete goes with --allow-ingest (the writing tools)")
    server = build_server(shelf, allow_ingest=allow_ingest)
    if not allow_delete:
        without_delete(server)
    # uvicorn ends gracefully on SIGTERM, puts the handler it found back and raises the signal
    # again: the handler start() installs then removes the vector store's temporary copies
    start()
    serve_http(server, access, lambda url: print(f"crossbook MCP server on {url}", file=sys.stderr, flush=True))
