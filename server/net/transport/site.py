"""The router of the server's port: the Host and Origin checks, the routes each part
offers, and the web client's static files.

:class:`Site` is the router of ``server/net/transport/http11.py`` (which parses HTTP and
serves the answers). It knows no route of its own besides the files: the composition root
(``server/net/app.py``) hands it the routes each part offers, in order, as (the paths it
takes, its handler); the first that takes a request's path answers it. Routes (GET unless
said):

    /ws                         the WebSocket endpoint (Host, Origin and admission checked here)
    /healthz, /metrics, /api/games, /api/rooms/{id}/record|pgn
                                the node's (server/net/node/http.py)
    /api/users/{name}/export    every game of a player (server/net/services/archive/exports.py)
    /api/account, /api/bot/..., /api/board/..., /api/challenge..., /api/stream/event,
    /api/tokens, /api/user/{name}, /api/users/status, /game/export/{id}
                                the lichess-compatible Bot API (server/net/botapi/)
    /api/register, /api/login, /api/logout, /api/me, /api/users/{name}[/games|/ratings]
                                accounts (server/net/services/accounts.py)
    /api/tournaments[/{id}]     the tournament list, one tournament's view
                                (server/net/services/tournaments/http.py)
    /, /{file}                  static files from web/ (no directory listing, no "..")
"""

from __future__ import annotations

import http
import logging
import mimetypes
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from urllib.parse import urlsplit

from .admission import Admission
from .http_types import Request, Response, Stream, answer

log = logging.getLogger("kibitz.http")

mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("image/svg+xml", ".svg")

#: a route a part offers: (whether it takes a path, its answer to a request)
Route = tuple[Callable[[str], bool], Callable[[Request], Awaitable[Response | Stream]]]


def origin_allowed(origin: str | None, host: str | None, allowed: Sequence[str]) -> bool:
    """Browsers send ``Origin``; accept none (other clients), the same host over http(s),
    or the list."""
    if origin is None:
        return True
    if "*" in allowed or origin in allowed:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and bool(host) and parts.netloc == host


def host_allowed(host: str | None, allowed: Sequence[str]) -> bool:
    """Whether the ``Host`` header names this server: a page on ``evil.example`` whose
    name was made to resolve to us (DNS rebinding) sends ``Host: evil.example``."""
    if "*" in allowed:
        return True
    if not host:
        return False
    name = urlsplit(f"//{host}").hostname or ""
    return name in allowed


class Site:
    """The router of the server's :class:`~server.net.transport.http11.HttpServer`: a
    request's answer, or None to let a WebSocket in."""

    def __init__(
        self,
        routes: Sequence[Route],
        web_dir: Path | None,
        allowed_origins: Sequence[str],
        *,
        allowed_hosts: Sequence[str] = ("*",),
        admission: Admission | None = None,
    ) -> None:
        self.routes = list(routes)
        self.web_dir = web_dir.resolve() if web_dir else None
        self.allowed_origins = list(allowed_origins)
        self.allowed_hosts = list(allowed_hosts)
        self.admission = admission

    async def __call__(self, request: Request) -> Response | Stream | None:
        path = request.path
        hosts = request.headers.get_all("Host")
        if len(hosts) != 1:
            return answer(http.HTTPStatus.BAD_REQUEST, "one Host header, please\n")
        host = hosts[0]
        if not host_allowed(host, self.allowed_hosts):
            log.warning("refused a request for host %r", host)
            return answer(http.HTTPStatus.MISDIRECTED_REQUEST, "unknown host\n")
        if path == "/ws":
            origin = request.headers.get("Origin")
            if not origin_allowed(origin, host, self.allowed_origins):
                log.warning("refused WebSocket from origin %s", origin)
                return answer(http.HTTPStatus.FORBIDDEN, "origin not allowed\n")
            if self.admission is not None:
                refused = self.admission.admit(request.address)
                if refused == "overloaded":
                    response = answer(503, "the server is busy; try again soon\n")
                    response.headers.append(("Retry-After", "5"))
                    return response
                if refused == "per_ip":
                    return answer(429, "too many connections from your address\n")
            return None
        for takes, handle in self.routes:
            if takes(path):
                return await handle(request)
        return self.static(path)

    def static(self, path: str) -> Response:
        if self.web_dir is None:
            return answer(404, "not found\n")
        rel = "index.html" if path in ("", "/") else path.lstrip("/")
        target = (self.web_dir / rel).resolve()
        if not target.is_relative_to(self.web_dir) or not target.is_file():
            return answer(404, "not found\n")
        ctype = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        if ctype.startswith("text/") or ctype in ("application/json", "image/svg+xml"):
            ctype += "; charset=utf-8"
        return answer(200, target.read_bytes(), ctype)
