"""`kibitz bench` runs end to end on a tiny load (figures are for the note, not asserted)."""

from __future__ import annotations

import json
import subprocess

import pytest

from .conftest import env_with_path, kibitz_cmd


def test_bench_reports_and_checks_persistence() -> None:
    out = subprocess.run(
        kibitz_cmd(
            "bench",
            "--connections",
            "24",
            "--rooms",
            "6",
            "--duration",
            "3",
            "--think",
            "100",
            "--warmup",
            "0",
            "--json",
        ),
        capture_output=True,
        text=True,
        env=env_with_path(),
        timeout=180,
    )
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["connections_held"] == 24 and report["rooms"] == 6
    assert report["moves"] > 0 and report["latency_samples"] > 0
    assert report["every_acked_move_persisted"] is True
    assert report["echo"]["messages_per_s"] > 0 and report["ratio_delivered_to_echo"] > 0


def test_bench_refuses_impossible_loads() -> None:
    out = subprocess.run(
        kibitz_cmd("bench", "--connections", "10", "--rooms", "6"),
        capture_output=True,
        text=True,
        env=env_with_path(),
        timeout=60,
    )
    assert out.returncode == 2 and "at least 2 x --rooms" in out.stderr


def run_json(*args: str) -> dict[str, object]:
    out = subprocess.run(
        kibitz_cmd("bench", *args, "--json"),
        capture_output=True,
        text=True,
        env=env_with_path(),
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    return dict(json.loads(out.stdout))


def test_bench_saturating_mode_reports_cpu_against_the_ceiling() -> None:
    report = run_json(
        "--connections",
        "9",
        "--rooms",
        "3",
        "--duration",
        "2",
        "--warmup",
        "1",
        "--saturate",
        "--repeat",
        "2",
    )
    assert report["think_ms"] == 0 and report["moves"] > 0
    repeated = report["repeated"]  # two pairs: both ratios, the median is the reported pair's
    assert len(repeated["cpu_ratios"]) == 2  # type: ignore[index]
    assert repeated["cpu_ratio"] == report["cpu_ratio_to_ceiling"]  # type: ignore[index]
    assert repeated["cpu_ratio"] == min(repeated["cpu_ratios"])  # type: ignore[index]
    assert report["server_cpu_us_per_delivered"] > 0  # type: ignore[operator]
    assert report["echo"]["server_cpu_us_per_delivered"] > 0  # type: ignore[index]
    assert report["cpu_ratio_to_ceiling"] > 0  # type: ignore[operator]
    assert report["every_acked_move_persisted"] is True
    # how busy each side was, so a reader can tell a saturated generator's delay from the
    # server's: the busy node ran, the generator ticked its probe
    assert report["node_cpu_share"][0] > 0  # type: ignore[index]
    # the node's collector over the window, read from its /metrics at both ends
    assert set(report["node_gc"][0]) == {"0", "1", "2"}  # type: ignore[index]
    for run in (report, report["echo"]):
        generator = run["generator"]  # type: ignore[index]
        assert generator["cpu_share"] > 0 and generator["loop_lag_max_ms"] >= 0


# The three short forms below were one test (90 s alone): apart, the workers share them.
@pytest.mark.timeout(240)
def test_bench_restart_mode() -> None:
    restart = run_json("--restart", "--rooms", "20", "--moves", "10")
    assert restart["rooms"] == 20 and restart["refused_first_moves"] == {}
    assert 0 < restart["port_open_s"] <= restart["all_played_a_first_move_s"]  # type: ignore[operator]


@pytest.mark.timeout(240)
def test_bench_memory_mode() -> None:
    memory = run_json("--memory", "--connections", "50", "--rooms", "20", "--moves", "10")
    assert memory["kb_per_idle_connection"] > 0 and memory["kb_per_live_room"] > 0  # type: ignore[operator]


@pytest.mark.timeout(240)
def test_bench_engine_mode() -> None:
    engine = run_json("--engine", "--quick")
    plies = engine["plies_per_s"]
    assert set(plies) >= {
        "chess",
        "dark_chess",
        "apocalypse",
        "banqi",
        "hase_und_igel",  # type: ignore[arg-type]
        "python-chess",
        "chess_over_python_chess",
    }
    assert engine["rooms_api_move_cost"]["chess"]["late"]["ply"] == 150  # type: ignore[index]
    search = engine["chess_search"]
    assert search["compiled"]["nodes"] > 1000  # type: ignore[index]
    assert search["compiled_deeper"]["nodes"] > search["compiled"]["nodes"]  # type: ignore[index]


def test_median_run_is_the_middle_pair() -> None:
    from server.tools.bench import _median_run

    runs = [
        {"cpu_ratio_to_ceiling": r, "ratio_delivered_to_echo": d, "refused": {}, "n": i}
        for i, (r, d) in enumerate([(4.0, 0.3), (3.1, 0.5), (3.6, 0.4)])
    ]
    median = _median_run(runs)
    assert median["n"] == 2 and median["repeated"]["cpu_ratio"] == 3.6
    assert median["repeated"]["cpu_ratios"] == [4.0, 3.1, 3.6]
    assert median["repeated"]["delivered_pct"] == 40.0
    assert _median_run(runs[:1]) is runs[0]


def test_gc_pauses_are_read_from_the_metrics_and_taken_over_the_window() -> None:
    from server.net.transport.metrics import Metrics
    from server.tools.bench_gc import gc_pauses, gc_window

    m = Metrics()
    timings = m.gc_pauses.by_generation
    timings[0].observe(0.002)
    before = gc_pauses(m.render().decode())
    timings[0].observe(0.003)
    timings[1].observe(0.4)  # one middle collection of 0.4 s in the window
    timings[1].observe(0.02)
    after = gc_pauses(m.render().decode())
    assert before["0"]["count"] == 1 and before["1"]["count"] == 0
    window = gc_window(before, after)
    assert window["0"] == {"pauses": 1, "seconds": 0.003, "longest_le": "0.005"}
    assert window["1"] == {"pauses": 2, "seconds": 0.42, "longest_le": "0.5"}
    assert window["2"] == {"pauses": 0, "seconds": 0.0, "longest_le": None}
