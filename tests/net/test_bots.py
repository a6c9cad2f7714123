"""Bots in seats over the protocol: they play whole games, answer people, survive restarts."""

from __future__ import annotations

import random
from typing import Any

import pytest

from server.bots import ladder
from server.engine import get_game, turn_rng
from server.net.app import KibitzServer
from server.sdk import KibitzClient, KibitzError

from .test_restart import ServerProcess, running


def replay_is_legal(record: dict[str, Any]) -> None:
    """Every recorded move was legal in turn (the record replays from its seed)."""
    game = get_game(record["game"])
    state = game.new(record["options"], record["n_seats"], turn_rng(record["seed"], 0))
    for i, turn in enumerate(record["moves"], 1):
        moves = {}
        for seat, text in turn["moves"].items():
            move = game.parse_move(state, int(seat), text)
            assert move in game.legal_moves(state, int(seat)), (i, seat, text)
            moves[int(seat)] = move
        state = game.play(state, moves, turn_rng(record["seed"], i))
    assert (game.outcome(state) is not None) or record["outcome"]["reason"] in ("resignation",)


@pytest.mark.parametrize(
    ("game", "seats", "strength"),
    [
        ("chess", 2, "random"),
        ("dark_chess", 2, "random"),
        ("apocalypse", 2, "easy"),
        ("banqi", 2, "random"),
        ("hase_und_igel", 3, "random"),
    ],
)
async def test_a_room_of_bots_plays_a_whole_game(
    server: KibitzServer, game: str, seats: int, strength: str
) -> None:
    c = await KibitzClient.connect(server.ws_url)
    room = (await c.request("create_room", game=game, seats=seats))["room"]
    for seat in range(seats):
        added = await c.request("add_bot", room=room, seat=seat, strength=strength)
        assert added["seat"] == seat
    await c.request("watch", room=room)
    end = await c.wait_update(lambda m: m["status"] == "over", room=room, timeout=120)
    assert all(s["kind"] == "bot" for s in end["seats"])
    record = (await c.request("record", room=room))["record"]
    assert record["outcome"] == end["outcome"] and len(record["moves"]) == end["turn"] > 0
    replay_is_legal(record)
    await c.close()


async def test_a_bot_answers_a_person_and_accepts_take_backs(server: KibitzServer) -> None:
    me = await KibitzClient.connect(server.ws_url)
    games = {g["name"]: g for g in (await me.request("list_games"))["games"]}
    assert games["chess"]["bots"] == ["random", "easy", "normal", "hard"]
    # the same strengths as ladder levels, with the ratings the server read at start
    levels = games["chess"]["levels"]
    assert [(lv["level"], lv["strength"]) for lv in levels] == list(
        enumerate(games["chess"]["bots"], 1)
    )
    assert server.handlers is not None
    assert levels == ladder.rated_levels("chess", server.handlers.ladder)
    room = (await me.request("create_room", game="chess"))["room"]
    await me.request("take_seat", room=room, seat=0, name="Ada")
    await me.request("add_bot", room=room, seat=1, strength="easy")
    await me.request("move", room=room, move="e2e4")
    reply = await me.wait_update(lambda m: m["turn"] == 2, room=room, timeout=30)
    assert reply["to_act"] == [0] and reply["legal"]
    await me.request("undo", room=room)  # the bot accepts by policy: back to the start
    back = await me.wait_update(lambda m: m["turn"] == 0, room=room, timeout=10)
    assert back["to_act"] == [0]
    await me.close()


async def test_add_bot_errors(server: KibitzServer) -> None:
    me = await KibitzClient.connect(server.ws_url)
    room = (await me.request("create_room", game="chess"))["room"]
    await me.request("take_seat", room=room, seat=0, name="Ada")
    for fields, code in [
        ({"seat": 1, "strength": "godlike"}, "bad_request"),
        ({"seat": 0, "strength": "easy"}, "seat_taken"),
        ({"seat": 5, "strength": "easy"}, "no_such_seat"),
    ]:
        with pytest.raises(KibitzError) as err:
            await me.request("add_bot", room=room, **fields)
        assert err.value.code == code
    await me.close()


async def test_bots_keep_playing_after_a_restart(redis_url: str, prefix: str) -> None:
    """SIGKILL while a bot owes a move: the restarted server rebuilds the bot from the log
    and it moves; the person goes on with the game."""
    args = ["--redis", redis_url, "--prefix", prefix, "--node-id", "botnode"]
    first = ServerProcess(args)
    await first.start()
    try:
        me = await KibitzClient.connect(first.ws)
        room = (await me.request("create_room", game="apocalypse"))["room"]
        await me.request("take_seat", room=room, seat=0, name="Ada")
        await me.request("add_bot", room=room, seat=1, strength="hard")  # thinks ~3 s
        await me.request("move", room=room, move="a2a3")
        session = me.session
        first.kill()  # very likely while the bot is still thinking
    finally:
        first.ensure_dead()
    async with running(args) as second:
        me = await KibitzClient.connect(second.ws, session=session)
        resolved = await me.wait_update(lambda m: m["turn"] >= 1, room=room, timeout=60)
        assert resolved["view"]["last_moves"]["0"] == "a2a3"
        rng = random.Random(5)
        for _ in range(3):  # and the game goes on with the rebuilt bot
            if resolved["status"] == "over":
                break
            await me.request("move", room=room, move=rng.choice(resolved["legal"]))
            turn = resolved["turn"]
            resolved = await me.wait_update(lambda m, t=turn: m["turn"] > t, room=room, timeout=60)
        await me.close()


class Recording:
    """The bot runner's real process pool, noting every call handed to a worker."""

    def __init__(self, pool: Any) -> None:
        self.pool = pool
        self.calls: list[tuple[Any, tuple[Any, ...]]] = []

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        assert not kwargs
        self.calls.append((fn, args))
        return self.pool.submit(fn, *args)

    def shutdown(self, *args: Any, **kwargs: Any) -> None:
        self.pool.shutdown(*args, **kwargs)


async def test_a_worker_is_handed_the_seats_views_and_nothing_else(server: KibitzServer) -> None:
    """What crosses into a bot worker, for a BanQi bot: the game, the strength, the seat, that
    seat's views (each equal to what the seat was shown), its legal moves, a budget and a
    seed that is a one-way digest (the room's seed would tell the face-down pieces)."""
    from server.net.services.seats.bots import think

    assert server.bots is not None and server.hub is not None
    recording = Recording(server.bots.pool)
    server.bots.pool = recording  # type: ignore[assignment]
    me = await KibitzClient.connect(server.ws_url)
    room = (await me.request("create_room", game="banqi"))["room"]
    await me.request("take_seat", room=room, seat=0, name="Ada")
    await me.request("add_bot", room=room, seat=1, strength="random")
    rng = random.Random(3)
    for _ in range(4):
        mine = await me.wait_update(lambda m: bool(m.get("legal")), room=room, timeout=30)
        await me.request("move", room=room, move=rng.choice(mine["legal"]))
    await me.wait_update(lambda m: m["turn"] >= 8 or m["status"] == "over", room=room, timeout=30)
    hosted = server.hub.rooms[room].room
    game = hosted.game
    # the true game, replayed from the log: what seat 1 was shown after every turn
    state = game.new(hosted.options, 2, turn_rng(hosted.seed, 0))
    shown = [game.view(state, 1)]
    for i, turn in enumerate(hosted.turns, 1):
        moves = {int(s): game.parse_move(state, int(s), t) for s, t in turn.played}
        state = game.play(state, moves, turn_rng(hosted.seed, i))
        shown.append(game.view(state, 1))
    assert len(recording.calls) >= 3
    for fn, args in recording.calls:
        assert fn is think
        game_name, strength, seat, views, legal, budget, seed = args  # exactly these
        assert (game_name, strength, seat) == ("banqi", "random", 1)
        assert views == shown[: len(views)]  # the seat's own views, in order
        assert all(isinstance(v, dict) for v in views) and isinstance(budget, float)
        assert legal and all(isinstance(m, str) for m in legal)
        assert isinstance(seed, str) and hosted.seed not in seed
    await me.close()


async def test_an_unknown_strength_is_refused_and_changes_nothing(server: KibitzServer) -> None:
    """It used to be replaced by the default strength silently."""
    me = await KibitzClient.connect(server.ws_url)
    room = (await me.request("create_room", game="chess"))["room"]
    info = {g["name"]: g for g in (await me.request("list_games"))["games"]}["chess"]
    with pytest.raises(KibitzError) as refused:
        await me.request("add_bot", room=room, seat=1, strength="grandmaster")
    assert refused.value.code == "bad_request"
    assert all(s in refused.value.message for s in info["bots"])  # names the offered ones
    rooms = {r["room"]: r for r in (await me.request("list_rooms"))["rooms"]}
    assert rooms[room]["seats"][1]["kind"] == "empty" and rooms[room]["version"] == 1
    added = await me.request("add_bot", room=room, seat=1, strength=info["bots"][-1])
    assert added["seat"] == 1
    await me.close()
