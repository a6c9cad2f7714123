"""What ``kibitz serve`` can set: :class:`Config` (the composition root,
``server/net/app.py``, builds the node from it)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..bots.uci import EngineSpec
from ..engine import REGISTRY, Registry
from .services.analysis.settings import Settings as AnalysisSettings
from .transport.connection import Limits

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
    #: the analysis of finished games (``/api/rooms/{id}/analysis``, docs/ANALYSIS.md)
    analysis: AnalysisSettings = field(default_factory=AnalysisSettings)
