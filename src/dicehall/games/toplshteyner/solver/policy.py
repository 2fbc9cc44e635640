"""The solved Toplshteyner tables read at a seat's view: the roller's choice and what each is worth.

Everything is public (C6), so a seat's view holds the whole position: the
lives round the table from the roller, the pot (K, see `model.py`) and the
turn's state. A decision is a lookup in the solved layer of that many
players and that K; the tables are never solved here unless asked (`solve`),
since that can take minutes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from dicehall.games.toplshteyner.solver.model import NO_POT, Model, Sigma, position_index
from dicehall.games.toplshteyner.solver.solve import Solver, exact_players
from dicehall.games.toplshteyner.solver.stored import cache_dir

# --- the tables a game needs ------------------------------------------------------


@cache
def solver(objective: str, for_fun: bool, sixes_end_turn: bool, seats: int) -> Solver:
    return Solver(Model(objective, for_fun, sixes_end_turn), seats, cache_dir())


def model_of(view: Mapping[str, Any], objective: str) -> Solver:
    seats = len(view["lives"])
    return solver(objective, bool(view["for_fun"]), bool(view["sixes_end_turn"]), seats)


Position = tuple[tuple[int, ...], list[int]]


def players_in(lives: Sequence[int], first: int) -> Position:
    """Lives of the players still in from seat `first` round the table, and their seats."""
    n = len(lives)
    seats = [(first + i) % n for i in range(n) if lives[(first + i) % n] > 0]
    return tuple(lives[s] for s in seats), seats


def key_of(engine: Solver, view: Mapping[str, Any]) -> int:
    """K of the position in `view`: pot + lives of the players in (see `model.py`)."""
    if not engine.model.money and not engine.model.for_fun:
        return NO_POT
    return engine.clip(int(view["pot"]) + sum(int(x) for x in view["lives"]))


# --- decisions from a seat's view ---------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """The solver's reading of a decision: the roller's value of each choice (a seat
    to elect, or True/False for buying) and the choice it makes."""

    values: list[tuple[int | bool, float]]
    choice: int | bool
    epsilon: float


def solved(view: Mapping[str, Any], objective: str = "win") -> bool:
    """Whether the position is within the objective's solved tables (`exact_players`)."""
    return sum(1 for x in view["lives"] if x > 0) <= exact_players(objective)


class NotSolved(Exception):
    """The tables of this game are not solved yet (and solving them takes a while)."""


def decision(view: Mapping[str, Any], objective: str, solve: bool = False) -> Decision:
    """The roller's choice in `view` (phase "elect" or "buy") from the solved tables.

    Values are the objective's: money, the roller's expected winnings from here in
    stakes (K if it wins, less two stakes a life it buys from now on); win, its
    chance to win. Positions beyond `exact_players` raise ValueError; tables that
    are not solved yet raise NotSolved unless `solve`.
    """
    if not solved(view, objective):
        raise ValueError(
            f"more than {exact_players(objective)} players are in: beyond the solved tables"
        )
    engine = model_of(view, objective)
    if not solve and not engine.ready():
        raise NotSolved(
            f"the solver's tables for {engine.seats} seats ({engine.model.name(engine.seats)}) "
            f"are not computed yet: `dicehall solve toplshteyner -n {engine.seats}` solves them"
        )
    roller = int(view["roller"])
    lives, seats = players_in(view["lives"], roller)
    layer = engine.layer(len(lives), key_of(engine, view))
    o = position_index(lives[1:])
    sigma: Sigma = (
        int(view["point"] or 0),
        bool(view["snake_eyes"]),
        bool(view["threes"]),
        bool(view["high_fives"]),
        int(view["lives"][roller]),
    )
    if view["phase"] == "elect":
        ev = layer.elect_ev[sigma][o]
        values: list[tuple[int | bool, float]] = [
            (seats[i], float(ev[i - 1])) for i in range(1, len(lives))
        ]
        return Decision(values, seats[int(layer.elect[sigma][o])], layer.epsilon)
    bought, declined = layer.buy_ev[sigma][o]
    values = [(True, float(bought)), (False, float(declined))]
    return Decision(values, bool(layer.buy[sigma][o]), layer.epsilon)
