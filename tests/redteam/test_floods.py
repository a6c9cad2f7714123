"""The red team's short form (``python -m server.tools.redteam`` is the long one): every
flood of the hardening findings at once, for a few seconds, against a real server.

Asserted: the server survives; its memory stays bounded (the old server grew by 115 MB for
one non-reading lobby reader); silent sockets, paced floods and the non-reading reader are
cut; hellos store no session; room creation is held to its quota; an idle player is served
meanwhile. The idle player's latency is printed, not asserted (timings belong to benches).
"""

from __future__ import annotations

from server.tools.redteam import run


def test_floods_leave_memory_bounded_and_players_served() -> None:
    report = run(seconds=6, scale=0.5)
    print(report)
    assert report["server_alive"]
    assert report["rss_mb_peak"] - report["rss_mb_before"] < 40
    assert report["silent"]["closed_by_server"] + report["silent"]["refused"] == 200
    assert report["paced_flood"]["closed_by_server"] == report["paced_flood"]["connections"]
    assert report["lazy_reader"]["cut_by_server"]
    assert report["redis_keys"]["sessions"] == 0
    assert report["room_flood"]["refused"] > 0
    assert report["probe"]["pings"] > 20
