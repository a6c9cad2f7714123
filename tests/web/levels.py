"""How the web client names a bot level (web/js/computer.js, ``levelLabel``), written out
again from its description: the ladder's Elo over a random mover shown on a scale where that
mover stands at 400, rounded to 50, with a plain name for its band."""

from __future__ import annotations

import math
from typing import Any

RANDOM_RATING = 400
BANDS = ((800, "beginner"), (1100, "novice"), (1400, "intermediate"), (1700, "advanced"))
BANDS += ((2000, "expert"), (math.inf, "master"))


def readable_rating(elo: float) -> int:
    return math.floor((RANDOM_RATING + elo) / 50 + 0.5) * 50  # JavaScript's Math.round


def readable_level(level: dict[str, Any]) -> str:
    if level.get("engine"):
        what = f"{level['title']} (skill {level['skill']}, {level['think_time']:g} s a move)"
    else:
        what = f"Level {level['level']}"
    if level["elo"] is None:
        return f"{what} — not rated yet"
    rating = readable_rating(level["elo"])
    band = next(name for below, name in BANDS if rating < below)
    if level["algorithm"] == "random":
        return f"{what}: {band} — moves at random"
    return f"{what}: {band} — rated about {rating}"
