"""The model the Toplshteyner solver works on: positions, layers (players in, K), turn states.

The roller's only choices are whom a first 5-5 elects (P8) and whether to buy
a fourth life on a 6-6 at three lives (P9). Everything else is dice, and all
of it is public, so the game is a finite stochastic game of perfect
information and dynamic programming solves it exactly (`solve.py`).

A *position* is the lives of the players still in, listed from the roller
round the table, and K = pot + the lives of the players in. K is the
winner's gross: a seat's net at the end is (K if it won) - 3 - 2 x (fourth
lives it bought), so only K and future buys matter for money. K starts at
3 x seats, grows by 2 with every bought life and changes in no other way.
On a "for fun" table nothing is bought, K stays 3 x seats, and K - lives is
the pot, whose emptiness decides whether a 6-6 gives a life (P9); that is
why the odds of a for-fun table depend on the seat count and not on the
lives alone. On a paying table the pot always holds a stake when a 6-6
below three lives asks for one (each life below three is a stake in it, each
fourth life two), so there the win chances do not depend on K at all.

A *layer* (players in, K) holds every position of that many players with that
K. A turn is the chain of the roller's turn states (point, which doubles were
thrown, the roller's lives), explored by playing `rules.py` itself one throw
at a time, so the model cannot drift from the rules. The elected player
losing their last life mid-turn leaves the roller throwing in the layer of
one player fewer; a bought life leaves it in the layer of K + 2 (above
TOP_BUYS bought lives K is held at the top, the one place the model is not
exact, and the chance of reaching it is reported by the benchmark).

Two objectives: "money" (each seat maximises its expected net in stakes;
the game's own measure) and "win" (its chance to win). A for-fun table's
money is 3 x (seats - 1) for the winner and -3 for everyone else, so there
the two objectives are the same.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np
from numpy.typing import NDArray

from dicehall.games.toplshteyner.odds import sink_first
from dicehall.games.toplshteyner.rules import (
    BUY,
    BUY_LIFE,
    DECLINE_LIFE,
    ELECT,
    MAX_LIVES,
    OVER,
    TURN,
    Toplshteyner,
    ToplshteynerState,
)

Array = NDArray[np.float64]
OBJECTIVES = ("money", "win")
TOP_BUYS = 6
"""Bought lives above which K is held at its top value."""
NO_POT = 10**6
"""K of a paying table's win-chance layer: the pot never runs dry there."""

# --- the turn chain, explored by playing the rules --------------------------------

Sigma = tuple[int, bool, bool, bool, int]
"""A turn state: (point or 0, 1-1 thrown, 3-3 thrown, 5-5 thrown, the roller's lives)."""


@dataclass(frozen=True)
class End:
    """The turn ends with the roller at `lives` (0: out)."""

    lives: int


@dataclass(frozen=True)
class Go:
    """The turn goes on at `to`."""

    to: Sigma


@dataclass(frozen=True)
class Elect:
    """A first 5-5 (P8): the roller elects a player, then the turn goes on at `to`."""

    to: Sigma


@dataclass(frozen=True)
class Buy:
    """A 6-6 at three lives on a paying table (P9): buy (a life, one stake) or not."""

    bought: Go | End
    declined: Go | End


@dataclass(frozen=True)
class FromPot:
    """A 6-6 that takes a life from the pot: `given` if it holds a stake, else `empty`."""

    given: Go | End
    empty: Go | End


Edge = End | Go | Elect | Buy | FromPot


def faces() -> Iterator[tuple[tuple[int, int], float]]:
    for a in range(1, 7):
        for b in range(a, 7):
            yield (a, b), (1.0 if a == b else 2.0) / 36.0


def _state(game: Toplshteyner, sigma: Sigma, pot: int) -> ToplshteynerState:
    """Seat 0 throwing in turn state `sigma`, against two players of three lives."""
    point, snake, threes, high_fives, lives = sigma
    state = game.new_state()
    state.phase = TURN
    state.roller = 0
    state.lives[0] = lives
    state.point, state.snake_eyes, state.threes, state.high_fives = point, snake, threes, high_fives
    state.pot = pot
    return state


def _sigma(state: ToplshteynerState) -> Sigma:
    return (state.point, state.snake_eyes, state.threes, state.high_fives, state.lives[0])


def _after(state: ToplshteynerState) -> Go | End:
    if state.roller != 0 or state.phase == OVER:
        return End(state.lives[0])
    return Go(_sigma(state))


def _edge(game: Toplshteyner, sigma: Sigma, throw: tuple[int, int]) -> Edge:
    full = _state(game, sigma, pot=20)
    full.apply_chance(throw)
    if full.phase == ELECT:
        full.apply(0, {"type": "elect", "seat": 1})
        return Elect(_sigma(full))
    if full.phase == BUY:
        declined = full.clone()
        full.apply(0, BUY_LIFE)
        declined.apply(0, DECLINE_LIFE)
        return Buy(_after(full), _after(declined))
    given = _after(full)
    if throw == (6, 6) and full.reclaimed[0]:
        empty = _state(game, sigma, pot=0)
        empty.apply_chance(throw)
        return FromPot(given, _after(empty))
    return given


@dataclass
class Chain:
    """Every turn state reachable from a turn's start, with its edges, and an order
    to solve them in: strongly connected groups, successors first."""

    edges: dict[Sigma, list[tuple[float, Edge]]]
    groups: list[list[Sigma]]


def _targets(edge: Edge) -> Iterator[Sigma]:
    if isinstance(edge, Go | Elect):
        yield edge.to
    elif isinstance(edge, Buy):
        yield from _targets(edge.bought)
        yield from _targets(edge.declined)
    elif isinstance(edge, FromPot):
        yield from _targets(edge.given)
        yield from _targets(edge.empty)


@cache
def turn_chain(for_fun: bool, sixes_end_turn: bool) -> Chain:
    game = Toplshteyner(3, {"for_fun": for_fun, "sixes_end_turn": sixes_end_turn})
    edges: dict[Sigma, list[tuple[float, Edge]]] = {}
    todo = [start_sigma(lives) for lives in range(1, MAX_LIVES + 1)]
    while todo:
        sigma = todo.pop()
        if sigma in edges:
            continue
        edges[sigma] = [(p, _edge(game, sigma, t)) for t, p in faces()]
        todo.extend(s for _, e in edges[sigma] for s in _targets(e) if s not in edges)
    return Chain(edges, _groups(edges))


def start_sigma(lives: int) -> Sigma:
    return (0, False, False, False, lives)


def _groups(edges: Mapping[Sigma, list[tuple[float, Edge]]]) -> list[list[Sigma]]:
    """The turn states' strongly connected groups, sinks first."""
    return sink_first(
        sorted(edges), lambda node: (t for _, edge in edges[node] for t in _targets(edge))
    )


# --- positions and layers ---------------------------------------------------------


def position_index(lives: Sequence[int]) -> int:
    """Index of a position (lives from the roller round, each 1-4) in its layer."""
    index = 0
    for x in lives:
        index = index * MAX_LIVES + (x - 1)
    return index


def all_positions(players: int) -> NDArray[np.int64]:
    """Every position of `players` players: rows of lives, in index order."""
    grid = np.indices((MAX_LIVES,) * players).reshape(players, -1).T + 1
    return grid.astype(np.int64)


@dataclass
class Layer:
    """Solved values of every position of `players` players at one K.

    values[i, j]: the objective of the j-th player (0 = the roller) of position i.
    elect[to][o]: whom the roller elects on a first 5-5 that leads to turn state
    `to`, the others' lives having index o (1 = the roller's left-hand neighbour);
    elect_ev[to][o, i - 1]: the roller's value of electing the i-th.
    buy[sigma][o]: whether the roller buys a fourth life on a 6-6 in turn state
    sigma; buy_ev[sigma][o]: the roller's value of (buying, declining).
    """

    players: int
    k: int
    values: Array
    elect: dict[Sigma, NDArray[np.int8]] = field(default_factory=dict)
    elect_ev: dict[Sigma, NDArray[np.float32]] = field(default_factory=dict)
    buy: dict[Sigma, NDArray[np.bool_]] = field(default_factory=dict)
    buy_ev: dict[Sigma, NDArray[np.float32]] = field(default_factory=dict)
    turn: dict[Sigma, Array] = field(default_factory=dict)
    """Values inside a turn that other layers read (see `solve.TurnSweep.kept_for_above`)."""
    sweeps: int = 0
    residual: float = 0.0
    """The most any value moved in the last sweep."""
    epsilon: float = 0.0
    """The most a roller could gain by choosing otherwise at one decision (0: every
    choice is a best reply to the policy; above the hysteresis only where choices
    were frozen after `solve.FREEZE_AFTER` sweeps because best replies went round in a cycle)."""


@dataclass(frozen=True)
class Model:
    objective: str
    for_fun: bool
    sixes_end_turn: bool

    def __post_init__(self) -> None:
        if self.objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {OBJECTIVES}; got {self.objective!r}")

    @property
    def money(self) -> bool:
        return self.objective == "money" and not self.for_fun

    def key(self, seats: int) -> int:
        """K of a fresh game of `seats`: lives 3 each, an empty pot."""
        return 3 * seats if (self.money or self.for_fun) else NO_POT

    def top(self, seats: int) -> int:
        """The largest K solved for a game of `seats`; above it K is held (module text)."""
        return 3 * seats + 2 * TOP_BUYS if self.money else self.key(seats)

    def name(self, seats: int) -> str:
        fun = "-for_fun" if self.for_fun else ""
        sixes = "-sixes_end_turn" if self.sixes_end_turn else ""
        return f"toplshteyner-{seats}-{self.objective}{fun}{sixes}"
