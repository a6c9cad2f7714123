"""The Kibitz server: one port for the WebSocket protocol (``/ws``) and plain HTTP.

:class:`KibitzServer` ties the parts together: the store (an external Redis, or the
embedded private one), the hub that hosts rooms, the HTTP routes, and one reader loop per
connection (what a connection is sent is written straight to its transport).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from redis.exceptions import RedisError
from websockets.typing import Subprotocol

from ..bots.uci import EngineSpec
from ..engine import REGISTRY, EngineError, Registry
from ..rooms.errors import RoomError
from ..store import EmbeddedRedis, Store, StoreError
from ..store.cluster import ClusterStore
from .botapi.routes import BotApi
from .node.cluster import Cluster
from .node.hub import Hub
from .protocol.messages import server_handlers
from .routes import HttpRoutes
from .services.accounts import MAX_BODY
from .services.archive.archiving import Archiver, start_archiving
from .services.matchmaking.seeks import start_seeks
from .services.seats.bots import BotRunner
from .services.seats.engines import Engines
from .services.tournaments.service import start_tournaments
from .transport.admission import Admission
from .transport.codec import MSGPACK, codec_for
from .transport.connection import Client, Limits
from .transport.errors import ProtocolError, error_message
from .transport.http11 import HttpServer
from .transport.websocket import WebSocket, WsOptions

log = logging.getLogger("kibitz")

RATE_LIMITED = ProtocolError("rate_limited", "too many messages: slow down")

#: seconds between keepalive pings; a connection silent to one ping for this long is dropped
KEEPALIVE = 20.0

DEFAULT_WEB = Path(__file__).resolve().parent.parent.parent / "web"


@dataclass
class Config:
    """Everything ``kibitz serve`` can set.

    Attributes:
        host, port: where to listen (port 0: any free port; see ``KibitzServer.port``).
        data_dir: the embedded Redis's directory (used when ``redis_url`` is None).
        redis_url: an external Redis (``redis://host:port/db`` or ``unix:///path``).
        fsync: ``appendfsync`` of the embedded Redis (``everysec`` or ``always``).
        prefix: key prefix in Redis (several deployments or test runs may share one).
        allowed_origins: browser origins allowed besides the server's own (``*``: any).
        web_dir: static files served at ``/``.
    """

    host: str = "127.0.0.1"
    port: int = 8765
    data_dir: Path = Path("kibitz-data")
    redis_url: str | None = None
    #: a Redis Cluster (any node's URL) instead of one Redis (``redis_url``)
    redis_cluster: str | None = None
    #: ``local``: a move is acknowledged once in the primary (its AOF); ``replica``: once
    #: at least one replica has it too (``WAIT 1 wait_ms`` after the append)
    durability: str = "local"
    wait_ms: int = 1000
    fsync: str = "everysec"
    prefix: str = "kibitz:"
    allowed_origins: Sequence[str] = ()
    web_dir: Path | None = DEFAULT_WEB
    limits: Limits = field(default_factory=Limits)
    #: bot worker processes (0: no bots offered)
    bot_workers: int = 2
    #: UCI engines offered as seats (``--engine``; server/bots/uci.py,
    #: server/net/services/seats/engines.py)
    engines: Sequence[EngineSpec] = ()
    #: this node's name among the nodes sharing one Redis (default: host name and port)
    node_id: str | None = None
    #: how long a room's lease lasts without renewal: a dead node's rooms move after this
    lease_ms: int = 5000
    #: test seams: wall clock and secret maker of the hub (see Hub)
    clock: Callable[[], float] = time.time
    make_secret: Callable[[int], str] = secrets.token_urlsafe
    registry: Registry = field(default_factory=lambda: REGISTRY)
    #: seconds between keepalive pings; a connection that leaves one unanswered is dropped
    keepalive: float = KEEPALIVE
    #: host names the server answers to (the Host header), besides localhost, the listening
    #: address and the hosts of ``allowed_origins`` ('*': any) — a DNS-rebinding guard
    allowed_hosts: Sequence[str] = ()
    #: event-loop lag (s) over which the node sheds new connections and new rooms
    lag_limit: float = 0.5
    #: open connections per client address
    max_per_ip: int = 256
    #: new rooms, challenges and tournaments a minute from one client address, and as many
    #: from one account (both doors counted together)
    rooms_per_minute: int = 30
    #: games with a bot one player (account, else address) may have in progress at once
    bot_games: int = 10
    #: open seeks from one client address (besides 5 per player)
    seeks_per_ip: int = 20
    #: share the port with other worker processes (``kibitz serve --workers``)
    reuse_port: bool = False
    #: where finished games go (``--archive``: ``postgresql://...`` or ``sqlite:PATH``;
    #: None: they stay in Redis) and how long (s) they stay in Redis first
    archive: str | None = None
    archive_grace: float = 3600.0


class KibitzServer:
    def __init__(self, config: Config) -> None:
        self.config = config
        self.embedded: EmbeddedRedis | None = None
        self.store: Store | None = None
        self.hub: Hub | None = None
        self.server: HttpServer | None = None
        self.port = config.port

    @property
    def url(self) -> str:
        return f"http://{self.config.host}:{self.port}/"

    @property
    def ws_url(self) -> str:
        return f"ws://{self.config.host}:{self.port}/ws"

    async def start(self) -> None:
        cfg = self.config
        self.engines: Engines | None = None
        if cfg.engines and cfg.bot_workers > 0:  # first: a bad --engine fails the start at once
            engines = Engines(cfg.engines)
            try:
                await engines.start()
            except BaseException:
                await engines.close()
                raise
            self.engines = engines
        url = cfg.redis_url
        if cfg.redis_cluster is not None:
            self.store = ClusterStore.from_cluster_url(
                cfg.redis_cluster,
                prefix=cfg.prefix,
                durability=cfg.durability,
                wait_ms=cfg.wait_ms,
            )
            await self.store.redis.initialize()
        else:
            if url is None:
                self.embedded = EmbeddedRedis(cfg.data_dir, fsync=cfg.fsync)
                url = await asyncio.to_thread(self.embedded.start)
            self.store = Store.from_url(
                url, prefix=cfg.prefix, durability=cfg.durability, wait_ms=cfg.wait_ms
            )
        await self.store.ping()
        node = cfg.node_id or f"{socket.gethostname()}:{cfg.port}"
        self.hub = Hub(
            self.store,
            cfg.registry,
            node=node,
            lease_ms=cfg.lease_ms,
            clock=cfg.clock,
            make_secret=cfg.make_secret,
        )
        self.cluster = Cluster(self.hub, self.store)
        await self.cluster.start()
        self.hub.audience.alone = lambda: self.cluster.peers == 0  # presence is per node
        # who gets in, and how much new work each address and account may start: one
        # count for both doors (the WebSocket's handlers and the Bot API) and the bots
        hosted = self.hub.rooms
        self.admission = Admission(
            self.hub.metrics,
            lag_limit=cfg.lag_limit,
            per_ip=cfg.max_per_ip,
            rooms_per_minute=cfg.rooms_per_minute,
            bot_games=cfg.bot_games,
            alive=lambda room: room in hosted and hosted[room].room.status != "over",
        )
        self.hub.admission = self.admission
        self.hub.on_over.append(self.admission.game_over)
        self.handlers = server_handlers(
            self.hub, bots=cfg.bot_workers > 0, admission=self.admission
        )
        seeks = await start_seeks(self.hub, self.handlers)  # seeks, pools, ratings on_over
        seeks.seeks_per_ip = cfg.seeks_per_ip
        await start_tournaments(self.hub)  # directs tournaments, routes their requests
        self.handlers.engines = self.engines
        self.botapi = BotApi(self.hub, self.handlers, self.admission)  # lichess's Bot API
        await self.botapi.start()
        self.archiver: Archiver | None = None
        if cfg.archive is not None:  # finished games leave Redis for the archive
            self.archiver = await start_archiving(self.hub, cfg.archive, grace=cfg.archive_grace)
        self.bots: BotRunner | None = None
        if cfg.bot_workers > 0:
            self.bots = BotRunner(
                self.hub,
                workers=cfg.bot_workers,
                engines=self.engines,
                owner_of=self.admission.owner_of,  # the workers shared fairly by owner
            )
            self.bots.start()
        await self.hub.recover()
        self.hub.spawn(self.admission.watch_lag(), "loop lag")
        self.hub.metrics.gc_pauses.install()
        if self.embedded is not None:
            self.hub.spawn(self._supervise_redis(self.embedded), "redis supervisor")
        routes = HttpRoutes(
            self.hub,
            cfg.web_dir,
            cfg.allowed_origins,
            allowed_hosts=allowed_hosts(cfg),
            admission=self.admission,
            botapi=self.botapi,
        )
        # one port: HTTP/1.1 (h11) for the routes, /ws upgraded to a WebSocket (websockets'
        # Sans-I/O protocol), both on our own asyncio protocol (server/net/transport/http11.py)
        ws = WsOptions(
            subprotocols=[Subprotocol(MSGPACK)],
            select_subprotocol=_select_subprotocol,
            max_size=cfg.limits.max_frame,
            max_queue=16,
        )
        self.server = HttpServer(routes, self.handle, ws, max_body=MAX_BODY)
        await self.server.start(cfg.host, cfg.port, reuse_port=cfg.reuse_port)
        self.hub.spawn(self._keepalive(cfg.keepalive), "keepalive")
        sock = next(iter(self.server.sockets))
        self.port = sock.getsockname()[1]
        log.info("Kibitz is up: open %s  (WebSocket %s)", self.url, self.ws_url)

    async def stop(self) -> None:
        """Close every connection (1001), the store, and the embedded Redis. Idempotent."""
        if self.server is not None:
            self.server.close()  # every WebSocket closed 1001, every stream ended
            with contextlib.suppress(Exception):
                await self.server.wait_closed(10)
            self.server = None
        if getattr(self, "botapi", None) is not None:
            await self.botapi.close()
        if getattr(self, "cluster", None) is not None:
            await self.cluster.close()
        if self.hub is not None:
            self.hub.metrics.gc_pauses.remove()
            await self.hub.close()
        if getattr(self, "archiver", None) is not None:
            assert self.archiver is not None
            await self.archiver.archive.close()
            self.archiver = None
        if getattr(self, "bots", None) is not None:
            assert self.bots is not None
            await self.bots.close()
        if getattr(self, "engines", None) is not None:
            assert self.engines is not None
            await self.engines.close()
            self.engines = None
        if self.store is not None:
            with contextlib.suppress(Exception):
                await self.store.close()
            self.store = None
        if self.embedded is not None:
            await asyncio.to_thread(self.embedded.stop)
            self.embedded = None

    async def __aenter__(self) -> KibitzServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def _supervise_redis(self, embedded: EmbeddedRedis, period: float = 1.0) -> None:
        """The embedded redis-server is this node's own: if it dies, start it again on its
        AOF (the store's connections reconnect by themselves)."""
        while True:
            await asyncio.sleep(period)
            try:
                if await asyncio.to_thread(embedded.restart_if_dead):
                    self.hub.metrics.errors.labels("redis_restarted").inc()  # type: ignore[union-attr]
            except Exception as exc:  # could not start it now: try again next period
                log.error("could not restart the embedded redis-server: %s", exc)

    # -- connections -------------------------------------------------------------------------

    async def _keepalive(self, interval: float = KEEPALIVE) -> None:
        """Every ``interval`` seconds, ping every connection; one that has not answered the
        previous ping by then is dead and dropped. One task for all connections (instead of
        websockets' keepalive task per connection: ~1.6 KB each)."""
        assert self.hub is not None
        slices = 20  # a twentieth of the connections at a time: no burst that stalls games
        while True:
            clients = list(self.hub.clients)
            for k in range(slices):
                await asyncio.sleep(interval / slices)
                await self._ping(clients[k::slices], interval)

    async def _ping(self, clients: list[Client], interval: float) -> None:
        for client in clients:
            if client.closing:
                continue
            if client.pong is not None and not client.pong.done():
                log.info("dropping %s: no answer to a ping in %.0f s", client.peer, interval)
                client.abort()
                continue
            client.pong = client.ws.ping() if isinstance(client.ws, WebSocket) else None

    async def handle(self, ws: WebSocket) -> None:
        """One connection: read and answer its frames (replies and room changes are written
        straight to its transport — see :class:`~server.net.transport.connection.Client`)."""
        assert self.hub is not None
        client = Client(ws, codec_for(ws.subprotocol), self.config.limits)
        address = client.address
        self.admission.opened(address)
        asyncio.get_running_loop().call_later(
            client.limits.hello_timeout, _hello_due, client
        )  # a connection that never says hello is closed
        client.cookie = ws.cookie  # what later requests may need of the handshake
        self.hub.clients.add(client)
        self.hub.metrics.connections.set(len(self.hub.clients))
        try:
            async for frame in ws:
                if client.closing:  # drain what the peer still sends until the close ends
                    continue
                await self.on_frame(client, frame)
        finally:
            self.admission.closed(address)
            self.hub.audience.disconnect(client)
            code, reason = client.close_code
            ws.close(code, reason)

    async def on_frame(self, client: Client, frame: str | bytes) -> None:
        assert self.hub is not None
        limits = client.limits
        if not client.allow():
            # every request gets an answer (with its id, when the frame parses), so clients
            # never hang; a client that keeps flooding is cut by Client.allow()
            with contextlib.suppress(ProtocolError):
                if len(frame) <= limits.max_message:
                    rid = client.codec.decode(frame).get("id")
                    if _valid_id(rid):
                        client.send(error_message(RATE_LIMITED, rid))
                        return
            client.send(error_message(RATE_LIMITED))
            return
        if len(frame) > limits.max_message:
            too_large = f"a message may be at most {limits.max_message} bytes"
            client.send(error_message(ProtocolError("too_large", too_large)))
            return
        request_id: Any = None
        self.hub.metrics.messages.inc()
        try:
            msg = client.codec.decode(frame)
            request_id = msg.get("id")
            if request_id is not None and not _valid_id(request_id):
                request_id = None
                raise ProtocolError("bad_request", "'id' must be a string (max 64) or an integer")
            reply = await self.handlers.dispatch(client, msg)
        except (ProtocolError, RoomError, EngineError) as exc:
            self.hub.metrics.errors.labels(exc.code).inc()
            client.send(error_message(exc, request_id))
            return
        except (RedisError, StoreError) as exc:  # the store is away or overloaded
            log.warning("store error: %s", exc)
            self.hub.metrics.errors.labels("unavailable").inc()
            unavailable = ProtocolError("unavailable", "the game store is unavailable; try again")
            client.send(error_message(unavailable, request_id))
            return
        except Exception:
            log.exception("request failed: %r", frame[:200])
            client.send(error_message(RuntimeError(), request_id))
            return
        if reply:
            if request_id is not None:
                reply["id"] = request_id
            client.send(reply)


def _hello_due(client: Client) -> None:
    if not client.greeted and not client.closing:
        client.close(1008, "say hello first")


def allowed_hosts(cfg: Config) -> list[str]:
    """Host names this server answers to (see ``Config.allowed_hosts``)."""
    if "*" in cfg.allowed_hosts or "*" in cfg.allowed_origins:
        return ["*"]
    names = {"localhost", "127.0.0.1", "::1", cfg.host, *cfg.allowed_hosts}
    names |= {urlsplit(o).hostname or "" for o in cfg.allowed_origins}
    names.discard("")
    names.discard("0.0.0.0")
    names.discard("::")
    if cfg.host in ("0.0.0.0", "::", ""):
        names.add(socket.gethostname())
    return sorted(names)


def _valid_id(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return -(2**53) < value < 2**53
    return isinstance(value, str) and len(value) <= 64


def _select_subprotocol(protocol: Any, offered: Sequence[Subprotocol]) -> Subprotocol | None:
    return Subprotocol(MSGPACK) if MSGPACK in offered else None
