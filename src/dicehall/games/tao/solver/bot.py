"""The `solver` bot: the solved two-seat Tao Dice strategy, played from a seat's view alone.

At two seats it plays the solved strategy (`stored.py`): the antes as
solved, and at every betting decision the chances of the node it is at,
found from its view (`model.locate`: the position the betting round
started from, the bets so far, its own 2d6 and the d12s). It draws its
action with its own random source, so a seed makes its play reproducible.

At three to six seats no equilibrium is known, and the two-seat strategy
does not carry over even to a match's last two players: they hold the
stones of the whole table (18 to 36), more than any two-seat position (12),
and with four or more seats the bid unit grows (D11). There it plays
`reading.BetReader`: the showdown equity against each opponent's hidden
dice as the round's bets say (Bayes' rule over an equity bettor), and the
two-seat solution's plainest lesson (raise with a white stone to buy a
reroll of weak dice).
`Game.bots()` lists it first only where duels measured it stronger.

The strategy ships in the package (`stored.py`). It loads (NumPy with it,
a second or two) at the bot's first two-seat decision, not when it sits down,
so a table starts at once. Were no strategy found (a damaged install), the bot
would play at two seats as the heuristic bot, and `Game.bot_warning` says so;
it never solves during a move.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING

from dicehall.core import Action, Game, View
from dicehall.core.bots import draw
from dicehall.games.tao.bots import HeuristicBot, refuse_small_dice

if TYPE_CHECKING:
    from dicehall.games.tao.solver.stored import Strategy


class SolverBot:
    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        refuse_small_dice(game, "solver")  # its strategy and the bet reader's odds: real dice
        self.game = game
        self.seat = seat
        self.rng = rng

    @cached_property
    def heuristic(self) -> HeuristicBot:
        """Beyond the model: at larger tables the bet reader (NumPy with it), at two seats
        with nothing solved yet the heuristic; made at the first choice it is asked."""
        if self.game.seats > 2:
            from dicehall.games.tao.solver.reading import BetReader

            return BetReader(self.game, self.seat, self.rng)
        return HeuristicBot(self.game, self.seat, self.rng)

    def policy(self, view: View, legal: Sequence[Action]) -> list[float]:
        """The chance of each legal action."""
        chances = self._model_chances(view, legal)
        if chances is not None:
            return chances
        chosen = self.heuristic.choose(view, legal)
        return [1.0 if action == chosen else 0.0 for action in legal]

    @cached_property
    def strategy(self) -> Strategy | None:
        """The stored strategy (NumPy with it, if solved), looked up at the first two-seat
        decision."""
        from dicehall.games.tao.solver.stored import stored

        return stored()

    def _model_chances(self, view: View, legal: Sequence[Action]) -> list[float] | None:
        if len(view["players"]) != 2 or self.strategy is None:
            return None  # the model is of two seats only (`model.locate` and the antes)
        from dicehall.games.tao.solver.policy import model_chances

        return model_chances(self.strategy, view, legal)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        chances = self.policy(view, legal)
        return draw(self.rng, legal, chances)
