"""The shape of ``server/``: imports point one way and never in a circle, no file is over
500 lines (its Python, C and headers, every Python file of ``tests/`` and the web client's
JavaScript), the formatter is turned off nowhere but in board-shaped tables, the top level
holds only the entry points and the packages, no import is done only for its side effects,
and no part declares its host's members for the type checker (a mixin calling back into the
class it is mixed into).

Where the code is not there yet, the exceptions are listed here, by name, and the lists can
only shrink: a listed file that is no longer long, or a listed circle that is gone, fails the
test too (so it gets struck from the list).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "server"
MAX_LINES = 500
#: what the size rule measures: (folder, file patterns)
MEASURED = (
    (SERVER, ("*.py", "*.c", "*.h")),
    (ROOT / "tests", ("*.py",)),
    (ROOT / "web", ("*.js",)),
)

#: files still over the limit, from the repository's root (a new exception needs a reason)
STILL_OVER_500: set[str] = set()
#: import circles still present (module names, sorted)
KNOWN_CYCLES: set[tuple[str, ...]] = set()

#: what each layer may import of ours (everything else of ours is forbidden)
ALLOWED = {
    "engine": {"engine"},
    "rooms": {"rooms", "engine"},
    "bots": {"bots", "engine"},
    "store": {"store"},
    # the archive of finished games (a database): plain values in and out, beside the store
    "archive": {"archive"},
    "sdk": {"sdk"},
    # tournaments: pure like the rooms (decide/fold, no I/O); they use the games' registry
    # and the rooms' values (ratings); the net drives them
    "tournaments": {"tournaments", "engine", "rooms"},
    # analysis of finished games: pure like the bots (moves in, values out), on the games'
    # rules, the bots' searches and outside engines; it runs in worker processes
    "analysis": {"analysis", "engine", "bots"},
    # the net's parts (docs/ARCHITECTURE.md, "The net"), each importing only those below it;
    # the modules at the top of net/ (app.py: the one composition root) may import any
    "net.transport": {"net.transport", "engine", "rooms", "store"},
    "net.node": {"net.node", "net.transport", "engine", "rooms", "store"},
    "net.services": {
        *("net.services", "net.node", "net.transport"),
        *("engine", "rooms", "bots", "tournaments", "store", "archive"),
        "analysis",  # the analysis service runs server/analysis in its worker processes
    },
    "net.protocol": {
        *("net.protocol", "net.services", "net.node", "net.transport"),
        *("engine", "rooms", "bots", "tournaments", "store"),
    },
    "net.botapi": {
        *("net.botapi", "net.protocol", "net.services", "net.node", "net.transport"),
        *("engine", "rooms", "bots", "store"),
        "analysis",  # the game export writes an analysis as lichess does (report, PGN)
    },
}
#: the most modules ``server/net/`` may hold at its top level (besides its parts, packages)
NET_TOP_LEVEL_MAX = 12


def module_name(path: Path) -> str:
    rel = path.relative_to(SERVER.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    """The ``server`` modules a file imports (relative imports resolved)."""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("server")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            if name.startswith("server"):
                out.add(name)
                out |= {f"{name}.{a.name}" for a in node.names}
    return out


def graph(root: Path = SERVER) -> dict[str, set[str]]:
    files = {module_name(p): p for p in root.rglob("*.py")}
    return {
        mod: {dep for dep in imports_of(path) if dep in files and dep != mod}
        for mod, path in files.items()
    }


def cycles(edges: Mapping[str, Iterable[str]]) -> set[tuple[str, ...]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: set[tuple[str, ...]] = set()

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.add(tuple(sorted(comp)))

    for v in list(edges):
        if v not in index:
            visit(v)
    return found


def layer_of(mod: str) -> str:
    """A module's layer: ``server.rooms.room`` is in ``rooms``; within the net, its part
    (``server.net.node.hub``: ``net.node``; ``server.net.app``: ``net.app``)."""
    parts = mod.split(".")
    if len(parts) < 2:
        return ""
    if parts[1] == "net" and len(parts) >= 3:
        return f"net.{parts[2]}"
    return parts[1]


def layer_violations(edges: Mapping[str, Iterable[str]]) -> list[str]:
    bad = []
    for mod, deps in edges.items():
        allowed = ALLOWED.get(layer_of(mod))
        if allowed is None:
            continue  # net's top (app.py), tools, cli: may import any layer
        for dep in deps:
            if layer_of(dep) not in allowed:
                bad.append(f"{mod} -> {dep}")
    return bad


def long_files(
    measured: Iterable[tuple[Path, Iterable[str]]] = MEASURED, root: Path = ROOT
) -> set[str]:
    """The files over :data:`MAX_LINES` lines, from ``root``."""
    return {
        str(p.relative_to(root))
        for folder, patterns in measured
        for pattern in patterns
        for p in folder.rglob(pattern)
        if len(p.read_text().splitlines()) > MAX_LINES
    }


def test_no_import_circles_beyond_the_known_ones() -> None:
    assert cycles(graph()) == KNOWN_CYCLES


def test_layers_import_downward_only() -> None:
    assert layer_violations(graph()) == []


def test_no_file_over_500_lines_beyond_the_listed_ones() -> None:
    assert long_files() == STILL_OVER_500


def test_the_top_level_holds_only_entry_points_and_packages() -> None:
    files = {p.name for p in SERVER.iterdir() if p.is_file() and p.suffix == ".py"}
    assert files == {"__init__.py", "__main__.py", "cli.py"}


def net_top_level(net: Path = SERVER / "net") -> set[str]:
    """The modules at the top of ``server/net/`` (its packages are its parts)."""
    return {p.name for p in net.glob("*.py") if p.name != "__init__.py"}


def test_the_net_shows_its_parts() -> None:
    """``server/net/`` is its parts (packages, each in :data:`ALLOWED`) and a few modules
    at the top, the composition root among them."""
    top = net_top_level()
    assert "app.py" in top and len(top) <= NET_TOP_LEVEL_MAX, sorted(top)
    parts = {p.name for p in (SERVER / "net").iterdir() if (p / "__init__.py").is_file()}
    assert {f"net.{part}" for part in parts} <= set(ALLOWED), parts


def test_the_net_checks_can_fail(tmp_path: Path) -> None:
    """A transport module importing the node or a service, a node module importing a
    service or the protocol, a service importing the protocol or the Bot API, and any part
    importing the composition root are upward imports; the reverse are not."""
    upward = {
        "server.net.transport.http11": {"server.net.node.hub", "server.net.transport.site"},
        "server.net.transport.site": {"server.net.services.accounts"},
        "server.net.node.hub": {"server.net.services.archive.archived"},
        "server.net.services.matchmaking.seeks": {"server.net.protocol.handlers"},
        "server.net.services.archive.exports": {"server.net.botapi.wire"},
        "server.net.protocol.social": {"server.net.botapi.routes", "server.net.app"},
        "server.net.botapi.routes": {"server.net.app"},
    }
    assert sorted(layer_violations(upward)) == [
        "server.net.botapi.routes -> server.net.app",
        "server.net.node.hub -> server.net.services.archive.archived",
        "server.net.protocol.social -> server.net.app",
        "server.net.protocol.social -> server.net.botapi.routes",
        "server.net.services.archive.exports -> server.net.botapi.wire",
        "server.net.services.matchmaking.seeks -> server.net.protocol.handlers",
        "server.net.transport.http11 -> server.net.node.hub",
        "server.net.transport.site -> server.net.services.accounts",
    ]
    downward = {
        "server.net.app": {"server.net.botapi.routes", "server.net.transport.site"},
        "server.net.botapi.routes": {"server.net.protocol.social", "server.net.node.hub"},
        "server.net.protocol.handlers": {"server.net.services.accounts", "server.rooms.room"},
        "server.net.services.accounts": {"server.net.node.hub", "server.archive"},
        "server.net.node.hub": {"server.net.transport.metrics", "server.store"},
    }
    assert layer_violations(downward) == []
    assert layer_violations({"server.net.transport.codec": {"server.archive"}}) == [
        "server.net.transport.codec -> server.archive"
    ]
    net = tmp_path / "net"
    (net / "node").mkdir(parents=True)
    for name in ("__init__", *(f"m{i}" for i in range(NET_TOP_LEVEL_MAX + 1))):
        (net / f"{name}.py").write_text("")
    (net / "node" / "hub.py").write_text("")
    assert len(net_top_level(net)) == NET_TOP_LEVEL_MAX + 1


def test_the_checks_can_fail(tmp_path: Path) -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == {("a", "b", "c")}
    assert layer_violations({"server.engine.x": {"server.net.node.hub"}}) == [
        "server.engine.x -> server.net.node.hub"
    ]
    tournament = {"server.tournaments.x": {"server.rooms.ratings", "server.store.log"}}
    assert layer_violations(tournament) == ["server.tournaments.x -> server.store.log"]
    assert layer_violations({"server.rooms.x": {"server.tournaments.view"}}) == [
        "server.rooms.x -> server.tournaments.view"
    ]
    for folder in ("server/engine", "tests/engine", "web/js"):
        (tmp_path / folder).mkdir(parents=True)
        for suffix in (".py", ".c", ".h", ".js"):
            (tmp_path / folder / f"long{suffix}").write_text("x = 1;\n" * (MAX_LINES + 1))
            (tmp_path / folder / f"short{suffix}").write_text("x = 1;\n" * MAX_LINES)
    measured = tuple((tmp_path / folder.relative_to(ROOT), kinds) for folder, kinds in MEASURED)
    assert long_files(measured, tmp_path) == {
        "server/engine/long.py",
        "server/engine/long.c",
        "server/engine/long.h",
        "tests/engine/long.py",
        "web/js/long.js",
    }


# -- imports done only for their side effects ---------------------------------------------------


def names_used(tree: ast.AST) -> set[str]:
    """Every name a module reads: in code, and in string annotations and ``__all__``."""
    used: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            used.add(node.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:  # "Hub", "list[Room]", __all__'s names
                expr = ast.parse(node.value, mode="eval")
            except SyntaxError:
                continue
            used |= {n.id for n in ast.walk(expr) if isinstance(n, ast.Name)}
    return used


def side_effect_imports(source: str) -> list[str]:
    """The imports of a module done only for their side effects (registering handlers,
    loading a module early): a name bound by an import that the module never reads, or an
    import of ours silenced with ``noqa: F401``. Registration belongs in a table."""
    tree = ast.parse(source)
    used = names_used(tree)
    lines = source.splitlines()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            bound = {a.asname or a.name.split(".")[0]: a.name for a in node.names}
            ours = any(a.name.startswith("server") for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            bound = {a.asname or a.name: a.name for a in node.names}
            ours = bool(node.level) or (node.module or "").startswith("server")
        else:
            continue
        text = "\n".join(lines[node.lineno - 1 : node.end_lineno])
        if ours and "noqa" in text and "F401" in text:
            found.append(f"line {node.lineno}: noqa: F401")
        found += [
            f"line {node.lineno}: {full}"
            for name, full in bound.items()
            if name != "*" and name not in used
        ]
    return found


def test_no_import_is_done_only_for_its_side_effects() -> None:
    found = {
        str(p.relative_to(SERVER)): bad
        for p in sorted(SERVER.rglob("*.py"))
        if (bad := side_effect_imports(p.read_text()))
    }
    assert found == {}


def test_the_side_effect_check_can_fail() -> None:
    registering = "from . import lobby_handlers, social  # noqa: F401\nx = 1\n"
    assert side_effect_imports(registering) == [
        "line 1: noqa: F401",
        "line 1: lobby_handlers",
        "line 1: social",
    ]
    preloading = "def make():\n    import server.engine.dark_chess.worlds\n    return 1\n"
    assert side_effect_imports(preloading) == ["line 2: server.engine.dark_chess.worlds"]
    used = 'from . import social\nimport server.x\nfrom .hub import Hub\n__all__ = ["Hub"]\n'
    used += "TABLE = {'chat': social.chat, 'x': server.x}\ndef f(h: 'Hub') -> None: ...\n"
    assert side_effect_imports(used) == []


# -- no stubs of a host class -------------------------------------------------------------------

#: modules still declaring members of the class they are mixed into (module paths under
#: ``server/``; the list can only shrink)
KNOWN_HOST_STUBS: set[str] = set()


def _is_type_checking(test: ast.expr) -> bool:
    """``TYPE_CHECKING`` or ``typing.TYPE_CHECKING``."""
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def host_stubs(source: str) -> list[str]:
    """Where a module declares things for the type checker only — the mark of a mixin that
    calls back into its host through stubs of the host's members: an ``if TYPE_CHECKING:``
    block in a class body (or a function), a module-level one that holds more than imports
    (or has an ``else``), and ``if not TYPE_CHECKING:`` anywhere. A module-level block of
    imports only (types for annotations) is fine."""
    tree = ast.parse(source)
    in_class = {
        id(node)
        for cls in ast.walk(tree)
        if isinstance(cls, ast.ClassDef)
        for node in ast.walk(cls)
        if isinstance(node, ast.If)
    }
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.If):
            continue
        test = node.test
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            if _is_type_checking(test.operand):
                found.append((node.lineno, "if not TYPE_CHECKING"))
            continue
        if not _is_type_checking(test):
            continue
        if id(node) in in_class:
            found.append((node.lineno, "if TYPE_CHECKING in a class body"))
        elif id(node) not in top:
            found.append((node.lineno, "if TYPE_CHECKING in a function"))
        elif node.orelse or not all(isinstance(s, ast.Import | ast.ImportFrom) for s in node.body):
            found.append((node.lineno, "if TYPE_CHECKING declares more than imports"))
    return [f"line {line}: {what}" for line, what in sorted(found)]


def test_no_module_declares_stubs_of_its_host() -> None:
    found = {
        str(p.relative_to(SERVER)): bad
        for p in sorted(SERVER.rglob("*.py"))
        if (bad := host_stubs(p.read_text()))
    }
    assert set(found) == KNOWN_HOST_STUBS, found


def test_the_host_stub_check_can_fail() -> None:
    mixin = """
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .clock import Clock


class Timing:
    if not TYPE_CHECKING:  # the room holds every attribute in its slots
        __slots__ = ()

    clock: Clock | None

    if TYPE_CHECKING:  # provided by the room
        def _apply_resign(self, d: dict, at: float) -> None: ...

    def tick(self) -> None:
        if TYPE_CHECKING:
            reveal_type(self)
"""
    assert host_stubs(mixin) == [
        "line 9: if not TYPE_CHECKING",
        "line 14: if TYPE_CHECKING in a class body",
        "line 18: if TYPE_CHECKING in a class body",
    ]
    module_level = """
import typing

if typing.TYPE_CHECKING:
    from .room import Room

    class Host(typing.Protocol):
        def _move_events(self) -> list: ...
else:
    Host = object


def f() -> None:
    if typing.TYPE_CHECKING:
        from .hub import Hub
"""
    assert host_stubs(module_level) == [
        "line 4: if TYPE_CHECKING declares more than imports",
        "line 14: if TYPE_CHECKING in a function",
    ]
    plain = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .room import Room\n"
    assert host_stubs(plain) == []


#: where ``# fmt: skip`` may stand, and why: nowhere else is code hand-packed past the
#: formatter (it hid long files under the line count once: issue 35)
FMT_SKIP_ALLOWED = {
    "server/bots/pesto.py": "PeSTO's 64-square tables, laid out as the boards they are",
    "server/bots/chess_eval.py": "piece-square tables, laid out as boards",
}


def fmt_skips(*roots: Path) -> set[str]:
    """The files under ``roots`` (``server/`` and ``tests/`` by default) where a line turns
    the formatter off."""
    return {
        str(p.relative_to(root.parent))
        for root in roots or (SERVER, ROOT / "tests")
        for p in root.rglob("*.py")
        if p.name != "test_structure.py"  # its own checks write the words in their twins
        if any(
            line.rstrip().endswith(("# fmt: skip", "# fmt: off"))
            for line in p.read_text().splitlines()
        )
    }


def test_the_formatter_is_turned_off_only_for_board_shaped_tables() -> None:
    assert fmt_skips() == set(FMT_SKIP_ALLOWED)


def test_the_fmt_skip_check_can_fail(tmp_path: Path) -> None:
    server = tmp_path / "server"
    (server / "rooms").mkdir(parents=True)
    (server / "rooms" / "room.py").write_text('__slots__ = ("a", "b",\n    "c")  # fmt: skip\n')
    (server / "rooms" / "clock.py").write_text("# fmt: off\nX = 1\n# fmt: on\n")
    (server / "rooms" / "ok.py").write_text("X = (1, 2)  # the words fmt: skip, mid-line\n")
    tests = tmp_path / "tests"
    (tests / "net").mkdir(parents=True)
    (tests / "net" / "test_x.py").write_text("call(a,\n     b)  # fmt: skip\n")
    assert fmt_skips(server, tests) == {
        "server/rooms/room.py",
        "server/rooms/clock.py",
        "tests/net/test_x.py",
    }
