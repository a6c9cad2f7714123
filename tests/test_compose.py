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
    services = compose()["services"]
    assert set(services) == {"redis", "node1", "node2", "lb"}
    assert "--appendonly" in services["redis"]["command"]
    for name in ("node1", "node2"):
        node = services[name]
        args = _parser().parse_args(node["command"])  # the node's command is a real kibitz call
        assert args.command == "serve" and args.port == 8765 and args.host == "0.0.0.0"
        assert args.redis == "redis://redis:6379/0" and args.node_id == name
        assert "8765" in node["expose"]
        assert node["depends_on"]["redis"]["condition"] == "service_healthy"
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
