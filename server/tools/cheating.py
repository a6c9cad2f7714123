"""THE CHEATING TWIN — benchmark only, never a server bot.

:class:`CheatingISMCTS` is :class:`server.bots.ismcts.ISMCTSBot` with one change: every world
it searches is the *true* state, which the arena shows it because the class says
``reads_true_state = True`` (``server.tools.arena`` honours that label and nothing else does). It
measures what honesty costs: ``scripts/bench-bots.sh`` plays the honest ISMCTS against it at equal
budgets.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from server.bots import ALGORITHMS
from server.bots.ismcts import ISMCTSBot
from server.engine import Game


class CheatingISMCTS(ISMCTSBot):
    name = "ismcts-CHEATING"
    reads_true_state = True  # the arena shows this bot the true state: bench only

    def __init__(self, game: str = "dark_chess", **options: Any) -> None:
        # the very settings of the honest bot for this game (server.bots.ALGORITHMS)
        super().__init__(**{**ALGORITHMS[game]["ismcts"][1], **options})
        self._truth: Any = None

    def observe_true_state(self, state: Any) -> None:
        self._truth = state

    def determinize(
        self,
        game: Game[Any, Any],
        views: Sequence[Any],
        seat: int,
        rng: random.Random,
        hint: Any,
        seconds: float | None,
    ) -> Any:
        return self._truth
