"""UCI engines as seats (``kibitz serve --engine``), with the real Stockfish and
Fairy-Stockfish: offered in the lobby at their levels, playing legal moves over the wire,
and an engine that is killed or hangs loses its game on time while the room lives on."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import stat
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from server.bots import ladder
from server.bots.uci import EngineSpecError, parse_engine
from server.engine import Registry, get_game, turn_rng
from server.net.app import KibitzServer
from server.net.services.seats.engines import EngineConfigError, EnginePool, Engines
from server.sdk import KibitzClient, KibitzError

from ..conftest import env_with_path, kibitz_cmd, serving

STOCKFISH = "/usr/games/stockfish"
FAIRY = "/usr/games/fairy-stockfish"
CLOCK = {"clock": {"type": "fischer", "base": 6, "increment": 0}, "first_move": 0}

#: a UCI engine that answers the first ``ANSWERS`` moves (the first legal move it finds)
#: and then stops answering, as a hung engine does: a real process, not a mock
HANGING_ENGINE = """#!{python}
import sys, time
import chess
ANSWERS = {answers}
board, answered = chess.Board(), 0
for line in sys.stdin:
    words = line.split()
    if words == ["uci"]:
        print("id name Hangs", "uciok", sep="\\n", flush=True)
    elif words == ["isready"]:
        print("readyok", flush=True)
    elif words[:2] == ["position", "startpos"]:
        board = chess.Board()
        for move in words[3:]:
            board.push_uci(move)
    elif words[:1] == ["go"]:
        if answered == ANSWERS:
            time.sleep(3600)  # hung: it never answers again
        answered += 1
        print("bestmove", next(iter(board.legal_moves)).uci(), flush=True)
"""


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


def hanging_engine(tmp_path: Path, answers: int) -> str:
    path = tmp_path / "hangs.py"
    path.write_text(HANGING_ENGINE.format(python=sys.executable, answers=answers))
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


@pytest.fixture
async def engine_server(
    redis_url: str, prefix: str, registry: Registry
) -> AsyncIterator[KibitzServer]:
    specs = [parse_engine(f"stockfish={STOCKFISH}?processes=1")]
    async with serving(redis_url, prefix, registry, engines=specs) as srv:
        yield srv


def pool_of(server: KibitzServer, name: str) -> EnginePool:
    assert server.engines is not None
    return server.engines.pools[name]


async def person_vs_engine(
    c: KibitzClient, strength: str, *, game: str = "chess", settings: Any = None
) -> str:
    """A room where the client sits at seat 0 and the engine at seat 1."""
    room = (await c.request("create_room", game=game, settings=settings or {}))["room"]
    await c.request("take_seat", room=room, seat=0, name="Ada")
    added = await c.request("add_bot", room=room, seat=1, strength=strength)
    assert added["seat"] == 1
    return room


def answered(turn: int) -> Callable[[dict[str, Any]], bool]:
    """An update after our move at ``turn`` and the engine's answer (or the end)."""
    return lambda m: bool(m["turn"] == turn + 2 or m["status"] == "over")


async def play_moves(c: KibitzClient, room: str, n: int, rng: random.Random) -> dict[str, Any]:
    """Make ``n`` moves as seat 0, each after the engine's reply; the last update."""
    update = await c.wait_update(lambda m: 0 in m["to_act"], room=room, timeout=30)
    for _ in range(n):
        turn = update["turn"]
        await c.request("move", room=room, move=rng.choice(update["legal"]))
        update = await c.wait_update(answered(turn), room=room, timeout=30)
        if update["status"] == "over":
            break
    return update


async def test_stockfish_is_offered_at_three_levels_where_it_plays(
    engine_server: KibitzServer,
) -> None:
    c = await KibitzClient.connect(engine_server.ws_url)
    games = {g["name"]: g for g in (await c.request("list_games"))["games"]}
    engine_levels = ["stockfish:1", "stockfish:2", "stockfish:3"]
    assert games["chess"]["bots"] == ["random", "easy", "normal", "hard", *engine_levels]
    listed = [lv for lv in games["chess"]["levels"] if lv.get("engine") == "stockfish"]
    assert [(lv["level"], lv["strength"], lv["title"]) for lv in listed] == [
        (1, "stockfish:1", "Stockfish level 1"),
        (2, "stockfish:2", "Stockfish level 2"),
        (3, "stockfish:3", "Stockfish level 3"),
    ]
    # weakest first: the skill and the time per move both grow
    assert [lv["skill"] for lv in listed] == sorted(lv["skill"] for lv in listed)
    assert listed[0]["think_time"] < listed[1]["think_time"] < listed[2]["think_time"]
    # rated as kibitz ladder --engine measured this engine at these skills and times
    measured = {
        (e["engine"], e["skill"], e["think_time"]): e["elo"]
        for e in ladder.load().get("chess", {}).get("engines", [])
    }
    engine_id = pool_of(engine_server, "stockfish").engine_id
    expected = [measured.get((engine_id, lv["skill"], lv["think_time"])) for lv in listed]
    assert [lv["elo"] for lv in listed] == expected
    for name in ("xiangqi", "dark_chess", "jungle"):  # Stockfish plays chess only
        assert not [b for b in games[name]["bots"] if b.startswith("stockfish")], name
    room = (await c.request("create_room", game="xiangqi"))["room"]
    with pytest.raises(KibitzError) as err:
        await c.request("add_bot", room=room, seat=1, strength="stockfish:1")
    assert err.value.code == "bad_request"
    with pytest.raises(KibitzError):  # a level it does not have
        await c.request("add_bot", room=room, seat=1, strength="stockfish:4")
    await c.close()


async def test_the_lobby_shows_a_level_rated_for_the_same_engine_skill_and_time(
    engine_server: KibitzServer,
) -> None:
    """``kibitz ladder --engine`` ratings reach the lobby only for the engine (its UCI ``id
    name``) at the very skill and time of a level."""
    assert engine_server.engines is not None
    engine_id = pool_of(engine_server, "stockfish").engine_id
    assert engine_id is not None and engine_id.startswith("Stockfish")
    rated = {"elo": 1400, "elo_95": [1200, 1600], "games": 20}
    measured = {
        "chess": {
            "engines": [
                {"engine": engine_id, "skill": 0, "think_time": 0.1, **rated},  # level 1
                {"engine": engine_id, "skill": 8, "think_time": 0.01, **rated},  # a scaled run
                {"engine": "Other 1.0", "skill": 20, "think_time": 1.0, **rated},  # not this engine
            ]
        }
    }
    levels = engine_server.engines.levels("chess", measured)
    assert [lv["elo"] for lv in levels] == [1400, None, None]
    assert levels[0]["elo_95"] == [1200, 1600] and levels[0]["games"] == 20


async def test_a_game_against_stockfish_over_the_wire_is_legal(
    engine_server: KibitzServer,
) -> None:
    c = await KibitzClient.connect(engine_server.ws_url)
    room = await person_vs_engine(c, "stockfish:1")
    update = await play_moves(c, room, 8, random.Random(1))
    assert update["seats"][1]["kind"] == "bot" and update["seats"][1]["name"] == "Stockfish level 1"
    record = (await c.request("record", room=room))["record"]
    assert len(record["moves"]) >= 9  # ours and its answers, every one replayed legal below
    replay_is_legal(record)
    if update["status"] != "over":
        await c.request("resign", room=room)
    await c.close()


async def test_fairy_stockfish_plays_xiangqi_and_chess(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    specs = [parse_engine(f"fsf={FAIRY}?variant=xiangqi,chess&processes=1")]
    async with serving(redis_url, prefix, registry, engines=specs) as srv:
        c = await KibitzClient.connect(srv.ws_url)
        games = {g["name"]: g for g in (await c.request("list_games"))["games"]}
        assert [b for b in games["xiangqi"]["bots"] if ":" in b] == ["fsf:1", "fsf:2", "fsf:3"]
        assert [b for b in games["chess"]["bots"] if ":" in b] == ["fsf:1", "fsf:2", "fsf:3"]
        for game in ("xiangqi", "chess"):  # one process, told its variant as games change
            room = await person_vs_engine(c, "fsf:1", game=game)
            update = await play_moves(c, room, 4, random.Random(game))
            record = (await c.request("record", room=room))["record"]
            assert len(record["moves"]) >= 8, game
            replay_is_legal(record)
            if update["status"] != "over":
                await c.request("resign", room=room)
        assert pool_of(srv, "fsf").started == 1
        await c.close()


async def test_a_killed_engine_loses_on_time_and_the_room_lives_on(
    engine_server: KibitzServer,
) -> None:
    pool = pool_of(engine_server, "stockfish")
    me = await KibitzClient.connect(engine_server.ws_url)
    room = await person_vs_engine(me, "stockfish:3", settings=CLOCK)
    rng = random.Random(7)
    update = await play_moves(me, room, 1, rng)  # both have moved: the clocks run
    assert update["clock"]["started"]
    killed = None
    for _ in range(10):  # kill it while it thinks (its budget is a slice of its clock)
        turn = update["turn"]
        await me.request("move", room=room, move=rng.choice(update["legal"]))
        deadline = time.monotonic() + 5
        while not pool.busy and time.monotonic() < deadline:
            await asyncio.sleep(0.001)
        if pool.busy:
            killed = next(iter(pool.busy))
            os.kill(killed, signal.SIGKILL)
            break
        update = await me.wait_update(answered(turn), room=room)
    assert killed is not None, "the engine was never caught thinking"
    # the room changes meanwhile (a draw offer, which the seat declines by its evaluation):
    # the seat is not handed to a new process in this game
    await me.request("draw", room=room)
    over = await me.wait_update(lambda m: m["status"] == "over", room=room, timeout=20)
    assert over["outcome"]["reason"] == "timeout" and over["outcome"]["winner"] == 0
    assert pool.lost == 1 and killed not in pool.pids()
    # the room lives on: a spectator gets the record, and a rematch brings a new engine
    spectator = await KibitzClient.connect(engine_server.ws_url)
    record = (await spectator.request("record", room=room))["record"]
    assert record["outcome"]["reason"] == "timeout"
    replay_is_legal(record)
    await spectator.request("watch", room=room)
    await me.request("rematch", room=room)
    rematched = await me.wait_update(
        lambda m: (m.get("rematch") or {}).get("new_room") is not None, room=room
    )
    new_room = rematched["rematch"]["new_room"]
    assert new_room != room
    await me.request("watch", room=new_room)
    # colours swapped: the engine is White now, and a new process makes its first move
    first = await me.wait_update(lambda m: m["turn"] >= 1, room=new_room, timeout=30)
    assert first["seats"][0]["name"] == "Stockfish level 3"
    assert pool.started == 2 and killed not in pool.pids()
    await spectator.close()
    await me.close()


async def test_a_hung_engine_loses_on_time_and_is_killed(
    redis_url: str, prefix: str, registry: Registry, tmp_path: Path
) -> None:
    path = hanging_engine(tmp_path, answers=1)
    specs = [parse_engine(f"hangs={path}?levels=@0.1&processes=1")]
    async with serving(redis_url, prefix, registry, engines=specs) as srv:
        pool = pool_of(srv, "hangs")
        me = await KibitzClient.connect(srv.ws_url)
        settings = {"clock": {"type": "fischer", "base": 3, "increment": 0}, "first_move": 0}
        room = await person_vs_engine(me, "hangs:1", settings=settings)
        update = await play_moves(me, room, 1, random.Random(3))  # it answered once
        hung_pid = pool.pids()[0]
        await me.request("move", room=room, move=update["legal"][0])
        over = await me.wait_update(lambda m: m["status"] == "over", room=room, timeout=15)
        assert over["outcome"]["reason"] == "timeout" and over["outcome"]["winner"] == 0
        deadline = time.monotonic() + 5  # past its flag and a second: the process is killed
        while pool.lost == 0 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert pool.lost == 1 and hung_pid not in pool.pids()
        assert (await me.request("record", room=room))["record"]["outcome"]["reason"] == "timeout"
        await me.close()


async def test_a_hung_engine_with_no_clock_resigns_after_its_grace(
    redis_url: str, prefix: str, registry: Registry, tmp_path: Path
) -> None:
    path = hanging_engine(tmp_path, answers=0)
    specs = [parse_engine(f"hangs={path}?levels=@0.1&processes=1")]
    async with serving(redis_url, prefix, registry, engines=specs) as srv:
        me = await KibitzClient.connect(srv.ws_url)
        room = await person_vs_engine(me, "hangs:1")
        await me.request("move", room=room, move="e2e4")
        over = await me.wait_update(lambda m: m["status"] == "over", room=room, timeout=15)
        assert over["outcome"]["winner"] == 0 and over["outcome"]["reason"] == "resignation"
        assert pool_of(srv, "hangs").lost == 1
        # the room lives on: the next game gets a fresh process (which hangs as well)
        again = await person_vs_engine(me, "hangs:1")
        assert again != room
        await me.close()


def alive(pid: int) -> bool:
    """The process runs (a zombie, dead but not yet reaped, does not)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in status


async def test_a_server_that_stops_kills_an_engine_still_thinking(
    redis_url: str, prefix: str, registry: Registry, tmp_path: Path
) -> None:
    path = hanging_engine(tmp_path, answers=0)
    specs = [parse_engine(f"hangs={path}?levels=@0.1&processes=1")]
    async with serving(redis_url, prefix, registry, engines=specs) as srv:
        pool = pool_of(srv, "hangs")
        me = await KibitzClient.connect(srv.ws_url)
        room = await person_vs_engine(me, "hangs:1")
        await me.request("move", room=room, move="e2e4")
        deadline = time.monotonic() + 5
        while not pool.busy and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        [pid] = pool.busy
        assert alive(pid)
        await me.close()
    deadline = time.monotonic() + 5
    while alive(pid) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert not alive(pid)


async def test_an_engine_seats_only_as_many_games_as_its_pool_serves(
    engine_server: KibitzServer,
) -> None:
    pool = pool_of(engine_server, "stockfish")
    c = await KibitzClient.connect(engine_server.ws_url)
    rooms = []
    for _ in range(pool.places):  # seat 0 stays open: no game starts, no engine thinks
        room = (await c.request("create_room", game="chess"))["room"]
        await c.request("add_bot", room=room, seat=1, strength="stockfish:2")
        rooms.append(room)
    full = (await c.request("create_room", game="chess"))["room"]
    with pytest.raises(KibitzError) as err:
        await c.request("add_bot", room=full, seat=1, strength="stockfish:2")
    assert err.value.code == "busy" and "stockfish" in err.value.message
    update = await c.request("watch", room=full)
    assert update is not None
    seats = (await c.next_update(full))["seats"]
    assert [s["kind"] for s in seats] == ["empty", "empty"]  # refused: nothing changed
    await c.request("add_bot", room=full, seat=1, strength="easy")  # our own bots still sit
    # a game that ends gives its place back
    await c.request("take_seat", room=rooms[0], seat=0, name="Ada")
    await c.request("resign", room=rooms[0])
    await c.wait_update(lambda m: m["status"] == "over", room=rooms[0])
    other = (await c.request("create_room", game="chess"))["room"]
    await c.request("add_bot", room=other, seat=1, strength="stockfish:2")
    await c.close()


async def test_a_rematch_needs_a_place_in_the_engines_pool_again(
    engine_server: KibitzServer,
) -> None:
    pool = pool_of(engine_server, "stockfish")
    c = await KibitzClient.connect(engine_server.ws_url)
    played = await person_vs_engine(c, "stockfish:2")
    await c.request("resign", room=played)
    await c.wait_update(lambda m: m["status"] == "over", room=played)
    rooms = []  # the finished game gave its place back; others take every place now
    for _ in range(pool.places):
        room = (await c.request("create_room", game="chess"))["room"]
        await c.request("add_bot", room=room, seat=1, strength="stockfish:2")
        rooms.append(room)
    assert engine_server.hub is not None
    before = (await engine_server.hub.read(played, "info", {}))["version"]
    with pytest.raises(KibitzError) as err:
        await c.request("rematch", room=played)
    assert err.value.code == "busy" and "stockfish" in err.value.message
    after = (await engine_server.hub.read(played, "info", {}))["version"]
    assert after == before  # refused: the offer was not made
    await c.request("take_seat", room=rooms[0], seat=0, name="Ada")  # a place comes free
    await c.request("resign", room=rooms[0])
    await c.wait_update(lambda m: m["status"] == "over", room=rooms[0])
    await c.request("rematch", room=played)
    made = await c.wait_update(lambda m: bool(m.get("rematch")), room=played)
    assert made["rematch"]
    await c.close()


# -- a bad --engine ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arg", "says"),
    [
        ("stockfish", "NAME=PATH"),
        ("Stock Fish=/usr/games/stockfish", "NAME=PATH"),
        ("sf=", "no path"),
        ("sf=/usr/games/stockfish?variant=shogi", "no game of ours is the UCI variant 'shogi'"),
        ("sf=/usr/games/stockfish?levels=0@0.1,fast", "'fast' is not SKILL@SECONDS"),
        ("sf=/usr/games/stockfish?levels=0@0", "over 0"),
        ("sf=/usr/games/stockfish?processes=0", "processes is 1 to 16"),
        ("sf=/usr/games/stockfish?Hash", "not KEY=VALUE"),
        ("sf=/usr/games/stockfish?Skill%20Level=3", "set per game and level"),
    ],
)
def test_a_bad_engine_argument_is_refused_with_its_reason(arg: str, says: str) -> None:
    with pytest.raises(EngineSpecError, match=None) as err:
        parse_engine(arg)
    assert says in str(err.value)


def test_an_engine_argument_reads_whole() -> None:
    spec = parse_engine(f"fsf={FAIRY}?variant=xiangqi,chess&levels=-5@0.2,@1&Threads=1")
    assert spec.games == ("xiangqi", "chess") and spec.processes == 2
    assert [(lv.skill, lv.movetime) for lv in spec.levels] == [(-5, 0.2), (None, 1.0)]
    assert spec.options == (("Threads", "1"),)
    assert parse_engine(str(spec)) == spec  # its text form reads back the same


@pytest.mark.parametrize(
    ("arg", "says"),
    [
        ("sf=/nonexistent/stockfish", "no executable at '/nonexistent/stockfish'"),
        (f"sf={STOCKFISH}?variant=xiangqi", "cannot play the variant 'xiangqi'"),
        (f"sf={STOCKFISH}?Bogus=1", "Bogus"),
        (f"sf={STOCKFISH}?levels=30@0.1", "at most 20"),
        (f"sf={STOCKFISH}?Hash=many", "Hash"),
        ("sf=/bin/true", "sf"),
    ],
)
async def test_an_engine_that_cannot_do_what_it_was_given_fails_the_start(
    arg: str, says: str
) -> None:
    engines = Engines([parse_engine(arg)])
    with pytest.raises(EngineConfigError) as err:
        await engines.start()
    await engines.close()
    assert says in str(err.value) and str(err.value).startswith("--engine sf:")


def test_kibitz_serve_refuses_a_bad_engine_with_a_clear_error(tmp_path: Path) -> None:
    for args, says in (
        (["--engine", "stockfish"], "NAME=PATH"),
        (["--engine", f"sf={STOCKFISH}?variant=xiangqi"], "cannot play the variant 'xiangqi'"),
        (["--engine", f"sf={STOCKFISH}", "--bot-workers", "0"], "--bot-workers 0 offers none"),
    ):
        done = subprocess.run(
            kibitz_cmd("serve", "--port", "0", "--data", str(tmp_path), *args),
            env=env_with_path(),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2, done.stderr
        assert says in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


def test_workers_get_the_engines_as_given() -> None:
    """``kibitz serve --workers N`` hands every worker the same engines."""
    from server.cli import _parser, _passthrough

    given = ["serve", "--engine", f"sf={STOCKFISH}?levels=0@0.1,@1&Threads=1"]
    given += ["--engine", f"fsf={FAIRY}?variant=xiangqi&processes=3"]
    args = _parser().parse_args(given)
    again = _parser().parse_args(["serve", *_passthrough(args)])
    assert len(args.engine) == 2 and again.engine == args.engine
