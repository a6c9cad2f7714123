"""The archive of finished games: a relational database behind one small interface
(:class:`Archive`), on PostgreSQL (:class:`PostgresArchive`) or embedded SQLite
(:class:`SqliteArchive`), its schema kept as numbered migrations beside it
(``migrations/NNNN_name.sql``). This layer imports nothing of ours: it stores
:class:`Game` values; turning rooms into them and back is
``server/net/services/archive/archiving.py``'s."""

from __future__ import annotations

from pathlib import Path

from .base import Archive
from .model import MAX_PER_PAGE, RESULTS, ArchiveError, Game, Query, Seat, result_of
from .postgres import PostgresArchive
from .sqlite import SqliteArchive

#: the embedded archive's file when ``--archive`` names none
DEFAULT_PATH = Path("kibitz-data") / "archive.sqlite3"


def open_archive(where: str | None) -> Archive:
    """The archive ``where`` names: ``postgresql://...`` (or ``postgres://``), ``sqlite:PATH``
    or ``None`` (the embedded default, :data:`DEFAULT_PATH`). Not started yet."""
    if where is None or where == "":
        return SqliteArchive(DEFAULT_PATH)
    if where.startswith(("postgresql://", "postgres://")):
        return PostgresArchive(where)
    if where.startswith("sqlite:") and len(where) > len("sqlite:"):
        return SqliteArchive(where[len("sqlite:") :])
    raise ArchiveError(f"--archive must be postgresql://... or sqlite:PATH, not {where!r}")


__all__ = [
    "DEFAULT_PATH",
    "MAX_PER_PAGE",
    "RESULTS",
    "Archive",
    "ArchiveError",
    "Game",
    "PostgresArchive",
    "Query",
    "Seat",
    "SqliteArchive",
    "open_archive",
    "result_of",
]
