"""The HTTP types of the server's port: a :class:`Request`, its :class:`Response` or
:class:`Stream`, and the lines of the access log (``server/net/transport/http11.py`` serves them).
"""

from __future__ import annotations

import http
import json
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

#: characters of a path the access log keeps
ACCESS_PATH = 200

#: a stream's source: yields dicts (a line each) or None (nothing new: a keep-alive is due)
Source = Callable[[], AsyncGenerator[dict[str, Any] | None]]


class Headers:
    """A request's headers: names compared case-insensitively, values as sent."""

    __slots__ = ("items",)

    def __init__(self, items: Sequence[tuple[str, str]] = ()) -> None:
        self.items = [(name.lower(), value) for name, value in items]

    def get(self, name: str, default: Any = None) -> Any:
        """The first value of ``name``, else ``default``."""
        name = name.lower()
        for key, value in self.items:
            if key == name:
                return value
        return default

    def get_all(self, name: str) -> list[str]:
        name = name.lower()
        return [value for key, value in self.items if key == name]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.get(name) is not None

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(self.items)


@dataclass(eq=False, slots=True)
class Request:
    """One whole request: ``target`` as sent (path and query), ``path`` and ``query``
    split from it; ``peer`` the client's address; ``conn`` the connection it came on."""

    method: str
    target: str
    headers: Headers
    body: bytes = b""
    peer: Any = None
    conn: Any = None
    path: str = field(init=False)
    query: str = field(init=False)

    def __post_init__(self) -> None:
        path, _, self.query = self.target.partition("?")
        self.path = path.partition("#")[0]

    @property
    def address(self) -> str:
        """The client's IP address ("?" when unknown)."""
        return str(self.peer[0]) if self.peer else "?"


@dataclass(eq=False, slots=True)
class Response:
    """A whole answer (``Content-Length`` and ``Date`` are added when it is sent)."""

    status: int
    body: bytes = b""
    headers: list[tuple[str, str]] = field(default_factory=list)

    def header(self, name: str) -> str | None:
        name = name.lower()
        return next((v for k, v in self.headers if k.lower() == name), None)


@dataclass(eq=False, slots=True)
class Stream:
    """An ndjson answer: ``source`` is run once served, ``on_close`` awaited at its end."""

    source: Source
    on_close: Callable[[], Awaitable[None]] | None = None


def answer(
    status: int,
    body: bytes | str,
    content_type: str = "text/plain; charset=utf-8",
    *,
    cache: bool = False,
) -> Response:
    """An answer with the headers every answer of ours has."""
    if isinstance(body, str):
        body = body.encode()
    headers = [
        ("Content-Type", content_type),
        ("Cache-Control", "max-age=300" if cache else "no-store"),
        ("X-Content-Type-Options", "nosniff"),
    ]
    return Response(status, body, headers)


def json_answer(status: int, data: Any) -> Response:
    return answer(status, json.dumps(data), "application/json")


def access_line(method: str, target: str, status: int | None, sent: int, ms: float) -> str:
    """One access-log line: ``GET /api/games 200 1234 bytes 1.5 ms`` (status ``-``: no
    answer was made). ``target`` is the request's path with its query, which is dropped;
    the path is cut to :data:`ACCESS_PATH` characters, and any byte outside printable
    ASCII is written ``%XX``."""
    path = target.partition("?")[0].partition("#")[0]
    path = quote(path.encode("utf-8", "surrogateescape"), safe="/:@!$&'()*+,;=-._~%")
    if len(path) > ACCESS_PATH:
        path = path[:ACCESS_PATH] + "..."
    return f"{method} {path} {'-' if status is None else status} {sent} bytes {ms:.1f} ms"


def plain_error(status: int, text: str) -> bytes:
    """A whole response, for when h11 can no longer make one (the request did not parse)."""
    body = text.encode()
    phrase = http.HTTPStatus(status).phrase
    head = (
        f"HTTP/1.1 {status} {phrase}\r\nContent-Type: text/plain; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    return head.encode() + body


#: the router: a request's answer (None: a WebSocket upgrade, let in)
Router = Callable[[Request], Awaitable[Response | Stream | None]]
