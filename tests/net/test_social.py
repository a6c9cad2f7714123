"""At the board: draw offers, aborts, rematches and chat, over the protocol."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from server.net.app import KibitzServer
from server.sdk import KibitzClient, KibitzError


async def pair(server: KibitzServer, game: str = "chess", **create: Any) -> Any:
    a = await KibitzClient.connect(server.ws_url)
    b = await KibitzClient.connect(server.ws_url)
    room = (await a.request("create_room", game=game, **create))["room"]
    await a.request("take_seat", room=room, seat=0, name="Ada")
    await b.request("take_seat", room=room, seat=1, name="Bob")
    return a, b, room


async def pushed(c: KibitzClient, kind: str, timeout: float = 5.0) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        msg = await c.next_message(max(0.01, deadline - loop.time()))
        if msg.get("type") == kind:
            return msg


async def test_a_draw_offered_and_accepted(server: KibitzServer) -> None:
    a, b, room = await pair(server)
    await a.request("move", room=room, move="e2e4")
    await a.request("draw", room=room)
    offered = await b.wait_update(lambda m: m["draw_offer"] == 0, room=room)
    assert offered["events"] == [{"kind": "draw_offer", "seat": 0}]
    with pytest.raises(KibitzError) as info:  # nobody answers their own offer
        await a.request("draw_answer", room=room, accept=True)
    assert info.value.code == "bad_request"
    await b.request("draw_answer", room=room, accept=True)
    end = await a.wait_update(lambda m: m["status"] == "over", room=room)
    assert end["outcome"]["reason"] == "agreement" and end["outcome"]["winner"] is None
    for c in (a, b):
        await c.close()


async def test_a_draw_offer_lapses_when_the_opponent_moves(server: KibitzServer) -> None:
    a, b, room = await pair(server)
    await a.request("move", room=room, move="e2e4")
    await a.request("draw", room=room)
    await b.request("move", room=room, move="e7e5")  # moving instead of answering declines
    after = await a.wait_update(lambda m: m["version"] == 6, room=room)
    assert after["draw_offer"] is None and after["status"] == "playing"
    with pytest.raises(KibitzError):
        await b.request("draw_answer", room=room, accept=True)
    # declining keeps the game going
    await b.request("draw", room=room)
    await a.request("draw_answer", room=room, accept=False)
    again = await b.wait_update(lambda m: m["version"] == 8, room=room)
    assert again["draw_offer"] is None and again["status"] == "playing"
    for c in (a, b):
        await c.close()


async def test_no_draw_offers_in_a_race(server: KibitzServer) -> None:
    cs = [await KibitzClient.connect(server.ws_url) for _ in range(3)]
    room = (await cs[0].request("create_room", game="hase_und_igel", seats=3))["room"]
    for i, c in enumerate(cs):
        await c.request("take_seat", room=room, seat=i, name=f"R{i}")
    with pytest.raises(KibitzError) as info:
        await cs[0].request("draw", room=room)
    assert info.value.code == "bad_request"
    for c in cs:
        await c.close()


async def test_abort_before_both_sides_moved_and_not_after(server: KibitzServer) -> None:
    a, b, room = await pair(server)
    await a.request("move", room=room, move="e2e4")
    await b.request("abort", room=room)  # Black has not moved yet
    end = await a.wait_update(lambda m: m["status"] == "over", room=room)
    assert end["outcome"]["reason"] == "aborted" and end["outcome"]["winner"] is None
    c, d, other = await pair(server)
    await c.request("move", room=other, move="e2e4")
    await d.request("move", room=other, move="e7e5")
    with pytest.raises(KibitzError) as info:
        await c.request("abort", room=other)
    assert info.value.code == "bad_request"
    for x in (a, b, c, d):
        await x.close()


async def test_a_rematch_swaps_colours_and_hands_out_new_seats(server: KibitzServer) -> None:
    a, b, room = await pair(server)
    spec = await KibitzClient.connect(server.ws_url)
    await spec.request("watch", room=room)
    with pytest.raises(KibitzError) as info:  # not before the end
        await a.request("rematch", room=room)
    assert info.value.code == "not_finished"
    await a.request("resign", room=room)
    await a.request("rematch", room=room)
    asked = await b.wait_update(lambda m: (m["rematch"] or {}).get("asked") == [0], room=room)
    assert asked["rematch"]["new_room"] is None
    await b.request("rematch", room=room)
    to_a, to_b, to_spec = [await pushed(c, "rematch") for c in (a, b, spec)]
    new_room = to_a["new_room"]
    assert to_a["room"] == room and to_b["new_room"] == new_room == to_spec["new_room"]
    assert (to_a["seat"], to_b["seat"]) == (1, 0)  # colours swapped
    assert "token" not in to_spec and "seat" not in to_spec
    joined = await a.request("join", room=new_room, seat=to_a["seat"], token=to_a["token"])
    assert joined["seat"] == 1
    with pytest.raises(KibitzError):  # a token is its seat's only
        await spec.request("join", room=new_room, seat=0, token=to_a["token"])
    state = await a.wait_update(room=new_room)
    assert [s["name"] for s in state["seats"]] == ["Bob", "Ada"] and state["status"] == "playing"
    for c in (a, b, spec):
        await c.close()


async def test_a_declined_rematch_is_off(server: KibitzServer) -> None:
    a, b, room = await pair(server)
    await b.request("resign", room=room)
    await a.request("rematch", room=room)
    await b.request("rematch_decline", room=room)
    state = await a.wait_update(
        lambda m: (m["events"] or [{}])[-1].get("kind") == "rematch_declined", room=room
    )
    assert state["rematch"] is None
    for c in (a, b):
        await c.close()


async def test_a_bot_declines_a_draw_in_a_level_position(server: KibitzServer) -> None:
    a = await KibitzClient.connect(server.ws_url)
    room = (await a.request("create_room", game="chess"))["room"]
    await a.request("take_seat", room=room, seat=0, name="Ada")
    await a.request("add_bot", room=room, seat=1, strength="easy")
    await a.request("draw", room=room)
    answered = await a.wait_update(
        lambda m: any(e["kind"] == "draw_answer" for e in m["events"] or []), room=room
    )
    assert answered["status"] == "playing" and answered["draw_offer"] is None
    await a.close()


async def test_chat_channels_in_a_hidden_game(server: KibitzServer) -> None:
    """Dark chess: the players' chat reaches everybody; the spectators' chat reaches only
    spectators while the game runs, and everybody (history included) once it is over."""
    a, b, room = await pair(server, game="dark_chess")
    spec = await KibitzClient.connect(server.ws_url)
    await spec.request("watch", room=room)
    await a.request("chat", room=room, text="good luck")
    for c in (b, spec):
        heard = await pushed(c, "chat")
        assert (heard["from"], heard["text"], heard["channel"]) == ("Ada", "good luck", "players")
    await spec.request("chat", room=room, text="the queen is on d8!")
    heard = await pushed(spec, "chat")
    assert heard["channel"] == "spectators"
    await asyncio.sleep(0.3)
    heard_by_players = [m for m in a.drain() + b.drain() if m.get("type") == "chat"]
    assert [m["channel"] for m in heard_by_players] == ["players"]  # Ada's own, not the spy's
    # a late spectator gets the history; a player's resync shows no spectator message
    late = await KibitzClient.connect(server.ws_url)
    await late.request("watch", room=room)
    history = await pushed(late, "chat_history")
    assert [m["text"] for m in history["messages"]] == ["good luck", "the queen is on d8!"]
    await a.request("resync", room=room)
    mine = await pushed(a, "chat_history")
    assert [m["text"] for m in mine["messages"]] == ["good luck"]
    await b.request("resign", room=room)
    await a.request("resync", room=room)
    after = await pushed(a, "chat_history")
    assert [m["text"] for m in after["messages"]] == ["good luck", "the queen is on d8!"]
    for c in (a, b, spec, late):
        await c.close()


async def test_chat_limits(server: KibitzServer) -> None:
    a, b, room = await pair(server)
    for bad in ("", "   ", "x" * 501, "bell\x07", 42, None):
        with pytest.raises(KibitzError) as info:
            await a.request("chat", room=room, text=bad)
        assert info.value.code == "bad_request"
    outsider = await KibitzClient.connect(server.ws_url)
    with pytest.raises(KibitzError) as info:
        await outsider.request("chat", room=room, text="hi")
    assert info.value.code == "bad_request"
    sent = 0
    with pytest.raises(KibitzError) as info:
        for i in range(20):
            await a.request("chat", room=room, text=f"<b>{i}</b>")
            sent += 1
    assert info.value.code == "rate_limited" and sent == 5
    heard = await pushed(b, "chat")
    assert heard["text"] == "<b>0</b>"  # text travels as text; clients show it as text
    for c in (a, b, outsider):
        await c.close()
