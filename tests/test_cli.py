"""The command line: perft figures, games list, --help, readable errors."""

from __future__ import annotations

import contextlib
import json
import re
import signal
import subprocess
import urllib.error
import urllib.request

import pytest

from .conftest import env_with_path, free_port, kibitz_cmd

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
#: a XiangQi middle game (tests/engine/test_xiangqi_fen.py; Fairy-Stockfish counts the same)
XIANGQI = "1r1akabnr/9/b8/pcp1C1p1p/9/9/N3P3R/R8/9/2BAKABN1 w - - 1 11"


def kibitz(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        kibitz_cmd(*args), capture_output=True, text=True, env=env_with_path(), timeout=timeout
    )


@pytest.mark.parametrize(
    ("args", "count"),
    [
        (("perft", "chess", "5"), 4865609),
        (("perft", "chess", "4", "--fen", KIWIPETE), 4085603),
        (("perft", "dark_chess", "3"), 8902),
        (("perft", "xiangqi", "2", "--fen", XIANGQI), 930),
        (("perft", "apocalypse", "1"), 81),
        (("perft", "banqi", "1"), 32),
        (("perft", "hase_und_igel", "1", "--seats", "4"), 9),
    ],
)
def test_perft(args: tuple[str, ...], count: int) -> None:
    out = kibitz(*args)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str(count)


def test_perft_divide_lists_first_moves() -> None:
    out = kibitz("perft", "chess", "2", "--divide")
    lines = out.stdout.strip().splitlines()
    assert "e2e4: 20" in lines and lines[-1] == "400" and len(lines) == 21


def test_games_lists_every_game() -> None:
    out = kibitz("games")
    for name in ("chess", "dark_chess", "apocalypse", "banqi", "hase_und_igel"):
        assert name in out.stdout


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("perft", "go", "2"), "unknown game"),
        (("perft", "chess", "2", "--fen", "not a fen"), "fen"),
        (("perft", "banqi", "1", "--fen", "x"), "takes no --fen"),
        (("perft", "xiangqi", "1", "--fen", "4k4/9/9/9/9/9/9/9/9/4K4 w"), "faces the other"),
        (("perft", "hase_und_igel", "1", "--seats", "9"), "seats"),
    ],
)
def test_readable_errors(args: tuple[str, ...], says: str) -> None:
    out = kibitz(*args)
    assert out.returncode == 2 and says in out.stderr and "Traceback" not in out.stderr


def test_help_explains() -> None:
    out = kibitz("serve", "--help")
    assert out.returncode == 0 and "--redis" in out.stdout and "embedded" in out.stdout


def test_arena_runs_through_kibitz() -> None:
    out = kibitz("arena", "dark_chess", "random", "random", "-n", "2", "--json")
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["games"] == 2


@pytest.mark.parametrize("access_log", [False, True])
def test_info_logs_do_not_list_every_request(redis_url: str, access_log: bool) -> None:
    """At INFO an operator reads what matters: start, rooms, trouble — not one line per HTTP
    request (a person playing for ten minutes made 551). ``--access-log`` adds them, one
    line each (the WebSocket upgrade too): method, path, status, bytes sent and time taken,
    and never the query string, where tokens travel."""
    from websockets.sync.client import connect

    port = free_port()
    args = [
        "serve",
        "--port",
        str(port),
        "--redis",
        redis_url,
        "--bot-workers",
        "0",
        "--prefix",
        f"log{port}:",
    ]
    proc = subprocess.Popen(
        kibitz_cmd(*args, *(["--access-log"] if access_log else [])),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env_with_path(),
    )
    index = b""
    try:
        assert proc.stdout is not None
        json.loads(proc.stdout.readline())  # up
        paths = ("/", "/api/games?token=sekrit-1", "/healthz", "/nowhere?access_token=sekrit-2")
        for path in paths * 5:
            with contextlib.suppress(urllib.error.HTTPError):
                body = urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5).read()
                index = body if path == "/" else index
        with connect(f"ws://127.0.0.1:{port}/ws?token=sekrit-3", open_timeout=5):
            pass
    finally:
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=20)
    assert "Kibitz is up" in err  # INFO is on
    assert "HTTP response sent" not in err and "sekrit" not in err, err
    lines = [line.split("kibitz.access: ", 1)[1] for line in err.splitlines() if "access:" in line]
    assert len(lines) == (21 if access_log else 0), err
    if not access_log:
        return
    row = re.compile(r"GET (\S+) (\d+) (\d+) bytes (\d+\.\d) ms")
    found = [m.groups() for m in map(row.fullmatch, lines) if m is not None]
    assert len(found) == 21, lines
    assert {(path, status) for path, status, _sent, _ms in found} == {
        ("/", "200"),
        ("/api/games", "200"),
        ("/healthz", "200"),
        ("/nowhere", "404"),
        ("/ws", "101"),
    }
    sent = {path: int(n) for path, _status, n, _ms in found}
    assert len(index) < sent["/"] < len(index) + 1000  # the head and the page
    assert 0 < sent["/ws"] < 1000  # the upgrade's head


def test_workers_get_every_passed_through_option_as_given() -> None:
    from server.cli import PASSED_THROUGH, _parser, _passthrough

    given = ["serve", "--prefix", "p:", "--max-per-ip", "7", "--rooms-per-minute", "3"]
    given += ["--bot-games", "2"]
    given += ["--msg-rate", "2.5", "--seeks-per-ip", "4", "--msg-burst", "9"]
    given += ["--lag-limit", "0.25", "--lease-ms", "1234", "--bot-workers", "0"]
    given += ["--durability", "replica", "--replica-wait-ms", "55", "--allow-origin", "o"]
    given += ["--allow-host", "h", "--verbose", "--access-log"]
    given += ["--archive", "sqlite:a.sqlite3", "--archive-grace", "60"]
    args = _parser().parse_args(given)
    again = _parser().parse_args(["serve", *_passthrough(args)])
    for _flag, attr in PASSED_THROUGH:
        assert getattr(again, attr) == getattr(args, attr), attr
    assert again.allow_origin == ["o"] and again.allow_host == ["h"]
    assert again.verbose and again.access_log
    defaults = _parser().parse_args(["serve"])
    changed = {a for _f, a in PASSED_THROUGH if getattr(args, a) != getattr(defaults, a)}
    assert changed == {a for _f, a in PASSED_THROUGH}  # each one is really exercised


def subcommands_missing(readme: str) -> set[str]:
    """The ``kibitz`` subcommands (as ``kibitz --help`` lists them) that README's usage block
    (its first ``text`` block) leaves out."""
    import re

    from server.cli import _parser

    block = readme.split("```text\n", 1)[1].split("```", 1)[0]
    listed = set(re.findall(r"^kibitz (\w+)", block, re.M))
    commands = set(re.findall(r"^    (\w+)  ", _parser().format_help(), re.M))
    assert {"serve", "arena", "ladder"} <= commands  # the help is read right
    return commands - listed


def test_readme_lists_every_subcommand() -> None:
    from .conftest import ROOT

    readme = (ROOT / "README.md").read_text()
    assert subcommands_missing(readme) == set()
    broken = readme.replace("\nkibitz ladder ", "\nkibitz-ladder ")  # the check can fail
    assert subcommands_missing(broken) == {"ladder"}
