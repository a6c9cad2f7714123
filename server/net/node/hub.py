"""Room hosting: sequence each command as decide -> append to the log -> apply -> send.

A room is hosted by exactly one node at a time: the node holding its lease in Redis. The
host keeps the :class:`~server.rooms.room.Room`, serialises its commands with one lock, and
for each command appends the events to the durable log *before* applying them and before
anybody hears of them (docs/ARCHITECTURE.md); a failed append leaves the room as it was.

Any node accepts any client. The hub routes every room operation to the room's host — in
this process, or over Redis through :class:`~server.net.node.cluster.Cluster` — and fans the
host's per-recipient renderings out to the connections of *this* node that listen to the
room (the host publishes them for the other nodes). A room whose host died is taken over
by another node when the lease expires, rebuilt from its log.

Operations (the host side runs them on the room):

* commands — ``take_seat``, ``add_bot``, ``leave_seat``, ``move``, ``resign``,
  ``request_undo``, ``answer_undo``: decide, append, apply, fan out;
* reads — ``resync``, ``info``, ``record``, ``check_token``.

Its parts own their state and are handed what they need: ``hosting``
(:mod:`~server.net.node.hosting`: the rooms hosted here, claiming and loading them, leases),
``lobby`` (:mod:`~server.net.node.lobby`: lobby entries, game ends, expiry) and ``sessions``
(:mod:`~server.net.node.sessions`), ``audience`` (:mod:`~server.net.node.audience`: this node's
connections, who listens to which room, the fan-out) and ``clocks``
(:mod:`~server.net.node.clocks`: the rooms' timers, and the end of games nobody came back to).
The hub creates rooms and sequences their commands.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any

from redis.exceptions import RedisError

from ...engine import REGISTRY, Registry
from ...rooms.room import Event, Room
from ...store import Fenced, NotHost, Store, StoreError, Unknown, Unreplicated
from ..transport.admission import Admission
from ..transport.errors import ProtocolError
from ..transport.metrics import Metrics
from .audience import Audience, Outs
from .clocks import Clocks
from .cluster import Cluster
from .hosting import COMMANDS, Hosted, Hosting, read_hosted
from .lobby import Lobby
from .sessions import Sessions

log = logging.getLogger("kibitz.hub")

ROOM_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # fullmatch only ($ lets "id\n" by)

Decide = Callable[[Room], list[Event]]
#: a read of a finished game that left Redis (the archive's: ``ArchivedReads.read``)
ArchivedRead = Callable[[str, str, dict[str, Any]], Awaitable[Any]]
#: a rematch's accounts and ratings per seat of the old room (its pairing, carried over:
#: ``server.net.services.matchmaking.rating.rematch_accounts``)
RematchAccounts = Callable[[Room, str], Awaitable[dict[int, Any]]]


class Hub:
    """One node's rooms: it creates them and sequences their commands (decide, append,
    apply, send). Its parts own the rest: ``hosting`` (the rooms hosted here, leases),
    ``lobby`` (entries, game ends, expiry), ``sessions``, ``audience`` (this node's
    connections, who listens to what, the fan-out) and ``clocks`` (timers, idle games)."""

    def __init__(
        self,
        store: Store,
        registry: Registry = REGISTRY,
        *,
        node: str = "node",
        lease_ms: int = 5000,
        clock: Callable[[], float] = time.time,
        session_ttl: int = 7 * 24 * 3600,
        make_secret: Callable[[int], str] = secrets.token_urlsafe,
        metrics: Metrics | None = None,
        admission: Admission | None = None,
        archived: ArchivedRead | None = None,
        rematch_accounts: RematchAccounts | None = None,
    ) -> None:
        self.store = store
        self.registry = registry
        self.node = node
        self.lease_ms = lease_ms
        self.clock = clock
        #: unguessable ids and secrets (room ids, seeds, seat tokens, sessions); tests that
        #: compare two runs byte for byte pass a deterministic one
        self.make_secret = make_secret
        self.metrics = metrics or Metrics()
        #: presence is counted per node: nobody is reported gone while another node runs
        self.audience = Audience(self.metrics, alone=lambda: self.cluster.peers == 0)
        #: the hosted rooms' timers (flag falls) and the end of idle games
        self.clocks = Clocks(self.run, self.spawn, clock, lambda room_id: self.rooms.get(room_id))
        #: this node's connections, and who of them listens to which room (``audience``'s)
        self.clients = self.audience.clients
        self.listeners = self.audience.listeners
        self.hosting = Hosting(
            store,
            registry,
            self.metrics,
            node=node,
            lease_ms=lease_ms,
            on_hosted=self._hosted_now,
            on_unhosted=self._unhosted,
        )
        self.lobby = Lobby(
            store, self.hosting, self.listeners, self.metrics, node=node, clock=clock
        )
        self.sessions = Sessions(store, session_ttl)
        #: the rooms hosted here (``hosting``'s)
        self.rooms = self.hosting.rooms
        #: game-end hooks (``lobby``'s: see :attr:`Lobby.on_over`)
        self.on_over = self.lobby.on_over
        #: called (synchronously) after every change of a hosted room: bots
        self.on_change: list[Callable[[Hosted], None]] = []
        #: a rematch's accounts and ratings (None: a rematch keeps the seats' own accounts)
        self.rematch_accounts = rematch_accounts
        #: reads of finished games that left Redis (None: no archive)
        self.archived = archived
        #: the other nodes: renderings published to them, operations run on a room's host
        #: (started by the server: :meth:`Cluster.start`)
        self.cluster = Cluster(
            store,
            node=node,
            lease_ms=lease_ms,
            hosting=self.hosting,
            lobby=self.lobby,
            audience=self.audience,
            clocks=self.clocks,
            serve=self.serve_remote,
            adopt=self.adopt,
            spawn=self.spawn,
        )
        self.tasks: set[asyncio.Task[Any]] = set()
        #: admission control: overload state (None: nothing shed)
        self.admission = admission
        #: appends are refused this long (s) before a room's lease could run out
        self.lease_margin = lease_ms / 10000
        self.closed = False

    # -- background work --------------------------------------------------------------------

    def spawn(self, coro: Coroutine[Any, Any, Any], what: str) -> None:
        """Run ``coro`` as a task the hub owns: logged if it fails, cancelled by close()."""
        if self.closed:
            coro.close()
            return
        task = asyncio.get_running_loop().create_task(coro, name=what)
        self.tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if task.cancelled() or (exc := task.exception()) is None:
            return
        if isinstance(exc, RedisError | StoreError | OSError):  # Redis away: one line
            log.warning("%s failed: the store is unavailable (%s)", task.get_name(), exc)
        else:
            log.error("%s failed", task.get_name(), exc_info=exc)

    async def close(self) -> None:
        """Stop timers and background tasks and wait for them (idempotent)."""
        self.closed = True
        self.clocks.close()
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        if not tasks:
            return
        _done, stuck = await asyncio.wait(tasks, timeout=5)
        for task in stuck:  # a task that ignores cancellation must not hang the shutdown
            log.warning("task %s did not stop in 5 s: %s", task.get_name(), task.get_stack())

    # -- rooms coming and going ----------------------------------------------------------------

    async def recover(self) -> int:
        """At start: lease every live room that is free or was ours (an earlier run under
        the same node id) in one step, then load them in the background, in pipelined
        batches. The port can open at once: a command for a room not loaded yet loads that
        room first (``take_over``). Returns how many rooms this node claimed."""
        claimed = await self.hosting.claim(include_own=True)
        log.info("node %s claims %d live room(s); loading them", self.node, len(claimed))
        self.spawn(self.hosting.load_claimed(claimed), "recovery")
        return len(claimed)

    async def adopt(self, *, include_own: bool) -> int:
        """Take over the live rooms nobody hosts (and, with ``include_own``, those leased
        to our own name by an earlier run). Returns how many this node took."""
        return await self.hosting.load_claimed(await self.hosting.claim(include_own=include_own))

    def _unhosted(self, room_id: str) -> None:
        self.clocks.stop(room_id)
        self.audience.forget_presence(room_id)

    async def _hosted_now(self, hosted: Hosted) -> None:
        """A room just loaded: finish it if it ended with its last host, arm its clock,
        wake its bots."""
        if hosted.room.status == "over":
            await self.lobby.finish(hosted.room)
        self.clocks.schedule(hosted)
        for hook in self.on_change:  # bots that owe a move go on thinking
            hook(hosted)

    async def create(
        self,
        game: Any,
        options: Any,
        n_seats: Any,
        policy: Any,
        *,
        rated: str | None = None,
        sit: Sequence[tuple[str, dict[str, Any]]] = (),
        room_id: str | None = None,
    ) -> dict[str, Any]:
        """Create a room (``rated``: the rating category, for a rated pairing or its rematch)
        with the seats in ``sit`` taken in the same append: ``("take_seat", args)`` or
        ``("add_bot", args)``, decided in turn on the new room. Nobody ever sees the room
        between its creation and those seats (an open seat somebody else could take, a
        lobby entry that is already stale); a refused seat creates nothing. ``room_id``: the
        new room's id when the caller drew it already (a rematch's accounts are keyed by it)."""
        if self.admission is not None and self.admission.overloaded:
            self.metrics.shed.labels("room").inc()
            raise ProtocolError("busy", "the server is busy: no new rooms for a moment")
        if not isinstance(game, str) or game not in self.registry:
            raise ProtocolError("no_such_game", f"there is no game {game!r}")
        if options is not None and not isinstance(options, dict):
            raise ProtocolError("bad_request", "options must be an object")
        if policy is not None and not isinstance(policy, dict):
            raise ProtocolError("bad_request", "settings must be an object")
        room_id = room_id or self.make_secret(6)
        seed = self.make_secret(16)
        now = self.clock()
        event = Room.create(
            room_id, game, options, n_seats, seed, now, policy, self.registry, rated=rated
        )
        room = Room.from_created(event, self.registry)
        records = [event.to_record(), *room.seat_unseen(sit, now)]
        started = time.monotonic()
        if not await self.store.acquire(room_id, self.node, self.lease_ms):
            raise ProtocolError("unavailable", "could not create the room; try again")
        try:
            await self.store.append(room_id, 0, records, status="live", node=self.node)
        except Unreplicated:  # an empty room is not held to --durability replica
            log.warning("room %s created, not on a replica yet", room_id)
        hosted = self.hosting.host(room, started + self.lease_ms / 1000)
        await self.lobby.update(hosted)
        if sit:
            self.clocks.schedule(hosted)
            for hook in self.on_change:
                hook(hosted)
        log.info("room %s created: %s", room_id, game)
        return room.summary()

    # -- hosting ----------------------------------------------------------------------------

    async def _host(self, room_id: Any) -> tuple[Hosted | None, str | None]:
        """(the local room, None) if this node hosts it (taking it over if free), else
        (None, the host's node id)."""
        if not isinstance(room_id, str) or not ROOM_ID.fullmatch(room_id):
            raise ProtocolError("no_such_room", f"there is no room {room_id!r}")
        hosted = self.rooms.get(room_id)
        if hosted is not None:
            return hosted, None
        for _ in range(3):
            (holder,) = await self.store.holders([room_id])
            if holder is None or holder == self.node:
                if not await self.store.exists(room_id):
                    raise ProtocolError("no_such_room", f"there is no room {room_id!r}")
                hosted = await self.hosting.take_over(room_id)
                if hosted is not None:
                    return hosted, None
                continue  # somebody else took it meanwhile
            return None, holder
        raise ProtocolError("unavailable", "the room is changing hosts; try again")

    # -- operations, routed to the host -------------------------------------------------------

    def command(self, room_id: Any, op: str, args: dict[str, Any]) -> Awaitable[dict[str, Any]]:
        """Run a room command on its host: ``{"version", "events": [{"kind", "seat"?}]}``.

        A room hosted here (every move of a seated player, usually) goes straight to it:
        the hot path resumes as few coroutines as it can."""
        hosted = self.rooms.get(room_id) if type(room_id) is str else None
        if hosted is not None and op in COMMANDS:
            return self.local_command(hosted, op, args)
        return self._route(room_id, op, args)

    async def read(self, room_id: Any, op: str, args: dict[str, Any]) -> Any:
        """Run a read-only room operation on its host, or on the game's archived log."""
        try:
            return await self._route(room_id, op, args)
        except ProtocolError as exc:  # Redis first: a game leaves it once it is archived
            if exc.code != "no_such_room" or self.archived is None:
                raise
            return await self.archived(room_id, op, args)

    async def _route(self, room_id: Any, op: str, args: dict[str, Any]) -> Any:
        for _ in range(3):
            hosted, holder = await self._host(room_id)
            if hosted is not None:
                if op in COMMANDS:
                    return await self.local_command(hosted, op, args)
                return read_hosted(hosted, op, args)
            assert holder is not None
            try:
                return await self.cluster.call(holder, room_id, op, args)
            except ProtocolError as exc:
                if exc.code != "moved":  # the host changed under us: look it up again
                    raise
        raise ProtocolError("unavailable", "the room is changing hosts; try again")

    async def local_command(self, hosted: Hosted, op: str, args: dict[str, Any]) -> dict[str, Any]:
        if op not in COMMANDS:
            raise ProtocolError("bad_request", f"no room command {op!r}")
        method = getattr(Room, op)
        args = dict(args)
        cid = args.pop("cid", None)
        recalled: dict[str, Any] | None = None

        def decide(room: Room) -> list[Event]:
            nonlocal recalled
            if cid is not None:
                recalled = room.recall(cid)
                if recalled is not None:  # a retry: the first outcome, nothing new
                    return []
            events = method(room, **args, now=self.clock())
            return events if cid is None else Room.stamp(events, cid)

        t0 = time.perf_counter()
        events = await self.run(hosted, decide)
        if recalled is not None:
            return {**recalled, "repeated": True}
        if op == "offer_rematch" and hosted.room.rematch_agreed():
            await self._make_rematch(hosted)
        if op == "move":
            self.metrics.move_latency.observe(time.perf_counter() - t0)
        return {
            "version": hosted.room.version,
            "events": [{"kind": e.kind, "seat": e.data.get("seat")} for e in events],
        }

    async def serve_remote(self, room_id: str, op: str, args: dict[str, Any]) -> Any:
        """An operation another node forwarded to us as the host."""
        hosted = self.rooms.get(room_id)
        if hosted is None:
            raise ProtocolError("moved", f"node {self.node} does not host room {room_id}")
        if op in COMMANDS:
            return await self.local_command(hosted, op, args)
        return read_hosted(hosted, op, args)

    async def run(self, hosted: Hosted, decide: Decide) -> list[Event]:
        """Decide, persist, apply and fan out one command on ``hosted`` (serialised)."""
        async with hosted.lock:
            room = hosted.room
            if self.rooms.get(room.id) is not hosted:
                raise ProtocolError("unavailable", "the room moved to another node; try again")
            events = decide(room)
            if not events:
                return events
            if time.monotonic() > hosted.lease_until - self.lease_margin:
                await self.hosting.renew_now(hosted)
            before = (room.status, *room.seats)  # seats are values: replaced when changed
            t0 = time.perf_counter()
            base = room.version
            unreplicated = False
            records = [e.to_record() for e in events]
            try:
                await self.store.append(room.id, base, records, node=self.node)
            except Unreplicated:
                unreplicated = True  # in the log all the same: applied and shown like any
            except Unknown as exc:
                if not await self._landed(room.id, base, len(events), exc):
                    raise ProtocolError(
                        "unavailable", "the game store is unavailable; nothing was done"
                    ) from None
                # it landed, but whether a replica has it cannot be known now
                unreplicated = self.store.durability == "replica"
            except (NotHost, Fenced):
                # another node hosts the room now: our copy is stale, and not ours to keep
                self.hosting.unhost(room.id)
                raise ProtocolError(
                    "unavailable", "the room moved to another node; try again"
                ) from None
            except (StoreError, RedisError, OSError) as exc:
                log.error("append to room %s failed: %s", room.id, exc)
                raise ProtocolError("unavailable", "the game store is unavailable") from None
            self.metrics.redis_rtt.observe(time.perf_counter() - t0)
            outs = room.apply_all(events, records)
            await self.broadcast(room.id, outs)
            for event in events:
                if event.kind == "move":
                    self.metrics.moves.inc()
            after = (room.status, *room.seats)
            if after != before:
                await self.lobby.update(hosted)
            else:  # the turn count: refreshed in the lobby a little later, in one batch
                self.lobby.dirty.add(room.id)
            self.clocks.schedule(hosted)
            for hook in self.on_change:
                hook(hosted)
            if unreplicated:
                raise ProtocolError(
                    "not_replicated",
                    "the command is in the game, stored on the primary, but no replica "
                    "confirmed it in time: it stands unless that server fails before a "
                    "replica copies it",
                )
            return events

    async def broadcast(self, room_id: str, outs: Outs) -> None:
        """Send a room's renderings to its listeners here and on the other nodes."""
        self.audience.fan_out(room_id, outs)
        await self.cluster.publish_outs(room_id, outs)

    async def _make_rematch(self, hosted: Hosted) -> None:
        """Every person asked for a rematch: a new room with the same game, options and
        settings, the seats rotated (colours swap for two), people seated with new tokens
        and bots with the same bots; the old room records it (each person learns their seat
        and token from its rendering, spectators the new room)."""
        old = hosted.room
        rated = old.rated.category if old.rated else None
        new_id = self.make_secret(6)
        accounts = await self.rematch_accounts(old, new_id) if self.rematch_accounts else {}
        tokens: dict[int, str] = {}
        sit: list[tuple[str, dict[str, Any]]] = []
        for seat, holder in enumerate(old.seats):
            args: dict[str, Any] = {"seat": old.rematch_seat(seat), "name": holder.name}
            if holder.kind == "person":  # the same account (a rated pairing: its rating now)
                args |= accounts.get(seat) or ({"user": holder.user} if holder.user else {})
                tokens[seat] = args["token"] = self.make_secret(24)
                sit.append(("take_seat", args))
            elif holder.kind == "bot":
                sit.append(("add_bot", {**args, "bot": holder.bot}))
        await self.create(
            old.game.name,
            old.options,
            old.n_seats,
            old.policy.to_json(),
            rated=rated,
            sit=sit,
            room_id=new_id,
        )
        now = self.clock()
        await self.run(hosted, lambda room: [room.settle_rematch(new_id, tokens, now)])
        log.info("room %s: rematch in room %s", old.id, new_id)

    async def _landed(self, room_id: str, base: int, count: int, why: Exception) -> bool:
        """An append whose reply was lost: did it land? True (it did: go on as if it had
        answered), False (it did not); neither provable: the room is dropped here (it is
        rebuilt from the log on next use) and the client is told the outcome is unknown."""
        log.warning("room %s: %s; reading the log to find out", room_id, why)
        for delay in (0.0, 0.2, 0.5, 1.0):
            await asyncio.sleep(delay)
            try:
                version = await self.store.version(room_id)
            except (StoreError, RedisError, OSError):
                continue
            if version == base + count:
                return True
            if version == base:
                return False
            break
        self.hosting.unhost(room_id)
        raise ProtocolError(
            "outcome_unknown",
            "the game store did not confirm this command and it could not be checked: "
            "it may or may not have happened; resync and look",
        )
