"""The routes of the server's port: the web client, health, records, and the Origin check.

The router of ``server/net/transport/http11.py`` (which parses HTTP and serves the answers); routes
(GET unless said):

    /ws                         the WebSocket endpoint (Origin checked here)
    /healthz                    {"status": "ok", ...} while the store answers, else 503
    /metrics                    Prometheus text format
    /api/games                  the game registry
    /api/rooms/{id}/record      a room's full record (JSON) once it may be shown
    /api/rooms/{id}/pgn         a chess record as PGN (a live or an archived game)
    /api/tournaments[/{id}]     the tournament list, one tournament's view
    /api/users/{name}/export    every game of a player, streamed (ndjson: PGN or record)
    /api/account, /api/bot/..., /api/board/..., /api/challenge..., /api/stream/event,
    /api/tokens, /api/user/{name}, /api/users/status, /game/export/{id}
                                the lichess-compatible Bot API (server/net/botapi/)
    /, /{file}                  static files from web/ (no directory listing, no "..")
"""

from __future__ import annotations

import http
import logging
import mimetypes
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..rooms.errors import RoomError
from .botapi.routes import BotApi, is_api_path
from .node.hub import Hub
from .services.accounts import accounts_of, is_account_path
from .services.archive.exports import export, is_export_path
from .services.tournaments.http import is_tournament_path, tournament_api
from .transport.admission import Admission
from .transport.errors import ProtocolError
from .transport.http_types import Request, Response, Stream, answer, json_answer

log = logging.getLogger("kibitz.http")

mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("image/svg+xml", ".svg")


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


class HttpRoutes:
    """The router of the server's :class:`~server.net.transport.http11.HttpServer`: a request's
    answer, or None to let a WebSocket in."""

    def __init__(
        self,
        hub: Hub,
        web_dir: Path | None,
        allowed_origins: Sequence[str],
        *,
        allowed_hosts: Sequence[str] = ("*",),
        admission: Admission | None = None,
        botapi: BotApi | None = None,
    ) -> None:
        self.hub = hub
        self.web_dir = web_dir.resolve() if web_dir else None
        self.allowed_origins = list(allowed_origins)
        self.allowed_hosts = list(allowed_hosts)
        self.admission = admission
        self.botapi = botapi

    def respond(
        self,
        status: int,
        body: bytes | str,
        content_type: str = "text/plain; charset=utf-8",
        *,
        cache: bool = False,
    ) -> Response:
        return answer(status, body, content_type, cache=cache)

    def json(self, status: int, data: Any) -> Response:
        return json_answer(status, data)

    async def __call__(self, request: Request) -> Response | Stream | None:
        path = request.path
        hosts = request.headers.get_all("Host")
        if len(hosts) != 1:
            return self.respond(http.HTTPStatus.BAD_REQUEST, "one Host header, please\n")
        host = hosts[0]
        if not host_allowed(host, self.allowed_hosts):
            log.warning("refused a request for host %r", host)
            return self.respond(http.HTTPStatus.MISDIRECTED_REQUEST, "unknown host\n")
        if path == "/ws":
            origin = request.headers.get("Origin")
            if not origin_allowed(origin, host, self.allowed_origins):
                log.warning("refused WebSocket from origin %s", origin)
                return self.respond(http.HTTPStatus.FORBIDDEN, "origin not allowed\n")
            if self.admission is not None:
                refused = self.admission.admit(request.address)
                if refused == "overloaded":
                    response = self.respond(503, "the server is busy; try again soon\n")
                    response.headers.append(("Retry-After", "5"))
                    return response
                if refused == "per_ip":
                    return self.respond(429, "too many connections from your address\n")
            return None
        if path == "/healthz":
            return await self.health()
        if path == "/metrics":
            body = self.hub.metrics.render()
            return self.respond(200, body, "text/plain; version=0.0.4; charset=utf-8")
        if path == "/api/games":
            return self.json(200, [g.info() for g in self.hub.registry])
        if is_export_path(
            path
        ):  # a player's games, streamed (server/net/services/archive/exports.py)
            return await export(self.hub, request)
        if self.botapi is not None and is_api_path(path):
            return await self.botapi.route(request)
        # -- accounts (issue 13): register, login, logout, me, users -------------------------
        if is_account_path(path):
            return await accounts_of(self.hub).route(request)
        # -- end accounts ----------------------------------------------------------------------
        if path.startswith("/api/rooms/"):
            return await self.room_api(path)
        if is_tournament_path(
            path
        ):  # the list and one view (server/net/services/tournaments/http.py)
            return await tournament_api(self.hub, path)
        return self.static(path)

    async def health(self) -> Response:
        try:
            rtt = await self.hub.store.ping()
        except Exception as exc:  # any store failure makes us unhealthy
            return self.json(503, {"status": "unavailable", "store": str(exc)})
        return self.json(
            200,
            {
                "status": "ok",
                "rooms": len(self.hub.rooms),
                "connections": len(self.hub.clients),
                "redis_rtt_ms": round(rtt * 1000, 3),
            },
        )

    async def room_api(self, path: str) -> Response:
        parts = path.strip("/").split("/")
        if len(parts) != 4 or parts[3] not in ("record", "pgn"):
            return self.json(404, {"code": "not_found", "message": "no such resource"})
        try:
            record = await self.hub.read(parts[2], "record", {})
        except (ProtocolError, RoomError) as exc:
            status = {"no_such_room": 404, "unavailable": 503}.get(exc.code, 403)
            return self.json(status, {"code": exc.code, "message": str(exc)})
        if parts[3] == "record":
            return self.json(200, record)
        pgn = record.get("exports", {}).get("pgn")
        if pgn is None:
            return self.json(404, {"code": "not_found", "message": "no PGN for this game"})
        return self.respond(200, pgn, "application/x-chess-pgn")

    def static(self, path: str) -> Response:
        if self.web_dir is None:
            return self.respond(404, "not found\n")
        rel = "index.html" if path in ("", "/") else path.lstrip("/")
        target = (self.web_dir / rel).resolve()
        if not target.is_relative_to(self.web_dir) or not target.is_file():
            return self.respond(404, "not found\n")
        ctype = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        if ctype.startswith("text/") or ctype in ("application/json", "image/svg+xml"):
            ctype += "; charset=utf-8"
        return self.respond(200, target.read_bytes(), ctype)
