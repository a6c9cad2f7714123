"""``/api/rooms/{id}/analysis``: ask for a finished game's analysis, and read it.

    POST /api/rooms/{id}/analysis   202 {"status": "queued", "position"} (or 200 with the
                                    analysis done already; 202 "running" while it runs)
    GET  /api/rooms/{id}/analysis   200 {"status": "done", "analysis"} | {"status": "queued",
                                    "position", "retry_after"} | {"status": "running"} |
                                    {"status": "none"} (not asked for)

Both read the game through the room's one door first (``Hub.read(room, "record")``), so
they answer exactly as the record does: 404 for no such room, 409 ``not_finished`` for a
game that is not over (the analysis of a game is the analysis of its finished record, which
every door shows to anyone once it is over). Refusals, each changing nothing:

- 400 ``bad_request`` for a body or a query (a request takes none);
- 422 ``not_analysable`` for a POST of a game the service does not analyse (a GET of it
  answers 200 ``{"status": "unavailable"}``: there is nothing to read, and will not be);
- 429 ``rate_limited`` past the requests an address, or an account, may make in a window
  (every POST counts but one answered with the analysis done): ``retry_after`` (seconds)
  and a ``Retry-After`` header say when to ask again;
- 503 ``busy`` when the queue is full: ``retry_after`` says how long its jobs should take.
"""

from __future__ import annotations

import math
from typing import Any

from ....rooms.errors import RoomError
from ...node.hub import ROOM_ID
from ...transport.errors import ProtocolError
from ...transport.http_types import Request, Response, json_answer
from ..accounts import Accounts, request_token
from .service import Analyses

STATUS = {"no_such_room": 404, "not_finished": 409, "unavailable": 503}


def is_analysis_path(path: str) -> bool:
    return path.startswith("/api/rooms/") and path.endswith("/analysis")


def refusal(status: int, code: str, message: str, retry_after: int | None = None) -> Response:
    body: dict[str, Any] = {"code": code, "message": message}
    if retry_after is not None:
        body["retry_after"] = retry_after
    response = json_answer(status, body)
    if retry_after is not None:
        response.headers.append(("Retry-After", str(retry_after)))
    return response


class AnalysisRoutes:
    """The route of one node (``accounts``: who a token is, for the per-account limit)."""

    def __init__(self, analyses: Analyses, accounts: Accounts) -> None:
        self.analyses = analyses
        self.accounts = accounts

    async def route(self, request: Request) -> Response:
        parts = request.path.split("/")  # "", api, rooms, id, analysis
        if len(parts) != 5 or not ROOM_ID.fullmatch(parts[3]):
            return refusal(404, "not_found", "no such resource")
        if request.method not in ("GET", "POST"):
            return refusal(405, "method_not_allowed", "GET or POST")
        if request.body or request.query:
            return refusal(400, "bad_request", "this request takes no body and no query")
        room = parts[3]
        try:
            record = await self.analyses.hub.read(room, "record", {})
        except (ProtocolError, RoomError) as exc:
            return refusal(STATUS.get(exc.code, 403), exc.code, str(exc))
        if record.get("outcome") is None:
            return refusal(409, "not_finished", "only a finished game is analysed")
        if record.get("game") not in self.analyses.settings.games:
            games = ", ".join(self.analyses.settings.games)
            message = f"only these games are analysed: {games}"
            if request.method == "GET":  # what there is to read: nothing, and there will not be
                return json_answer(200, {"status": "unavailable", "message": message})
            return refusal(422, "not_analysable", message)
        if request.method == "GET":
            return json_answer(200, await self.analyses.status(room))
        return await self.ask(room, request)

    async def ask(self, room: str, request: Request) -> Response:
        """A POST: every one is counted (but those answered with the analysis done), asked
        again for a game queued or not."""
        analyses, settings = self.analyses, self.analyses.settings
        status = await analyses.status(room)
        if status["status"] == "done":
            return json_answer(200, status)
        window = int(settings.window * 1000)
        account = await self.accounts.user_of(request_token(request.headers))
        counts = [(f"ip:{request.address}", settings.per_address, "address")]
        if account is not None:
            counts.append((f"account:{account.lower()}", settings.per_account, "account"))
        for who, limit, what in counts:
            left_ms = await analyses.queue.count(who, limit, window)
            if left_ms:
                wait = math.ceil(left_ms / 1000)
                message = f"too many analyses asked from this {what}: ask again in {wait} s"
                return refusal(429, "rate_limited", message, wait)
        if status["status"] != "none":  # queued or running already
            return json_answer(202, status)
        request_of = {"by": account, "address": request.address}
        position = await analyses.queue.enqueue(room, request_of, settings.queue)
        if position < 0:
            wait = analyses.retry_after(settings.queue)
            return refusal(503, "busy", f"the analysis queue is full: ask again in {wait} s", wait)
        analyses.wake.set()
        return json_answer(202, await analyses.status(room))
