"""The `table` bot: Kariki at three to ten seats from the round game's self-play policy.

With four or more seats in, every claim and answer comes from the policy of
`table_solve.py` for that many seats in, looked up by the decision's key
(claim to beat, kind, claim, passes, own dice's rank): its answers weigh a
claim by what the claimant's policy makes likely, not by a fixed honesty
prior. With three or four seats in it plays the policy of `table_scored.py`
at the seats' berries, read from the thrower in the direction of play (the
round policy where that is not shipped, for other options). With two seats
in it plays the solved two-seat equilibrium (claims and answers) at the two
seats' scores. It keeps no memory: every decision is a
function of the seat's view, so the exact best response of `best_response.py`
measures it exactly. It always buys the emergency berry (K9), as the solver
does, and chooses play to the left.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Mapping, Sequence
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any

from dicehall.core import Game, View
from dicehall.core.bots import draw
from dicehall.games.kariki.bots import next_in
from dicehall.games.kariki.rules import BUY, LEFT, PASS, PULL, RANK_OF_ID, ROLL
from dicehall.games.kariki.solver.model import infoset_key
from dicehall.games.kariki.solver.table_stored import (
    ITERATIONS,
    SHIPPED_OPTIONS,
    Table,
    score_index,
    scored_for,
    shipped_tables,
    table_options,
)

if TYPE_CHECKING:
    from dicehall.games.kariki.solver.stored import Strategy


class TableBot:
    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self.game = game

    @cached_property
    def two_seats(self) -> Strategy:
        from dicehall.games.kariki.solver.stored import strategy_for

        return strategy_for(self.game)

    def policy(self, view: View, legal: Sequence[Mapping[str, Any]]) -> list[float]:
        """The chance of each legal action."""
        phase = view["phase"]
        if phase not in ("claim", "respond"):
            wanted = BUY if phase == "emergency" else LEFT
            return [1.0 if action == wanted else 0.0 for action in legal]
        chances = self._chances(view)
        if len(chances) == len(legal):
            return chances
        return _restrict(view, chances, legal)

    def _chances(self, view: View) -> list[float]:
        seats_in = sum(not out for out in view["out"])
        p = view["claim"] if view["phase"] == "claim" else view["previous_claim"]
        to_beat = -1 if p is None else RANK_OF_ID[p]
        key = infoset_key(view)
        scored = scored_for(self.game, seats_in)
        if scored is not None:
            return scored.policy(_berries_row(view, seats_in), (to_beat, *key))
        if seats_in >= 3:
            return list(table_for(self.game, seats_in)[(to_beat, *key)])
        me = int(view["seat"])
        other = next_in(view, me)
        thrower = 0 if int(view["roller"]) == me else 1
        score = self.two_seats.scores.of_view(view, me, other)
        return [float(c) for c in self.two_seats.chances(score, (thrower, to_beat), key)]

    def choose(self, view: View, legal: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
        return draw(self.rng, legal, self.policy(view, legal))


def table_for(game: Game, seats_in: int) -> Table:
    """The policy of the round game with `seats_in` seats in, for this game's options: the
    shipped one, or solved on demand (seconds per seat count) and kept in memory."""
    options = table_options(game)
    shipped = shipped_tables() if options == SHIPPED_OPTIONS else {}
    if shipped:
        return shipped[seats_in]
    with _lock:
        return _solved(type(game), tuple(sorted(options.items())), seats_in)


_lock = threading.Lock()


@cache
def _solved(kind: type[Game], options: tuple[tuple[str, object], ...], seats_in: int) -> Table:
    from dicehall.games.kariki.solver.table_solve import solve_round

    return solve_round(kind(seats_in, dict(options)), ITERATIONS).policy


def _berries_row(view: View, seats_in: int) -> int:
    """The scored policy's row: the berries of the seats in from the thrower, in play order."""
    seat = int(view["roller"])
    berries = []
    for _ in range(seats_in):
        berries.append(int(view["berries"][seat]))
        seat = next_in(view, seat)
    return score_index(tuple(berries))


def _restrict(view: View, chances: list[float], legal: Sequence[Mapping[str, Any]]) -> list[float]:
    """The policy's chances on a narrower set of answers (option `throws`: no roll once the
    round's throws are used up), renormalised; the policy is solved without the limit."""
    solved: tuple[Mapping[str, Any], ...]
    if len(chances) == 3:
        solved = (ROLL, PULL, PASS)
    elif view["your_dice"] is not None:
        solved = (PULL, PASS)
    else:
        solved = (ROLL, PULL)
    if len(chances) != len(solved) or any(action not in solved for action in legal):
        raise AssertionError(f"the policy has {len(chances)} actions, not {len(legal)}")
    kept = [chances[solved.index(action)] for action in legal]
    total = sum(kept)
    return [c / total for c in kept] if total > 0 else [1.0 / len(legal)] * len(legal)
