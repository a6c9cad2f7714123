"""The routes of the lichess-compatible Bot and Board API (``docs/BOT_API.md``).

    GET  /api/account                          the caller: id, username, title, perfs
    GET  /api/account/playing                  {"nowPlaying": [...]}: its running API games
    POST /api/token/test                       tokens (commas between) -> owner and scopes
    POST /api/bot/account/upgrade              an account with no games becomes a bot
    GET  /api/stream/event                     ndjson: challenges, gameStart, gameFinish
    GET  /api/challenge                        {"in": [...], "out": [...]}
    POST /api/challenge/{username}             rated, clock.limit, clock.increment, color
    POST /api/challenge/ai                     level 1-8: a casual game against a Kibitz bot
    POST /api/challenge/{id}/accept | /decline (reason) | /cancel
    GET  /api/{bot,board}/game/stream/{id}     ndjson: gameFull, gameState, chatLine
    POST /api/{bot,board}/game/{id}/move/{uci}[?offeringDraw=true]
    POST /api/{bot,board}/game/{id}/chat       room=player|spectator, text
    POST /api/{bot,board}/game/{id}/abort | /resign | /draw/{yes,no}
    POST /api/{bot,board}/game/{id}/claim-victory | /claim-draw
    GET  /api/tokens, POST /api/tokens, POST /api/tokens/{id}/revoke   (the account page)

Every refusal is lichess's ``{"error": "..."}`` with 400, 401, 403, 404 or 429, and changes
nothing. The ``bot`` routes are a bot account's (``bot:play``), the ``board`` routes a
person's (``board:play``); each plays the seat its account holds in the room.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

from ...rooms.ratings import speed
from ...store.api_tokens import ApiStore
from ..accounts import accounts_of
from ..admission import Admission, Refused, Work, unlimited
from ..codec import Codec
from ..connection import Limits, TokenBucket
from ..errors import ProtocolError
from ..handlers import Handlers
from ..hub import Hub
from ..seeks import start_seeks
from ..social import CHAT_RATE, CHAT_WINDOW, chat
from .challenges import Challenges, flag
from .games import GameStreams, SeatListener
from .tokens import TOKEN, Caller, Tokens
from .wire import BotApiError, Stream, error_response, form, json_response, stream

PREFIXES = (
    "/api/account",
    "/api/bot/",
    "/api/board/",
    "/api/stream/event",
    "/api/challenge",
    "/api/tokens",
    "/api/token/test",
)
#: tokens one ``/api/token/test`` may ask about
MAX_TESTED = 10
UCI = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?")
ID = re.compile(r"[A-Za-z0-9_-]{1,16}")

# Limits
#: event streams, and game streams, one account may hold open on one node
MAX_EVENT_STREAMS = 4
MAX_GAME_STREAMS = 16
#: accounts whose chat budget is kept (the table is emptied past this)
MAX_BUDGETS = 10_000


def is_api_path(path: str) -> bool:
    return path.startswith(PREFIXES)


class BotApi:
    """The Bot and Board API of one hub (started once with the server)."""

    def __init__(self, hub: Hub, handlers: Handlers, admission: Admission | None = None) -> None:
        self.hub = hub
        self.handlers = handlers
        #: the node's admission of new work, shared with the WebSocket door (None: none)
        self.admission = admission
        self.accounts = accounts_of(hub)
        self.store = ApiStore(hub.store.redis, hub.store.accounts_prefix + "botapi:")
        self.tokens = Tokens(self.accounts, self.store)
        self.challenges: Challenges | None = None
        self.games = GameStreams(hub, self.describe)
        #: (account, kind) -> streams open on this node
        self.open: dict[tuple[str, str], int] = {}
        self.chat_budgets: dict[str, TokenBucket] = {}

    async def start(self) -> None:
        seeks = await start_seeks(self.hub, self.handlers)
        self.challenges = Challenges(self.hub, self.accounts, seeks, self.store)
        await self.challenges.start()

    async def close(self) -> None:
        if self.challenges is not None:
            await self.challenges.close()

    async def route(self, conn: ServerConnection, request: Request) -> Response | Stream:
        try:
            return await self._route(conn, request)
        except BotApiError as exc:
            return error_response(conn, exc)

    async def _route(self, conn: ServerConnection, request: Request) -> Response | Stream:
        path, method = request.path.partition("?")[0], request.method
        parts = path.strip("/").split("/")[1:]  # after "api"
        if parts[0] == "tokens":
            return await self.token_route(conn, request, parts, method)
        if parts == ["token", "test"]:
            return json_response(conn, 200, await self.token_test(conn, method))
        caller = await self.tokens.caller(request)
        want = (
            "GET"
            if parts in (["account"], ["account", "playing"], ["stream", "event"], ["challenge"])
            or (len(parts) == 4 and parts[1:3] == ["game", "stream"])
            else "POST"
        )
        if method != want:
            raise BotApiError(405, f"{path} takes a {want}")
        if parts == ["account"]:
            return json_response(conn, 200, await self.account(caller))
        if parts == ["account", "playing"]:
            return json_response(conn, 200, {"nowPlaying": await self.playing(caller)})
        if parts == ["bot", "account", "upgrade"]:
            return json_response(conn, 200, await self.upgrade(caller))
        if parts == ["stream", "event"]:
            return self.event_stream(caller)
        assert self.challenges is not None
        if parts == ["challenge"]:
            caller.need("challenge:read" if not caller.bot else "bot:play")
            mine = [
                self.challenges.directed(c, caller.id)
                for c in await self.challenges.open_challenges(caller.id)
            ]
            return json_response(
                conn,
                200,
                {
                    "in": [c for c in mine if c["direction"] == "in"],
                    "out": [c for c in mine if c["direction"] == "out"],
                },
            )
        if parts[0] == "challenge" and len(parts) in (2, 3):
            if not ID.fullmatch(parts[1]):
                raise BotApiError(404, "Not found")
            fields = form(conn, request)
            if parts[1] == "ai" and len(parts) == 2:
                # lichess's route: a Kibitz bot at once (an account named "ai" is not
                # challenged over the API)
                strengths = self.handlers.bot_strengths("chess")
                with self.admitted(conn, caller, bot=True) as work:
                    room_id = self.hub.make_secret(6)
                    work.made(room_id)  # its bot's first search is already the caller's
                    made = await self.challenges.against_ai(
                        caller, fields, strengths, self.title, room_id=room_id
                    )
                return json_response(conn, 201, made)
            if len(parts) == 2:
                with self.admitted(conn, caller):
                    made = await self.challenges.create(caller, parts[1], fields)
                return json_response(conn, 200, made)
            if parts[2] == "accept":
                await self.challenges.accept(caller, parts[1])
            elif parts[2] == "decline":
                await self.challenges.decline(caller, parts[1], fields.get("reason", "generic"))
            elif parts[2] == "cancel":
                await self.challenges.cancel(caller, parts[1])
            else:
                raise BotApiError(404, "Not found")
            return json_response(conn, 200, {"ok": True})
        if parts[0] in ("bot", "board") and len(parts) >= 3 and parts[1] == "game":
            if (parts[0] == "bot") != caller.bot:
                raise BotApiError(
                    400,
                    "This endpoint is for bot accounts only"
                    if parts[0] == "bot"
                    else "This endpoint cannot be used with a Bot account.",
                )
            caller.need(f"{parts[0]}:play")
            return await self.game_route(conn, request, caller, parts[2:])
        raise BotApiError(404, "Not found")

    def admitted(self, conn: ServerConnection, caller: Caller, *, bot: bool = False) -> Work:
        """New work from the caller's account and address (``bot``: a game with a bot), to
        create inside the returned context: 429 past the limits shared with the WebSocket
        door (:class:`~server.net.admission.Admission`), with nothing counted."""
        if self.admission is None:
            return unlimited()
        addr = conn.remote_address
        address = str(addr[0]) if addr else "?"
        try:
            return self.admission.start(address, caller.name, bot=bot)
        except Refused as exc:
            raise BotApiError(429, exc.message, retry_after=exc.retry_after) from None

    def title(self, strength: str) -> str:
        """A bot seat's name, as the lobby's add-bot gives it (an engine's seat: only while
        its pool has a place, else 429)."""
        engines = self.handlers.engines
        engine = engines.find(strength) if engines is not None else None
        if engines is not None and engine is not None:
            try:
                engines.check_room(strength, self.hub.rooms)
            except ProtocolError as exc:
                raise BotApiError(429, str(exc)) from None
            return engine[0].spec.title(engine[1])
        return f"{strength.capitalize()} bot"

    # -- account ------------------------------------------------------------------------------

    async def account(self, caller: Caller) -> dict[str, Any]:
        """Any token may read its own account, as on lichess."""
        profile = await self.accounts.profile(caller.name)
        perfs = {}
        for cat, r in profile["ratings"].items():
            game, pace = cat.split(":", 1)
            if game == "chess":
                perfs[pace] = {
                    "games": r.get("games", 0),
                    "rating": round(r["rating"]),
                    "rd": round(r.get("rd", 0)),
                    "prov": r.get("provisional", True),
                }
        out: dict[str, Any] = {
            "id": caller.id,
            "username": caller.name,
            "perfs": perfs,
            "createdAt": int(profile["created"] * 1000),
            "url": f"/#/@/{caller.name}",
        }
        if caller.bot:
            out["title"] = "BOT"
        return out

    async def playing(self, caller: Caller) -> list[dict[str, Any]]:
        """The caller's running API games (lichess-bot resumes them on start)."""
        assert self.challenges is not None
        games = []
        for room_id in await self.store.games_of(caller.id):
            seats = await self.store.game_seats(room_id)
            if caller.id in seats:
                event = await self.challenges.game_event("gameStart", room_id, caller.id, seats)
                if event is not None and event["game"]["status"]["name"] == "started":
                    games.append(event["game"])
        return games

    async def token_test(self, conn: ServerConnection, method: str) -> dict[str, Any]:
        """lichess's ``POST /api/token/test``: the body is tokens separated by commas; each
        is answered with its owner and scopes, or null."""
        if method != "POST":
            raise BotApiError(405, "/api/token/test takes a POST")
        try:
            text = getattr(conn.protocol, "body", b"").decode()
        except UnicodeDecodeError:
            raise BotApiError(400, "the body is not UTF-8") from None
        tokens = [t.strip() for t in text.split(",") if t.strip()]
        if not tokens or len(tokens) > MAX_TESTED:
            raise BotApiError(400, f"1 to {MAX_TESTED} tokens, separated by commas")
        found: dict[str, Any] = {}
        for token in tokens:
            owner = await self.store.owner(token) if TOKEN.fullmatch(token) else None
            found[token] = owner and {
                "userId": owner["user"],
                "scopes": ",".join(owner["scopes"]),
                "expires": None,
            }
        return found

    async def upgrade(self, caller: Caller) -> dict[str, Any]:
        caller.need("bot:play")
        if caller.bot:
            raise BotApiError(400, "This account is already a bot account")
        total, _ = await self.accounts.store.history(caller.name, 0, 1)
        if total or await self.store.games_of(caller.id):
            raise BotApiError(400, "This account has played games and cannot become a bot")
        await self.accounts.store.redis.hset(self.accounts.store.k("user", caller.id), "bot", "1")
        return {"ok": True}

    # -- streams ------------------------------------------------------------------------------

    def hold(self, caller: Caller, kind: str, limit: int) -> Any:
        key = (caller.id, kind)
        if self.open.get(key, 0) >= limit:
            raise BotApiError(429, "Too many requests. Try again later.")
        self.open[key] = self.open.get(key, 0) + 1

        async def release() -> None:
            self.open[key] -= 1
            if not self.open[key]:
                del self.open[key]

        return release

    def event_stream(self, caller: Caller) -> Stream:
        assert self.challenges is not None
        caller.need("bot:play" if caller.bot else "challenge:read")
        release = self.hold(caller, "events", MAX_EVENT_STREAMS)
        challenges = self.challenges
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(maxsize=64)
        challenges.streams.setdefault(caller.id, []).append(queue)

        async def close() -> None:
            queues = challenges.streams.get(caller.id, [])
            if queue in queues:
                queues.remove(queue)
            if not queues:
                challenges.streams.pop(caller.id, None)
            await release()

        return stream(lambda: challenges.event_source(caller, queue), close)

    # -- games --------------------------------------------------------------------------------

    def describe(self, room_id: str, update: dict[str, Any]) -> dict[str, Any]:
        seats = update.get("seats") or [{}, {}]
        clock = (update.get("settings") or {}).get("clock")

        def player(s: dict[str, Any]) -> dict[str, Any]:
            name = str(s.get("name", ""))
            out = {
                "id": name.lower(),
                "name": name,
                "title": None,
                "rating": s.get("rating"),
                "provisional": bool(s.get("provisional")),
            }
            return out

        return {
            "variant": {"key": "standard", "name": "Standard", "short": "Std"},
            "speed": speed(clock),
            "perf": {"name": speed(clock)},
            "rated": bool(update.get("rated")),
            "clock": None
            if not clock
            else {
                "initial": int(float(clock["base"]) * 1000),
                "increment": int(float(clock["increment"]) * 1000),
            },
            "white": player(seats[0]),
            "black": player(seats[1]) if len(seats) > 1 else {},
        }

    async def seat_of(self, caller: Caller, room_id: str) -> tuple[int, str]:
        if not ID.fullmatch(room_id):
            raise BotApiError(404, "No such game")
        seats = await self.store.game_seats(room_id)
        mine = seats.get(caller.id)
        if mine is None:
            raise BotApiError(404, "No such game")
        return int(mine["seat"]), str(mine["token"])

    async def game_route(
        self, conn: ServerConnection, request: Request, caller: Caller, rest: list[str]
    ) -> Response | Stream:
        if rest[0] == "stream" and len(rest) == 2:
            seat, _ = await self.seat_of(caller, rest[1])
            await self.games.read(rest[1], seat)  # a gone room: 404 now, not a stream
            release = self.hold(caller, "games", MAX_GAME_STREAMS)
            game = self.games.stream(conn, rest[1], seat)
            inner = game.on_close

            async def close() -> None:
                if inner is not None:
                    await inner()
                await release()

            return stream(game.source, close)
        room_id = rest[0]
        seat, token = await self.seat_of(caller, room_id)
        action = rest[1:]
        fields = form(conn, request)
        if len(action) == 2 and action[0] == "move":
            if not UCI.fullmatch(action[1]):
                raise BotApiError(400, f"Invalid UCI move: {action[1][:10]!r}")
            draw = flag(fields, "offeringDraw")
            await self.games.command(room_id, "move", seat, token, text=action[1])
            if draw:
                await self.games.command(room_id, "offer_draw", seat, token)
        elif action == ["resign"]:
            await self.games.command(room_id, "resign", seat, token)
        elif action == ["abort"]:
            await self.games.command(room_id, "abort", seat, token)
        elif action in (["claim-victory"], ["claim-draw"]):  # the opponent left the game
            await self.games.claim(room_id, seat, token, draw=action == ["claim-draw"])
        elif len(action) == 2 and action[0] == "draw" and action[1] in ("yes", "no"):
            if action[1] == "yes":
                await self.games.command(room_id, "offer_draw", seat, token)
            else:
                await self.games.command(room_id, "answer_draw", seat, token, accept=False)
        elif action == ["chat"]:
            await self.chat(conn, caller, room_id, seat, token, fields)
        else:
            raise BotApiError(404, "Not found")
        return json_response(conn, 200, {"ok": True})

    async def chat(
        self,
        conn: ServerConnection,
        caller: Caller,
        room_id: str,
        seat: int,
        token: str,
        fields: dict[str, str],
    ) -> None:
        room = fields.get("room", "player")
        if room not in ("player", "spectator"):
            raise BotApiError(400, "room: player or spectator")
        budget = self.chat_budgets.get(caller.id)
        if budget is None:
            if len(self.chat_budgets) >= MAX_BUDGETS:
                self.chat_budgets.clear()
            budget = self.chat_budgets[caller.id] = TokenBucket(CHAT_RATE / CHAT_WINDOW, CHAT_RATE)
        if not budget.take():
            raise BotApiError(429, "Too many requests. Try again later.")
        # the chat handler itself, for a speaker that holds the seat (or, in the spectators'
        # room, only watches): the same checks, the same store-then-send
        speaker = SeatListener(conn, Codec(), Limits())
        speaker.user = caller.name
        recipient: int | None = seat if room == "player" else None
        if recipient is not None:
            speaker.seats[room_id] = {seat: token}
        self.hub.audience.listen(room_id, speaker, recipient)
        try:
            await chat(self.handlers, speaker, {"room": room_id, "text": fields.get("text")})
        except ProtocolError as exc:
            raise BotApiError(400, str(exc)) from None
        finally:
            self.hub.audience.forget(room_id, speaker)

    # -- tokens -------------------------------------------------------------------------------

    async def token_route(
        self, conn: ServerConnection, request: Request, parts: list[str], method: str
    ) -> Response:
        caller = await self.tokens.web_caller(request)
        if parts == ["tokens"] and method == "GET":
            return json_response(conn, 200, await self.tokens.list(caller))
        if parts == ["tokens"] and method == "POST":
            try:
                body = json.loads(getattr(conn.protocol, "body", b"") or b"{}")
            except (ValueError, UnicodeDecodeError):
                raise BotApiError(400, "the body must be a JSON object") from None
            if not isinstance(body, dict):
                raise BotApiError(400, "the body must be a JSON object")
            return json_response(conn, 200, await self.tokens.create(caller, body))
        if len(parts) == 3 and parts[2] == "revoke" and method == "POST":
            return json_response(conn, 200, await self.tokens.revoke(caller, parts[1]))
        raise BotApiError(404, "Not found")
