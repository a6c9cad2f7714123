"""Every JSON example of docs/PROTOCOL.md holds against a live server.

The documented requests are sent as they stand (only their room, seek and secret values are
replaced by live ones) in a scene that plays each part of the protocol: a documented request
must be answered with the documented reply type. Every documented server message must have
the very fields (top-level keys) of a message of its type the live server sent in the scene:
a field the docs name that the server does not send, or one the server sends that the docs
leave out, fails. And a request and its reply in the docs speak of the same room.
"""

from __future__ import annotations

import asyncio
import copy
import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from server.engine import Registry
from server.net.app import Config, KibitzServer
from server.net.protocol.messages import MESSAGES
from server.net.transport.connection import Limits

DOC = Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md"
Message = dict[str, Any]


def examples() -> list[list[Message]]:
    """The JSON examples, block by block (a block may hold several lines)."""
    blocks = re.findall(r"```json\n(.*?)\n```", DOC.read_text(), re.S)
    return [[json.loads(line) for line in b.strip().splitlines()] for b in blocks]


def flat() -> list[Message]:
    return [m for block in examples() for m in block]


def roles() -> list[tuple[Message, str]]:
    """Each documented message with its role: ``request`` (a client sends it: a known
    request type with an id not yet answered, or a ``hello``), ``reply`` (the server's
    answer: the id of an open request) or ``push`` (the server's, unasked)."""
    out: list[tuple[Message, str]] = []
    waiting: set[Any] = set()
    for m in flat():
        mid = m.get("id")
        if (
            mid is not None
            and mid in waiting
            and (m["type"] not in MESSAGES or out[-1][1] == "request")
        ):
            waiting.discard(mid)
            out.append((m, "reply"))
        elif m["type"] in MESSAGES and (mid is not None or m["type"] == "hello"):
            waiting.add(mid)
            out.append((m, "request"))
        else:
            out.append((m, "push"))
    return out


REQUESTS = [m for m, role in roles() if role == "request"]


def is_request(m: Message) -> bool:
    return any(m is r for r in REQUESTS)


def documented_reply(request: Message) -> Message | None:
    """The reply the docs show for ``request``."""
    listed = roles()
    i = next(i for i, (m, _r) in enumerate(listed) if m == request)
    for m, role in listed[i + 1 :]:
        if role == "reply" and m.get("id") == request.get("id"):
            return m
        if role == "request":
            return None
    return None


def test_requests_and_replies_speak_of_the_same_room() -> None:
    for m in REQUESTS:
        if "room" in m:
            reply = documented_reply(m)
            if reply is not None and "room" in reply:
                assert reply["room"] == m["room"], (m, reply)


class Peer:
    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.frames: list[Message] = []
        self.ids = iter(range(1000, 10_000))

    @classmethod
    async def open(cls, url: str) -> Peer:
        return cls(await connect(url))

    async def send(self, msg: Message) -> Message:
        """Send ``msg`` (with a fresh id); every frame until its reply is kept."""
        msg = {**msg, "id": next(self.ids)}
        await self.ws.send(json.dumps(msg))
        while True:
            frame = json.loads(await self.ws.recv())
            self.frames.append(frame)
            if frame.get("id") == msg["id"] or frame.get("type") == "auth_failed":
                return frame

    async def settle(self) -> None:
        await self.send({"type": "ping"})


class Scene:
    """The docs' requests, sent with live values in place of the documented ones."""

    def __init__(self) -> None:
        self.docs = REQUESTS
        self.used: set[int] = set()
        self.checked: list[tuple[Message, Message]] = []

    def request(self, kind: str, **live: Any) -> Message:
        """The next documented ``kind`` request, with ``live`` values put in."""
        for i, m in enumerate(self.docs):
            if m["type"] == kind and i not in self.used:
                self.used.add(i)
                out = copy.deepcopy(m)
                out.pop("id", None)
                for key, value in live.items():
                    assert key in out, f"the documented {kind} has no {key!r}"
                    out[key] = value
                return {"_doc": m, **out}
        raise AssertionError(f"no documented {kind!r} request left")

    async def ask(self, peer: Peer, kind: str, **live: Any) -> Message:
        msg = self.request(kind, **live)
        doc = msg.pop("_doc")
        reply = await peer.send(msg)
        want = documented_reply(doc)
        if want is not None:
            assert reply["type"] == want["type"], (doc, reply)
        self.checked.append((doc, reply))
        return reply


def register(url: str, name: str) -> str:
    body = json.dumps({"name": name, "password": "lime-tree-123"}).encode()
    for route in ("register", "login"):
        req = urllib.request.Request(f"{url}api/{route}", data=body, method="POST")
        req.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(req, timeout=5) as answer:
            token = json.loads(answer.read()).get("token")
    assert token
    return str(token)


@pytest.fixture
async def server(redis_url: str, prefix: str, registry: Registry) -> Any:
    config = Config(
        port=0,
        redis_url=redis_url,
        prefix=prefix,
        registry=registry,
        bot_workers=0,
        limits=Limits(rate=1000, burst=1000),
    )
    async with KibitzServer(config) as srv:
        yield srv


async def play_scene(server: KibitzServer) -> tuple[Scene, list[Message]]:
    """Every documented request, sent live; returns the scene and every frame received."""
    scene = Scene()
    url = server.ws_url
    a, b, spec, old = [await Peer.open(url) for _ in range(4)]
    welcome = await scene.ask(a, "hello")
    await b.send({"type": "hello", "protocol": 2})
    await spec.send({"type": "hello", "protocol": 2})
    await old.send({"type": "hello", "protocol": 1})  # whole updates, as before deltas
    await scene.ask(a, "list_games")
    created = await scene.ask(a, "create_room")
    room = created["room"]
    # a room created with its creator and a bot seated in one append, then the lobby
    await scene.ask(a, "create_room")
    await scene.ask(spec, "lobby")
    await scene.ask(a, "take_seat", room=room)
    await b.send({"type": "take_seat", "room": room, "seat": 1, "name": "Bob"})
    await scene.ask(spec, "watch", room=room)
    await old.send({"type": "watch", "room": room})
    await scene.ask(a, "list_rooms")
    version = (await a.send({"type": "resync", "room": room}))["version"]
    await scene.ask(a, "move", room=room, version=version)
    await b.send({"type": "move", "room": room, "move": "e7e5"})
    # a simultaneous game: a sealed move
    sim = (await a.send({"type": "create_room", "game": "apocalypse"}))["room"]
    await a.send({"type": "take_seat", "room": sim, "seat": 0, "name": "Ada"})
    await b.send({"type": "take_seat", "room": sim, "seat": 1, "name": "Bob"})
    await old.send({"type": "watch", "room": sim})
    await scene.ask(a, "move", room=sim)
    await old.send({"type": "take_seat", "room": sim, "seat": 0})  # not free: an error
    await a.send({"type": "resync", "room": sim})  # the sealed seat's update: your_move
    await b.send({"type": "move", "room": sim, "move": "c5c4"})
    # a move with a cid, sent twice: the second answer is the first one, repeated
    fresh = (await a.send({"type": "create_room", "game": "chess"}))["room"]
    await a.send({"type": "take_seat", "room": fresh, "seat": 0, "name": "Ada"})
    await b.send({"type": "take_seat", "room": fresh, "seat": 1, "name": "Bob"})
    retry = scene.request("move", room=fresh)
    retry.pop("_doc")
    await a.send(retry)
    again = await a.send(retry)
    assert again["type"] == "moved" and again.get("repeated") is True
    await scene.ask(a, "ping")
    stale = await a.send({"type": "move", "room": room, "move": "d2d4", "version": 2})
    assert stale["code"] == "stale_version"
    await scene.ask(a, "draw", room=room)
    await scene.ask(a, "chat", room=room)
    await scene.ask(a, "record", room=room)
    await scene.ask(b, "history", room=room)
    # a reconnect that resumes the session
    back = await Peer.open(url)
    await scene.ask(back, "hello", session=welcome["session"], since={room: 1, sim: 1})
    # a rematch
    await a.send({"type": "resign", "room": room})
    await a.send({"type": "rematch", "room": room})
    await b.send({"type": "rematch", "room": room})
    # accounts: a logged-in hello, a bad token, a rated seek taken, quick pairing
    ada = await asyncio.to_thread(register, server.url, "Ada")
    bob = await asyncio.to_thread(register, server.url, "Bob")
    la, lb, bad = [await Peer.open(url) for _ in range(3)]
    await scene.ask(la, "hello", auth=ada)
    await lb.send({"type": "hello", "protocol": 2, "auth": bob})
    await bad.send({"type": "hello", "protocol": 2, "auth": "not-a-token"})
    await lb.send({"type": "list_seeks"})
    posted = await scene.ask(la, "seek")
    paired = await scene.ask(lb, "accept_seek", seek=posted["seek"])
    await scene.ask(la, "pairing", room=paired["room"])
    await scene.ask(la, "pool_join")
    await scene.ask(la, "pool_leave")
    # a player who leaves: the other is told, and claims the game after the countdown
    server.hub.audience.claim_after = 0.2
    stays, gone = [await Peer.open(url) for _ in range(2)]
    for p in (stays, gone):
        await p.send({"type": "hello", "protocol": 2})
    left = (await stays.send({"type": "create_room", "game": "chess"}))["room"]
    await stays.send({"type": "take_seat", "room": left, "seat": 0, "name": "Sue"})
    await gone.send({"type": "take_seat", "room": left, "seat": 1, "name": "Gus"})
    await gone.ws.close()
    await asyncio.sleep(0.3)
    await scene.ask(stays, "claim_victory", room=left)
    # tournaments: an arena of Ada and a bot, watched by Bob; another one, cancelled
    tid = (await scene.ask(la, "tournament_create"))["tournament"]
    await scene.ask(lb, "tournament_list")
    await scene.ask(lb, "tournament_watch", tournament=tid)
    await scene.ask(la, "tournament_add_bot", tournament=tid)
    await scene.ask(la, "tournament_join", tournament=tid)
    for _ in range(50):  # full: it starts and pairs Ada with the bot
        if any(f["type"] == "paired" and f.get("tournament") == tid for f in la.frames):
            break
        await asyncio.sleep(0.1)
        await la.settle()
    game = next(f for f in la.frames if f["type"] == "paired" and f.get("tournament") == tid)
    await scene.ask(la, "tournament_berserk", tournament=tid, room=game["room"])
    await scene.ask(la, "tournament_berserk", tournament=tid, room=game["room"])  # repeated
    await scene.ask(la, "tournament_withdraw", tournament=tid)
    await scene.ask(lb, "tournament_unwatch", tournament=tid)
    swiss = {"name": "Sat", "game": "chess", "system": "swiss", "clock": {"base": 60}, "rounds": 3}
    other = await la.send({"type": "tournament_create", **swiss})
    await scene.ask(la, "tournament_cancel", tournament=other["tournament"])
    peers = (a, b, spec, old, back, la, lb, bad, stays)
    for p in peers:
        await p.settle()
    seen = [f for p in peers for f in p.frames]
    for p in peers:
        await p.ws.close()
    return scene, seen


def mismatches(seen: list[Message]) -> list[tuple[Message, list[set[str]]]]:
    """Documented server messages whose fields no live message of their type has."""
    shapes: dict[str, list[set[str]]] = {}
    for f in seen:
        shapes.setdefault(f["type"], []).append(set(f) - {"id"})
    return [
        (m, shapes.get(m["type"], []))
        for m, role in roles()
        if role != "request" and (set(m) - {"id"}) not in shapes.get(m["type"], [])
    ]


async def test_every_documented_message_holds_live(server: KibitzServer) -> None:
    scene, seen = await play_scene(server)
    # every documented request was sent, and answered as documented
    sent = [d for d, _ in scene.checked] + [REQUESTS[i] for i in scene.used]
    missing = [m for m in REQUESTS if m["type"] != "hello" and not any(m is d for d in sent)]
    assert not missing, f"documented requests the scene did not try: {missing}"
    # every documented server message has the fields of a live one of its type
    for m, live in mismatches(seen):
        raise AssertionError(
            f"documented {m['type']} has fields {sorted(set(m) - {'id'})}; "
            f"live ones have {[sorted(s) for s in live][:3]}"
        )
