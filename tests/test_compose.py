"""docker-compose.yml: every service, port, file and command in it exists and parses."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import yaml

from server.cli import _parser

ROOT = Path(__file__).resolve().parent.parent


def compose() -> dict:  # type: ignore[type-arg]
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_services_and_their_commands() -> None:
    services = {name: s for name, s in compose()["services"].items() if "profiles" not in s}
    assert set(services) == {"redis", "postgres", "node1", "node2", "lb"}
    assert "--appendonly" in services["redis"]["command"]
    postgres = services["postgres"]
    assert postgres["image"].startswith("postgres:") and "postgres-data" in compose()["volumes"]
    env = postgres["environment"]
    archive = f"postgresql://{env['POSTGRES_USER']}:{env['POSTGRES_PASSWORD']}@postgres:5432/"
    archive += env["POSTGRES_DB"]
    for name in ("node1", "node2"):
        node = services[name]
        args = _parser().parse_args(node["command"])  # the node's command is a real kibitz call
        assert args.command == "serve" and args.port == 8765 and args.host == "0.0.0.0"
        assert args.redis == "redis://redis:6379/0" and args.node_id == name
        assert "8765" in node["expose"]
        assert node["depends_on"]["redis"]["condition"] == "service_healthy"
        assert args.archive == archive  # finished games go to the shared PostgreSQL
        assert node["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert services["lb"]["ports"] == ["8080:8080"]


def test_the_image_and_the_load_balancer_config_exist() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    for line in dockerfile.splitlines():
        if line.startswith("COPY "):
            for src in shlex.split(line)[1:-1]:
                assert (ROOT / src).exists(), src
    assert 'ENTRYPOINT ["kibitz"]' in dockerfile
    lb = compose()["services"]["lb"]
    mounted = lb["volumes"][0].split(":")[0]
    conf = (ROOT / mounted).read_text()
    upstreams = re.findall(r"server (\w+):(\d+)", conf)
    assert upstreams == [("node1", "8765"), ("node2", "8765")]
    assert "listen 8080;" in conf
    assert "proxy_set_header Upgrade $http_upgrade;" in conf and "location /ws" in conf


def test_the_cluster_profile() -> None:
    """``--profile cluster``: six cluster-enabled Redis servers joined once by a script,
    two nodes on the cluster acknowledging only replicated moves, and their nginx."""
    services = compose()["services"]
    profiled = {name for name, s in services.items() if s.get("profiles") == ["cluster"]}
    redis = {f"redis-c{i}" for i in range(1, 7)}
    assert profiled == redis | {"redis-cluster-init", "cnode1", "cnode2", "lb-cluster"}
    for name in redis:
        command = services[name]["command"]
        assert command[command.index("--cluster-enabled") + 1] == "yes"
        assert "--appendonly" in command
    init = services["redis-cluster-init"]
    script = ROOT / init["volumes"][0].split(":")[0] / init["entrypoint"][1].split("/")[-1]
    text = script.read_text()
    assert "--cluster-replicas 1" in text and "--cluster create" in text
    assert set(init["depends_on"]) == redis
    for name in ("cnode1", "cnode2"):
        args = _parser().parse_args(services[name]["command"])
        assert args.redis_cluster == "redis://redis-c1:6379" and args.redis is None
        assert args.durability == "replica" and args.node_id == name
        assert services[name]["depends_on"] == {
            "redis-cluster-init": {"condition": "service_completed_successfully"},
            "postgres": {"condition": "service_healthy"},
        }
        assert args.archive.startswith("postgresql://") and "@postgres:5432/" in args.archive
    lb = services["lb-cluster"]
    conf = (ROOT / lb["volumes"][0].split(":")[0]).read_text()
    assert re.findall(r"server (\w+):(\d+)", conf) == [("cnode1", "8765"), ("cnode2", "8765")]
    assert lb["ports"] == ["8081:8080"]
