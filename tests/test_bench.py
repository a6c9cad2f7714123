"""`kibitz bench` runs end to end on a tiny load (figures are for the note, not asserted)."""

from __future__ import annotations

import json
import subprocess

from .conftest import env_with_path, kibitz_cmd


def test_bench_reports_and_checks_persistence() -> None:
    out = subprocess.run(
        kibitz_cmd("bench", "--connections", "24", "--rooms", "6", "--duration", "3",
                   "--think", "100", "--warmup", "0", "--json"),
        capture_output=True, text=True, env=env_with_path(), timeout=180,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["connections_held"] == 24 and report["rooms"] == 6
    assert report["moves"] > 0 and report["latency_samples"] > 0
    assert report["every_acked_move_persisted"] is True
    assert report["echo"]["messages_per_s"] > 0 and report["ratio_delivered_to_echo"] > 0


def test_bench_refuses_impossible_loads() -> None:
    out = subprocess.run(
        kibitz_cmd("bench", "--connections", "10", "--rooms", "6"),
        capture_output=True, text=True, env=env_with_path(), timeout=60,
    )  # fmt: skip
    assert out.returncode == 2 and "at least 2 x --rooms" in out.stderr
