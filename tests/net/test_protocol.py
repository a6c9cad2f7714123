"""The wire protocol over real sockets against a real redis-server."""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import json
import urllib.request
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from server.net.app import KibitzServer
from server.sdk import KibitzClient, KibitzError


async def seated_pair(
    server: KibitzServer, game: str = "chess", **create: Any
) -> tuple[KibitzClient, KibitzClient, str]:
    a = await KibitzClient.connect(server.ws_url)
    b = await KibitzClient.connect(server.ws_url)
    room = (await a.request("create_room", game=game, **create))["room"]
    await a.request("take_seat", room=room, seat=0, name="Ada")
    await b.request("take_seat", room=room, seat=1, name="Bob")
    return a, b, room


async def play(c: KibitzClient, room: str, move: str) -> dict[str, Any]:
    return await c.request("move", room=room, move=move)


async def test_two_players_checkmate_and_a_spectator_watches(server: KibitzServer) -> None:
    a, b, room = await seated_pair(server)
    spec = await KibitzClient.connect(server.ws_url, msgpack_frames=True)
    await spec.request("watch", room=room)
    first = await spec.next_update(room)
    assert first["status"] == "playing" and first["you"] is None and "legal" not in first
    for c, mv in [(a, "f2f3"), (b, "e7e5"), (a, "g2g4"), (b, "d8h4")]:
        reply = await play(c, room, mv)
        assert reply["type"] == "moved"
    end = await spec.wait_update(lambda m: m["status"] == "over", room=room)
    assert end["outcome"]["winner"] == 1 and end["outcome"]["reason"] == "checkmate"
    assert end["view"]["last_san"] == "Qh4#"
    seen_by_a = await a.wait_update(lambda m: m["status"] == "over", room=room)
    assert seen_by_a["outcome"] == end["outcome"]
    with pytest.raises(KibitzError) as err:
        await play(a, room, "a2a3")
    assert err.value.code == "game_over"
    record = (await spec.request("record", room=room))["record"]
    assert [m["moves"] for m in record["moves"]] == [
        {"0": "f2f3"},
        {"1": "e7e5"},
        {"0": "g2g4"},
        {"1": "d8h4"},
    ]
    assert "1. f3 e5 2. g4 Qh4# 0-1" in record["exports"]["pgn"]

    def fetch() -> bytes:
        with urllib.request.urlopen(f"{server.url}api/rooms/{room}/pgn") as resp:
            return bytes(resp.read())

    assert b"Qh4#" in await asyncio.to_thread(fetch)
    for c in (a, b, spec):
        await c.close()


async def test_versions_increase_and_every_update_carries_one(server: KibitzServer) -> None:
    a, b, room = await seated_pair(server)
    await play(a, room, "e2e4")
    upd = await b.wait_update(lambda m: m["turn"] == 1, room=room)
    assert upd["events"] == [{"kind": "move", "seats": [0]}]
    assert upd["view"]["last_move"] == "e2e4" and upd["legal"]
    with pytest.raises(KibitzError) as err:
        await b.request("move", room=room, move="e7e5", version=upd["version"] - 1)
    assert err.value.code == "stale_version"
    await b.request("move", room=room, move="e7e5", version=upd["version"])
    await a.close()
    await b.close()


async def test_rps_sealed_turn_over_the_wire(server: KibitzServer) -> None:
    a, b, room = await seated_pair(server, game="rps")
    spec = await KibitzClient.connect(server.ws_url)
    await spec.request("watch", room=room)
    await spec.next_update(room)
    b.drain()
    reply = await play(a, room, "rock")
    assert reply["sealed"] is True
    for c in (b, spec):
        upd = await c.wait_update(lambda m: m["events"] == [{"kind": "sealed", "seat": 0}])
        assert "your_move" not in upd and upd["view"]["history"] == []
    mine = await a.wait_update(lambda m: m.get("your_move") == "rock", room=room)
    assert mine["sealed"] == [0]
    await play(b, room, "scissors")
    done = await spec.wait_update(lambda m: m["status"] == "over", room=room)
    assert done["view"]["history"] == [["rock", "scissors"]]
    assert done["outcome"]["winner"] == 0
    for c in (a, b, spec):
        await c.close()


async def test_lobby_lists_rooms_and_games(server: KibitzServer) -> None:
    c = await KibitzClient.connect(server.ws_url)
    games = (await c.request("list_games"))["games"]
    names = {g["name"] for g in games}
    assert {"chess", "dark_chess", "rps"} <= names
    room = (await c.request("create_room", game="chess"))["room"]
    rooms = (await c.request("list_rooms"))["rooms"]
    assert room in [r["room"] for r in rooms]
    assert (await c.request("list_rooms", game="dark_chess"))["rooms"] == []
    await c.close()


async def test_undo_over_the_wire(server: KibitzServer) -> None:
    a, b, room = await seated_pair(server)
    await play(a, room, "e2e4")
    await a.request("undo", room=room)
    req = await b.wait_update(lambda m: m["undo"] is not None, room=room)
    assert req["undo"] == {"seat": 0, "accepted": []}
    await b.request("undo_answer", room=room, accept=True)
    back = await a.wait_update(lambda m: m["turn"] == 0 and m["version"] > req["version"])
    assert back["view"]["last_move"] is None and back["to_act"] == [0]
    await a.close()
    await b.close()


async def test_resume_with_session_after_reconnect(server: KibitzServer) -> None:
    a, b, room = await seated_pair(server)
    await play(a, room, "e2e4")
    seen = await a.wait_update(lambda m: m["turn"] == 1, room=room)
    session = a.session
    await a.close()
    await play(b, room, "e7e5")  # happens while Ada is away
    a2 = await KibitzClient.connect(server.ws_url, session=session, since={room: seen["version"]})
    assert a2.welcome["resumed"] is True
    assert a2.welcome["rooms"] == [{"room": room, "seats": [0]}]
    missed = await a2.next_update(room)
    assert missed["events"] == [{"kind": "move", "seats": [1]}]
    assert missed["view"]["last_move"] == "e7e5" and missed["you"] == 0
    await play(a2, room, "g1f3")  # acts for the seat without showing the token again
    # an unknown session is a fresh one, not an error
    c = await KibitzClient.connect(server.ws_url, session="x" * 32)
    assert c.welcome["resumed"] is False and c.welcome["rooms"] == []
    for x in (a2, b, c):
        await x.close()


async def test_join_reclaims_a_seat_with_its_token(server: KibitzServer) -> None:
    a = await KibitzClient.connect(server.ws_url)
    room = (await a.request("create_room", game="chess"))["room"]
    token = (await a.request("take_seat", room=room, seat=0, name="Ada"))["token"]
    other = await KibitzClient.connect(server.ws_url)
    with pytest.raises(KibitzError) as err:
        await other.request("join", room=room, seat=0, token="wrong-token-" * 2)
    assert err.value.code == "bad_token"
    joined = await other.request("join", room=room, seat=0, token=token)
    assert joined["seat"] == 0
    await a.close()
    await other.close()


async def test_healthz_and_static_files(server: KibitzServer) -> None:
    def get(path: str) -> tuple[int, bytes, str]:
        try:
            with urllib.request.urlopen(server.url + path) as resp:
                return resp.status, resp.read(), resp.headers["Content-Type"]
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read(), exc.headers["Content-Type"]

    status, body, _ = await asyncio.to_thread(get, "healthz")
    assert status == 200 and json.loads(body)["status"] == "ok"
    status, body, ctype = await asyncio.to_thread(get, "")
    assert status == 200 and ctype.startswith("text/html") and b"Kibitz" in body
    assert (await asyncio.to_thread(get, "../pyproject.toml"))[0] == 404
    assert (await asyncio.to_thread(get, "nope.js"))[0] == 404
    assert (await asyncio.to_thread(get, "api/rooms/zzz/record"))[0] == 404


# -- bad input: each gets its code and loses nothing -------------------------------------------


async def error_for(c: KibitzClient, frame: str | bytes) -> dict[str, Any]:
    await c.send_raw(frame)
    msg = await c.next_message()
    assert msg["type"] == "error", msg
    return msg


async def test_malformed_frames(server: KibitzServer) -> None:
    c = await KibitzClient.connect(server.ws_url)
    assert (await error_for(c, "{not json"))["code"] == "bad_json"
    assert (await error_for(c, b"\x93\x01"))["code"] == "bad_json"  # binary on a JSON link
    assert (await error_for(c, "[1, 2]"))["code"] == "bad_request"
    assert (await error_for(c, '{"kind": "move"}'))["code"] == "bad_request"
    assert (await error_for(c, '{"type": "fly", "id": 7}')) == {
        "type": "error",
        "code": "unknown_type",
        "message": "unknown message type 'fly'",
        "id": 7,
    }
    # the connection still works after every one of them
    assert (await c.request("ping"))["type"] == "pong"
    await c.close()


async def test_hello_first_and_protocol_version(server: KibitzServer) -> None:
    c = await KibitzClient.connect(server.ws_url, hello=False)
    with pytest.raises(KibitzError) as err:
        await c.request("list_games")
    assert err.value.code == "bad_request"
    with pytest.raises(KibitzError) as err:
        await c.request("hello", protocol=99)
    assert err.value.code == "unsupported_protocol"
    assert (await c.request("hello", protocol=1))["type"] == "welcome"
    await c.close()


@pytest.mark.parametrize(
    ("request_fields", "code"),
    [
        ({"type": "create_room", "game": "go"}, "no_such_game"),
        ({"type": "create_room", "game": "chess", "options": {"fen": "x"}}, "bad_options"),
        ({"type": "create_room", "game": "chess", "options": [1]}, "bad_request"),
        ({"type": "create_room", "game": "chess", "seats": 5}, "bad_options"),
        ({"type": "watch", "room": "nope"}, "no_such_room"),
        ({"type": "watch", "room": "../../etc"}, "no_such_room"),
        ({"type": "watch", "room": 12}, "no_such_room"),
        ({"type": "ping", "id": [1]}, "bad_request"),
    ],
)
async def test_bad_requests(
    server: KibitzServer, request_fields: dict[str, Any], code: str
) -> None:
    c = await KibitzClient.connect(server.ws_url)
    assert (await error_for(c, json.dumps(request_fields)))["code"] == code
    await c.close()


async def test_xiangqi_from_a_fen_and_a_bad_fen_refused_with_its_reason(
    server: KibitzServer,
) -> None:
    """The option in the games' schema (the lobby's "More options"), a room from a FEN whose
    view shows it back, and a bad one refused with what the lobby toasts: the message."""
    c = await KibitzClient.connect(server.ws_url)
    facing = "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"  # the generals face each other
    frame = {"type": "create_room", "game": "xiangqi", "options": {"fen": facing}}
    err = await error_for(c, json.dumps(frame))
    assert err["code"] == "bad_options"
    assert err["message"].startswith("option 'fen' is not a XiangQi position: Black, not to")
    games = {g["name"]: g for g in (await c.request("list_games"))["games"]}
    assert games["xiangqi"]["options"]["fen"]["type"] == "str"
    fen = "4k4/4n4/9/9/9/9/9/r3C4/9/3K5 b - - 0 20"
    room = (await c.request("create_room", game="xiangqi", options={"fen": fen}))["room"]
    await c.request("watch", room=room)
    assert (await c.next_update(room))["view"]["fen"] == fen
    await c.close()


async def test_seat_and_move_errors(server: KibitzServer) -> None:
    a, b, room = await seated_pair(server)
    c = await KibitzClient.connect(server.ws_url)

    async def code_of(client: KibitzClient, kind: str, **fields: Any) -> str:
        with pytest.raises(KibitzError) as err:
            await client.request(kind, **fields)
        return err.value.code

    assert await code_of(c, "take_seat", room=room, seat=0, name="Eve") == "seat_taken"
    assert await code_of(c, "take_seat", room=room, seat=9, name="Eve") == "no_such_seat"
    assert await code_of(c, "move", room=room, move="e2e4") == "not_seated"
    assert await code_of(b, "move", room=room, move="e7e5") == "not_your_turn"
    assert await code_of(a, "move", room=room, move="e2e5") == "illegal_move"
    assert await code_of(a, "move", room=room, move="xyzzy") == "bad_move"
    assert await code_of(a, "move", room=room, move=42) == "bad_request"
    assert await code_of(a, "move", room=room, seat=1, move="e2e4") == "not_seated"
    assert await code_of(a, "resign", room=room, seat="0") == "bad_request"
    # nothing was lost: the game goes on from where it was
    assert (await play(a, room, "e2e4"))["version"] == 4
    for x in (a, b, c):
        await x.close()


async def test_too_large_message(server: KibitzServer) -> None:
    c = await KibitzClient.connect(server.ws_url)
    big = json.dumps({"type": "ping", "pad": "x" * (server.config.limits.max_message + 1)})
    assert (await error_for(c, big))["code"] == "too_large"
    assert (await c.request("ping"))["type"] == "pong"
    # beyond the frame limit the WebSocket layer closes the connection (1009)
    await c.send_raw("x" * (server.config.limits.max_frame + 1))
    await asyncio.wait_for(c.closed.wait(), 5)
    assert c.ws.close_code == 1009


async def test_flood_is_rate_limited_then_cut(server: KibitzServer) -> None:
    c = await KibitzClient.connect(server.ws_url)
    limits = server.config.limits
    frame = json.dumps({"type": "ping"})
    for _ in range(limits.burst + 20):
        await c.send_raw(frame)
    await asyncio.sleep(0.3)
    msgs = c.drain()
    codes = [m.get("code") for m in msgs if m["type"] == "error"]
    assert codes and set(codes) == {"rate_limited"}  # each refused request is answered
    # the hello spent one message of the budget
    assert sum(1 for m in msgs if m["type"] == "pong") >= limits.burst - 1
    for _ in range(limits.flood_close + 10):
        await c.send_raw(frame)
    await asyncio.wait_for(c.closed.wait(), 5)
    assert c.ws.close_code == 1008


async def test_a_client_that_does_not_read_is_dropped(server: KibitzServer) -> None:
    """A reader that never reads fills its bounded send buffer and is cut; others go on."""
    watcher = await connect(server.ws_url, max_size=None)
    await watcher.send(json.dumps({"type": "hello", "protocol": 1}))
    a, b, room = await seated_pair(server, game="rps", options={"rounds": 99})
    await watcher.send(json.dumps({"type": "watch", "room": room}))
    await asyncio.sleep(0.2)
    # stop reading: pause the transport so the kernel buffers fill
    watcher.transport.pause_reading()
    hub = server.hub
    assert hub is not None
    pad = "p" * 60_000  # big frames fill socket buffers fast
    target = next(c for c in hub.clients if c.watching)
    for i in range(400):
        if target.closing:
            break
        hub.audience.fan_out(room, [(None, None, {"type": "update", "pad": pad, "i": i})])
        await asyncio.sleep(0)
    assert target.closing and target.dropped >= 1
    transport = target.ws.transport
    assert transport.is_closing() and transport.get_write_buffer_size() == 0  # freed
    # the players are unaffected
    await play(a, room, "rock")
    await play(b, room, "paper")
    watcher.transport.abort()
    await a.close()
    await b.close()


async def test_origin_allow_list(server: KibitzServer) -> None:
    with pytest.raises(InvalidStatus) as err:
        await connect(server.ws_url, origin="http://evil.example")  # type: ignore[arg-type]
    assert err.value.response.status_code == 403
    same = f"http://127.0.0.1:{server.port}"
    ws = await connect(server.ws_url, origin=same)  # type: ignore[arg-type]
    await ws.close()
    cfg = dataclasses.replace(server.config, port=0, allowed_origins=["http://friend.example"])
    async with KibitzServer(cfg) as other:
        ws = await connect(other.ws_url, origin="http://friend.example")  # type: ignore[arg-type]
        await ws.close()
        with pytest.raises(InvalidStatus):
            await connect(other.ws_url, origin="http://evil.example")  # type: ignore[arg-type]


async def test_unknown_subprotocol_still_gets_json(server: KibitzServer) -> None:
    ws = await connect(server.ws_url)
    await ws.send(json.dumps({"type": "hello", "protocol": 1, "id": "h"}))
    reply = json.loads(await ws.recv())
    assert reply["type"] == "welcome" and reply["id"] == "h"
    await ws.close()


async def test_clock_flag_falls_over_the_wire(server: KibitzServer) -> None:
    clock = {"type": "per_move", "seconds": 0.3}
    a, b, room = await seated_pair(server, settings={"clock": clock})
    start = await a.wait_update(lambda m: m["status"] == "playing", room=room)
    # no clock runs before each side's first move (issue 34, item 3)
    assert start["clock"]["running"] == [] and start["clock"]["left"] == [0.3, 0.3]
    await play(a, room, "e2e4")
    await play(b, room, "e7e5")
    await play(a, room, "g1f3")
    # Black does not move: the server's own timer ends the game
    end = await a.wait_update(lambda m: m["status"] == "over", room=room, timeout=5)
    assert end["outcome"]["reason"] == "timeout" and end["outcome"]["winner"] == 0
    assert end["events"] == [{"kind": "timeout", "seat": 1}]
    with pytest.raises(KibitzError) as err:
        await play(b, room, "e7e5")
    assert err.value.code == "game_over"
    await a.close()
    await b.close()


async def test_delayed_spectators_and_seated_players(server: KibitzServer) -> None:
    a, b, room = await seated_pair(
        server, game="dark_chess", settings={"spectator_delay": 2, "spectators_see_all": True}
    )
    with pytest.raises(KibitzError) as err:
        await a.request("watch", room=room)
    assert err.value.code == "forbidden"
    spec = await KibitzClient.connect(server.ws_url)
    await spec.request("watch", room=room)
    first = await spec.next_update(room)
    assert first["view"]["delayed"] == 2 and len(first["view"]["seats"]) == 2
    await play(a, room, "e2e4")
    late = await spec.wait_update(lambda m: m["events"] == [{"kind": "move", "seats": [0]}])
    assert late["view"]["turn"] == 0  # two turns late: the board before e2e4
    assert "PPPPPPPP" in late["view"]["seats"][0]["fen"]
    for c in (a, b, spec):
        await c.close()


async def test_metrics_in_prometheus_format(server: KibitzServer) -> None:
    a, b, room = await seated_pair(server)
    await play(a, room, "e2e4")
    with pytest.raises(KibitzError):
        await play(a, room, "e7e5")

    def fetch() -> str:
        with urllib.request.urlopen(server.url + "metrics") as resp:
            assert resp.headers["Content-Type"].startswith("text/plain")
            return str(resp.read().decode())

    gc.collect()  # the node times the collector's pauses (the whole node waits for them)
    text = await asyncio.to_thread(fetch)
    assert "kibitz_moves_total 1.0" in text
    assert "kibitz_connections 2.0" in text
    assert 'kibitz_errors_total{code="not_your_turn"} 1.0' in text
    assert "kibitz_move_seconds_count 1.0" in text
    assert "kibitz_redis_append_seconds_count" in text
    full = 'kibitz_gc_pause_seconds_count{generation="2"} '
    assert float(text.split(full, 1)[1].split("\n", 1)[0]) >= 1
    await a.close()
    await b.close()


async def test_resync_answers_the_version_it_sent_even_when_a_move_lands_meanwhile(
    server: KibitzServer,
) -> None:
    """``resync``'s ``ok`` names the update it pushed. The room's version read afterwards
    can be newer (a move landed in between), and a client waiting for that update from
    another node may never get it (a publication lost in a failover): a 10 s stall, once."""
    a, b, room = await seated_pair(server)
    await play(a, room, "e2e4")
    handlers, armed = server.handlers, [True]

    async def move_meanwhile(*_args: Any) -> None:  # runs between the push and the reply
        if armed.pop() if armed else False:
            await play(b, room, "e7e5")

    handlers.seating.on_join = (*handlers.seating.on_join, move_meanwhile)
    a.drain()
    ok = await a.request("resync", room=room)
    pushed = await a.next_update(room)
    assert pushed["version"] == ok["version"], (pushed["version"], ok["version"])
    after = await a.next_update(room)  # and the move's own update follows
    assert after["version"] == ok["version"] + 1 and after["view"]["last_move"] == "e7e5"
    await a.close()
    await b.close()
