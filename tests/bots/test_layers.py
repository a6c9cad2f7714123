"""Layers: ``server/bots`` imports the engine and the standard library only —
nothing from net, rooms or store, and no asyncio, sockets, Redis or websockets."""

from __future__ import annotations

import ast
from pathlib import Path

BOTS = Path(__file__).resolve().parents[2] / "server" / "bots"
FORBIDDEN = (
    "server.net",
    "server.rooms",
    "server.store",
    "server.cli",
    "server.tools",
    "asyncio",
    "socket",
    "redis",
    "websockets",
    "aiohttp",
    "selectors",
    "multiprocessing",
)
ALLOWED_THIRD_PARTY = {"chess"}  # python-chess: the engine's own rules library


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: inside server.bots
                names.add("server.bots." + (node.module or ""))
            elif node.module:
                names.add(node.module)
    return names


def test_bots_import_only_the_engine_and_the_standard_library() -> None:
    import sys

    files = sorted(BOTS.glob("*.py"))
    assert files
    for path in files:
        for name in imports(path):
            assert not name.startswith(FORBIDDEN), f"{path.name} imports {name}"
            top = name.split(".")[0]
            ok = (
                name.startswith(("server.engine", "server.bots"))
                or top in sys.stdlib_module_names
                or top in ALLOWED_THIRD_PARTY
                or top == "__future__"
            )
            assert ok, f"{path.name} imports {name}"
