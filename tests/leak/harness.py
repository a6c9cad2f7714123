"""The no-leak harness: two true worlds a seat cannot tell apart must send it the same bytes.

Given a game, two true states A and B that ``seat`` cannot distinguish (hidden identities
re-dealt, unseen squares changed consistently, the deck reshuffled), and optionally
different moves for the *other* seats (a different sealed move), :func:`observe` runs one
fixed protocol script against a real server started from each state, and
:func:`assert_no_leak` checks that every frame sent to the observed seat's connection, and
to a spectator's, is byte-for-byte identical in both worlds.

The script walks every channel a client has: the pushes when seats are taken (deltas with
protocol 2, full updates with protocol 1), the lobby entry (``list_rooms``,
``room_created``), sealed-move notices, error replies (illegal, bad, out-of-turn moves; undo;
record, history), resync from every version, and a reconnect that resumes the session. Servers get
a fixed clock and a deterministic secret maker, so the only thing that differs between the
two runs is the hidden truth.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from server.engine import Game, Registry
from server.net.app import Config, KibitzServer


def rigged(game: Game[Any, Any], state: Any) -> Game[Any, Any]:
    """``game`` whose ``new`` starts from ``state`` (same name, same rules otherwise)."""

    class Rigged(type(game)):  # type: ignore[misc]
        def new(self, options: Mapping[str, Any], n_seats: int, rng: Any) -> Any:
            return state

    return Rigged()


def secret_maker() -> Any:
    counter = itertools.count(1)

    def make(nbytes: int) -> str:
        return f"s{next(counter):0{max(8, nbytes)}d}"

    return make


def rigged_config(
    game: Game[Any, Any], state: Any, redis_url: str, base_registry: Registry, prefix: str
) -> Config:
    """A server's config whose ``game`` starts at ``state``: a fixed clock and secrets, so
    two runs differ only in what the worlds differ in."""
    registry = Registry()
    for g in base_registry:
        registry.add(rigged(game, state) if g.name == game.name else g)
    return Config(
        port=0,
        redis_url=redis_url,
        prefix=f"{prefix}{uuid.uuid4().hex[:8]}:",
        registry=registry,
        web_dir=None,
        clock=lambda: 1_800_000_000.0,
        make_secret=secret_maker(),
    )


class Peer:
    """A raw WebSocket client that records every frame it receives, in order."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.frames: list[str | bytes] = []
        self.ids = itertools.count(1)

    @classmethod
    async def open(cls, url: str) -> Peer:
        return cls(await connect(url))

    async def ask(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send a request; record frames until its reply (or error) arrives."""
        rid = f"r{next(self.ids)}"
        await self.ws.send(json.dumps({"type": kind, "id": rid, **fields}))
        while True:
            frame = await asyncio.wait_for(self.ws.recv(), 10)
            self.frames.append(frame)
            msg = json.loads(frame)
            if msg.get("id") == rid:
                return dict(msg)

    async def barrier(self) -> None:
        """Everything sent to this peer before now has been received (and recorded)."""
        await self.ask("ping")


@dataclass
class Script:
    """What the clients do. ``other_moves``: per world, moves of the other seats (e.g. a
    sealed move) as ``[(seat, text), ...]`` — the only input allowed to differ."""

    seat: int
    n_seats: int
    options: dict[str, Any] | None = None
    settings: dict[str, Any] | None = None
    probe_moves: Sequence[str] = ("zz", "a1a1", "e2e4", "flip a1", "advance 1", "a1b3")
    extra: dict[str, Any] = field(default_factory=dict)
    #: 2: live changes arrive as deltas (compared byte for byte too); 1: full updates
    protocol: int = 2


async def observe(
    game: Game[Any, Any],
    state: Any,
    script: Script,
    other_moves: Sequence[tuple[int, str]],
    redis_url: str,
    base_registry: Registry,
) -> tuple[list[str | bytes], list[str | bytes]]:
    """Run ``script`` on a server whose game starts at ``state``; return the frames the
    observed seat's connection and a spectator's connection received."""
    config = rigged_config(game, state, redis_url, base_registry, "leak")
    async with KibitzServer(config) as srv:
        x = await Peer.open(srv.ws_url)
        others = {s: await Peer.open(srv.ws_url) for s in range(script.n_seats) if s != script.seat}
        spec = await Peer.open(srv.ws_url)
        for peer in (x, *others.values(), spec):
            await peer.ask("hello", protocol=script.protocol)
        created = await x.ask(
            "create_room",
            game=game.name,
            seats=script.n_seats,
            options=script.options,
            settings=script.settings,
        )
        room = created["room"]
        await spec.ask("watch", room=room)
        await x.ask("take_seat", room=room, seat=script.seat, name="Observed")
        for s, peer in others.items():
            await peer.ask("take_seat", room=room, seat=s, name=f"Other{s}")
        await x.barrier()
        await spec.barrier()
        await x.ask("list_rooms")
        await spec.ask("list_rooms")
        for s, text in other_moves:  # e.g. the other seat seals a move
            await others[s].ask("move", room=room, move=text)
            await x.barrier()
            await spec.barrier()
        # error replies must not depend on the truth; probes that are legal moves of the
        # seat are left out (they would change the game; the seat's legal moves are the
        # same in both worlds, so both runs leave out the same ones)
        legal = {str(m) for m in game.legal_moves(state, script.seat)}
        for text in script.probe_moves:
            try:
                if str(game.parse_move(state, script.seat, text)) in legal:
                    continue
            except Exception:  # does not parse: a fine probe
                pass
            await x.ask("move", room=room, move=text, version=0)
            await x.ask("move", room=room, move=text)
        await x.ask("undo", room=room)
        await x.ask("record", room=room)
        await spec.ask("record", room=room)
        await x.ask("history", room=room)
        await spec.ask("history", room=room)
        version = (await x.ask("resync", room=room, since=0))["version"]
        for since in range(0, version + 1):
            await x.ask("resync", room=room, since=since)
            await spec.ask("resync", room=room, since=since)
        # a reconnect resumes the session and re-renders what was missed
        welcome = json.loads(x.frames[0])
        await x.ws.close()
        again = await Peer.open(srv.ws_url)
        await again.ask(
            "hello", protocol=script.protocol, session=welcome["session"], since={room: 2}
        )
        await again.barrier()
        frames_x = x.frames + again.frames
        frames_spec = list(spec.frames)
        # the seed of a running game tells its chance draws (face-down pieces, the deck,
        # every later draw): it must not leave the server in any frame
        assert srv.hub is not None
        hosted = srv.hub.rooms[room]
        if hosted.room.outcome is None:
            secret = hosted.room.seed.encode()
            for frame in (*frames_x, *frames_spec):
                raw = frame.encode() if isinstance(frame, str) else frame
                assert secret not in raw, f"the seed left the server: {frame!r}"
        for peer in (again, *others.values(), spec):
            await peer.ws.close()
    return frames_x, frames_spec


async def assert_no_leak(
    game: Game[Any, Any],
    state_a: Any,
    state_b: Any,
    script: Script,
    redis_url: str,
    registry: Registry,
    *,
    other_moves_a: Sequence[tuple[int, str]] = (),
    other_moves_b: Sequence[tuple[int, str]] = (),
) -> int:
    """Fail unless both worlds send identical bytes to the seat and to spectators.
    Returns the number of frames compared."""
    xa, sa = await observe(game, state_a, script, other_moves_a, redis_url, registry)
    xb, sb = await observe(game, state_b, script, other_moves_b, redis_url, registry)
    for who, a, b in (("seat", xa, xb), ("spectator", sa, sb)):
        for i, (fa, fb) in enumerate(itertools.zip_longest(a, b)):
            if fa != fb:
                raise AssertionError(
                    f"the {who} can tell the worlds apart: frame {i} differs\n"
                    f" A: {fa!r}\n B: {fb!r}"
                )
    # the script reaches every channel: a short recording means the run went wrong
    assert len(xa) >= 20 and len(sa) >= 8, (len(xa), len(sa))
    return len(xa) + len(sa)
