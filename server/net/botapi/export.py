"""lichess's ``GET /game/export/{id}``: one chess game as PGN, or as JSON when the request
says ``Accept: application/json`` (berserk's ``games.export``, lichess-bot's saved PGN).

Public, as lichess's is. The game is read through the room's record (``Room.record``, the
same door as ``/api/rooms/{id}/pgn``): a running game shows what a spectator may see, and a
finished game leaves Redis for the archive without this route noticing. Query flags read:
``moves`` and ``tags`` (PGN), ``pgnInJson`` (JSON); the others (clocks, evals, opening,
literate) ask for what Kibitz does not record and change nothing.
"""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import parse_qs

import chess.pgn

from ...engine.chess_pgn import pgn_game
from ...rooms.errors import RoomError
from ..errors import ProtocolError
from ..hub import Hub
from .games import GameStreams
from .wire import BotApiError
from .words import lichess_speed, status_of

PGN = "application/x-chess-pgn"


def flags(query: str) -> dict[str, bool]:
    """The query's boolean flags (``true``/``1``/``yes`` in any case: true)."""
    return {
        key: values[-1].lower() in ("true", "1", "yes")
        for key, values in parse_qs(query, keep_blank_values=True).items()
    }


class Export:
    """The game export of one hub (``games``: seat titles)."""

    def __init__(self, hub: Hub, games: GameStreams) -> None:
        self.hub = hub
        self.games = games

    async def read(self, game_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """The game's record and its room's info; 404 unless it is a chess room."""
        try:
            record: dict[str, Any] = await self.hub.read(game_id, "record", {})
            info: dict[str, Any] = await self.hub.read(game_id, "info", {})
        except (ProtocolError, RoomError):
            raise BotApiError(404, "No such game") from None
        if record.get("game") != "chess":
            raise BotApiError(404, "No such game (only chess games are exported here)")
        return record, info

    async def export(self, game_id: str, query: str, accept: str, base: str) -> tuple[bytes, str]:
        """(the body, its content type)."""
        record, info = await self.read(game_id)
        asked = flags(query)
        if "application/json" in accept:
            game = await self.json(game_id, record, info, base)
            if asked.get("pgnInJson"):
                game["pgn"] = self.pgn(game_id, record, base, {})
            if not asked.get("moves", True):
                game.pop("moves", None)
            return json.dumps(game).encode(), "application/json"
        return self.pgn(game_id, record, base, asked).encode(), PGN

    def game(self, game_id: str, record: dict[str, Any], base: str) -> chess.pgn.Game:
        """The PGN game with lichess's tags (``Site`` the game's page, ``GameId``, ``UTCDate``
        and ``UTCTime`` of its creation)."""
        game = pgn_game(record)
        clock = (record.get("policy") or {}).get("clock")
        rated = "Rated" if record.get("rated") else "Casual"
        created = time.gmtime(float(record.get("created_at") or 0))
        game.headers["Event"] = f"{rated} {lichess_speed(clock)} game"
        game.headers["Site"] = f"{base}#room={game_id}"
        game.headers["GameId"] = game_id
        game.headers["UTCDate"] = time.strftime("%Y.%m.%d", created)
        game.headers["UTCTime"] = time.strftime("%H:%M:%S", created)
        game.headers["Variant"] = "Standard"
        for seat, side in enumerate(("White", "Black")):
            seats = record.get("seats") or []
            if seat < len(seats) and seats[seat].get("kind") == "bot":
                game.headers[f"{side}Title"] = "BOT"
        return game

    def pgn(
        self,
        game_id: str,
        record: dict[str, Any],
        base: str,
        asked: dict[str, bool],
    ) -> str:
        """The PGN (``asked``: ``tags``, ``moves``; both by default)."""
        game = self.game(game_id, record, base)
        exporter = chess.pgn.StringExporter(
            headers=asked.get("tags", True), variations=False, comments=False
        )
        if not asked.get("moves", True):
            game = game_with_no_moves(game)
        return game.accept(exporter) + "\n\n"

    async def json(
        self, game_id: str, record: dict[str, Any], info: dict[str, Any], base: str
    ) -> dict[str, Any]:
        """lichess's game JSON: id, rated, variant, speed, perf, createdAt, lastMoveAt,
        status, source, players, winner, moves (SAN), clock."""
        game = self.game(game_id, record, base)
        status, winner = status_of({"status": info["status"], "outcome": record.get("outcome")})
        clock = (record.get("policy") or {}).get("clock")
        pace = lichess_speed(clock)
        created = float(record.get("created_at") or 0)
        moves = record.get("moves") or []
        last = float(moves[-1]["at"]) if moves and moves[-1].get("at") else created
        changes = (record.get("rated") or {}).get("changes") or []
        players = {}
        for seat, side in enumerate(("white", "black")):
            s = (record.get("seats") or [{}, {}])[seat]
            player: dict[str, Any] = {}
            if s.get("account") or s.get("kind") == "bot":
                user = {"name": s.get("name"), "id": str(s.get("name", "")).lower()}
                title = await self.games.title(s)
                player["user"] = user | ({"title": title} if title else {})
            else:
                player["name"] = s.get("name")
            if s.get("rating") is not None:
                player["rating"] = s["rating"]
                if s.get("provisional"):
                    player["provisional"] = True
            if seat < len(changes) and changes[seat]:
                player["ratingDiff"] = round(changes[seat]["change"])
            players[side] = player
        out: dict[str, Any] = {
            "id": game_id,
            "rated": bool(record.get("rated")),
            "variant": "standard",
            "speed": pace,
            "perf": pace,
            "createdAt": int(created * 1000),
            "lastMoveAt": int(last * 1000),
            "status": status,
            "source": "friend",
            "players": players,
        }
        if winner is not None:
            out["winner"] = winner
        out["moves"] = " ".join(node.san() for node in game.mainline())
        if clock and clock.get("type") == "fischer":
            initial, increment = int(float(clock["base"])), int(float(clock["increment"]))
            out["clock"] = {
                "initial": initial,
                "increment": increment,
                "totalTime": initial + 40 * increment,
            }
        return out


def game_with_no_moves(game: chess.pgn.Game) -> chess.pgn.Game:
    """The same tags and result, no moves (lichess's ``moves=false``)."""
    bare = chess.pgn.Game()
    bare.headers.update(game.headers)
    return bare
