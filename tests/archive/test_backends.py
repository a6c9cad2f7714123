"""The archive's two backends (a real PostgreSQL the tests start, and SQLite) behind one
interface: migrations applied once, a game written once by id, read back whole, and a
player's games queried by the filters."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from server.archive import Archive, ArchiveError, Game, Query, Seat, open_archive
from server.archive.model import migrations, statements


def game(
    gid: str,
    ended: float,
    *,
    who: tuple[str | None, ...] = ("Ann", "Bob"),
    ranks: tuple[int, ...] = (1, 2),
    kind: str = "chess",
    rated: bool = True,
    events: int = 3,
    bots: tuple[int, ...] = (),
) -> Game:
    seats = []
    for i, (name, rank) in enumerate(zip(who, ranks, strict=True)):
        result = "loss" if rank != 1 else ("draw" if ranks.count(1) > 1 else "win")
        change = (8.5 if result == "win" else -8.5) if rated else None
        seats.append(
            Seat(
                i,
                name or f"guest{i}",
                name,
                1.0 if result == "win" else 0.0,
                rank,
                result,
                1500.0 if rated else None,
                1500.0 + change if change is not None else None,
                change,
                bot=i in bots,
            )
        )
    evs: list[dict[str, Any]] = [
        {
            "k": "move",
            "d": {"seat": 0, "move": f"m{i}", "nested": {"a": [1, 2.5, None]}},
            "t": ended - 10 + i,
        }
        for i in range(events)
    ]
    return Game(
        id=gid,
        game=kind,
        options={"clock": "5+3"},
        n_seats=len(who),
        created_at=ended - 60,
        ended_at=ended,
        reason="checkmate",
        outcome={"ranks": list(ranks), "reason": "x"},
        rated=rated,
        category=f"{kind}:blitz" if rated else None,
        clock="5+3" if rated else None,
        seats=tuple(seats),
        events=tuple(evs),
    )


async def test_migrations_apply_once(archive: Archive, archive_url: str) -> None:
    assert await archive.migrated() == [n for n, _, _ in migrations()]
    again = open_archive(archive_url)  # a second node starting on the same database
    await again.start()
    try:
        assert await again.migrated() == [n for n, _, _ in migrations()]
    finally:
        await again.close()


async def test_written_once_read_back_whole(archive: Archive) -> None:
    g = game("AAAAAAAA", 1000.0)
    assert await archive.put(g) is True
    assert await archive.put(g) is False  # the same game again: nothing changes
    assert await archive.events(g.id) == list(g.events)
    assert await archive.versions([g.id, "nothere1"]) == {g.id: 3}
    assert await archive.events("nothere1") is None
    # a later write with more events (one landed after the first write) replaces it
    longer = game("AAAAAAAA", 1000.0, events=5)
    assert await archive.put(longer) is True
    assert await archive.events(g.id) == list(longer.events)
    assert await archive.put(g) is False  # an older, shorter one never replaces it
    assert await archive.versions([g.id]) == {g.id: 5}
    assert await archive.count(Query("ann")) == 1  # seats replaced, not duplicated


async def test_a_game_whose_data_json_would_change_is_refused(archive: Archive) -> None:
    g = game("BBBBBBBB", 1000.0)
    bad = Game(
        **{
            **{f: getattr(g, f) for f in g.__dataclass_fields__},
            "events": ({"k": "x", "d": {1: "int key"}, "t": 1.0},),
        }
    )
    with pytest.raises(ArchiveError, match="round-trip"):
        await archive.put(bad)
    assert await archive.versions(["BBBBBBBB"]) == {}


async def test_a_players_games_filtered_and_paged(archive: Archive) -> None:
    await archive.put(game("g1", 100.0, who=("Ann", "Bob"), ranks=(1, 2)))
    await archive.put(game("g2", 200.0, who=("Bob", "Ann"), ranks=(1, 1), kind="xiangqi"))
    await archive.put(game("g3", 300.0, who=("Ann", "Cy"), ranks=(2, 1), rated=False))
    await archive.put(game("g4", 400.0, who=("Ann", None), ranks=(1, 2), rated=False, bots=(1,)))
    await archive.put(game("g5", 500.0, who=("Dee", "Cy"), ranks=(1, 2)))

    async def ids(q: Query, offset: int = 0, limit: int = 10) -> list[str]:
        return [e["room"] for e in await archive.games(q, offset, limit)]

    assert await ids(Query("ann")) == ["g4", "g3", "g2", "g1"]
    assert await archive.count(Query("ann")) == 4
    assert await ids(Query("ann"), 1, 2) == ["g3", "g2"]
    assert await ids(Query("ann", game="xiangqi")) == ["g2"]
    assert await ids(Query("ann", result="win")) == ["g4", "g1"]
    assert await ids(Query("ann", result="draw")) == ["g2"]
    assert await ids(Query("ann", result="loss")) == ["g3"]
    assert await ids(Query("ann", rated=True)) == ["g2", "g1"]
    assert await ids(Query("ann", rated=False)) == ["g4", "g3"]
    assert await ids(Query("ann", opponent="bob")) == ["g2", "g1"]
    assert await ids(Query("ann", opponent="cy", rated=False)) == ["g3"]
    assert await ids(Query("ann", vs_bot=True)) == ["g4"]  # a bot in seat 1
    assert await ids(Query("ann", vs_bot=False)) == ["g3", "g2", "g1"]
    assert await ids(Query("ann", vs_bot=True, rated=True)) == []
    assert (await archive.games(Query("ann", vs_bot=True), 0, 1))[0]["players"][1]["bot"]
    assert await ids(Query("nobody")) == []
    assert await archive.count(Query("ann"), newer=(200.0, "g2")) == 2
    entry = (await archive.games(Query("ann"), 3, 1))[0]
    assert entry == {
        "room": "g1",
        "game": "chess",
        "category": "chess:blitz",
        "clock": "5+3",
        "rated": True,
        "reason": "checkmate",
        "finished": 100.0,
        "players": [
            {
                "name": "Ann",
                "user": "Ann",
                "seat": 0,
                "score": 1.0,
                "rank": 1,
                "bot": False,
                "rating": 1500.0,
                "new_rating": 1508.5,
                "change": 8.5,
            },
            {
                "name": "Bob",
                "user": "Bob",
                "seat": 1,
                "score": 0.0,
                "rank": 2,
                "bot": False,
                "rating": 1500.0,
                "new_rating": 1491.5,
                "change": -8.5,
            },
        ],
    }
    history = await archive.ratings("ANN")
    assert [(h["room"], h["change"]) for h in history] == [("g1", 8.5), ("g2", -8.5)]


def test_migration_files_split_into_statements() -> None:
    found = migrations()
    assert [n for n, _, _ in found] == list(range(1, len(found) + 1))
    first = list(statements(found[0][2]))
    assert first[0].startswith("CREATE TABLE games") and all(s.endswith(";") for s in first)
    with pytest.raises(ArchiveError, match="unfinished"):
        list(statements("CREATE TABLE x (a INTEGER"))


def test_open_archive_names(tmp_path: Path) -> None:
    assert open_archive(None).kind == "sqlite"
    assert open_archive("postgresql://u@h/db").kind == "postgresql"
    assert open_archive(f"sqlite:{tmp_path}/a.db").kind == "sqlite"
    for bad in ("mysql://x", "sqlite:", "postgresql", " postgresql://x"):
        with pytest.raises(ArchiveError, match="--archive"):
            open_archive(bad)


async def test_an_unreachable_postgresql_is_a_clear_error() -> None:
    from ..conftest import free_port

    arc = open_archive(f"postgresql://kibitz@127.0.0.1:{free_port()}/none")
    with pytest.raises(ArchiveError, match="cannot reach"):
        await arc.start()
