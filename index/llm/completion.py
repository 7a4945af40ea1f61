"""One chat completion with retries: the loop the extractor (index/extract/openai_extractor.py) and the
relationship refiner (index/relations/openai_refiner.py) share.

429, 5xx and dropped connections are retried with exponential backoff that honours
``Retry-After``; a request that stalls past the client's timeout is retried at once (it has
waited already). An endpoint that never answered and refuses every connection stops the run
(``EndpointUnreachable``) after a few tries. An answer that is truncated, refused, empty or
that ``parse`` rejects is asked again, then asked again with the validation error, then given
up on (``GaveUp``). A refused request (4xx) is ``ExtractionFailed``.
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Callable, Iterator, TypeVar

import openai

from ..core.config import require_model_endpoint
from ..core.errors import ExtractionFailed, redact
from .answer import ParseError

RETRYABLE = (openai.RateLimitError, openai.InternalServerError, openai.APITimeoutError, openai.APIConnectionError)
MAX_BACKOFF = 60.0
# invalid answers per request: the first is asked again as is, the second with the error
INVALID_ANSWER_TRIES = 3
# tries of a request that cannot connect while the endpoint has not answered once in the
# run (a dead --base-url): the run gives up after a few seconds, not after every chunk's
# full backoff (which took 36-65 s and printed 150 warnings)
UNREACHABLE_TRIES = 3

T = TypeVar("T")


class EndpointUnreachable(ExtractionFailed):
    """The model endpoint refused every connection and never answered: the run stops."""


class GaveUp(Exception):
    """One request got no valid answer (the others go on); carries the calls it cost."""

    def __init__(self, reason: str, calls: int):
        super().__init__(reason)
        self.reason, self.calls = reason, calls


class SoloPool:
    """The pool of a caller that sends one request at a time (the refiner): no limit, and it
    remembers whether the endpoint ever answered."""

    def __init__(self) -> None:
        self.answered = False
        self.unreachable: Exception | None = None

    @contextmanager
    def slot(self) -> Iterator[None]:
        yield

    def succeeded(self) -> None:
        self.answered = True

    def rate_limited(self) -> None:
        """One request at a time already: nothing to slow down."""


def make_client(settings, what: str = "--extractor openai", instead: str = "use --extractor rules") -> "openai.OpenAI":
    """The OpenAI client for ``settings``; raises ConfigError when no key nor endpoint is set."""
    require_model_endpoint(settings, what, instead)
    return openai.OpenAI(
        api_key=settings.api_key or "not-needed",
        base_url=settings.base_url,
        max_retries=0,  # retries are ours: counted, and they honour Retry-After
        timeout=settings.request_timeout,
    )


def complete(
    ask: Callable[[list[dict]], object], messages: list[dict], parse: Callable[[str], T], *,
    max_retries: int, sleep: Callable[[float], None], where: str, endpoint: str, secret: str | None = None,
    parse_errors: tuple = (), pool=None, note_retry: Callable[[str, str], None] | None = None,
) -> tuple[str, T, int]:
    """Ask ``ask(messages)`` until an answer ``parse`` accepts: returns (content, parsed, calls).
    ``pool``: a request_pool.RequestPool shared by concurrent requests (a SoloPool when None);
    ``note_retry(reason, message)`` hears each retry. Raises GaveUp, EndpointUnreachable,
    ExtractionFailed."""
    pool = pool if pool is not None else SoloPool()
    calls = invalid = attempt = 0
    asked = messages
    while True:
        if pool.unreachable is not None:
            raise pool.unreachable
        try:
            calls += 1
            with pool.slot():
                response = ask(asked)
            pool.succeeded()
        except RETRYABLE as exc:
            wait = _retry_wait(exc, attempt, calls, pool, max_retries, endpoint)
            if note_retry is not None:
                seconds = f"{wait:.0f}" if wait >= 1 or not wait else f"{wait:.1f}"
                note_retry(retry_reason(exc), f"{where}: {retry_reason(exc)}; retrying in {seconds} s "
                                              f"(try {attempt + 2} of {max_retries + 1})")
            if wait:
                sleep(wait)
            attempt += 1
            continue
        except openai.APIStatusError as exc:
            raise ExtractionFailed(
                f"{where}: the model endpoint refused the request (HTTP {exc.status_code}: "
                f"{short(redact(str(exc.message), secret))}); check --model, --base-url and OPENAI_API_KEY"
            ) from None
        content = None
        try:
            content = answer_content(response)
            return content, parse(content), calls
        except (ParseError, *parse_errors) as exc:
            invalid += 1
            if invalid >= INVALID_ANSWER_TRIES:
                raise GaveUp(f"no valid answer in {invalid} tries ({exc})", calls) from None
            if invalid == INVALID_ANSWER_TRIES - 1:
                asked = messages + [
                    {"role": "assistant", "content": content or ""},
                    {"role": "user", "content": f"That answer is invalid: {exc}. Answer again with "
                                                "only a JSON object that matches the schema."},
                ]


def _retry_wait(exc: Exception, attempt: int, calls: int, pool, max_retries: int, endpoint: str) -> float:
    """Seconds to wait before retrying after ``exc``; raises when it is not retried again."""
    if isinstance(exc, openai.APIStatusError):
        pool.answered = True  # a 429 or a 5xx: the endpoint is there
    if isinstance(exc, openai.RateLimitError):
        pool.rate_limited()
    never_reached = cannot_connect(exc) and not pool.answered
    if never_reached and attempt + 1 >= min(UNREACHABLE_TRIES, max_retries + 1):
        pool.unreachable = pool.unreachable or EndpointUnreachable(
            f"cannot reach the model endpoint {endpoint} ({short(exc.__cause__ or exc, 80)});"
            " check --base-url and that the server is running")
        raise pool.unreachable
    if attempt >= max_retries:
        raise GaveUp(f"the model endpoint kept failing ({type(exc).__name__}) after {attempt + 1} tries", calls) from None
    # a stall has already waited the whole timeout: ask again at once
    if isinstance(exc, openai.APITimeoutError):
        return 0.0
    return backoff_seconds(attempt, retry_after_seconds(exc))


def retry_after_seconds(exc: Exception) -> float | None:
    """Seconds the server asked us to wait (Retry-After / retry-after-ms), if it said."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if not headers:
        return None
    if headers.get("retry-after-ms"):
        try:
            return float(headers["retry-after-ms"]) / 1000
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        try:
            when = parsedate_to_datetime(value)
            return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())
        except (TypeError, ValueError):
            return None


def backoff_seconds(attempt: int, retry_after: float | None) -> float:
    if retry_after is not None:
        return min(retry_after, MAX_BACKOFF)
    return min(MAX_BACKOFF, 0.5 * 2**attempt) * (0.5 + random.random() / 2)


def retry_reason(exc: Exception) -> str:
    if isinstance(exc, openai.RateLimitError):
        return "rate limited (429)"
    if isinstance(exc, openai.APITimeoutError):
        return "the request stalled past the timeout"
    if isinstance(exc, openai.APIConnectionError):
        return "the endpoint could not be reached"
    status = getattr(exc, "status_code", None)
    return f"the endpoint failed (HTTP {status})" if status else f"the endpoint failed ({type(exc).__name__})"


def cannot_connect(exc: Exception) -> bool:
    """A connection that could not be opened (refused, no route, DNS): not one the server
    dropped after taking the request, nor one that stalled past the timeout."""
    if not isinstance(exc, openai.APIConnectionError) or isinstance(exc, openai.APITimeoutError):
        return False
    # httpx's and httpx2's ConnectError (the client's own exception is the cause)
    return any(cls.__name__ == "ConnectError" for cls in type(exc.__cause__).__mro__)


def answer_content(response) -> str:
    """The text of a chat completion that finished normally; raises ParseError for no choice,
    a refusal, a truncated or an empty answer."""
    choice = response.choices[0] if response.choices else None
    if choice is None:
        raise ParseError("the answer has no choices")
    refusal = getattr(choice.message, "refusal", None)
    if refusal:
        raise ParseError(f"the model refused ({short(refusal, 80)})")
    if choice.finish_reason not in ("stop", None):
        raise ParseError(f"answer truncated (finish_reason={choice.finish_reason})")
    if not choice.message.content:
        raise ParseError("empty answer")
    return choice.message.content


def short(text: str, limit: int = 160) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
