"""``GET /api/tournaments`` (the list) and ``GET /api/tournaments/{id}`` (one tournament's
view): the same list and the same :meth:`Tournament.view` the WebSocket sends."""

from __future__ import annotations

from ....tournaments.spec import ID
from ...transport.errors import ProtocolError
from ...transport.http_types import Request, Response, json_answer
from .service import Tournaments

PREFIX = "/api/tournaments"


def is_tournament_path(path: str) -> bool:
    return path == PREFIX or path.startswith(PREFIX + "/")


async def tournament_api(service: Tournaments, request: Request) -> Response:
    rest = request.path[len(PREFIX) :].strip("/")
    try:
        if not rest:
            listing = await service.listing()
            return json_answer(200, {k: v for k, v in listing.items() if k != "type"})
        if not ID.fullmatch(rest):
            return json_answer(404, {"code": "not_found", "message": "no such resource"})
        return json_answer(200, {"tournament": rest, "view": await service.view(rest)})
    except ProtocolError as exc:
        status = {"no_such_tournament": 404, "unavailable": 503}.get(exc.code, 400)
        return json_answer(status, {"code": exc.code, "message": exc.message})
