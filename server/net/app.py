"""The Kibitz server: one port for the WebSocket protocol (``/ws``) and plain HTTP.

:class:`KibitzServer` is the one composition root of ``server/net/``: it builds every part
in the order they need each other and hands each what it needs (docs/ARCHITECTURE.md, "The
net"): the store (an external Redis, or the embedded private one), the archive, the hub that
hosts rooms (with its cluster), the services (accounts, seeks, tournaments, the archiver,
the bots), the protocol's handlers, the Bot API, the HTTP routing table made of the routes
each part offers, and one reader loop per connection (what a connection is sent is written
straight to its transport).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import socket
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from redis.exceptions import RedisError
from websockets.typing import Subprotocol

from ..archive import Archive
from ..engine import EngineError
from ..rooms.errors import RoomError
from ..store import EmbeddedRedis, Store, StoreError
from ..store.accounts import AccountStore
from ..store.cluster import ClusterStore
from .botapi.routes import BotApi, is_api_path
from .config import KEEPALIVE, Config
from .node.http import NodeRoutes
from .node.hub import Hub
from .protocol.messages import server_handlers, server_seating
from .services.accounts import MAX_BODY, Accounts, is_account_path
from .services.analysis.http import AnalysisRoutes, is_analysis_path
from .services.analysis.service import Analyses
from .services.archive.archived import ArchivedReads
from .services.archive.archiving import Archiver, opened, start_archiving
from .services.archive.exports import export, is_export_path
from .services.matchmaking.rating import rematch_accounts
from .services.matchmaking.seeks import Seeks
from .services.seats.bots import BotRunner
from .services.seats.engines import Engines
from .services.tournaments.http import is_tournament_path, tournament_api
from .services.tournaments.service import Tournaments
from .transport.admission import Admission
from .transport.codec import MSGPACK, codec_for
from .transport.connection import Client
from .transport.errors import ProtocolError, error_message
from .transport.http11 import HttpServer
from .transport.metrics import Metrics
from .transport.site import Route, Site
from .transport.websocket import WebSocket, WsOptions

__all__ = ["Config", "KibitzServer", "allowed_hosts"]

log = logging.getLogger("kibitz")

RATE_LIMITED = ProtocolError("rate_limited", "too many messages: slow down")


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
        # every part is built here, given what it needs, in the order they need each other
        self.archive: Archive | None = None
        if cfg.archive is not None:  # finished games leave Redis for the archive
            self.archive = await opened(cfg.archive)
        archived = ArchivedReads(self.archive, cfg.registry)
        account_store = AccountStore(self.store.redis, self.store.accounts_prefix)
        metrics = Metrics()
        # who gets in, and how much new work each address and account may start: one
        # count for both doors (the WebSocket's handlers and the Bot API) and the bots
        self.admission = Admission(
            metrics,
            lag_limit=cfg.lag_limit,
            per_ip=cfg.max_per_ip,
            rooms_per_minute=cfg.rooms_per_minute,
            bot_games=cfg.bot_games,
            alive=self._alive,
        )
        self.hub = Hub(
            self.store,
            cfg.registry,
            node=node,
            lease_ms=cfg.lease_ms,
            clock=cfg.clock,
            make_secret=cfg.make_secret,
            metrics=metrics,
            admission=self.admission,
            archived=archived.read if self.archive is not None else None,
            rematch_accounts=functools.partial(rematch_accounts, account_store),
        )
        self.cluster = self.hub.cluster
        await self.cluster.start()
        self.hub.on_over.append(self.admission.game_over)
        self.accounts = Accounts(account_store, self.archive)
        seating = server_seating(self.hub, archived)
        # seeks, pools, ratings (an on_over hook); a pairing reaches a connection here
        # through the seating
        self.seeks = Seeks(self.hub, account_store, seating.paired, seeks_per_ip=cfg.seeks_per_ip)
        await self.seeks.start()
        self.tournaments = Tournaments(self.hub, account_store)  # directs, routes requests
        await self.tournaments.start()
        self.handlers = server_handlers(
            self.hub,
            seating,
            accounts=self.accounts,
            seeks=self.seeks,
            tournaments=self.tournaments,
            engines=self.engines,
            bots=cfg.bot_workers > 0,
            admission=self.admission,
        )
        # analyses of finished games: a queue in Redis that every node's workers serve
        self.analyses = Analyses(self.hub, cfg.analysis, self.archive)
        self.analyses.start()
        self.botapi = BotApi(  # lichess's Bot API
            self.hub, self.handlers, self.accounts, self.seeks, self.admission, self.analyses
        )
        await self.botapi.start()
        self.archiver: Archiver | None = None
        if self.archive is not None:
            self.archiver = start_archiving(self.hub, self.archive, grace=cfg.archive_grace)
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
        site = Site(
            self.routes(),
            cfg.web_dir,
            cfg.allowed_origins,
            allowed_hosts=allowed_hosts(cfg),
            admission=self.admission,
        )
        # one port: HTTP/1.1 (h11) for the routes, /ws upgraded to a WebSocket (websockets'
        # Sans-I/O protocol), both on our own asyncio protocol (server/net/transport/http11.py)
        ws = WsOptions(
            subprotocols=[Subprotocol(MSGPACK)],
            select_subprotocol=_select_subprotocol,
            max_size=cfg.limits.max_frame,
            max_queue=16,
        )
        self.server = HttpServer(site, self.handle, ws, max_body=MAX_BODY)
        await self.server.start(cfg.host, cfg.port, reuse_port=cfg.reuse_port)
        self.hub.spawn(self._keepalive(cfg.keepalive), "keepalive")
        sock = next(iter(self.server.sockets))
        self.port = sock.getsockname()[1]
        log.info("Kibitz is up: open %s  (WebSocket %s)", self.url, self.ws_url)

    def routes(self) -> list[Route]:
        """The HTTP routing table, in order, from the routes each part offers (the first
        that takes a request's path answers it; then the web client's files)."""
        assert self.hub is not None
        node, room_records = NodeRoutes(self.hub).routes()
        return [
            node,  # /healthz, /metrics, /api/games
            (is_export_path, functools.partial(export, self.hub, self.archive)),
            (is_analysis_path, AnalysisRoutes(self.analyses, self.accounts).route),
            (is_api_path, self.botapi.route),  # before accounts': /api/users/status
            (is_account_path, self.accounts.route),
            room_records,  # /api/rooms/{id}/record|pgn
            (is_tournament_path, functools.partial(tournament_api, self.tournaments)),
        ]

    def _alive(self, room: str) -> bool:
        """Whether a game (with a bot) is hosted here and not over (admission's count)."""
        hosted = self.hub.rooms if self.hub is not None else {}
        return room in hosted and hosted[room].room.status != "over"

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
        self.archiver = None
        if getattr(self, "archive", None) is not None:
            assert self.archive is not None
            await self.archive.close()
            self.archive = None
        if getattr(self, "bots", None) is not None:
            assert self.bots is not None
            await self.bots.close()
        if getattr(self, "analyses", None) is not None:
            await self.analyses.close()
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
