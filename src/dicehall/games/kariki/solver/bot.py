"""The `solver` bot: Kariki's solved two-seat strategy, played from a seat's view alone.

At two seats it plays the equilibrium strategy of `solve.py` exactly as
solved (its exploitability is measured in docs/researchers/kariki.md). At three to ten
seats no equilibrium is known. With four seats in or fewer, for the options
the table bot's scored policies are solved for (the defaults), it plays as
the table bot (`table_bot.py`): the policy per score of three or four seats
in, and the two-seat equilibrium once two are left, whose exact best
response gains little (docs/researchers/kariki.md). With more seats in, or
other options, it claims as the two-seat strategy claims against the next
player (who answers the claim), at their two scores: the solved mix of
truths and bluffs; and it answers claims as the heuristic bot does, tracking
how honest each thrower has shown itself: measured, the two-seat answers
carried over to more seats lose (a pass there hands the claim to a player
who may pass it on, not to the thrower), while these claims beat the
heuristic and the table bot's round policy from five seats on
(docs/researchers/kariki.md).

The emergency berry (K9) is always bought: staying in never lowers a chance
of winning. The bot draws its actions from its own random source, so a seed
makes its play reproducible. It loads the strategy (and NumPy with it) at its
first claim or answer past a match's first roll, not when it sits down, so a
table starts at once: the decisions of the first roll come from a small cached
table of the same chances (`opening.py`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

from dicehall.core import Game, View
from dicehall.core.bots import draw
from dicehall.games.kariki.bots import HeuristicBot, next_in
from dicehall.games.kariki.rules import BUY, LEFT
from dicehall.games.kariki.solver.model import (
    ZERO,
    InfosetKey,
    Scores,
    infoset_key,
    score_of_view,
    subgame_of,
)
from dicehall.games.kariki.solver.opening import opening_chances
from dicehall.games.kariki.solver.stored import strategy_for
from dicehall.games.kariki.solver.table_bot import TableBot
from dicehall.games.kariki.solver.table_stored import SCORED_SEATS, scored_applies

if TYPE_CHECKING:
    from dicehall.games.kariki.solver.solve import Subgame
    from dicehall.games.kariki.solver.stored import Strategy


def two_seat_seats(view: View) -> tuple[int, int, Subgame, InfosetKey]:
    """(seat 0, seat 1, subgame, infoset) of a decision in the two-seat game.

    At two seats the seats are the real ones; at more (claims only), the
    thrower is seat 0 of the two-seat game and the next player seat 1.
    """
    subgame, key = subgame_of(view), infoset_key(view)
    if len(view["out"]) == 2:
        return 0, 1, subgame, key
    me = int(view["seat"])
    return me, next_in(view, me), (0, subgame[1]), key


def two_seat_position(view: View, scores: Scores) -> tuple[int, Subgame, InfosetKey]:
    """(score, subgame, infoset) of a decision in the two-seat game (`two_seat_seats`)."""
    me, other, subgame, key = two_seat_seats(view)
    return scores.of_view(view, me, other), subgame, key


class SolverBot:
    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self.game = game
        self.answers = HeuristicBot(game, seat, rng) if game.seats > 2 else None
        # the table bot's scored policies, for the options they are solved for
        self.table = TableBot(game, seat, rng) if game.seats > 2 and scored_applies(game) else None

    @cached_property
    def strategy(self) -> Strategy:
        """The two-seat strategy, loaded (or solved, minutes) at the first decision needing it."""
        return strategy_for(self.game)

    def policy(self, view: View, legal: Sequence[Mapping[str, Any]]) -> list[float]:
        """The chance of each legal action."""
        if self.table is not None and self.plays_table(view):
            self.table.seat = self.seat
            return self.table.policy(view, legal)
        if self.answers is not None:
            self.answers.observe(view)
            if view["phase"] == "respond":
                chosen = self.answers.choose(view, legal)
                return [1.0 if action == chosen else 0.0 for action in legal]
        if view["phase"] in ("claim", "respond"):
            chances = self.chances(view)
            if len(chances) == len(legal):
                return chances
            raise AssertionError(f"the strategy has {len(chances)} actions, not {len(legal)}")
        wanted = BUY if view["phase"] == "emergency" else LEFT
        return [1.0 if action == wanted else 0.0 for action in legal]

    def plays_table(self, view: View) -> bool:
        """Whether it plays as the table bot at this view: four seats in or fewer, for the
        options the scored policies are solved for (module docstring)."""
        return self.table is not None and sum(not out for out in view["out"]) <= max(SCORED_SEATS)

    def chances(self, view: View) -> list[float]:
        """The strategy's chances at a claim or answer: from the opening table on a match's
        first roll, else from the strategy (loaded at the first such decision)."""
        me, other, subgame, key = two_seat_seats(view)
        if score_of_view(view, bool(self.game.options["high_rollers"]), me, other) == ZERO:
            opening = opening_chances(self.game).get((subgame, key))
            if opening is not None:
                return opening
        score = self.strategy.scores.of_view(view, me, other)
        return [float(c) for c in self.strategy.chances(score, subgame, key)]

    def choose(self, view: View, legal: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
        chances = self.policy(view, legal)
        return draw(self.rng, legal, chances)
