"""``kibitz bot``'s runner: an account's games played over the Bot API by a player.

    runner = BotRunner(ApiClient(url, token), make_player, Terms(games={"chess"}))
    await runner.run()          # until stop(), or a refusal no retry mends (RunnerError)

It logs in (``GET /api/account``; ``upgrade=True`` makes it a bot account first), follows
the event stream, accepts the challenges :class:`Terms` allows and declines the others in
lichess's words (``reason``: ``variant``, ``rated``, ``casual``, ``tooFast``, ``tooSlow``,
``timeControl``; ``later`` while ``concurrency`` games are running), and plays every game it
starts (``gameStart``, its own challenges' too, and the running games the stream lists when
it opens) on a game stream of its own. Whenever a ``gameState`` gives its seat
``legalMoves`` it asks the game's player for a move (in a thread, so the loop stays free)
and sends it. A chess game without ``legalMoves`` (a server of the lichess fields only) is
played from the moves' parity, its legal moves found with python-chess.

A player is made for each game by ``make_player(game_name)`` and needs one method,
``move(game) -> str``: ``game`` is the game's ``gameFull`` with ``state`` the latest
``gameState`` (``legalMoves``, ``moves``, the clocks) and ``views`` the seat's ``view`` of
each position seen so far; the answer is one of ``state["legalMoves"]``. An optional
``close()`` is called when the game ends. A move that raises, or that the server refuses,
is logged and asked again at the next position; a game whose player cannot be made is
resigned at once.

A stream that drops is opened again after a pause that doubles from ``backoff[0]`` up to
``backoff[1]`` seconds (back to the start once a line arrives); a game stream opened again
starts with ``gameFull``, so a game still running is resumed where it is. Log lines
(``kibitz.bot``): INFO for the login, each challenge's answer, each game's start and end;
DEBUG for each move; WARNING for a drop and its retry.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import quote

import chess

from .http import ApiClient, ApiError, Unreachable

log = logging.getLogger("kibitz.bot")
Json = dict[str, Any]


class Player(Protocol):
    """What plays one game: ``move(game)`` returns one of ``game["state"]["legalMoves"]``."""

    def move(self, game: Json) -> str: ...


class RunnerError(Exception):
    """What the runner cannot go on from (a refused token, not a bot account)."""


def game_name(variant_key: str) -> str:
    """A challenge's or game's ``variant.key`` as a Kibitz game name (lichess's
    ``standard`` is chess)."""
    return "chess" if variant_key in ("standard", "chess") else variant_key


@dataclass(frozen=True)
class Terms:
    """The challenges the runner accepts: its games (Kibitz names), rated and/or casual,
    the clock's base time in seconds (``max_base`` None: no upper bound), and whether a
    game without a clock is taken."""

    games: frozenset[str]
    rated: bool = True
    casual: bool = True
    min_base: float = 0.0
    max_base: float | None = None
    unlimited: bool = True

    def refusal(self, challenge: Json) -> str | None:
        """lichess's decline ``reason`` for ``challenge``, or None to accept it."""
        if game_name(challenge.get("variant", {}).get("key", "standard")) not in self.games:
            return "variant"
        if challenge.get("rated") and not self.rated:
            return "casual"
        if not challenge.get("rated") and not self.casual:
            return "rated"
        clock = challenge.get("timeControl") or {"type": "unlimited"}
        if clock.get("type") != "clock":
            return None if self.unlimited else "timeControl"
        base = float(clock.get("limit", 0))
        if base < self.min_base:
            return "tooFast"
        if self.max_base is not None and base > self.max_base:
            return "tooSlow"
        return None


class Backoff:
    """Pauses between reconnections: ``first`` seconds, doubling up to ``most``."""

    def __init__(self, first: float, most: float) -> None:
        self.first, self.most = first, most
        self.delay = first

    def reset(self) -> None:
        self.delay = self.first

    async def wait(self) -> None:
        await asyncio.sleep(self.delay)
        self.delay = min(self.most, self.delay * 2)


#: what the runner tells a listener: ("accepted" | "declined" | "started" | "resumed" |
#: "moved" | "finished", the challenge's or game's id, the challenge | the reason | the
#: gameFull | the move | the last gameState)
Listener = Callable[[str, str, Any], None]


@dataclass
class BotRunner:
    """Plays an account's games (see the module docstring)."""

    api: ApiClient
    make_player: Callable[[str], Player]
    terms: Terms
    concurrency: int = 1
    upgrade: bool = False
    backoff: tuple[float, float] = (0.5, 30.0)
    listener: Listener | None = None
    me: Json = field(default_factory=dict)
    playing: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    accepted: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        if self.concurrency < 1:
            raise ValueError("concurrency is at least 1")

    @property
    def busy(self) -> int:
        """Games running, and challenges accepted whose game has not started yet."""
        return len(self.playing) + len(self.accepted - self.playing.keys())

    def _tell(self, kind: str, key: str, detail: Any) -> None:
        if self.listener is not None:
            self.listener(kind, key, detail)

    # -- the account and the event stream -------------------------------------------------

    async def login(self) -> Json:
        """The account (``/api/account``), upgraded to a bot account if asked; retried
        while the server cannot be reached."""
        wait = Backoff(*self.backoff)
        while True:
            try:
                me = await self.api.call("GET", "/api/account")
                if me.get("title") != "BOT":
                    if not self.upgrade:
                        raise RunnerError(
                            f"{me.get('username')} is not a bot account: run once with "
                            "--upgrade (an account that has played no game yet can become one)"
                        )
                    try:
                        await self.api.call("POST", "/api/bot/account/upgrade")
                    except ApiError as exc:
                        name = me.get("username")
                        raise RunnerError(f"cannot make {name} a bot account ({exc})") from None
                    log.info("%s is a bot account now", me.get("username"))
                    me = await self.api.call("GET", "/api/account")
                break
            except ApiError as exc:
                if exc.status == 401:
                    raise RunnerError(f"the server refused the token ({exc})") from None
                raise RunnerError(f"cannot log in: {exc}") from None
            except Unreachable as exc:
                log.warning("%s; trying again in %g s", exc, wait.delay)
                await wait.wait()
        self.me = me
        log.info("logged in to %s as %s", self.api.base, me.get("username"))
        return me

    async def run(self) -> None:
        """Log in, then follow the event stream until cancelled (reconnecting)."""
        if not self.me:
            await self.login()
        wait = Backoff(*self.backoff)
        try:
            while True:
                try:
                    async with contextlib.aclosing(self.api.stream("/api/stream/event")) as events:
                        async for event in events:
                            wait.reset()
                            if event is not None:
                                await self.on_event(event)
                    log.warning("the event stream ended; opening it again in %g s", wait.delay)
                except Unreachable as exc:
                    log.warning("event stream: %s; opening it again in %g s", exc, wait.delay)
                except ApiError as exc:
                    if exc.status in (401, 403):
                        raise RunnerError(f"the server refused the event stream ({exc})") from None
                    log.warning("event stream: %s; opening it again in %g s", exc, wait.delay)
                await wait.wait()
        finally:
            for task in list(self.playing.values()):
                task.cancel()
            for task in list(self.playing.values()):
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def on_event(self, event: Json) -> None:
        kind = event.get("type")
        if kind == "challenge":
            await self.on_challenge(event["challenge"])
        elif kind == "gameStart":
            game = event.get("game", {})
            self.start_game(str(game.get("gameId") or game.get("id")))
        elif kind in ("challengeCanceled", "challengeDeclined"):
            challenge = event.get("challenge", {})
            self.accepted.discard(challenge.get("id", ""))
            why = challenge.get("declineReason") or challenge.get("declineReasonKey") or ""
            log.info("challenge %s %s %s", challenge.get("id"), kind[9:].lower(), why)

    async def on_challenge(self, challenge: Json) -> None:
        cid = str(challenge["id"])
        if challenge.get("challenger", {}).get("id") == self.me.get("id"):
            return  # our own, waiting for its answer
        if cid in self.accepted or cid in self.playing:
            return  # listed again by a reopened stream
        who = challenge.get("challenger", {}).get("name", "?")
        what = _describe(challenge)
        reason = self.terms.refusal(challenge)
        if reason is None and self.busy >= self.concurrency:
            reason = "later"
        try:
            if reason is None:
                self.accepted.add(cid)
                await self.api.call("POST", f"/api/challenge/{cid}/accept")
                log.info("challenge %s from %s (%s): accepted", cid, who, what)
                self._tell("accepted", cid, challenge)
            else:
                await self.api.call("POST", f"/api/challenge/{cid}/decline", {"reason": reason})
                log.info("challenge %s from %s (%s): declined (%s)", cid, who, what, reason)
                self._tell("declined", cid, reason)
        except (ApiError, Unreachable) as exc:
            self.accepted.discard(cid)
            log.warning("challenge %s from %s: could not answer it: %s", cid, who, exc)

    async def challenge(self, username: str, game: str, **terms: Any) -> str:
        """Challenge ``username`` to ``game`` (``terms``: the API's fields, e.g.
        ``{"clock.limit": 60}``); the challenge's id, which will be its game's."""
        form = {"variant": "standard" if game == "chess" else game, **terms}
        made = await self.api.call("POST", f"/api/challenge/{quote(username, safe='')}", form)
        log.info("challenged %s to %s: challenge %s", username, game, made.get("id"))
        return str(made["id"])

    # -- games ----------------------------------------------------------------------------

    def start_game(self, game_id: str) -> None:
        self.accepted.discard(game_id)
        if game_id in self.playing:
            return
        task = asyncio.create_task(self.play(game_id), name=f"game-{game_id}")
        self.playing[game_id] = task
        task.add_done_callback(lambda _: self.playing.pop(game_id, None))

    async def play(self, game_id: str) -> None:
        """Play one game to its end on its game stream, opened again when it drops."""
        game = Game(game_id, self.me.get("id", ""))
        wait = Backoff(*self.backoff)
        try:
            while not game.over:
                try:
                    stream = self.api.stream(f"/api/bot/game/stream/{game_id}")
                    async with contextlib.aclosing(stream) as lines:
                        async for line in lines:
                            wait.reset()
                            if line is not None and await self.on_game_line(game, line):
                                break
                    if not game.over:
                        log.warning("game %s: its stream ended early; opening it again", game_id)
                except Unreachable as exc:
                    log.warning(
                        "game %s: %s; opening its stream again in %g s", game_id, exc, wait.delay
                    )
                except ApiError as exc:
                    if exc.status in (400, 401, 403, 404):
                        log.error("game %s: the server refused its stream (%s)", game_id, exc)
                        return
                    log.warning(
                        "game %s: %s; opening its stream again in %g s", game_id, exc, wait.delay
                    )
                if not game.over:
                    await wait.wait()
        finally:
            if game.player is not None and hasattr(game.player, "close"):
                with contextlib.suppress(Exception):
                    await asyncio.to_thread(game.player.close)

    async def on_game_line(self, game: Game, line: Json) -> bool:
        """Take one line of a game stream; True once the game is over."""
        kind = line.get("type")
        if kind == "gameFull":
            first = game.full is None
            game.take_full(line)
            if first:
                try:
                    game.player = await asyncio.to_thread(self.make_player, game.name)
                except Exception as exc:  # an engine that will not start, a class that fails
                    log.error("game %s: no player for %s (%s); resigning", game.id, game.name, exc)
                    with contextlib.suppress(ApiError, Unreachable):
                        await self.api.call("POST", f"/api/bot/game/{game.id}/resign")
                    return False  # its end comes down the stream
                log.info("game %s started: %s, %s", game.id, game.name, game.describe())
                self._tell("started", game.id, line)
            else:
                log.info("game %s: resumed", game.id)
                self._tell("resumed", game.id, line)
            state = line.get("state", {})
        elif kind == "gameState":
            state = line
        elif kind == "opponentGone":
            if line.get("gone") and line.get("claimWinInSeconds") == 0:
                log.info("game %s: the opponent is gone; claiming the win", game.id)
                with contextlib.suppress(ApiError, Unreachable):
                    await self.api.call("POST", f"/api/bot/game/{game.id}/claim-victory")
            return False
        else:
            return False
        if game.full is None:
            return False
        game.take_state(state)
        if game.over:
            log.info("game %s over: %s", game.id, game.result())
            self._tell("finished", game.id, game.state)
            return True
        await self.answer(game)
        return False

    async def answer(self, game: Game) -> None:
        """Send a move if the seat has to act and has not answered this position yet."""
        legal = game.legal()
        key = (game.state.get("moves", ""), tuple(legal))
        if not legal or key == game.answered or game.player is None:
            return
        game.answered = key
        view = dict(game.full or {}, state=dict(game.state, legalMoves=legal), views=game.views)
        try:
            move = await asyncio.to_thread(game.player.move, view)
        except Exception as exc:  # the player's fault: told, and asked again next time
            log.error("game %s: the player failed: %r", game.id, exc)
            game.answered = None
            return
        try:
            await self.api.call("POST", f"/api/bot/game/{game.id}/move/{quote(move, safe='')}")
            log.debug("game %s: played %s", game.id, move)
            self._tell("moved", game.id, move)
        except (ApiError, Unreachable) as exc:
            log.warning("game %s: move %s not taken: %s", game.id, move, exc)
            game.answered = None


class Game:
    """One game as its stream has told it."""

    def __init__(self, game_id: str, me: str) -> None:
        self.id = game_id
        self.me = me
        self.full: Json | None = None
        self.state: Json = {}
        self.views: list[Any] = []
        self.player: Player | None = None
        self.answered: tuple[str, tuple[str, ...]] | None = None
        self.name = "chess"
        self.seat: int | None = None

    @property
    def over(self) -> bool:
        return bool(self.state) and self.state.get("status", "started") != "started"

    def take_full(self, full: Json) -> None:
        self.full = {k: v for k, v in full.items() if k != "state"}
        self.name = str(full.get("game") or game_name(full.get("variant", {}).get("key", "")))
        seat = full.get("seat")
        if seat is None:  # lichess's fields only: our colour by our id
            ids = [full.get(c, {}).get("id") for c in ("white", "black")]
            seat = ids.index(self.me) if self.me in ids else None
        self.seat = seat
        self.full["seat"], self.full["game"] = seat, self.name
        self.views = []

    def take_state(self, state: Json) -> None:
        self.state = state
        view = state.get("view")
        if view is not None and (not self.views or self.views[-1] != view):
            self.views.append(view)

    def legal(self) -> list[str]:
        """The seat's legal moves now (none: it need not act)."""
        if "legalMoves" in self.state:
            return list(self.state["legalMoves"] or [])
        if self.name != "chess" or self.seat is None or self.full is None:
            return []
        fen = self.full.get("initialFen", "startpos")
        board = chess.Board() if fen in ("startpos", None) else chess.Board(fen)
        for move in self.state.get("moves", "").split():
            board.push_uci(move)
        if board.is_game_over() or board.turn != (self.seat == 0):
            return []
        return [m.uci() for m in board.legal_moves]

    def describe(self) -> str:
        assert self.full is not None
        players = self.full.get("players")
        if isinstance(players, list) and players:
            names = [
                p.get("name") or p.get("id") or "?" if isinstance(p, dict) else str(p)
                for p in players
            ]
            return f"seat {self.seat} of {', '.join(map(str, names))}"
        colour = {0: "white", 1: "black"}.get(self.seat or 0, "?")
        other = self.full.get("black" if colour == "white" else "white", {})
        return f"{colour} against {other.get('name') or other.get('aiLevel') or '?'}"

    def result(self) -> str:
        """``mate, white won: we won (white)``."""
        status, winner = self.state.get("status"), self.state.get("winner")
        winners = self.state.get("winners")
        if isinstance(winners, list):  # more than two seats
            won = "won" if self.seat in winners else "lost"
            return f"{status}, seats {winners} won: we {won} (seat {self.seat})"
        players = (self.full or {}).get("players")
        ours: Any = self.seat
        if (not isinstance(players, list) or len(players) == 2) and self.seat in (0, 1):
            ours = ("white", "black")[self.seat or 0]
        if winner is None:
            return f"{status}, no winner (we played {ours})"
        return f"{status}, {winner} won: we {'won' if winner == ours else 'lost'} ({ours})"


def _describe(challenge: Json) -> str:
    clock = challenge.get("timeControl") or {}
    pace = clock.get("show") if clock.get("type") == "clock" else "unlimited"
    mode = "rated" if challenge.get("rated") else "casual"
    return f"{game_name(challenge.get('variant', {}).get('key', 'standard'))}, {mode} {pace}"


__all__ = ["Backoff", "BotRunner", "Game", "Player", "RunnerError", "Terms", "game_name"]
