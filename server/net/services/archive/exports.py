"""``GET /api/users/{name}/export``: every game of a player, streamed as ndjson lines
(:func:`~server.net.services.archive.archived.export_source`: a PGN for chess, the record for
others), an ndjson :class:`~server.net.transport.http11.Stream`."""

from __future__ import annotations

from urllib.parse import parse_qs

from ....archive import Archive
from ....store.accounts import AccountStore
from ...node.hub import ROOM_ID, Hub
from ...transport.http_types import Request, Response, Stream, json_answer
from .archived import export_source, games_query


async def export(hub: Hub, archive: Archive | None, request: Request) -> Response | Stream:
    """``GET /api/users/{name}/export[?game=&result=&rated=&opponent=]``: every game of the
    player, streamed as ndjson (:func:`export_source`)."""
    parts = request.path.strip("/").split("/")  # api, users, name, export
    accounts = AccountStore(hub.store.redis, hub.store.accounts_prefix)
    if request.headers.get("Upgrade") or len(parts) != 4:
        return json_answer(404, {"code": "not_found", "message": "no such resource"})
    user = await accounts.user(parts[2]) if ROOM_ID.fullmatch(parts[2]) else None
    if user is None:
        return json_answer(404, {"code": "no_such_user", "message": "no such user"})
    try:
        q = games_query(user["name"], parse_qs(request.query, keep_blank_values=True))
    except ValueError as exc:
        return json_answer(400, {"code": "bad_request", "message": str(exc)})
    return Stream(export_source(hub, accounts, archive, q))


def is_export_path(path: str) -> bool:
    return path.startswith("/api/users/") and path.endswith("/export")
