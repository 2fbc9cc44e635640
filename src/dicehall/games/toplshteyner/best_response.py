"""The most one seat can win against heuristic bots: an exact best response.

The heuristic (`bots.py`) nearly always makes the win-maximising choice, so
a duel against it can only show a small edge. How small is exact here: fix
every other seat to the heuristic's own policy (its elections, read from the
bot itself for every position it can meet; it always buys a fourth life) and
let one seat maximise its own chance to win. What that seat then faces is a
one-player decision problem over the same turn chain and layers as the
solver's (`solver.py`), solved by the same value iteration.

One sweep serves every seat at once: a layer's values hold, for each player
of a position, that player's chance to win *in the game where that player is
the best responder* and everyone else plays the heuristic. Each player's
value follows that player round the table, so the roller maximises its own
column and every other column sees the roller play the heuristic. With
`best_response` off, every roller plays the heuristic: the heuristic's own
value in each seat, against itself.

Win chances on a paying table (the game's objective, P10) and the table's
options (`for_fun`, `sixes_end_turn`) as given.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache

import numpy as np
from numpy.typing import NDArray

from dicehall.games.toplshteyner import solver
from dicehall.games.toplshteyner.rules import ELECT_SEAT, MAX_LIVES, START_LIVES, Toplshteyner
from dicehall.games.toplshteyner.solver import Layer, Model, Sigma, TurnSweep

Array = NDArray[np.float64]


@cache
def heuristic_elections(
    players: int, for_fun: bool, sixes_end_turn: bool
) -> dict[int, NDArray[np.int64]]:
    """Whom the heuristic bot elects (1 = the roller's left-hand neighbour) with the
    roller at `lives` (the key) and the others' lives of index o (`solver.position_index`):
    asked of the bot itself, once per position. Its choice depends on the lives of the
    players in and their order from the roller alone (its tables and its tie-break,
    the first in play order)."""
    from dicehall.games.toplshteyner.bots import HeuristicBot

    game = Toplshteyner(players, {"for_fun": for_fun, "sixes_end_turn": sixes_end_turn})
    bot = HeuristicBot(game, 0, random.Random(0))
    legal = [ELECT_SEAT[s] for s in range(1, players)]
    others = solver.all_positions(players - 1)
    table = {}
    for lives in range(1, MAX_LIVES + 1):
        chosen = np.empty(len(others), dtype=np.int64)
        for o, rest in enumerate(others):
            view = {
                "roller": 0,
                "lives": [lives, *(int(x) for x in rest)],
                "for_fun": for_fun,
                "sixes_end_turn": sixes_end_turn,
            }
            chosen[o] = int(bot.elect(view, legal)["seat"])
        table[lives] = chosen
    return table


class AgainstHeuristic(TurnSweep):
    """A turn in which each player's column is its chance to win as the best responder
    (the roller choosing for its own column) against heuristic bots (every other
    column: the roller chooses as the heuristic)."""

    best_response = True

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        model = self.model
        self.heuristic = heuristic_elections(self.players, model.for_fun, model.sixes_end_turn)
        self.declines: dict[Sigma, float] = {}

    def choose_buy(self, sigma: Sigma, bought: Array, declined: Array) -> NDArray[np.bool_]:
        """Every seat buys: the heuristic always does, and for the best responder the
        life is never worth less than declining (checked: `decline_gain`)."""
        self.buy[sigma] = np.ones(len(bought), dtype=bool)
        self.buy_ev[sigma] = np.stack([bought, declined], axis=1).astype(np.float32)
        self.declines[sigma] = float(np.max(declined - bought))
        return self.buy[sigma]

    def decline_gain(self) -> float:
        """The most the best responder could gain by declining a fourth life once (<= 0:
        buying is its best reply everywhere, so always buying loses nothing)."""
        return max(self.declines.values(), default=0.0)

    def elected(self, to: Sigma, w: Mapping[Sigma, Array]) -> Array:
        stacked = self.election_values(to, w)  # (choice, O, player)
        rows = np.arange(self.count)
        heuristic = self.heuristic[to[4]] - 1
        chosen: Array = stacked[heuristic, rows].copy()
        mine = stacked[:, :, 0]
        best = np.argmax(mine, axis=0) if self.best_response else heuristic
        chosen[:, 0] = mine[best, rows]
        self.elect[to] = (best + 1).astype(np.int8)
        self.elect_ev[to] = mine.T.astype(np.float32)
        return chosen


class HeuristicOnly(AgainstHeuristic):
    """Every roller plays the heuristic: each column is that seat's chance against it."""

    best_response = False


_SOLVED: dict[tuple[bool, bool, bool], dict[int, Layer]] = {}
"""Layers solved in this process, by (best_response, for_fun, sixes_end_turn)."""


def layers(
    players: int, best_response: bool, for_fun: bool = False, sixes_end_turn: bool = False
) -> dict[int, Layer]:
    """Every layer up to `players` players in, solved from two players up (each reads
    the one below when a player goes out)."""
    model = Model("win", for_fun, sixes_end_turn)
    chain = solver.turn_chain(for_fun, sixes_end_turn)
    kind = AgainstHeuristic if best_response else HeuristicOnly
    solved = _SOLVED.setdefault((best_response, for_fun, sixes_end_turn), {})
    for n in range(2, players + 1):
        if n not in solved:
            below = solved.get(n - 1)
            solved[n] = solve_layer(model, chain, n, model.key(n), below, kind)
    return solved


def solve_layer(
    model: Model,
    chain: solver.Chain,
    players: int,
    k: int,
    below: Layer | None,
    kind: type[AgainstHeuristic],
) -> Layer:
    """`solver.solve_layer` with the rollers choosing as `kind` says (kept apart so that
    `solver.py`, whose source keys the solver's cached tables, stays as it is)."""
    sweep = kind(model, chain, players, k, below, None)
    values = np.full((MAX_LIVES**players, players), 1.0 / players)
    change, sweeps = float("inf"), 0
    while change >= solver.TOLERANCE and sweeps < solver.MAX_SWEEPS:
        new = sweep.run(values)
        change = float(np.max(np.abs(new - values)))
        values, sweeps = new, sweeps + 1
    layer = Layer(players, k, values, sweeps=sweeps, residual=change, epsilon=sweep.decline_gain())
    layer.elect, layer.elect_ev = sweep.elect, sweep.elect_ev
    layer.turn = sweep.kept
    return layer


def start_values(seats: int, best_response: bool, **options: bool) -> list[float]:
    """At a game's start (everyone at three lives): the chance to win of the seat that
    throws first, second, ..., as the best responder (or the heuristic) against
    heuristic bots."""
    layer = layers(seats, best_response, **options)[seats]
    return [float(x) for x in layer.values[solver.position_index((START_LIVES,) * seats)]]
