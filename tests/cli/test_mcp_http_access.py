"""Who ``crossbook mcp --http`` lets in, checked on its ASGI guard without a server: the
bearer token's scheme in any case (RFC 7235), the token compared whole, a token of blanks or
with a space inside refused when the server starts."""

from __future__ import annotations

import anyio
import pytest

from crossbook.api import BadInput

pytest.importorskip("mcp")


def _status(access, **headers) -> int:
    """The status the guard answers a request with these headers (200: passed to the app)."""
    from crossbook.cli.mcp_http import guard

    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})

    sent = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request"}

    scope = {"type": "http", "headers": [(k.encode(), v.encode()) for k, v in {"host": "127.0.0.1:8765", **headers}.items()]}
    anyio.run(guard(app, access), scope, receive, send)
    return sent[0]["status"]


def test_the_bearer_scheme_is_read_in_any_case_and_the_token_whole():
    from crossbook.cli.mcp_http import access_for

    access = access_for("127.0.0.1:8765", "s3cret", [])
    for header in ("Bearer s3cret", "bearer s3cret", "BEARER s3cret", " Bearer  s3cret "):
        assert _status(access, authorization=header) == 200, header
    for header in ("", "s3cret", "Bearer", "Bearer s3cre", "Bearer s3cret2", "Basic s3cret", "Bearers3cret"):
        assert _status(access, authorization=header) == 401, header


def test_a_token_of_blanks_or_with_a_space_inside_is_refused():
    from crossbook.cli.mcp_http import access_for

    for token in ("   ", "\t", "two words"):
        with pytest.raises(BadInput, match="one word of visible characters"):
            access_for("0.0.0.0:8765", token, [])
        with pytest.raises(BadInput, match="one word of visible characters"):
            access_for("127.0.0.1:8765", token, [])
    assert access_for("0.0.0.0:8765", " t0ken\n", []).token == "t0ken"  # as an env file may give it
    with pytest.raises(BadInput, match="needs a bearer token"):
        access_for("0.0.0.0:8765", "", [])
