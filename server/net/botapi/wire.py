"""The Bot API's HTTP plumbing: lichess's error bodies, request bodies, and ndjson streams.

An answer is a :class:`~server.net.transport.http_types.Response`, or a
:class:`~server.net.transport.http_types.Stream` (one JSON object a line, a bare newline every
``KEEPALIVE`` seconds), which the server's HTTP connection serves
(``server/net/transport/http11.py``: its bounds, and the access log). A stream's source looks every
:data:`POLL` seconds whether it should end (:func:`ticks`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs

from ..services.accounts import respond
from ..transport.http_types import Request, Response, Source, Stream, answer

#: how often a stream looks whether the server is closing
POLL = 0.5


class BotApiError(Exception):
    """A refused request: its status and lichess's body ``{"error": message}``
    (``retry_after``: whole seconds, sent as ``Retry-After``; ``headers``: more to send)."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        retry_after: int | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after
        self.headers = headers or {}


def stream(source: Source, on_close: Callable[[], Awaitable[None]] | None = None) -> Stream:
    return Stream(source, on_close)


def json_response(status: int, data: Any) -> Response:
    """A JSON answer with the headers of every JSON answer of ours (:func:`..accounts.respond`)."""
    return respond(status, data)


def content_response(status: int, body: bytes, kind: str) -> Response:
    """An answer of another type (PGN, ndjson) with the headers of every answer of ours."""
    return answer(status, body, kind)


def error_response(exc: BotApiError) -> Response:
    response = json_response(exc.status, {"error": exc.message})
    if exc.retry_after is not None:
        response.headers.append(("Retry-After", str(exc.retry_after)))
    response.headers.extend(exc.headers.items())
    return response


def base_url(request: Request) -> str:
    """This server's address as the client named it, for the absolute ``url`` fields
    lichess sends: ``http://`` and the request's ``Host`` (checked against the allowed
    hosts before any route runs), ``https://`` behind a proxy that says
    ``X-Forwarded-Proto: https``; it ends with ``/``."""
    scheme = "https" if request.headers.get("X-Forwarded-Proto") == "https" else "http"
    return f"{scheme}://{request.headers.get('Host', 'localhost')}/"


def form(request: Request) -> dict[str, str]:
    """A POST's fields: a JSON object (berserk) or ``application/x-www-form-urlencoded``
    (lichess-bot, curl), plus the query string; null JSON values are left out."""
    body = request.body
    fields: dict[str, str] = {}
    sources = [request.query]
    if body:
        kind = request.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if kind == "application/json":
            try:
                data = json.loads(body)
            except (ValueError, UnicodeDecodeError):
                raise BotApiError(400, "the body is not valid JSON") from None
            if not isinstance(data, dict):
                raise BotApiError(400, "the body must be a JSON object")
            for key, value in data.items():
                if value is None:
                    continue
                if isinstance(value, bool):
                    value = "true" if value else "false"
                if not isinstance(value, str | int | float):
                    raise BotApiError(400, f"{key}: must be a string or a number")
                fields[str(key)] = str(value)
        else:
            try:
                sources.append(body.decode())
            except UnicodeDecodeError:
                raise BotApiError(400, "the body is not UTF-8") from None
    for text in sources:
        try:
            parsed = parse_qs(text, keep_blank_values=True, strict_parsing=False)
        except ValueError:
            raise BotApiError(400, "the form could not be read") from None
        for key, values in parsed.items():
            fields[key] = values[-1]
    return fields


async def ticks(wake: asyncio.Event, alive: Callable[[], bool]) -> AsyncIterator[None]:
    """Yield whenever ``wake`` is set, and every :data:`POLL` seconds, while ``alive()``."""
    while alive():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), POLL)
        wake.clear()
        yield None
