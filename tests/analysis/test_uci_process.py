"""The analysis's UCI driver (server/analysis/uci_process.py) on the real Fairy-Stockfish:
a XiangQi position evaluated, and an engine that stops answering (SIGSTOP) killed within its
bound instead of holding its worker for ever — the broken twin, with no bound to speak of,
shown still waiting."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from server.analysis import uci_process
from server.analysis.uci_process import UciError, UciProcess
from server.engine.xiangqi import START_FEN

FAIRY = "/usr/games/fairy-stockfish"


def test_a_xiangqi_position_is_evaluated() -> None:
    with UciProcess(FAIRY, {"UCI_Variant": "xiangqi"}) as engine:
        found = engine.evaluate(START_FEN, 5_000)
        assert engine.name.startswith("Fairy-Stockfish")
        assert found.score.cp is not None and abs(found.score.cp) < 200
        assert found.best is not None and len(found.best) >= 4


@pytest.mark.parametrize("bound", [0.5, 3600.0])
def test_an_engine_that_stops_answering_is_killed(
    monkeypatch: pytest.MonkeyPatch, bound: float
) -> None:
    monkeypatch.setattr(uci_process, "ANSWER", bound)
    engine = UciProcess(FAIRY, {"UCI_Variant": "xiangqi"})
    os.kill(engine.proc.pid, signal.SIGSTOP)  # hung: alive, silent
    failed: list[BaseException] = []

    def ask() -> None:
        try:
            engine.evaluate(START_FEN, 5_000, seconds=0.2)
        except UciError as exc:
            failed.append(exc)

    t0 = time.monotonic()
    thread = threading.Thread(target=ask, daemon=True)
    thread.start()
    thread.join(3.0)
    try:
        if bound > 100:  # the broken twin still waits on the hung engine
            assert thread.is_alive() and not failed
            return
        assert not thread.is_alive() and failed and "did not answer" in str(failed[0])
        assert time.monotonic() - t0 < 3.0
        assert engine.proc.poll() is not None  # killed, not left behind
    finally:
        if engine.proc.poll() is None:
            engine.proc.kill()  # SIGKILL ends a stopped process too
        thread.join(5.0)
        engine.proc.wait()
