"""A game over the Bot and Board API: the game stream, and a seat's commands.

The stream is a listener of the room like any connection: it hears the room as its account's
seat (:class:`SeatListener`, registered in the hub's audience), so it gets exactly the
renderings a WebSocket client holding that seat gets — the seat's view from
``server/rooms/render.py`` and the chat that seat may read — and nothing else. Each rendering
becomes lichess's ``gameState`` (moves in the game's own notation, :mod:`.positions`; clocks
in ms, status, winner; and Kibitz's fields: the seat's view and legal moves) and each chat
line a ``chatLine``. It starts with ``gameFull``; the moves so far come from the room's
``history`` read of that seat's views. A stream that falls behind (:data:`QUEUE` updates
unread) starts over from a fresh read instead of growing.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator
from dataclasses import dataclass, field
from typing import Any

from ...engine import EngineError
from ...rooms.errors import RoomError
from ..node.hub import Hub
from ..services.accounts import Accounts
from ..transport.codec import Codec
from ..transport.connection import Client, Limits
from ..transport.errors import ProtocolError
from ..transport.http11 import Connection
from .positions import UCI_GAMES, initial_fen, read_move, seat_fields, turn_text
from .variants import variant_json
from .wire import BotApiError, Stream, stream, ticks
from .words import illegal_move, lichess_speed, perf_name, refusal, status_of

#: renderings a game stream may hold unread before it drops them and reads afresh
QUEUE = 64
_JSON = Codec()


@dataclass(eq=False, slots=True)
class SeatListener(Client):
    """A room listener that queues the renderings it is sent (JSON, full updates)."""

    queue: list[dict[str, Any]] = field(default_factory=list)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    overflowed: bool = False

    def deliver(self, payload: str | bytes, frame: bytes) -> None:
        """A fan-out's message: its JSON payload (this listener's codec), never the frame."""
        self._queue(json.loads(payload))

    def send(self, msg: dict[str, Any]) -> None:
        """A message for this listener alone: queued as it is, never encoded."""
        self._queue(msg)

    def _queue(self, msg: dict[str, Any]) -> None:
        if len(self.queue) >= QUEUE:
            self.overflowed = True
            self.queue.clear()
        else:
            self.queue.append(msg)
        self.wake.set()


def clocks(update: dict[str, Any], now: float) -> dict[str, int]:
    """wtime/btime/winc/binc in milliseconds (a running clock counted down to ``now``)."""
    clock = update.get("clock") or {}
    if not clock or clock.get("type") != "fischer":
        big = 2_147_483_647
        return {"wtime": big, "btime": big, "winc": 0, "binc": 0}
    left = list(clock.get("left") or [0.0, 0.0])
    for seat in clock.get("running") or []:
        left[seat] = max(0.0, left[seat] - max(0.0, now - float(clock.get("since") or now)))
    inc = int(float(clock.get("increment", 0)) * 1000)
    return {"wtime": int(left[0] * 1000), "btime": int(left[1] * 1000), "winc": inc, "binc": inc}


def game_state(update: dict[str, Any], moves: list[str], now: float) -> dict[str, Any]:
    status, winner = status_of(update)
    offer = update.get("draw_offer")
    state: dict[str, Any] = {
        "type": "gameState",
        "moves": " ".join(moves),
        **clocks(update, now),
        "wdraw": offer == 0,
        "bdraw": offer == 1,
        "status": status,
    }
    if winner is not None:
        state["winner"] = winner
    return state


def seat_state(update: dict[str, Any], moves: list[str], now: float) -> dict[str, Any]:
    """A seat's ``gameState``: lichess's fields and Kibitz's (:func:`.positions.seat_fields`)."""
    return game_state(update, moves, now) | seat_fields(update)


def chat_line(entry: dict[str, Any]) -> dict[str, Any]:
    room = "player" if entry.get("channel") == "players" else "spectator"
    return {
        "type": "chatLine",
        "room": room,
        "username": entry.get("from"),
        "text": entry.get("text"),
    }


def opponent_gone(msg: dict[str, Any], wake: asyncio.Event) -> dict[str, Any]:
    """lichess's ``opponentGone`` of an ``opponent_gone`` message; the stream is woken when
    the countdown is over (to say ``claimWinInSeconds: 0``)."""
    if not msg["gone"]:
        return {"type": "opponentGone", "gone": False}
    claim_in = int(msg.get("claim_in", 0))
    asyncio.get_running_loop().call_later(claim_in + 0.05, wake.set)
    return {"type": "opponentGone", "gone": True, "claimWinInSeconds": claim_in}


class GameStreams:
    """Game streams and commands of one hub for the Bot API (seats found by the service)."""

    def __init__(self, hub: Hub, accounts: Accounts) -> None:
        self.hub = hub
        self.accounts = accounts

    async def title(self, seat: dict[str, Any]) -> str | None:
        """lichess's ``title`` of a seat: ``BOT`` for a bot account or a Kibitz bot."""
        if seat.get("kind") == "bot":
            return "BOT"
        if not seat.get("account") or not seat.get("name"):
            return None
        user = await self.accounts.store.user(str(seat["name"]))
        return "BOT" if user is not None and user.get("bot") == "1" else None

    async def describe(self, update: dict[str, Any]) -> dict[str, Any]:
        """gameFull's fields that do not change: variant, speed, perf, rated, clock and the
        players (from the room's public seats: ``white`` and ``black`` are seats 0 and 1,
        ``players`` every seat in order)."""
        seats = update.get("seats") or [{}, {}]
        clock = (update.get("settings") or {}).get("clock")
        players = []
        for s in seats:
            name = str(s.get("name", ""))
            players.append(
                {
                    "id": name.lower(),
                    "name": name,
                    "title": await self.title(s),
                    "rating": s.get("rating"),
                    "provisional": bool(s.get("provisional")),
                }
            )
        pace = lichess_speed(clock)
        return {
            "variant": variant_json(self.hub.registry.get(str(update.get("game", "chess")))),
            "speed": pace,
            "perf": {"name": perf_name(pace)},
            "rated": bool(update.get("rated")),
            "clock": None
            if not clock
            else {
                "initial": int(float(clock["base"]) * 1000),
                "increment": int(float(clock["increment"]) * 1000),
            },
            "white": players[0] if players else {},
            "black": players[1] if len(players) > 1 else {},
            "players": players,
        }

    async def moves_of(self, room_id: str, seat: int) -> list[str]:
        found = await self.hub.read(room_id, "history", {"recipient": seat})
        return [turn_text(t.get("view") or {}) for t in found.get("turns", []) if t.get("turn")]

    async def read(self, room_id: str, seat: int) -> dict[str, Any]:
        try:
            update: dict[str, Any] = await self.hub.read(
                room_id, "resync", {"recipient": seat, "since": None}
            )
        except (ProtocolError, RoomError):
            raise BotApiError(404, "No such game") from None
        return update

    def stream(self, conn: Connection, room_id: str, seat: int) -> Stream:
        listener = SeatListener(conn, _JSON, Limits())
        listener.deltas = False
        self.hub.audience.listen(room_id, listener, seat)

        async def source() -> AsyncGenerator[dict[str, Any] | None]:
            update = await self.read(room_id, seat)
            moves = await self.moves_of(room_id, seat)
            info = await self.hub.read(room_id, "info", {})
            game = self.hub.registry.get(str(info["game"]))
            full = {
                "type": "gameFull",
                "id": room_id,
                **await self.describe(update),
                "createdAt": int(float(info["created_at"]) * 1000),  # the room's creation
                "initialFen": initial_fen(game, info.get("options")),
                "game": game.name,
                "seat": seat,
                "state": seat_state(update, moves, self.hub.clock()),
            }
            yield full
            last = full["state"]
            audience = self.hub.audience
            other = 1 - seat
            due = False  # the opponent is gone, the countdown not yet told as over

            def claimable() -> bool:
                return due and (audience.gone_for(room_id, other) or 0.0) >= audience.claim_after

            if audience.gone_for(room_id, other) is not None:  # gone before we came
                listener.queue.append(audience.gone_message(room_id, other))
            while last["status"] in ("created", "started"):
                async for _ in ticks(listener.wake, lambda: not listener.queue and not claimable()):
                    yield None
                if claimable():
                    due = False
                    yield {"type": "opponentGone", "gone": True, "claimWinInSeconds": 0}
                if listener.overflowed:  # fell behind: read afresh
                    listener.overflowed = False
                    listener.queue.clear()
                    update = await self.read(room_id, seat)
                    moves = await self.moves_of(room_id, seat)
                    pending = [update]
                else:
                    pending, listener.queue = listener.queue, []
                for msg in pending:
                    if msg.get("type") == "chat":
                        yield chat_line(msg)
                        continue
                    if msg.get("type") == "opponent_gone" and msg.get("room") == room_id:
                        if last["status"] == "started":
                            due = bool(msg["gone"]) and int(msg.get("claim_in", 0)) > 0
                            yield opponent_gone(msg, listener.wake)
                        continue
                    if msg.get("type") != "update" or msg.get("room") != room_id:
                        continue
                    turn = msg.get("turn")  # the turns played, as the seat is told
                    if turn == len(moves) + 1:
                        moves.append(turn_text(msg.get("view") or {}))
                    elif isinstance(turn, int) and turn != len(moves):
                        moves = await self.moves_of(room_id, seat)
                    state = seat_state(msg, moves, self.hub.clock())
                    if state != last:
                        yield state
                        last = state

        async def close() -> None:
            self.hub.audience.forget(room_id, listener)

        return stream(source, close)

    async def claim(self, room_id: str, seat: int, token: str, draw: bool) -> None:
        """claim-victory / claim-draw: the room decides, from the seats gone here."""
        absent = self.hub.audience.absent(room_id)
        await self.command(room_id, "claim_victory", seat, token, absent=absent, draw=draw)

    # -- commands -----------------------------------------------------------------------------

    async def command(self, room_id: str, op: str, seat: int, token: str, **args: Any) -> None:
        """A seat's command; a refusal in lichess's words (:func:`.words.refusal`)."""
        try:
            await self.hub.command(room_id, op, {"seat": seat, "actor": token, **args})
        except (ProtocolError, RoomError, EngineError) as exc:
            uci = op == "move" and await self.game_of(room_id) in UCI_GAMES
            if exc.code == "illegal_move" and uci:
                view = (await self.read(room_id, seat)).get("view") or {}
                fen = view.get("fen")
                words = illegal_move(str(args["text"]), fen if isinstance(fen, str) else None)
            elif exc.code == "illegal_move" and op == "move":
                words = f"Illegal move: {args['text']!r} is not a legal move now"
            else:
                words = refusal(op, exc.code, str(exc))
            raise BotApiError(400, words) from None

    async def game_of(self, room_id: str) -> str:
        """The game a room plays (404 for no room)."""
        try:
            return str((await self.hub.read(room_id, "info", {}))["game"])
        except (ProtocolError, RoomError):
            raise BotApiError(404, "No such game") from None

    async def move_text(self, room_id: str, raw: str) -> str:
        """The move text of a move route's ``raw`` path part, for the room's game."""
        return read_move(await self.game_of(room_id), raw)
