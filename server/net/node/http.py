"""The node's own HTTP routes: its health, its metrics, the game registry, and a room's
record (GET):

    /healthz                    {"status": "ok", ...} while the store answers, else 503
    /metrics                    Prometheus text format
    /api/games                  the game registry
    /api/rooms/{id}/record      a room's full record (JSON) once it may be shown
    /api/rooms/{id}/pgn         a chess record as PGN (a live or an archived game)
"""

from __future__ import annotations

from ...rooms.errors import RoomError
from ..transport.errors import ProtocolError
from ..transport.http_types import Request, Response, Stream, answer, json_answer
from ..transport.site import Route
from .hub import Hub

PATHS = ("/healthz", "/metrics", "/api/games")


class NodeRoutes:
    """The routes :class:`Hub` offers the port (:meth:`routes`)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def routes(self) -> list[Route]:
        return [
            (lambda path: path in PATHS, self.route),
            (lambda path: path.startswith("/api/rooms/"), self.room_api),
        ]

    async def route(self, request: Request) -> Response | Stream:
        path = request.path
        if path == "/healthz":
            return await self.health()
        if path == "/metrics":
            body = self.hub.metrics.render()
            return answer(200, body, "text/plain; version=0.0.4; charset=utf-8")
        return json_answer(200, [g.info() for g in self.hub.registry])

    async def health(self) -> Response:
        try:
            rtt = await self.hub.store.ping()
        except Exception as exc:  # any store failure makes us unhealthy
            return json_answer(503, {"status": "unavailable", "store": str(exc)})
        return json_answer(
            200,
            {
                "status": "ok",
                "rooms": len(self.hub.rooms),
                "connections": len(self.hub.clients),
                "redis_rtt_ms": round(rtt * 1000, 3),
            },
        )

    async def room_api(self, request: Request) -> Response | Stream:
        parts = request.path.strip("/").split("/")
        if len(parts) != 4 or parts[3] not in ("record", "pgn"):
            return json_answer(404, {"code": "not_found", "message": "no such resource"})
        try:
            record = await self.hub.read(parts[2], "record", {})
        except (ProtocolError, RoomError) as exc:
            status = {"no_such_room": 404, "unavailable": 503}.get(exc.code, 403)
            return json_answer(status, {"code": exc.code, "message": str(exc)})
        if parts[3] == "record":
            return json_answer(200, record)
        pgn = record.get("exports", {}).get("pgn")
        if pgn is None:
            return json_answer(404, {"code": "not_found", "message": "no PGN for this game"})
        return answer(200, pgn, "application/x-chess-pgn")
