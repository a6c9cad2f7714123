"""UCI engine processes for engine seats: a bounded pool per engine, through python-chess.

``kibitz serve --engine NAME=PATH?...`` (parsed by :mod:`server.bots.uci`) gives each engine
a pool of at most ``processes`` processes, started on demand with python-chess's asyncio UCI
client (``chess.engine.popen_uci``) and kept between moves. A move takes a process for its
think only; a room whose engine seat owes a move while every process is thinking for other
rooms waits its turn (first come, first served), on its own clock. Every engine seat in
play holds one of ``GAMES_PER_PROCESS`` places per process, so an ``add_bot`` beyond those
is refused (``busy``) rather than queued without end.

A process that dies or hangs during a move is killed and dropped; the move fails with
:class:`EngineFailed` and the seat plays no more in that game (server/net/services/seats/bots.py: it
loses on time). The next move that needs a process starts a new one — a process found dead while
idle is replaced the same way, and no game pays for it.

What a process prints is read in bounded lines (:class:`EngineProtocol`): a line over
:data:`~server.bots.uci.LINE_LIMIT` bytes, or more than :data:`MOVE_OUTPUT_LINES` lines or
:data:`MOVE_OUTPUT_BYTES` bytes in one move (or between two), kills the process at once, and
the move fails as if it had crashed. Nothing an engine prints is kept but its ``bestmove``.

The engine is told the position and ``go`` in one command of our own
(:class:`BestMoveCommand`, python-chess's ``BaseCommand`` as its author suggests for
commands it does not model): python-chess's ``play`` needs a ``chess.Board``, which XiangQi
is not. The same command serves ``kibitz arena`` through ``chess.engine.SimpleEngine``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import signal
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import chess.engine

from ....bots.uci import (
    LINE_LIMIT,
    EngineLevel,
    EngineSpec,
    LineReader,
    LineTooLong,
    Position,
    engine_level,
    go_command,
)
from ...transport.errors import ProtocolError

log = logging.getLogger("kibitz.engines")

#: engine seats in play per process of the engine before ``add_bot`` is refused
GAMES_PER_PROCESS = 4
#: seconds an engine has to start and answer ``uci`` / ``isready``
START_TIMEOUT = 10.0
#: lines and bytes a process may print from the start of a move to the start of the next
#: (or from its own start) before it is killed: Stockfish prints about 170 lines, 11 KB, in
#: 8 s of thinking, and each line costs the event loop 4-20 µs
MOVE_OUTPUT_LINES = 10_000
MOVE_OUTPUT_BYTES = 4 * 1024 * 1024
#: lines of a process's stderr that reach the log (python-chess logs each at WARNING)
STDERR_LINES_LOGGED = 20


class EngineFailed(Exception):
    """The engine died, hung or answered no legal move during a move."""


class EngineConfigError(Exception):
    """An ``--engine`` whose engine does not start, is not UCI, or lacks what it was given."""


class EngineProtocol(chess.engine.UciProtocol):
    """python-chess's UCI client, reading what the process prints in bounded lines.

    The bytes of stdout and stderr each go through a :class:`LineReader`, and only whole
    lines reach python-chess. A line over :data:`LINE_LIMIT` bytes, or more than
    :data:`MOVE_OUTPUT_LINES` lines or :data:`MOVE_OUTPUT_BYTES` bytes since
    :meth:`new_move`, kills the process group (``setpgrp``) at once: ``failure`` says why,
    what is still in the pipes is dropped, and the command waiting for an answer fails
    with python-chess's ``EngineTerminatedError``, as for a crash. Only the first
    :data:`STDERR_LINES_LOGGED` lines of stderr are logged."""

    def __init__(self) -> None:
        super().__init__()
        self.readers = {1: LineReader(LINE_LIMIT), 2: LineReader(LINE_LIMIT)}
        #: why the process was killed for what it printed (None: it was not)
        self.failure: str | None = None
        #: lines and bytes printed since the move began (or the process started)
        self.lines = 0
        self.bytes = 0
        self.stderr_lines = 0

    def new_move(self) -> None:
        """A move begins: the output budget starts again."""
        self.lines = self.bytes = 0

    def pipe_data_received(self, fd: int, data: bytes | str) -> None:
        if self.failure is not None:
            return  # killed: the rest of its output is dropped unread
        chunk = data.encode() if isinstance(data, str) else data
        try:
            lines = self.readers[fd].feed(chunk)
        except LineTooLong as exc:
            self.kill(str(exc))
            return
        self.lines += len(lines)
        self.bytes += len(chunk)
        if self.lines > MOVE_OUTPUT_LINES:
            self.kill(f"it printed over {MOVE_OUTPUT_LINES} lines in one move")
            return
        if self.bytes > MOVE_OUTPUT_BYTES:
            self.kill(f"it printed over {MOVE_OUTPUT_BYTES} bytes in one move")
            return
        for line in lines:
            super().pipe_data_received(fd, line)

    def error_line_received(self, line: str) -> None:
        self.stderr_lines += 1
        if self.stderr_lines <= STDERR_LINES_LOGGED:
            super().error_line_received(line)
        elif self.stderr_lines == STDERR_LINES_LOGGED + 1:
            log.warning("%s: stderr: more lines, not logged", self)

    def kill(self, why: str) -> None:
        """Kill the process (and any it started) for what it printed."""
        self.failure = f"killed: {why}"
        assert self.transport is not None
        pid = self.transport.get_pid()
        try:  # started with setpgrp: its group is its own
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            with contextlib.suppress(ProcessLookupError, OSError):
                self.transport.kill()


class BestMoveCommand(chess.engine.BaseCommand[str]):
    """Set the engine up (``setoption`` lines, optionally ``ucinewgame`` with ``isready``),
    send the position and ``go``, and return the ``bestmove`` word."""

    def __init__(
        self,
        engine: chess.engine.Protocol,
        setup: Sequence[str],
        position: str,
        go: str,
        *,
        new_game: bool,
    ) -> None:
        super().__init__(engine)
        self.protocol = engine
        self.setup = list(setup)
        self.position = position
        self.go = go
        self.new_game = new_game

    def start(self) -> None:
        for line in self.setup:
            self.protocol.send_line(line)
        if self.new_game:
            self.protocol.send_line("ucinewgame")
            self.protocol.send_line("isready")
        else:
            self._go()

    def _go(self) -> None:
        self.protocol.send_line(self.position)
        self.protocol.send_line(self.go)

    def line_received(self, line: str) -> None:
        words = line.split()
        if self.new_game and words == ["readyok"]:
            self.new_game = False
            self._go()
        elif words[:1] == ["bestmove"] and not self.new_game:
            self.result.set_result(words[1] if len(words) > 1 else "(none)")
            self.set_finished()

    def cancel(self) -> None:
        self.protocol.send_line("stop")


@dataclass
class EngineSettings:
    """What a process was last told, so a move sends only what changes."""

    variant: str | None = None
    skill: int | None = None
    game: str | None = None

    def setup(self, options: Mapping[str, Any], variant: str, skill: int | None) -> list[str]:
        """The ``setoption`` lines for ``variant`` and ``skill`` (``options``: the engine's)."""
        lines = []
        if variant != self.variant and "UCI_Variant" in options:
            lines.append(f"setoption name UCI_Variant value {variant}")
        if skill is None and self.skill is not None:  # a level that leaves it at its default
            skill = int(options["Skill Level"].default)
        if skill is not None and skill != self.skill:
            lines.append(f"setoption name Skill Level value {skill}")
        self.variant, self.skill = variant, skill
        return lines


@dataclass
class _Process:
    transport: asyncio.SubprocessTransport
    protocol: EngineProtocol
    told: EngineSettings = field(default_factory=EngineSettings)

    @property
    def pid(self) -> int:
        return int(self.transport.get_pid())

    @property
    def alive(self) -> bool:
        return not self.protocol.returncode.done()

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError, OSError):
            self.transport.kill()
        self.transport.close()


class EnginePool:
    """The processes of one engine (see the module docstring)."""

    def __init__(self, spec: EngineSpec) -> None:
        self.spec = spec
        self.idle: list[_Process] = []
        self.slots = asyncio.Semaphore(spec.processes)
        #: pid -> room of the processes thinking now
        self.busy: dict[int, str] = {}
        #: (room, seat) of the engine's seats in play on this node
        self.seated: set[tuple[str, int]] = set()
        #: processes started, and processes lost (died or killed) since the start
        self.started = 0
        self.lost = 0
        #: the engine's UCI ``id name`` (known once a process has started)
        self.engine_id: str | None = None

    @property
    def places(self) -> int:
        return self.spec.processes * GAMES_PER_PROCESS

    def pids(self) -> list[int]:
        return [p.pid for p in self.idle] + list(self.busy)

    async def spawn(self) -> _Process:
        """A new process, initialized and configured (:class:`EngineConfigError` if not)."""
        spec = self.spec
        try:
            transport, protocol = await EngineProtocol.popen([spec.path], setpgrp=True)
        except OSError as exc:
            raise EngineConfigError(f"--engine {spec.name}: {spec.path} {exc}") from exc
        proc = _Process(transport, protocol)
        late = "did not answer 'uci' in time"
        try:
            await asyncio.wait_for(protocol.initialize(), START_TIMEOUT)
            late = "no readyok in time"
            await asyncio.wait_for(protocol.configure(dict(spec.options)), START_TIMEOUT)
            check_engine(spec, protocol.options)
            await asyncio.wait_for(protocol.ping(), START_TIMEOUT)
        except (TimeoutError, chess.engine.EngineError, EngineConfigError) as exc:
            proc.kill()
            if isinstance(exc, EngineConfigError):
                raise
            why = protocol.failure or str(exc) or late
            raise EngineConfigError(f"--engine {spec.name}: {spec.path} {why}") from exc
        self.started += 1
        self.engine_id = str(protocol.id.get("name", spec.path))
        log.info("engine %s: process %d started", spec.name, proc.pid)
        return proc

    async def best_move(
        self,
        room: str,
        position: Position,
        level: EngineLevel,
        budget: float,
        timeout: float,
    ) -> str:
        """The engine's ``bestmove`` for ``position`` at ``level`` with ``budget`` seconds,
        waiting for a process first if all are busy (:class:`EngineFailed` if it dies, hangs
        past ``timeout`` seconds of thinking, or does not start)."""
        async with self.slots:
            proc = None
            while self.idle and proc is None:
                proc = self.idle.pop()
                if not proc.alive:  # died while idle: replaced, no game pays for it
                    failure = proc.protocol.failure
                    log.warning(
                        "engine %s: process %d %s; starting another",
                        self.spec.name,
                        proc.pid,
                        f"was {failure}" if failure else "had died",
                    )
                    self.lost += 1
                    proc.kill()
                    proc = None
            if proc is None:
                try:
                    proc = await self.spawn()
                except EngineConfigError as exc:
                    raise EngineFailed(str(exc)) from exc
            told = proc.told
            setup = told.setup(proc.protocol.options, position.variant, level.skill)
            new_game, told.game = told.game != room, room
            command = position.command()
            go = go_command(budget)
            self.busy[proc.pid] = room
            proc.protocol.new_move()
            kept = False
            try:
                best = await asyncio.wait_for(
                    proc.protocol.communicate(
                        lambda p: BestMoveCommand(p, setup, command, go, new_game=new_game)
                    ),
                    timeout,
                )
                kept = True
                return best
            except TimeoutError as exc:
                why = f"no move in {timeout:.1f} s (process {proc.pid} killed)"
                raise EngineFailed(why) from exc
            except chess.engine.EngineError as exc:
                why = proc.protocol.failure or str(exc)
                raise EngineFailed(f"process {proc.pid}: {why}") from exc
            finally:
                self.busy.pop(proc.pid, None)
                if kept and proc.alive:
                    self.idle.append(proc)
                else:
                    self.lost += 1
                    proc.kill()

    async def close(self) -> None:
        idle, self.idle = self.idle, []
        for proc in idle:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(proc.protocol.quit(), 2)
            proc.kill()


def check_engine(spec: EngineSpec, options: Any) -> None:
    """The engine has what ``spec`` asks of it: ``UCI_Variant`` naming each variant other
    than chess, and ``Skill Level`` within its range for every level that sets one."""
    variant = options.get("UCI_Variant")
    for v in spec.variants:
        if v != "chess" and (variant is None or v not in (variant.var or [])):
            raise EngineConfigError(
                f"--engine {spec.name}: {spec.path} cannot play the variant {v!r} "
                "(its UCI_Variant does not name it)"
            )
    skill = options.get("Skill Level")
    for level in spec.levels:
        if level.skill is None:
            continue
        if skill is None:
            raise EngineConfigError(
                f"--engine {spec.name}: {spec.path} has no 'Skill Level' option; "
                "give levels as @SECONDS (levels=@0.1,@0.5,@2)"
            )
        try:
            skill.parse(level.skill)
        except chess.engine.EngineError as exc:
            raise EngineConfigError(f"--engine {spec.name}: level {level.number}: {exc}") from exc


class Engines:
    """The engines this node offers as seats (``kibitz serve --engine``), one pool each."""

    def __init__(self, specs: Iterable[EngineSpec]) -> None:
        self.pools: dict[str, EnginePool] = {}
        for spec in specs:
            if spec.name in self.pools:
                raise EngineConfigError(f"--engine {spec.name}: named twice")
            self.pools[spec.name] = EnginePool(spec)

    async def start(self) -> None:
        """Start one process of each engine, so an engine that cannot play what it was
        given fails the server's start with a clear message, not a game later."""
        for pool in self.pools.values():
            spec = pool.spec
            found = shutil.which(spec.path)
            if found is None or not os.path.isfile(found):
                raise EngineConfigError(f"--engine {spec.name}: no executable at {spec.path!r}")
            pool.idle.append(await pool.spawn())

    async def close(self) -> None:
        for pool in self.pools.values():
            await pool.close()

    def strengths(self, game: str) -> list[str]:
        return [s for pool in self.pools.values() for s in pool.spec.strengths(game)]

    def find(self, strength: str) -> tuple[EnginePool, EngineLevel] | None:
        """The pool and level of an engine seat's strength (None for a bot's)."""
        named = engine_level(strength)
        if named is None or named[0] not in self.pools:
            return None
        pool = self.pools[named[0]]
        level = pool.spec.level(named[1])
        return None if level is None else (pool, level)

    def seat_all(self, room: str, strengths: Sequence[str]) -> None:
        """A room's seats now hold bots of these strengths ("" for other seats): each engine
        counts the seats it holds in play (the places ``add_bot`` checks)."""
        for seat, strength in enumerate(strengths):
            found = self.find(strength) if strength else None
            for pool in self.pools.values():
                if found is not None and found[0] is pool:
                    pool.seated.add((room, seat))
                else:
                    pool.seated.discard((room, seat))

    def unseat(self, room: str, seat: int) -> None:
        for pool in self.pools.values():
            pool.seated.discard((room, seat))

    def check_room(self, strength: str, live: Container[str]) -> None:
        """Refuse (``busy``) a new seat of an engine whose places are all taken; ``live``:
        the rooms this node hosts (a seat in a room that left it no longer counts)."""
        found = self.find(strength)
        if found is None:
            return
        pool = found[0]
        pool.seated = {(r, s) for r, s in pool.seated if r in live}
        if len(pool.seated) >= pool.places:
            raise ProtocolError(
                "busy",
                f"the engine {pool.spec.name} is in {len(pool.seated)} games, as many as its "
                f"{pool.spec.processes} processes serve here: try again when one ends",
            )

    def levels(self, game: str, measured: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The engine levels as the lobby lists them (``list_games``' ``levels``), each with
        the rating ``kibitz ladder --engine`` measured for the same engine (its UCI ``id
        name``) at the same skill and time, if any (``measured``: the ladder's file)."""
        rated = {
            (r["engine"], r["skill"], r["think_time"]): r
            for r in measured.get(game, {}).get("engines", [])
        }
        out = []
        for pool in self.pools.values():
            spec = pool.spec
            if game not in spec.games:
                continue
            for lv in spec.levels:
                r = rated.get((pool.engine_id, lv.skill, lv.movetime))
                out.append(
                    {
                        "level": lv.number,
                        "strength": spec.strength(lv),
                        "engine": spec.name,
                        "title": spec.title(lv),
                        "skill": lv.skill,
                        "think_time": lv.movetime,
                        "algorithm": "uci",
                        "elo": r["elo"] if r else None,
                        "elo_95": r["elo_95"] if r else None,
                        "games": r["games"] if r else None,
                    }
                )
        return out


__all__ = [
    "GAMES_PER_PROCESS",
    "MOVE_OUTPUT_BYTES",
    "MOVE_OUTPUT_LINES",
    "BestMoveCommand",
    "EngineConfigError",
    "EngineFailed",
    "EnginePool",
    "EngineProtocol",
    "EngineSettings",
    "Engines",
    "check_engine",
]
