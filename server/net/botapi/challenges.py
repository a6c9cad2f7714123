"""Challenges and the event stream of the Bot and Board API.

A challenge (``POST /api/challenge/{username}``) is kept in Redis until it is accepted,
declined, cancelled or expires (:mod:`server.store.api_tokens`). Accepting it makes an
ordinary Kibitz room of the challenge's own id (a challenge becomes its game, as on lichess:
lichess-bot counts a challenge it accepted as busy until that id's game finishes) through
the seek service's ``start_game`` — seats by account, the
clock, rated by the usual rules, the pairing kept for the rating, ``paired`` sent to every
WebSocket connection of both players (a person in the web client lands in the room) — and
records each account's seat for the API's game routes.

Events (``challenge``, ``challengeCanceled``, ``challengeDeclined``, ``gameStart``,
``gameFinish``) are published on one Redis channel; every node hands them to the event
streams of the account on that node. An event stream starts with the account's open
challenges (those it made, then those waiting for it, oldest first, read a page at a time;
at most :data:`~server.store.api_tokens.MAX_INCOMING` wait for one account) and running API
games, as lichess's does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
from collections.abc import AsyncGenerator, Callable
from typing import Any

from ...bots import strengths
from ...rooms.policy import Policy
from ...rooms.ratings import Glicko, category
from ...rooms.room import Room
from ...store import api_tokens
from ...store.api_tokens import ApiStore
from ..node.cluster import next_message
from ..node.hub import Hub
from ..services.accounts import Accounts
from ..services.matchmaking.seeks import Seeks
from . import bot_seats
from .tokens import Caller
from .variants import Terms, challenge_terms, variant_json, whole
from .wire import POLL, BotApiError
from .words import lichess_speed, perf_name, speed_key, status_of

log = logging.getLogger("kibitz.botapi")

#: events an event stream may hold unread; past it the stream ends (the client reconnects)
QUEUE = 64
#: the challenges waiting for an account are read this many at a time when its event
#: stream opens (at most MAX_INCOMING of them: a bounded burst, read in bounded steps)
PAGE = 20
DECLINE_REASONS = {
    "generic": "I'm not accepting challenges at the moment.",
    "later": "I'm not accepting challenges right now, please ask again later.",
    "toofast": "This time control is too fast for me, please challenge again with a slower game.",
    "tooslow": "This time control is too slow for me, please challenge again with a faster game.",
    "timecontrol": "I'm not accepting challenges with this time control.",
    "rated": "Please send me a rated challenge instead.",
    "casual": "Please send me a casual challenge instead.",
    "standard": "I'm not accepting variant challenges right now.",
    "variant": "This variant is not supported, please challenge again with another variant.",
    "nobot": "I'm not accepting challenges from bots.",
    "onlybot": "I'm only accepting challenges from bots.",
}


def flag(fields: dict[str, str], key: str) -> bool:
    value = fields.get(key, "false")
    if value not in ("true", "false"):
        raise BotApiError(400, f"{key}: true or false")
    return value == "true"


class Challenges:
    """Challenges, the event streams and API games' seats of one hub."""

    def __init__(
        self,
        hub: Hub,
        accounts: Accounts,
        seeks: Seeks,
        store: ApiStore,
        offered: Callable[[str], list[str]],
    ) -> None:
        self.hub = hub
        self.accounts = accounts
        self.seeks = seeks
        self.store = store
        #: every bot strength the node offers for a game (its own bots, its engines)
        self.offered = offered
        #: account id -> the queues of its event streams on this node
        self.streams: dict[str, list[asyncio.Queue[dict[str, Any] | None]]] = {}
        self.pubsub: Any = None
        self.listener: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.pubsub = self.hub.store.pubsub()
        await self.pubsub.subscribe(self.hub.store.channel("botapi:events"))
        self.listener = asyncio.create_task(self._listen(), name="botapi-events")
        self.hub.on_over.append(self.game_over)

    async def close(self) -> None:
        """Stop listening (before the pub/sub connection closes: no error logged)."""
        if self.listener is not None:
            self.listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.listener
            self.listener = None
        if self.pubsub is not None:
            with contextlib.suppress(Exception):
                await self.pubsub.aclose()
            self.pubsub = None

    # -- events -------------------------------------------------------------------------------

    async def publish(self, user: str, event: dict[str, Any]) -> None:
        data = json.dumps({"user": user.lower(), "event": event}).encode()
        await self.hub.store.publish("botapi:events", data)

    async def _listen(self) -> None:
        while self.pubsub is not None:
            message = await next_message(self.pubsub, "bot API events")
            if message is None:
                continue
            try:
                body = json.loads(message["data"])
                for queue in self.streams.get(body["user"], []):
                    if queue.full():  # a reader this slow ends its stream
                        queue.get_nowait()
                        queue.put_nowait(None)
                    else:
                        queue.put_nowait(body["event"])
            except Exception:
                log.exception("bot API event failed")

    async def event_source(
        self, caller: Caller, queue: asyncio.Queue[dict[str, Any] | None], base: str
    ) -> AsyncGenerator[dict[str, Any] | None]:
        """The account's events, as its stream at ``base`` (this server's URL) shows them."""
        for challenge in await self.store.challenges_of(caller.id):
            yield {"type": "challenge", "challenge": self.directed(challenge, caller.id, base)}
        after: float | None = None
        for _ in range(api_tokens.MAX_INCOMING // PAGE + 1):  # waiting for it, oldest first
            page, after = await self.store.incoming(caller.id, after=after, count=PAGE)
            for challenge in page:
                yield {"type": "challenge", "challenge": self.directed(challenge, caller.id, base)}
            if after is None:
                break
        for room_id in await self.store.games_of(caller.id):
            seats = await self.store.game_seats(room_id)
            if caller.id in seats:
                event = await self.game_event("gameStart", room_id, caller.id, seats)
                if event is not None:
                    yield event
        while True:
            try:
                event = await asyncio.wait_for(queue.get(), POLL)
            except TimeoutError:
                yield None  # a keep-alive when due, and a look whether to go on
                continue
            if event is None:
                return
            if "challenge" in event:
                event = {**event, "challenge": self.directed(event["challenge"], caller.id, base)}
            yield event

    async def open_challenges(self, user: str) -> list[dict[str, Any]]:
        """Open challenges from or to ``user``, oldest first (from: the maker's list; to: the
        recipient's, at most MAX_INCOMING)."""
        incoming, _ = await self.store.incoming(user)
        return await self.store.challenges_of(user) + incoming

    @staticmethod
    def directed(challenge: dict[str, Any], user: str, base: str) -> dict[str, Any]:
        """A challenge as ``user`` sees it: its direction, and its absolute ``url`` on this
        server at ``base`` (the game's page once accepted: the game has the challenge's id)."""
        direction = "out" if challenge["challenger"]["id"] == user else "in"
        return {**challenge, "url": f"{base}#room={challenge['id']}", "direction": direction}

    # -- challenges ---------------------------------------------------------------------------

    async def player(self, name: str, cat: str) -> dict[str, Any]:
        user = await self.accounts.store.user(name)
        if user is None:
            raise BotApiError(404, f"No such user: {name}")
        (raw,) = await self.accounts.store.rating_raw([user["name"]], cat)
        rating = json.loads(raw) if raw else Glicko().to_json()
        return {
            "id": user["name"].lower(),
            "name": user["name"],
            "title": "BOT" if user.get("bot") == "1" else None,
            "rating": round(rating["rating"]),
            "provisional": bool(rating["provisional"]),
            "online": True,
        }

    async def create(
        self, caller: Caller, dest: str, fields: dict[str, str], base: str
    ) -> dict[str, Any]:
        caller.need("challenge:write" if not caller.bot else "bot:play")
        rated = flag(fields, "rated")
        limit = whole(fields, "clock.limit", 0, 10800)
        increment = whole(fields, "clock.increment", 0, 180)
        if (limit is None) != (increment is None):
            raise BotApiError(400, "clock.limit and clock.increment go together")
        if fields.get("days"):
            raise BotApiError(400, "days: correspondence games are not offered; give a clock")
        terms = challenge_terms(self.hub.registry, fields, self.bot_strengths)
        if rated and terms.bots:
            raise BotApiError(400, "rated: a game with the server's bots is casual")
        color = fields.get("color", "random") or "random"
        if color not in ("random", "white", "black"):
            raise BotApiError(400, "color: random, white or black")
        if dest.lower() == caller.id:
            raise BotApiError(400, "You cannot challenge yourself")
        game = terms.game
        clock = (
            None if limit is None else {"type": "fischer", "base": limit, "increment": increment}
        )
        settings: dict[str, Any] = {"undo": False} | ({"clock": clock} if clock else {})
        try:
            Policy.parse(settings, self.hub.registry.get(game))
        except Exception as exc:  # the room's own rules for a clock
            raise BotApiError(400, f"clock: {exc}") from None
        if rated and clock is None:
            raise BotApiError(400, "a rated game needs a clock")
        cat = category(game, clock)
        pace = speed_key(cat.split(":", 1)[1])
        challenger = await self.player(caller.name, cat)
        dest_user = await self.player(dest, cat)
        final = color if color != "random" else random.choice(("white", "black"))
        challenge_id = await self.new_id()
        challenge = {
            "id": challenge_id,
            "status": "created",
            "challenger": challenger,
            "destUser": dest_user,
            "variant": variant_json(self.hub.registry.get(game)),
            "rated": rated,
            "speed": pace,
            "timeControl": {"type": "unlimited"}
            if clock is None
            else {
                "type": "clock",
                "limit": limit,
                "increment": increment,
                "show": f"{(limit or 0) / 60:g}+{increment}",
            },
            "color": color,
            "finalColor": final,
            "perf": {"name": perf_name(pace)},
            "settings": settings,
            "category": cat,
            "terms": terms.to_json(),
        }
        if terms.options.get("fen"):
            challenge["initialFen"] = terms.options["fen"]
        refused = await self.store.add_challenge(challenge)
        lapse = api_tokens.CHALLENGE_TTL // 60
        if refused == "challenger":
            raise BotApiError(
                429,
                f"Too many open challenges: at most {api_tokens.MAX_CHALLENGES} at once; cancel "
                f"one first (an unanswered one lapses after {lapse} minutes)",
            )
        if refused == "recipient":
            raise BotApiError(
                429,
                f"{dest_user['name']} has {api_tokens.MAX_INCOMING} challenges waiting for an "
                "answer, as many as one may: try again once they have answered some (an "
                f"unanswered challenge lapses after {lapse} minutes)",
            )
        shown = public(challenge)
        await self.publish(caller.id, {"type": "challenge", "challenge": shown})
        await self.publish(dest_user["id"], {"type": "challenge", "challenge": shown})
        return self.directed(shown, caller.id, base)

    async def new_id(self) -> str:
        """A challenge's id: 8 characters, also its game's id once accepted (as on lichess,
        where lichess-bot keeps a challenge's id as the game it waits for), so not a room's
        already."""
        while True:
            challenge_id = secrets.token_urlsafe(6)
            if not await self.hub.store.exists(challenge_id):
                return challenge_id

    async def find(self, challenge_id: str) -> dict[str, Any]:
        found = await self.store.challenge(challenge_id) if len(challenge_id) <= 16 else None
        if found is None:
            raise BotApiError(404, "No such challenge")
        return found

    async def take(self, challenge: dict[str, Any]) -> None:
        if not await self.store.take_challenge(challenge):
            raise BotApiError(404, "No such challenge")

    async def decline(self, caller: Caller, challenge_id: str, reason: str) -> None:
        caller.need("challenge:write" if not caller.bot else "bot:play")
        reason = reason.lower()  # lichess's keys are camelCase ("tooFast"), its answer not
        if reason not in DECLINE_REASONS:
            raise BotApiError(400, f"reason: one of {', '.join(DECLINE_REASONS)}")
        challenge = await self.find(challenge_id)
        if challenge["destUser"]["id"] != caller.id:
            raise BotApiError(404, "No such challenge")
        await self.take(challenge)
        shown = public(challenge) | {
            "status": "declined",
            "declineReason": DECLINE_REASONS[reason],
            "declineReasonKey": reason,
        }
        for user in (challenge["challenger"]["id"], caller.id):
            await self.publish(user, {"type": "challengeDeclined", "challenge": shown})

    async def cancel(self, caller: Caller, challenge_id: str) -> None:
        caller.need("challenge:write" if not caller.bot else "bot:play")
        challenge = await self.find(challenge_id)
        if challenge["challenger"]["id"] != caller.id:
            raise BotApiError(404, "No such challenge")
        await self.take(challenge)
        shown = public(challenge) | {"status": "canceled"}
        for user in (caller.id, challenge["destUser"]["id"]):
            await self.publish(user, {"type": "challengeCanceled", "challenge": shown})

    async def accept(self, caller: Caller, challenge_id: str) -> str:
        """Make the room; its id (the game id)."""
        caller.need("challenge:write" if not caller.bot else "bot:play")
        challenge = await self.find(challenge_id)
        if challenge["destUser"]["id"] != caller.id:
            raise BotApiError(404, "No such challenge")
        await self.take(challenge)
        white, black = challenge["challenger"], challenge["destUser"]
        if challenge["finalColor"] == "black":
            white, black = black, white
        cat = challenge["category"]
        order = []
        for p in (white, black):
            fresh = await self.player(p["name"], cat)  # the rating as it is now
            order.append(
                {
                    "key": f"user:{p['id']}",
                    "name": p["name"],
                    "user": p["name"],
                    "rating": fresh["rating"],
                    "provisional": fresh["provisional"],
                }
            )
        terms = Terms.from_json(challenge.get("terms"))
        if terms.bots:
            await bot_seats.with_bots(self, challenge, terms, order)
            return str(challenge["id"])
        seek = {
            "id": challenge["id"],
            "game": terms.game,
            "options": terms.options,
            "settings": challenge["settings"],
            "rated": challenge["rated"],
            "category": cat,
        }
        messages = await self.seeks.start_game(seek, order, room_id=challenge["id"])
        room_id = next(iter(messages.values()))["room"]
        seats = {
            key.split(":", 1)[1]: {"seat": m["seat"], "token": m["token"]}
            for key, m in messages.items()
        }
        await self.started(room_id, seats)
        return room_id

    async def started(self, room_id: str, seats: dict[str, dict[str, Any]]) -> None:
        """Record an API game's seats; ``gameStart`` to each of its accounts."""
        await self.store.add_game(room_id, seats)
        for user in seats:
            event = await self.game_event("gameStart", room_id, user, seats)
            if event is not None:
                await self.publish(user, event)

    def bot_strengths(self, game: str) -> list[str]:
        """The strengths of the server's own bots for ``game`` (none: it runs no bots)."""
        try:
            built_in = strengths(game)
        except KeyError:
            return []
        return [s for s in self.offered(game) if s in built_in]

    # -- games --------------------------------------------------------------------------------

    async def game_event(
        self, kind: str, room_id: str, user: str, seats: dict[str, dict[str, Any]]
    ) -> dict[str, Any] | None:
        """lichess's gameStart / gameFinish for ``user`` (from the seat's own view)."""
        seat = seats[user]["seat"]
        try:
            update = await self.hub.read(room_id, "resync", {"recipient": seat, "since": None})
        except Exception:  # the room is gone: nothing to tell
            return None
        players = update.get("seats") or []
        other = players[1 - seat] if len(players) >= 2 else {}
        status, winner = status_of(update)
        view = update.get("view") or {}
        game = {
            "id": room_id,
            "gameId": room_id,
            "fullId": room_id,
            "color": ("white", "black")[seat],
            "fen": view.get("fen", ""),
            "hasMoved": bool(view.get("ply")),
            "isMyTurn": seat in (update.get("to_act") or []),
            "lastMove": view.get("last_move") or "",
            "opponent": {
                "id": str(other.get("name", "")).lower(),
                "username": other.get("name"),
                "rating": other.get("rating"),
            },
            "rated": bool(update.get("rated")),
            "speed": lichess_speed((update.get("settings") or {}).get("clock")),
            "source": "friend",
            "status": {"name": status},
            "variant": variant_json(self.hub.registry.get(str(update.get("game", "chess")))),
            "compat": {"bot": True, "board": True},
        }
        if winner is not None:
            game["winner"] = winner
        return {"type": kind, "game": game}

    async def game_over(self, room: Room) -> None:
        """``hub.on_over``: gameFinish to each API player of the room."""
        seats = await self.store.game_seats(room.id)
        if not seats:
            return
        for user in seats:
            event = await self.game_event("gameFinish", room.id, user, seats)
            if event is not None:
                await self.publish(user, event)
        await self.store.end_game(room.id, list(seats))


def public(challenge: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in challenge.items() if k not in ("settings", "category", "terms")}
