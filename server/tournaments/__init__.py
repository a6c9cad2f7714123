"""Tournaments: arena, Swiss and round robin, for every game kind (issue 38).

Pure and sans-I/O like the rooms: :class:`Tournament` decides events and folds them, the
shell (``server/net``) stores them first and drives the time. The parts:

* :mod:`.spec` — what the creator chose (:class:`Spec`), checked;
* :mod:`.values` — :class:`Entrant`, :class:`TournamentEvent`; :mod:`.errors` — the error;
* :mod:`.state` — the fold; :mod:`.tournament` — the decisions; :mod:`.progress` — the
  start, pairings, rounds and end that time and results bring;
* :mod:`.arena`, :mod:`.swiss`, :mod:`.roundrobin` — who plays whom;
* :mod:`.scoring`, :mod:`.tiebreaks` — points and tie-breaks; :mod:`.view` — the one view.
"""

from __future__ import annotations

from .arena import REPEAT_WAIT, Waiting, arena_pairs
from .errors import TournamentError
from .roundrobin import berger_rounds
from .scoring import ArenaScore, arena_points
from .spec import Spec
from .swiss import NoPairing, SwissPlayer, SwissRound, swiss_round
from .tiebreaks import buchholz, sonneborn_berger
from .tournament import Tournament
from .values import Entrant, TournamentEvent

__all__ = [
    "REPEAT_WAIT",
    "ArenaScore",
    "Entrant",
    "NoPairing",
    "Spec",
    "SwissPlayer",
    "SwissRound",
    "Tournament",
    "TournamentError",
    "TournamentEvent",
    "Waiting",
    "arena_pairs",
    "arena_points",
    "berger_rounds",
    "buchholz",
    "sonneborn_berger",
    "swiss_round",
]
