"""Every outside program a test or the server names is one ``scripts/test.sh`` installs.

A fresh machine has only what the README's test command installs: a test that runs
``/usr/games/fairy-stockfish`` passed on the development machine (which had it by hand) and
failed on a fresh one (issue 45). This guard reads what ``scripts/test.sh`` checks for before
it calls ``apt-get install`` — each ``[ -x PATH ]``, ``[ -f PATH ]``, ``command -v NAME`` and
``compgen -G GLOB`` followed by ``|| missing+=(PACKAGE)`` — and every program the test files
and the server name: a string that is a path under ``/usr/games``, ``/usr/bin``, ``/usr/sbin``
or ``/usr/lib``, and the name in a ``shutil.which("NAME")``. Each must be one the script
installs. Its broken twin is the script with the fairy-stockfish line taken out.
"""

from __future__ import annotations

import ast
import fnmatch
import functools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "test.sh"
#: a path under the folders where Debian puts programs, anywhere in a string
PROGRAM = re.compile(r"/usr/(?:games|bin|sbin|lib)/[^\s?&'\"=:,;`)]+")
#: paths a file may name that are no program to install (a script's interpreter line)
NOT_PROGRAMS = {"/usr/bin/env"}

CHECK = re.compile(
    r"""^\s*(?:\[\s+-[xf]\s+(?P<path>\S+)\s+\]|command\s+-v\s+(?P<name>\S+)\s+>/dev/null"""
    r"""|compgen\s+-G\s+'(?P<glob>[^']+)'\s+>/dev/null)\s*\|\|\s*missing\+=\((?P<pkg>[^)]+)\)"""
)


def installed_by(script: str) -> tuple[set[str], set[str], list[str]]:
    """What ``script`` installs when missing: (paths, program names, path globs)."""
    paths: set[str] = set()
    names: set[str] = set()
    globs: list[str] = []
    for line in script.splitlines():
        m = CHECK.match(line)
        if m is None:
            continue
        if m["path"]:
            paths.add(m["path"])
            names.add(Path(m["path"]).name)
        elif m["name"]:
            names.add(m["name"])
        else:
            globs.append(m["glob"])
    return paths, names, globs


@functools.cache
def named_programs(files: tuple[Path, ...]) -> set[tuple[str, str]]:
    """(file, program) for every outside program the files name: a string constant that is
    a path under :data:`SYSTEM_DIRS`, or the literal argument of a ``which(...)`` call."""
    found: set[tuple[str, str]] = set()
    for path in files:
        where = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                for program in PROGRAM.findall(node.value):  # "uci:/usr/games/x?level=1" too
                    if program not in NOT_PROGRAMS:
                        found.add((where, program))
            elif isinstance(node, ast.Call):
                func = node.func
                called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if called == "which" and node.args:
                    arg = node.args[0]
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        found.add((where, arg.value))
    return found


def uninstalled(script: str, named: set[tuple[str, str]]) -> list[tuple[str, str]]:
    """The programs named in ``named`` that ``script`` does not install."""
    paths, names, globs = installed_by(script)

    def covered(program: str) -> bool:
        if not program.startswith("/"):
            return program in names
        if program in paths:
            return True
        # a glob the script installs (/usr/lib/postgresql/*/bin/initdb) covers its folder
        return any(
            fnmatch.fnmatch(program, g) or fnmatch.fnmatch(program, str(Path(g).parent) + "/*")
            for g in globs
        ) or (program.endswith("/") and any(g.startswith(program) for g in globs))

    return sorted((where, p) for where, p in named if not covered(p))


@functools.cache
def sources() -> tuple[Path, ...]:
    return tuple(sorted([*(ROOT / "tests").rglob("*.py"), *(ROOT / "server").rglob("*.py")]))


def test_the_guard_reads_the_script() -> None:
    paths, names, globs = installed_by(SCRIPT.read_text())
    assert {"/usr/bin/chromium", "/usr/games/stockfish", "/usr/games/fairy-stockfish"} <= paths
    assert {"redis-server", "redis-cli", "gcc"} <= names
    assert globs == ["/usr/lib/postgresql/*/bin/initdb"]
    named = named_programs(sources())
    assert ("tests/bots/test_uci.py", "/usr/games/fairy-stockfish") in named
    assert ("server/store/redis_process.py", "redis-server") in named


def test_every_program_a_test_or_the_server_names_is_installed_by_the_test_script() -> None:
    assert uninstalled(SCRIPT.read_text(), named_programs(sources())) == []


@pytest.mark.parametrize("package", ["fairy-stockfish", "stockfish", "redis-tools"])
def test_a_script_that_forgets_a_package_is_caught(package: str) -> None:
    """The broken twin: ``scripts/test.sh`` without one of its install lines."""
    script = "\n".join(
        line
        for line in SCRIPT.read_text().splitlines()
        if not line.rstrip().endswith(f"missing+=({package})")
    )
    assert script != SCRIPT.read_text()
    missed = {program for _where, program in uninstalled(script, named_programs(sources()))}
    expected = {
        "fairy-stockfish": "/usr/games/fairy-stockfish",
        "stockfish": "/usr/games/stockfish",
        "redis-tools": "redis-cli",
    }[package]
    assert expected in missed
