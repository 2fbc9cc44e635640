"""The most one seat can win against heuristic bots: an exact best response.

The heuristic (`bots.py`) nearly always makes the win-maximising choice, so
a duel against it can only show a small edge. How small is exact here: fix
every other seat to the heuristic's own policy (its elections, read from the
bot itself for every position it can meet; it always buys a fourth life) and
let one seat maximise its own chance to win. What that seat then faces is a
one-player decision problem over the same turn chain and layers as the
solver's (`model.py`, `solve.py`), solved by the same value iteration.

One sweep serves every seat at once: a layer's values hold, for each player
of a position, that player's chance to win *in the game where that player is
the best responder* and everyone else plays the heuristic. Each player's
value follows that player round the table, so the roller maximises its own
column and every other column sees the roller play the heuristic. With
`best_response` off, every roller plays the heuristic: the heuristic's own
value in each seat, against itself.

Against the `solver` bot the same sweep fixes every other seat to the
solver's own elections instead (`AgainstSolver`, read off its solved layers):
the solver always buys a fourth life for the win too, so the one sweep
measures how far from a best reply the solved choices are, which the
hysteresis of its value iteration leaves open.

Win chances on a paying table (the game's objective, P10) and the table's
options (`for_fun`, `sixes_end_turn`) as given.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache

import numpy as np
from numpy.typing import NDArray

from dicehall.core.errors import DicehallError
from dicehall.games.toplshteyner.rules import ELECT_SEAT, MAX_LIVES, START_LIVES, Toplshteyner
from dicehall.games.toplshteyner.solver.model import (
    Chain,
    Layer,
    Model,
    Sigma,
    all_positions,
    position_index,
    turn_chain,
)
from dicehall.games.toplshteyner.solver.solve import MAX_SWEEPS, TOLERANCE, TurnSweep

Array = NDArray[np.float64]


@cache
def heuristic_elections(
    players: int, for_fun: bool, sixes_end_turn: bool
) -> dict[int, NDArray[np.int64]]:
    """Whom the heuristic bot elects (1 = the roller's left-hand neighbour) with the
    roller at `lives` (the key) and the others' lives of index o (`position_index`):
    asked of the bot itself, once per position. Its choice depends on the lives of the
    players in and their order from the roller alone (its tables and its tie-break,
    the first in play order)."""
    from dicehall.games.toplshteyner.bots import HeuristicBot

    game = Toplshteyner(players, {"for_fun": for_fun, "sixes_end_turn": sixes_end_turn})
    bot = HeuristicBot(game, 0, random.Random(0))
    legal = [ELECT_SEAT[s] for s in range(1, players)]
    others = all_positions(players - 1)
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

    def others_choice(self, to: Sigma) -> NDArray[np.int64]:
        """Whom the other seats' bot elects at each position of `to` (0: the first)."""
        return self.heuristic[to[4]] - 1

    def elected(self, to: Sigma, w: Mapping[Sigma, Array]) -> Array:
        stacked = self.election_values(to, w)  # (choice, O, player)
        rows = np.arange(self.count)
        heuristic = self.others_choice(to)
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


class AgainstSolver(AgainstHeuristic):
    """The best responder against `solver` bots: every other column sees the roller
    elect as the solver's solved layer of this many players says."""

    solved: Mapping[int, Layer] = {}
    """The solver's layers by players in (set by `layers`)."""

    def others_choice(self, to: Sigma) -> NDArray[np.int64]:
        return self.solved[self.players].elect[to].astype(np.int64) - 1


def solver_layers(seats: int, for_fun: bool, sixes_end_turn: bool) -> dict[int, Layer]:
    """The `solver` bot's solved layers (win chances) from two players to `seats`, from
    the package or the cache; refused if they are not solved or the solver ever
    declines a fourth life (the sweep takes every seat to buy)."""
    from dicehall.games.toplshteyner.solver.policy import solver

    engine = solver("win", for_fun, sixes_end_turn, seats)
    if not engine.ready():
        raise NotSolvedError(
            f"the solver's tables for {seats} seats with these options are not solved: "
            f"`dicehall solve toplshteyner -n {seats}` solves them"
        )
    found = {}
    for players, k in engine.layer_keys():
        layer = engine.layer(players, k)
        if any(not bool(np.all(b)) for b in layer.buy.values()):
            raise NotSolvedError("the solver declines a fourth life somewhere: not measured")
        found[players] = layer
    return found


class NotSolvedError(DicehallError):
    """The solver's layers a best response needs are not there."""


_SOLVED: dict[tuple[str, bool, bool, bool], dict[int, Layer]] = {}
"""Layers solved in this process, by (against, best_response, for_fun, sixes_end_turn)."""


def layers(
    players: int,
    best_response: bool,
    for_fun: bool = False,
    sixes_end_turn: bool = False,
    against: str = "heuristic",
) -> dict[int, Layer]:
    """Every layer up to `players` players in, solved from two players up (each reads
    the one below when a player goes out). `against`: the other seats' bot,
    "heuristic" or "solver" (then only as the best responder)."""
    model = Model("win", for_fun, sixes_end_turn)
    chain = turn_chain(for_fun, sixes_end_turn)
    kind: type[AgainstHeuristic]
    if against == "solver":
        kind = type(
            "AgainstTheseSolvers",
            (AgainstSolver,),
            {"solved": solver_layers(players, for_fun, sixes_end_turn)},
        )
    else:
        kind = AgainstHeuristic if best_response else HeuristicOnly
    solved = _SOLVED.setdefault((against, best_response, for_fun, sixes_end_turn), {})
    for n in range(2, players + 1):
        if n not in solved:
            below = solved.get(n - 1)
            solved[n] = solve_layer(model, chain, n, model.key(n), below, kind)
    return solved


def solve_layer(
    model: Model,
    chain: Chain,
    players: int,
    k: int,
    below: Layer | None,
    kind: type[AgainstHeuristic],
) -> Layer:
    """`solve.solve_layer` with the rollers choosing as `kind` says (kept apart so that
    `solve.py`, whose source keys the solver's cached tables, stays as it is)."""
    sweep = kind(model, chain, players, k, below, None)
    values = np.full((MAX_LIVES**players, players), 1.0 / players)
    change, sweeps = float("inf"), 0
    while change >= TOLERANCE and sweeps < MAX_SWEEPS:
        new = sweep.run(values)
        change = float(np.max(np.abs(new - values)))
        values, sweeps = new, sweeps + 1
    layer = Layer(players, k, values, sweeps=sweeps, residual=change, epsilon=sweep.decline_gain())
    layer.elect, layer.elect_ev = sweep.elect, sweep.elect_ev
    layer.turn = sweep.kept
    return layer


def start_values(
    seats: int, best_response: bool, against: str = "heuristic", **options: bool
) -> list[float]:
    """At a game's start (everyone at three lives): the chance to win of the seat that
    throws first, second, ..., as the best responder (or the heuristic) against
    heuristic bots (or `against="solver"`: as the best responder against solver bots)."""
    layer = layers(seats, best_response, against=against, **options)[seats]
    return [float(x) for x in layer.values[position_index((START_LIVES,) * seats)]]


def solver_start_values(seats: int, **options: bool) -> list[float]:
    """The `solver` bot's own chance to win in each seat, every seat playing it."""
    layer = solver_layers(seats, options.get("for_fun", False),
                          options.get("sixes_end_turn", False))[seats]  # fmt: skip
    return [float(x) for x in layer.values[position_index((START_LIVES,) * seats)]]
