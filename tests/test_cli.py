"""The command line: perft figures, games list, --help, readable errors."""

from __future__ import annotations

import json
import subprocess

import pytest

from .conftest import env_with_path, kibitz_cmd

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


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
