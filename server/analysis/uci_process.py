"""A UCI engine's evaluation of one position at a time, spoken over its pipes.

python-chess's engine API (:mod:`chess.engine`) checks every move it reads against a chess
board, so it cannot read Fairy-Stockfish's XiangQi. This is the small part of UCI the
analysis needs, for any variant the engine knows: ``position fen ...``, ``go nodes N``, the
last ``info ... score`` line and ``bestmove``. Synchronous: it runs in a worker process.
Every answer is waited for at most a bound (:data:`ANSWER`, and a search its ``movetime``
more): an engine that hangs is killed and the job fails, instead of holding its worker.
"""

from __future__ import annotations

import os
import select
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass

from .judgement import Score

#: seconds an engine may take to answer anything but a search (and past a search's time)
ANSWER = 10.0


class UciError(Exception):
    """The engine did not answer as UCI says (it died, or wrote nonsense)."""


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The engine's value of a position for the side to move, and its best move (UCI)."""

    score: Score
    best: str | None


def parse_score(words: list[str]) -> Score | None:
    """The score of an ``info`` line's words (None: the line has none)."""
    if "score" not in words:
        return None
    i = words.index("score")
    try:
        kind, value = words[i + 1], int(words[i + 2])
    except (IndexError, ValueError):
        raise UciError(f"a bad score in {' '.join(words)!r}") from None
    if kind == "cp":
        return Score(cp=value)
    if kind == "mate":
        return Score(mate=value) if value else Score(over=-1)
    raise UciError(f"a bad score kind {kind!r}")


class UciProcess:
    """One engine process (a context manager: it quits and is waited for on exit)."""

    def __init__(self, path: str, options: Mapping[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.name = path
        self._buffer = b""
        self._send("uci")
        for line in self._until("uciok"):
            if line.startswith("id name "):
                self.name = line[len("id name ") :].strip()
        for key, value in (options or {}).items():
            self._send(f"setoption name {key} value {value}")
        self._send("isready")
        list(self._until("readyok"))

    def __enter__(self) -> UciProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self._send("quit")
                self.proc.wait(2)
            except (OSError, subprocess.TimeoutExpired, UciError):
                self.kill()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()

    def evaluate(self, fen: str, nodes: int, seconds: float = 60.0) -> Evaluation:
        """The position ``fen`` searched to ``nodes`` nodes (or ``seconds``, if sooner)."""
        self._send(f"position fen {fen}")
        self._send(f"go nodes {nodes} movetime {int(seconds * 1000)}")
        score: Score | None = None
        for line in self._until("bestmove", ANSWER + seconds):
            words = line.split()
            if words and words[0] == "info":
                score = parse_score(words) or score
            elif words and words[0] == "bestmove":
                best = words[1] if len(words) > 1 and words[1] != "(none)" else None
                if score is None:
                    raise UciError(f"no score before {line!r}")
                return Evaluation(score, best)
        raise UciError("no bestmove")  # pragma: no cover (_until raises first)

    def _send(self, line: str) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
        except OSError as exc:
            raise UciError(f"{self.name}: {exc}") from None

    def _until(self, first_word: str, within: float = ANSWER) -> list[str]:
        """The lines up to and including the one that starts with ``first_word``, read
        within ``within`` seconds (else the engine is killed: :class:`UciError`)."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + within
        lines = []
        while True:
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                ready, _, _ = select.select([fd], [], [], max(0.0, left))
                if not ready:
                    self.kill()
                    raise UciError(f"{self.name} did not answer {first_word!r} in {within} s")
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise UciError(f"{self.name} ended before {first_word!r}")
                self._buffer += chunk
            raw, self._buffer = self._buffer.split(b"\n", 1)
            line = raw.decode(errors="replace").rstrip("\r")
            lines.append(line)
            if line.split(" ", 1)[0].strip() == first_word:
                return lines
