"""Typing stub of the compiled comparison (``_delta.c``)."""

from typing import Any

def diff_keys(
    old: dict[str, Any],
    new: dict[str, Any],
    keys: Any,
    path: list[Any],
    sets: list[list[Any]],
    dels: list[list[Any]],
    memo: dict[Any, Any] | None,
    /,
) -> None: ...
