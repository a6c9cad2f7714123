"""What ``kibitz serve`` sets of the analysis service (:class:`Settings`, a field of the
node's ``Config``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ....analysis.records import GAMES, Tools


@dataclass(frozen=True)
class Settings:
    """What ``kibitz serve`` sets of the analysis service.

    Attributes:
        workers: worker processes of this node (0: this node analyses nothing; its requests
            still queue, for the other nodes).
        tools: the engines and the node budget per position.
        queue: the most games queued or being analysed at once, over all nodes.
        per_address, per_account: requests one address, and one account, may make in a
            ``window`` (seconds).
        lease: seconds a job's lease lasts without renewal (a dead taker's job is taken
            again after it).
        timeout: seconds one analysis may take (then it is given up, and taken again).
        poll: seconds between looks at the queue for jobs queued on other nodes.
    """

    workers: int = 1
    tools: Tools = field(default_factory=Tools)
    queue: int = 32
    per_address: int = 10
    per_account: int = 20
    window: float = 600.0
    lease: float = 15.0
    timeout: float = 300.0
    poll: float = 1.0
    games: tuple[str, ...] = GAMES
