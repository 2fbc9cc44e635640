"""The Tepiiku solver bot: the solved round (`solve.py`), read off tables from its view.

It decides from its seat's view alone: its own dice before the reveal, and
after it every die (T6), the pot, the roles and the coins. Each decision is a
table lookup (microseconds, `policy.py`); the tables come from `stored.py`,
which ships every cap's. Should a cap's tables be missing (a damaged install),
the bot chooses as the heuristic does, and `Game.bot_warning` says so: it never
solves during a move.

Coins: the model of a decision takes every seat to hold the deciding seat's
own coins, rounded down to a solved cap (see docs/researchers/tepiiku.md, "Tepiiku").
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dicehall.core.game import Action, Game, View
from dicehall.games.tepiiku.bots import HeuristicBot
from dicehall.games.tepiiku.rules import PAY, REROLLS, SUBSETS, THUMBS_DOWN, THUMBS_UP


class SolverBot:
    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self.fallback = HeuristicBot(game, seat, rng)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        # NumPy and the solver's tables come at the first real choice, not at the table's start
        from dicehall.games.tepiiku.solver import policy, stored
        from dicehall.games.tepiiku.solver.model import dice_in_view

        seat = self.seat
        phase = view["phase"]
        try:
            tables = stored.tables(policy.cap_of(view, seat))
        except stored.NotSolved:
            return self.fallback.choose(view, legal)
        if phase == "bet":
            up = policy.thumbs_up(tables, view["dice"][seat], seat)
            return THUMBS_UP if self.rng.random() < up else THUMBS_DOWN
        if phase == "fish":
            choice = policy.fish_choice(tables, view)
            if choice is None:
                return PAY
            return _reroll(dice_in_view(view["dice"][seat], choice), legal)
        if phase == "forced":
            k = policy.forced_choice(tables, view)
            return _reroll(dice_in_view(view["dice"][seat], k), legal)
        mix = policy.tie_mix(tables, view, seat)
        k = self.rng.choices(range(len(mix)), weights=mix)[0]
        return _reroll(dice_in_view(view["dice"][seat], k), legal)


def _reroll(dice: tuple[int, ...], legal: Sequence[Action]) -> Action:
    action = REROLLS[SUBSETS.index(dice)]
    return action if action in legal else legal[0]
