"""Who gets in: connections per address, new work per address and account, games with a bot
per player, and shedding new work when the node is saturated.

**Overload.** A task wakes every :attr:`Admission.tick` seconds and measures how late it
wakes: the event loop's lag, smoothed. While the lag is over ``lag_limit`` the node is
*overloaded*: it refuses new WebSocket connections (HTTP 503, ``Retry-After``) and new
rooms (error ``busy``), and goes on serving the connections and games it has — it slows
down for them, fairly (one loop), rather than refusing their moves. It recovers once the lag
falls back under half the limit (no flapping).

**Addresses.** At most ``per_ip`` open connections per client address (HTTP 429 beyond);
loopback counts like any address.

**New work.** Every request that creates work, through either door — a room
(``create_room``), a tournament (``tournament_create``), a Bot API challenge to a player or
to a Kibitz bot (``POST /api/challenge/...``) — is admitted here, by :meth:`Admission.start`:

* at most ``rooms_per_minute`` a minute (a burst of as many) from one client address, and
  as many from one account, whichever door they come through;
* a game with a bot (``create_room`` with ``bots``, ``add_bot``, ``/api/challenge/ai``)
  counts against its owner — the account, else the address — who may have at most
  ``bot_games`` of them in progress at once (a game that ended, or left this node, no
  longer counts).

A refusal is :class:`Refused` (the WebSocket's ``too_many``, the Bot API's 429): it names
the limit and when to try again, and counts nothing. Work admitted and then refused further
on (bad fields, a busy node) gives its count back (:class:`Work`). The counts are this
node's, in memory: ``--workers N`` nodes behind one balancer allow N times as much.

The owner of each game with a bot is kept (:meth:`Admission.owner_of`) so that the bot
runner can share its workers fairly between owners
(:class:`~server.net.services.seats.bots.FairShare`).
"""

from __future__ import annotations

import asyncio
import itertools
import math
import time
from collections import Counter
from collections.abc import Callable
from types import TracebackType

from ...rooms.room import Room
from .connection import TokenBucket
from .metrics import Metrics

#: addresses and accounts whose rate is kept (the table is emptied past this: bounded memory)
MAX_BUCKETS = 10_000
#: rooms whose owner is kept; past this, the rooms no longer in progress are forgotten
MAX_OWNED = 50_000


def owner_key(address: str, account: str | None) -> str:
    """Who owns new work: ``user:{account}`` (lower-cased) for an account, else
    ``ip:{address}``."""
    return f"user:{account.lower()}" if account else f"ip:{address}"


class Refused(Exception):
    """New work refused by a limit; nothing was counted.

    Attributes:
        limit: ``rate`` (too much new work a minute) or ``bot_games`` (too many games with
            a bot in progress).
        message: what the limit is and when to try again, for the client.
        retry_after: whole seconds until the request may succeed (``None``: when one of
            the owner's games with a bot has ended).
    """

    def __init__(self, limit: str, message: str, retry_after: int | None) -> None:
        super().__init__(message)
        self.limit = limit
        self.message = message
        self.retry_after = retry_after


class Work:
    """New work admitted by :meth:`Admission.start`, used as a context manager around its
    creation: a block that raises gives back what was counted. A game with a bot names its
    room with :meth:`made` before the room exists (its bots' first search is its owner's)
    and counts from then on until it ends."""

    __slots__ = ("_admission", "_buckets", "_owner", "_slot", "room")

    def __init__(
        self,
        admission: Admission | None,
        buckets: list[TokenBucket],
        owner: str,
        slot: str | None,
    ) -> None:
        self._admission = admission
        self._buckets = buckets
        self._owner = owner
        self._slot = slot
        #: the room of a game with a bot, once named
        self.room: str | None = None

    def made(self, room: str) -> None:
        """The work is (or is about to be) the room ``room``: a game with a bot counts
        against its owner from now on (a room that is somebody's already: no change)."""
        if self._admission is not None and self._slot is not None:
            if self._admission._settle(self._owner, self._slot, room):
                self.room = room
            self._slot = None

    def __enter__(self) -> Work:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        admission = self._admission
        if admission is None:
            return
        if kind is not None:
            for bucket in self._buckets:
                bucket.give_back()
        if self._slot is not None:  # never named: nothing to count
            admission._settle(self._owner, self._slot, None)
        if self.room is not None:
            admission.making.discard(self.room)
            if kind is not None:  # not made after all
                admission.forget(self.room)


def unlimited() -> Work:
    """Work admitted by nobody (a server without admission: tests of one part)."""
    return Work(None, [], "", None)


class Admission:
    def __init__(
        self,
        metrics: Metrics,
        *,
        lag_limit: float = 0.5,
        per_ip: int = 256,
        rooms_per_minute: int = 30,
        bot_games: int = 10,
        alive: Callable[[str], bool] = lambda room: True,
        tick: float = 0.1,
    ) -> None:
        self.metrics = metrics
        self.lag_limit = lag_limit
        self.per_ip = per_ip
        self.tick = tick
        self.lag = 0.0
        self.overloaded = False
        self.open: Counter[str] = Counter()
        # Limits
        #: new work a minute from one address, and from one account
        self.rooms_per_minute = rooms_per_minute
        #: games with a bot one owner may have in progress at once
        self.bot_games = bot_games
        #: ``ip:{address}`` or ``user:{account}`` -> its rate of new work
        self.creations: dict[str, TokenBucket] = {}
        #: owner -> its games with a bot in progress (and reservations, ``?n``, being made)
        self.bot_rooms: dict[str, set[str]] = {}
        #: room -> the owner of its bots
        self.owners: dict[str, str] = {}
        #: rooms named by their work and not made yet (in progress, though not hosted yet)
        self.making: set[str] = set()
        #: whether a room is still in progress on this node (the server's: hosted, not over)
        self.alive = alive
        self._slots = itertools.count(1)

    async def watch_lag(self) -> None:
        """Measure the loop's lag for as long as the node runs."""
        while True:
            expected = time.monotonic() + self.tick
            await asyncio.sleep(self.tick)
            late = max(0.0, time.monotonic() - expected)
            self.note_lag(late)

    def note_lag(self, late: float) -> None:
        self.lag = 0.7 * self.lag + 0.3 * late if late < self.lag else late
        if not self.overloaded and self.lag > self.lag_limit:
            self.overloaded = True
        elif self.overloaded and self.lag < self.lag_limit / 2:
            self.overloaded = False
        self.metrics.loop_lag.set(self.lag)
        self.metrics.overloaded.set(1 if self.overloaded else 0)

    def admit(self, address: str) -> str | None:
        """Why a new connection from ``address`` is refused now, or None."""
        if self.overloaded:
            self.metrics.shed.labels("connection").inc()
            return "overloaded"
        if self.open[address] >= self.per_ip:
            self.metrics.shed.labels("per_ip").inc()
            return "per_ip"
        return None

    def opened(self, address: str) -> None:
        self.open[address] += 1

    def closed(self, address: str) -> None:
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]

    # -- new work -----------------------------------------------------------------------------

    def start(
        self,
        address: str,
        account: str | None = None,
        *,
        bot: bool = False,
        room: str = "",
        rate: bool = True,
    ) -> Work:
        """Admit new work from ``address`` (and ``account``, when logged in); ``bot``: a
        game with a bot, counted against its owner (``room``: the room a bot joins, when it
        exists already: a room counted once is not counted again); ``rate=False``: not new
        work a minute (a bot added to a room that was counted when it was made). Raises
        :class:`Refused`, having counted nothing."""
        who = [("address", f"ip:{address}")]
        if account:
            who.append(("account", owner_key(address, account)))
        buckets = [self._bucket(key) for _, key in who] if rate else []
        waits = [bucket.due() for bucket in buckets] or [0.0]
        worst = max(range(len(waits)), key=waits.__getitem__)
        if waits[worst] > 0:
            self.metrics.shed.labels("room_quota").inc()
            retry = math.ceil(min(waits[worst], 3600.0))
            raise Refused(
                "rate",
                f"too many new games, challenges and tournaments from your {who[worst][0]}"
                f" (at most {self.rooms_per_minute} a minute): try again in {retry} s",
                retry,
            )
        owner = owner_key(address, account)
        slot = None
        if bot and room not in self.owners:
            if self.bot_games_of(owner) >= self.bot_games:
                self.metrics.shed.labels("bot_games").inc()
                raise Refused(
                    "bot_games",
                    f"at most {self.bot_games} games with a bot in progress at once per "
                    "player: finish or resign one first",
                    None,
                )
            slot = f"?{next(self._slots)}"
            self.bot_rooms.setdefault(owner, set()).add(slot)
        for bucket in buckets:
            bucket.take()
        return Work(self, buckets, owner, slot)

    def bot_games_of(self, owner: str) -> int:
        """The owner's games with a bot in progress here (those over are forgotten now)."""
        rooms = self.bot_rooms.get(owner)
        if not rooms:
            return 0
        making = self.making
        for room in [r for r in rooms if r[0] != "?" and r not in making and not self.alive(r)]:
            rooms.discard(room)
            self.owners.pop(room, None)
        if not rooms:
            del self.bot_rooms[owner]
            return 0
        return len(rooms)

    def owner_of(self, room: str) -> str:
        """Whose bots play in ``room``: its owner, or the room itself when nobody owns it
        (a tournament's games, a game made before this node started)."""
        return self.owners.get(room, room)

    def _settle(self, owner: str, slot: str, room: str | None) -> bool:
        """A reservation becomes ``room`` (True), unless it is somebody's already, or
        nothing."""
        rooms = self.bot_rooms.get(owner)
        if rooms is not None:
            rooms.discard(slot)
            if not rooms:
                del self.bot_rooms[owner]
        if room is None or room in self.owners:
            return False
        self.bot_rooms.setdefault(owner, set()).add(room)
        self.owners[room] = owner
        self.making.add(room)
        self._bound()
        return True

    def _bound(self) -> None:
        if len(self.owners) > MAX_OWNED:
            for owner in list(self.bot_rooms):
                self.bot_games_of(owner)

    def forget(self, room: str) -> None:
        """The game no longer counts against its owner."""
        owner = self.owners.pop(room, None)
        rooms = self.bot_rooms.get(owner or "")
        if owner is not None and rooms is not None:
            rooms.discard(room)
            if not rooms:
                del self.bot_rooms[owner]

    async def game_over(self, room: Room) -> None:
        """``hub.on_over``: the game no longer counts against its owner."""
        self.forget(room.id)

    def _bucket(self, key: str) -> TokenBucket:
        bucket = self.creations.get(key)
        if bucket is None:
            if len(self.creations) > MAX_BUCKETS:  # forget idle addresses: bounded memory
                self.creations.clear()
            bucket = self.creations[key] = TokenBucket(
                self.rooms_per_minute / 60, self.rooms_per_minute
            )
        return bucket
