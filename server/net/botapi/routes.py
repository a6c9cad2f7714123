"""The routes of the lichess-compatible Bot and Board API (``docs/BOT_API.md``).

    GET  /api/account                          the caller: id, username, title, perfs
    GET  /api/account/playing                  {"nowPlaying": [...]}: its running API games
    POST /api/token/test                       tokens (commas between) -> owner and scopes
    POST /api/bot/account/upgrade              an account with no games becomes a bot
    GET  /api/stream/event                     ndjson: challenges, gameStart, gameFinish
    GET  /api/challenge                        {"in": [...], "out": [...]}
    POST /api/challenge/{username}             rated, clock, color, variant, fen, seats, bots
    POST /api/challenge/ai                     level 1-8: a casual game against Kibitz's bots
    POST /api/challenge/{id}/accept | /decline (reason) | /cancel
    GET  /api/{bot,board}/game/stream/{id}     ndjson: gameFull, gameState, chatLine
    POST /api/{bot,board}/game/{id}/move/{move}[?offeringDraw=true]   the game's notation
    POST /api/{bot,board}/game/{id}/chat       room=player|spectator, text
    POST /api/{bot,board}/game/{id}/abort | /resign | /draw/{yes,no}
    POST /api/{bot,board}/game/{id}/claim-victory | /claim-draw
    GET  /api/{bot,board}/game/{id}/chat       the players' chat so far: [{user, text}]
    GET  /api/tokens, POST /api/tokens, POST /api/tokens/{id}/revoke   (the account page)

and, public as on lichess (no token): ``GET /api/user/{name}``, ``GET /api/users/status``,
``GET /api/bot/online`` (:mod:`.users`) and ``GET /game/export/{id}`` (:mod:`.export`).

Every refusal is lichess's ``{"error": "..."}`` with 400, 401, 403, 404 or 429, and changes
nothing; as on lichess, a token is checked for the route's scope first (403 ``Missing
scope``), then the game is found (404), then the account's kind (400). The ``bot`` routes
are a bot account's (``bot:play``), the ``board`` routes a person's (``board:play``); each
plays the seat its account holds in the room. ``url`` fields are absolute, on the address
the client called (:func:`.wire.base_url`).
"""

from __future__ import annotations

import asyncio
import re
from typing import Any
from urllib.parse import parse_qs

from ...store.api_tokens import ApiStore
from ..node.hub import Hub
from ..protocol.handlers import Handlers
from ..protocol.social import CHAT_RATE, CHAT_WINDOW, chat, readable_chat
from ..services.accounts import Accounts
from ..services.analysis.service import Analyses
from ..services.matchmaking.seeks import Seeks
from ..transport.admission import Admission, Refused, Work, unlimited
from ..transport.codec import Codec
from ..transport.connection import Limits, TokenBucket
from ..transport.errors import ProtocolError
from ..transport.http_types import Request, Response
from . import bot_seats
from .challenges import Challenges, flag
from .export import Export
from .games import GameStreams, SeatListener
from .tokens import Caller, Tokens
from .users import MAX_ONLINE_BOTS, Presence, Users, perfs
from .variants import find_game
from .wire import (
    BotApiError,
    Stream,
    base_url,
    content_response,
    error_response,
    form,
    json_response,
    stream,
)

PREFIXES = (
    "/api/account",
    "/api/bot/",
    "/api/board/",
    "/api/stream/event",
    "/api/challenge",
    "/api/tokens",
    "/api/token/test",
    "/api/user/",
    "/game/export/",
)
#: the routes that take no token, as on lichess
PUBLIC = ("/api/user/", "/api/users/status", "/api/bot/online", "/game/export/")
ID = re.compile(r"[A-Za-z0-9_-]{1,16}")

# Limits
#: event streams, and game streams, one account may hold open on one node
MAX_EVENT_STREAMS = 4
MAX_GAME_STREAMS = 16
#: chat budgets kept, one per account, game and chat room (the table is emptied past this)
MAX_BUDGETS = 10_000


def is_api_path(path: str) -> bool:
    """The Bot API's paths (``/api/users/status`` is lichess's, not a user's)."""
    return path.startswith(PREFIXES) or path == "/api/users/status"


class BotApi:
    """The Bot and Board API of one hub (started once with the server)."""

    def __init__(
        self,
        hub: Hub,
        handlers: Handlers,
        accounts: Accounts,
        seeks: Seeks,
        admission: Admission | None = None,
        analyses: Analyses | None = None,
    ) -> None:
        self.hub = hub
        self.handlers = handlers
        #: the node's admission of new work, shared with the WebSocket door (None: none)
        self.admission = admission
        self.accounts = accounts
        self.seeks = seeks
        self.store = ApiStore(hub.store.redis, hub.store.accounts_prefix + "botapi:")
        self.tokens = Tokens(self.accounts, self.store)
        self.challenges: Challenges | None = None
        self.games = GameStreams(hub, self.accounts)
        self.users = Users(hub, self.accounts, self.store)
        self.presence = Presence(hub, self.store)
        self.export = Export(hub, self.games, analyses)
        #: (account, kind) -> streams open on this node
        self.open: dict[tuple[str, str], int] = {}
        #: (account, game, chat room) -> its chat budget: CHAT_RATE lines a CHAT_WINDOW, as a
        #: WebSocket connection has in one room (lichess-bot greets both rooms of every game
        #: it starts and ends, two games at a time: an account-wide budget refused it)
        self.chat_budgets: dict[tuple[str, str, str], TokenBucket] = {}

    async def start(self) -> None:
        self.challenges = Challenges(
            self.hub, self.accounts, self.seeks, self.store, self.handlers.bot_strengths
        )
        await self.challenges.start()
        self.presence.start()

    async def close(self) -> None:
        if self.challenges is not None:
            await self.challenges.close()

    async def route(self, request: Request) -> Response | Stream:
        try:
            return await self._route(request)
        except BotApiError as exc:
            return error_response(exc)

    async def _route(self, request: Request) -> Response | Stream:
        path, method = request.path, request.method
        if path.startswith(PUBLIC):
            return await self.public_route(request, path, method)
        parts = path.strip("/").split("/")[1:]  # after "api"
        if parts[0] == "tokens":
            return await self.tokens.route(request, parts, method)
        if parts == ["token", "test"]:
            return json_response(200, await self.tokens.test(request))
        caller = await self.tokens.caller(request)
        want = (
            "GET"
            if parts in (["account"], ["account", "playing"], ["stream", "event"], ["challenge"])
            or (len(parts) == 4 and parts[1:3] == ["game", "stream"])
            else "POST"
        )
        chat_read = len(parts) == 4 and parts[1] == "game" and parts[3] == "chat"
        if method != want and not (chat_read and method == "GET"):
            raise BotApiError(405, f"{path} takes a {want}")
        base = base_url(request)
        if parts == ["account"]:
            return json_response(200, await self.account(caller, base))
        if parts == ["account", "playing"]:
            return json_response(200, {"nowPlaying": await self.playing(caller)})
        if parts == ["bot", "account", "upgrade"]:
            return json_response(200, await self.upgrade(caller))
        if parts == ["stream", "event"]:
            return await self.event_stream(caller, base)
        assert self.challenges is not None
        if parts == ["challenge"]:
            caller.need("challenge:read" if not caller.bot else "bot:play")
            mine = [
                self.challenges.directed(c, caller.id, base)
                for c in await self.challenges.open_challenges(caller.id)
            ]
            return json_response(
                200,
                {
                    "in": [c for c in mine if c["direction"] == "in"],
                    "out": [c for c in mine if c["direction"] == "out"],
                },
            )
        if parts[0] == "challenge" and len(parts) in (2, 3):
            if not ID.fullmatch(parts[1]):
                raise BotApiError(404, "Not found")
            fields = form(request)
            if parts[1] == "ai" and len(parts) == 2:
                # lichess's route: a Kibitz bot at once (an account named "ai" is not
                # challenged over the API)
                strengths = self.handlers.bot_strengths(find_game(self.hub.registry, fields).name)
                with self.admitted(request, caller, bot=True) as work:
                    room_id = self.hub.make_secret(6)
                    work.made(room_id)  # its bot's first search is already the caller's
                    made = await bot_seats.against_ai(
                        self.challenges, caller, fields, strengths, self.title, room_id=room_id
                    )
                return json_response(201, made)
            if len(parts) == 2:
                with self.admitted(request, caller, bot=bool(fields.get("bots"))) as work:
                    made = await self.challenges.create(caller, parts[1], fields, base)
                    work.made(made["id"])  # with bots: a game with a bot, the challenger's
                return json_response(200, made)
            if parts[2] == "accept":
                await self.challenges.accept(caller, parts[1])
            elif parts[2] == "decline":
                await self.challenges.decline(caller, parts[1], fields.get("reason", "generic"))
            elif parts[2] == "cancel":
                await self.challenges.cancel(caller, parts[1])
            else:
                raise BotApiError(404, "Not found")
            return json_response(200, {"ok": True})
        if parts[0] in ("bot", "board") and len(parts) >= 3 and parts[1] == "game":
            caller.need(f"{parts[0]}:play")  # lichess's order: the scope, the game, the kind
            return await self.game_route(request, caller, parts[0], parts[2:])
        raise BotApiError(404, "Not found")

    def admitted(self, request: Request, caller: Caller, *, bot: bool = False) -> Work:
        """New work from the caller's account and address (``bot``: a game with a bot), to
        create inside the returned context: 429 past the limits shared with the WebSocket
        door (:class:`~server.net.transport.admission.Admission`), with nothing counted."""
        if self.admission is None:
            return unlimited()
        try:
            return self.admission.start(request.address, caller.name, bot=bot)
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

    async def account(self, caller: Caller, base: str) -> dict[str, Any]:
        """Any token may read its own account, as on lichess."""
        profile = await self.accounts.profile(caller.name)
        out: dict[str, Any] = {
            "id": caller.id,
            "username": caller.name,
            "perfs": perfs(profile["ratings"]),
            "createdAt": int(profile["created"] * 1000),
            "url": f"{base}#/@/{caller.name}",
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

    async def public_route(self, request: Request, path: str, method: str) -> Response:
        """The routes that take no token: a user's public data and status, the bots online,
        a game's export (:mod:`.users`, :mod:`.export`)."""
        if method != "GET":
            raise BotApiError(405, f"{path} takes a GET")
        query = parse_qs(request.query)
        base = base_url(request)
        parts = path.strip("/").split("/")
        if parts[:2] == ["api", "user"] and len(parts) == 3:
            return json_response(200, await self.users.public_data(parts[2], base))
        if path == "/api/users/status":
            ids = query.get("ids", [""])[-1]
            with_ids = query.get("withGameIds", ["false"])[-1].lower() == "true"
            return json_response(200, await self.users.statuses(ids, with_ids))
        if path == "/api/bot/online":
            try:
                nb = int(query.get("nb", ["100"])[-1])
            except ValueError:
                raise BotApiError(400, "nb: a whole number") from None
            body = await self.users.online_bots(max(1, min(nb, MAX_ONLINE_BOTS)), base)
            return content_response(200, body, "application/x-ndjson")
        if parts[:2] == ["game", "export"] and len(parts) == 3 and ID.fullmatch(parts[2]):
            accept = request.headers.get("Accept", "")
            body, kind = await self.export.export(parts[2], request.query, accept, base)
            return content_response(200, body, kind)
        raise BotApiError(404, "Not found")

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

    async def event_stream(self, caller: Caller, base: str) -> Stream:
        """The caller's events (``base``: this server's URL, for the challenges' ``url``);
        while it is open the caller is online (:class:`.users.Presence`)."""
        assert self.challenges is not None
        caller.need("bot:play" if caller.bot else "challenge:read")
        release = self.hold(caller, "events", MAX_EVENT_STREAMS)
        challenges = self.challenges
        presence = self.presence
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(maxsize=64)
        challenges.streams.setdefault(caller.id, []).append(queue)
        try:
            await presence.arrived(caller)
        except BaseException:
            await self.drop_events(caller, queue)
            await release()
            raise

        async def close() -> None:
            await self.drop_events(caller, queue)
            await release()
            await presence.left(caller)

        return stream(lambda: challenges.event_source(caller, queue, base), close)

    async def drop_events(self, caller: Caller, queue: asyncio.Queue[Any]) -> None:
        assert self.challenges is not None
        queues = self.challenges.streams.get(caller.id, [])
        if queue in queues:
            queues.remove(queue)
        if not queues:
            self.challenges.streams.pop(caller.id, None)

    # -- games --------------------------------------------------------------------------------

    async def seat_of(self, caller: Caller, kind: str, room_id: str) -> tuple[int, str]:
        """The caller's seat and its token in an API game: 404 when there is no such game
        or it is not the caller's, then 400 when the route is not for the caller's kind of
        account (``kind``: ``bot`` or ``board``), as lichess checks."""
        seats = await self.store.game_seats(room_id) if ID.fullmatch(room_id) else {}
        mine = seats.get(caller.id)
        if mine is None:
            there = ID.fullmatch(room_id) and await self.hub.store.exists(room_id)
            raise BotApiError(404, "Not your game" if there else "No such game")
        if kind == "bot" and not caller.bot:
            raise BotApiError(
                400,
                "This endpoint can only be used with a Bot account. See "
                "https://lichess.org/api#operation/botAccountUpgrade",
            )
        if kind == "board" and caller.bot:
            raise BotApiError(400, "This endpoint cannot be used with a Bot account.")
        return int(mine["seat"]), str(mine["token"])

    async def game_route(
        self, request: Request, caller: Caller, kind: str, rest: list[str]
    ) -> Response | Stream:
        if rest[0] == "stream" and len(rest) == 2:
            seat, _ = await self.seat_of(caller, kind, rest[1])
            await self.games.read(rest[1], seat)  # a gone room: 404 now, not a stream
            release = self.hold(caller, "games", MAX_GAME_STREAMS)
            game = self.games.stream(request.conn, rest[1], seat)
            inner = game.on_close

            async def close() -> None:
                if inner is not None:
                    await inner()
                await release()

            return stream(game.source, close)
        room_id = rest[0]
        seat, token = await self.seat_of(caller, kind, room_id)
        action = rest[1:]
        if action == ["chat"] and request.method == "GET":
            return json_response(200, await self.chat_lines(room_id))
        fields = form(request)
        if len(action) == 2 and action[0] == "move":
            text = await self.games.move_text(room_id, action[1])  # the game's notation
            draw = flag(fields, "offeringDraw")
            await self.games.command(room_id, "move", seat, token, text=text)
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
            await self.chat(request, caller, room_id, seat, token, fields)
        else:
            raise BotApiError(404, "Not found")
        return json_response(200, {"ok": True})

    async def chat_lines(self, room_id: str) -> list[dict[str, str]]:
        """lichess's game chat: the players' chat so far, oldest first, ``{user, text}``
        (the spectators' room is not the players' chat, on lichess as here)."""
        entries = await readable_chat(self.hub, self.handlers.seating.archived, room_id)
        return [
            {"text": e["text"], "user": e["from"]} for e in entries if e["channel"] == "players"
        ]

    async def chat(
        self,
        request: Request,
        caller: Caller,
        room_id: str,
        seat: int,
        token: str,
        fields: dict[str, str],
    ) -> None:
        room = fields.get("room", "player")
        if room not in ("player", "spectator"):
            raise BotApiError(400, "room: player or spectator")
        key = (caller.id, room_id, room)
        budget = self.chat_budgets.get(key)
        if budget is None:
            if len(self.chat_budgets) >= MAX_BUDGETS:
                self.chat_budgets.clear()
            budget = self.chat_budgets[key] = TokenBucket(CHAT_RATE / CHAT_WINDOW, CHAT_RATE)
        if not budget.take():
            raise BotApiError(429, "Too many requests. Try again later.")
        # the chat handler itself, for a speaker that holds the seat (or, in the spectators'
        # room, only watches): the same checks, the same store-then-send
        speaker = SeatListener(request.conn, Codec(), Limits())
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
