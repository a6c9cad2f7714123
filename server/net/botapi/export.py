"""lichess's ``GET /game/export/{id}``: one chess game as PGN, or as JSON when the request
says ``Accept: application/json`` (berserk's ``games.export``, lichess-bot's saved PGN).

Public, as lichess's is. The game is read through the room's record (``Room.record``, the
same door as ``/api/rooms/{id}/pgn``): a running game shows what a spectator may see, and a
finished game leaves Redis for the archive without this route noticing. Query flags read:
``moves`` and ``tags`` (PGN), ``pgnInJson`` (JSON), and ``evals``: a game analysed
(``POST /api/rooms/{id}/analysis``, docs/ANALYSIS.md) carries its analysis as lichess's
does — in PGN, an ``[%eval ...]`` comment after each move and the judged moves' marks
(``Nf6??``) with "Blunder. g6 was best."; in JSON, each player's ``analysis`` summary and
the ``analysis`` list, one entry per move. The others (clocks, opening, literate) ask for
what Kibitz does not record and change nothing.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

import chess.pgn

from ...analysis.chess_analysis import annotated_pgn, from_stored, pgn_text
from ...analysis.report import lichess_evals, lichess_player
from ...engine.chess_pgn import pgn_game
from ...rooms.errors import RoomError
from ..node.hub import Hub
from ..services.analysis.service import Analyses
from ..transport.errors import ProtocolError
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


@dataclass(frozen=True, slots=True)
class Found:
    """A game to export: its id, the room's record and info, each player's lichess title."""

    id: str
    record: dict[str, Any]
    info: dict[str, Any]
    titles: tuple[str | None, ...]
    #: the game's analysis as it is stored (None: not analysed, or not asked for)
    analysis: dict[str, Any] | None = None


class Export:
    """The game export of one hub (``games``: the players' titles)."""

    def __init__(self, hub: Hub, games: GameStreams, analyses: Analyses | None = None) -> None:
        self.hub = hub
        self.games = games
        self.analyses = analyses

    async def read(self, game_id: str, *, evals: bool = False) -> Found:
        """The game's record and its room's info; 404 unless it is a chess room."""
        try:
            record: dict[str, Any] = await self.hub.read(game_id, "record", {})
            info: dict[str, Any] = await self.hub.read(game_id, "info", {})
        except (ProtocolError, RoomError):
            raise BotApiError(404, "No such game") from None
        if record.get("game") != "chess":
            raise BotApiError(404, "No such game (only chess games are exported here)")
        titles = tuple([await self.games.title(s) for s in record.get("seats") or []])
        analysis = None
        if evals and self.analyses is not None and record.get("outcome") is not None:
            analysis = await self.analyses.result(game_id)
        return Found(game_id, record, info, titles, analysis)

    async def export(self, game_id: str, query: str, accept: str, base: str) -> tuple[bytes, str]:
        """(the body, its content type)."""
        asked = flags(query)
        found = await self.read(game_id, evals=asked.get("evals", False))
        if "application/json" in accept:
            game = self.json(found, base)
            if asked.get("pgnInJson"):
                game["pgn"] = self.pgn(found, base, {})
            if not asked.get("moves", True):
                game.pop("moves", None)
            return json.dumps(game).encode(), "application/json"
        return self.pgn(found, base, asked).encode(), PGN

    @staticmethod
    def game(found: Found, base: str) -> chess.pgn.Game:
        """The PGN game with lichess's tags (``Event``, ``Site`` the game's page, ``GameId``,
        ``UTCDate`` and ``UTCTime`` of its creation, ``Variant``, the players' titles)."""
        record = found.record
        game = pgn_game(record)
        clock = (record.get("policy") or {}).get("clock")
        rated = "Rated" if record.get("rated") else "Casual"
        created = time.gmtime(float(record.get("created_at") or 0))
        game.headers["Event"] = f"{rated} {lichess_speed(clock)} game"
        game.headers["Site"] = f"{base}#room={found.id}"
        game.headers["GameId"] = found.id
        game.headers["UTCDate"] = time.strftime("%Y.%m.%d", created)
        game.headers["UTCTime"] = time.strftime("%H:%M:%S", created)
        game.headers["Variant"] = "Standard"
        for side, title in zip(("White", "Black"), found.titles, strict=False):
            if title is not None:
                game.headers[f"{side}Title"] = title
        return game

    def pgn(self, found: Found, base: str, asked: dict[str, bool]) -> str:
        """The PGN (``asked``: ``tags``, ``moves``; both by default)."""
        game = self.game(found, base)
        if not asked.get("moves", True):
            game = game_with_no_moves(game)
        elif found.analysis is not None:
            game = annotated_pgn(game, from_stored(found.analysis))
            if not asked.get("tags", True):
                game.headers.clear()
            return pgn_text(game) + "\n\n"
        exporter = chess.pgn.StringExporter(
            headers=asked.get("tags", True), variations=False, comments=False
        )
        return game.accept(exporter) + "\n\n"

    def json(self, found: Found, base: str) -> dict[str, Any]:
        """lichess's game JSON: id, rated, variant, speed, perf, createdAt, lastMoveAt,
        status, source, players, winner, moves (SAN), clock."""
        record = found.record
        game = self.game(found, base)
        status, winner = status_of(
            {"status": found.info["status"], "outcome": record.get("outcome")}
        )
        clock = (record.get("policy") or {}).get("clock")
        pace = lichess_speed(clock)
        created = float(record.get("created_at") or 0)
        moves = record.get("moves") or []
        last = float(moves[-1]["at"]) if moves and moves[-1].get("at") else created
        changes = (record.get("rated") or {}).get("changes") or []
        seats = record.get("seats") or []
        players = {
            side: player(
                seats[seat] if seat < len(seats) else {},
                found.titles[seat] if seat < len(found.titles) else None,
                changes[seat] if seat < len(changes) else None,
            )
            for seat, side in enumerate(("white", "black"))
        }
        out: dict[str, Any] = {
            "id": found.id,
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
        if found.analysis is not None:
            for seat, side in enumerate(("white", "black")):
                summary = lichess_player(found.analysis, seat)
                if summary is not None:
                    players[side]["analysis"] = summary
            out["analysis"] = lichess_evals(found.analysis)
        out["moves"] = " ".join(node.san() for node in game.mainline())
        if clock and clock.get("type") == "fischer":
            initial, increment = int(float(clock["base"])), int(float(clock["increment"]))
            out["clock"] = {
                "initial": initial,
                "increment": increment,
                "totalTime": initial + 40 * increment,
            }
        return out


def player(
    seat: dict[str, Any], title: str | None, change: dict[str, Any] | None
) -> dict[str, Any]:
    """One of the game JSON's ``players`` from the room's public seat: an account (or a
    Kibitz bot) as ``user``, a guest by ``name``; the rating at the start, its change."""
    out: dict[str, Any] = {}
    if seat.get("account") or seat.get("kind") == "bot":
        user = {"name": seat.get("name"), "id": str(seat.get("name", "")).lower()}
        out["user"] = user | ({"title": title} if title else {})
    else:
        out["name"] = seat.get("name")
    if seat.get("rating") is not None:
        out["rating"] = seat["rating"]
        if seat.get("provisional"):
            out["provisional"] = True
    if change:
        out["ratingDiff"] = round(change["change"])
    return out


def game_with_no_moves(game: chess.pgn.Game) -> chess.pgn.Game:
    """The same tags and result, no moves (lichess's ``moves=false``)."""
    bare = chess.pgn.Game()
    bare.headers.update(game.headers)
    return bare
