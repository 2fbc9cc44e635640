"""Exact optimal decisions for Toplshteyner (P8 elections, P9 fourth lives).

The roller's only choices are whom a first 5-5 elects (P8) and whether to buy
a fourth life on a 6-6 at three lives (P9). Everything else is dice, and all
of it is public, so the game is a finite stochastic game of perfect
information and dynamic programming solves it exactly.

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
K; its values are solved by value iteration over turns, each sweep playing
one whole turn for every position at once (NumPy arrays indexed by the
other players' lives). A turn is the chain of the roller's turn states
(point, which doubles were thrown, the roller's lives), explored by playing
`rules.py` itself one throw at a time, so the model cannot drift from the
rules. Within a sweep the chain is solved exactly: its strongly connected
groups (a point swapped between 2 and 6 by 4-4 and 3-3; a declined life,
which repeats) in reverse topological order, self-loops summed in closed
form. The elected player losing their last life mid-turn leaves the roller
throwing in the layer of one player fewer, already solved; a bought life
leaves it in the layer of K + 2, solved before (layers go from the top K
down; above TOP_BUYS bought lives K is held at the top, the one place the
model is not exact, and the chance of reaching it is reported by the
benchmark).

Two objectives: "money" (each seat maximises its expected net in stakes;
the game's own measure) and "win" (its chance to win). A for-fun table's
money is 3 x (seats - 1) for the winner and -3 for everyone else, so there
the two objectives are the same.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dicehall.games.toplshteyner.components import sink_first
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
SHIPPED = Path(__file__).parent / "tables"
"""Solved layers that ship in the package (default options, small seat counts)."""
SHIPPED_VERSION = 1
"""Bumped when the model changes; tests check the shipped tables against a fresh solve."""
EXACT_PLAYERS = 5
"""Positions with at most this many players in are solved for money ..."""
WIN_EXACT_PLAYERS = 6
"""... and for the win, whose tables are one layer per number of players in (K does
not matter on a paying table) and shared by every seat count: a 6-player layer takes
about a minute on a shared core (choices frozen where best replies cycle, epsilon
0.009). A 7-player one takes ten (epsilon 0.013), and with it the 7-seat duel went
14.05% against 14.48% without (docs/strategy.md). Beyond, the bots choose as the
heuristic does."""
TOLERANCE = 1e-10
"""Value iteration stops when no value moves by more than this (stakes or chance)."""
MAX_SWEEPS = 3_000
FREEZE_AFTER = 150
"""Sweeps after which choices stop changing, if best replies still go round."""
HYSTERESIS = 1e-6
"""A choice is revised only for a gain above this share of the prize (see `choose_buy`)."""
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


Plan = tuple[list[tuple[float, Go | End]], float, list[tuple[float, Edge]]]


def _plan(sigma: Sigma, edges: list[tuple[float, Edge]]) -> Plan:
    """A state's edges merged: (plain moves by target, chance to stay, the rest)."""
    plain: dict[Go | End, float] = {}
    stay = 0.0
    special: list[tuple[float, Edge]] = []
    for p, edge in edges:
        if edge == Go(sigma):
            stay += p
        elif isinstance(edge, Go | End):
            plain[edge] = plain.get(edge, 0.0) + p
        else:
            special.append((p, edge))
    return [(p, e) for e, p in plain.items()], stay, special


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
    """Values inside a turn that other layers read (see `TurnSweep.kept_for_above`)."""
    sweeps: int = 0
    residual: float = 0.0
    """The most any value moved in the last sweep."""
    epsilon: float = 0.0
    """The most a roller could gain by choosing otherwise at one decision (0: every
    choice is a best reply to the policy; above the hysteresis only where choices
    were frozen after FREEZE_AFTER sweeps because best replies went round in a cycle)."""


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


class Solver:
    """The layers of one model for a game of `seats`, solved on demand and kept
    (in memory, and on disk under `cache_dir`)."""

    def __init__(self, model: Model, seats: int, cache_dir: Path | None = None) -> None:
        self.model = model
        self.seats = seats
        self.top = model.top(seats)
        self.chain = turn_chain(model.for_fun, model.sixes_end_turn)
        self.layers: dict[tuple[int, int], Layer] = {}
        self.cache_dir = cache_dir
        self._ready = False

    def layer_keys(self) -> list[tuple[int, int]]:
        """(players, K) of every layer the game can reach, in solving order."""
        first = self.model.key(self.seats)
        ks = range(first, self.top + 1, 2) if self.model.money else [first]
        top_players = min(self.seats, exact_players(self.model.objective))
        return [(p, k) for k in sorted(ks, reverse=True) for p in range(2, top_players + 1)]

    def solve(self, progress: Callable[[int, int], None] | None = None) -> None:
        """Solve every layer of the game; progress(done, total) after each."""
        keys = self.layer_keys()
        for i, (players, k) in enumerate(keys):
            self.layer(players, k)
            if progress:
                progress(i + 1, len(keys))

    def clip(self, k: int) -> int:
        return min(k, self.top)

    def layer(self, players: int, k: int) -> Layer:
        key = (players, k)
        if key in self.layers:
            return self.layers[key]
        loaded = self._load(players, k)
        if loaded is None:
            below = self.layer(players - 1, k) if players > 2 else None
            above = None
            if self.model.money and k + 2 <= self.top:
                above = self.layer(players, k + 2)
            loaded = solve_layer(self.model, self.chain, players, k, below, above)
            self._save(loaded)
        self.layers[key] = loaded
        return loaded

    def ready(self) -> bool:
        """Whether every layer of the game is solved already (memory, cache or package):
        then a decision is a lookup. Bots never solve on the spot (see solver_bot.py)."""
        if not self._ready:
            self._ready = all(
                key in self.layers or any(p.exists() for p in self._paths(*key))
                for key in self.layer_keys()
            )
        return self._ready

    # disk cache, and the tables shipped in the package

    def _paths(self, players: int, k: int) -> list[Path]:
        """Where a layer may be: this game's name in the cache and in the package, then
        (win chances on a paying table, the same for every seat count) the cache's
        layers of other seat counts. Not the package's: they ship without the turn
        values that solving the layer above needs."""
        name = self.model.name(self.seats)
        paths = [SHIPPED / f"{name}-v{SHIPPED_VERSION}-{players}-{k}.npz"]
        if self.cache_dir is None:
            return paths
        paths.insert(0, self.cache_dir / f"{name}-{source_key()}-{players}-{k}.npz")
        if k == NO_POT:
            for seats in range(players, Toplshteyner.max_seats + 1):
                if seats != self.seats:
                    other = self.model.name(seats)
                    paths.append(self.cache_dir / f"{other}-{source_key()}-{players}-{k}.npz")
        return paths

    def _path(self, players: int, k: int) -> Path | None:
        return self._paths(players, k)[0] if self.cache_dir is not None else None

    def _save(self, layer: Layer) -> None:
        path = self._path(layer.players, layer.k)
        if path is not None:
            save_layer(layer, path)

    def _load(self, players: int, k: int) -> Layer | None:
        path = next((p for p in self._paths(players, k) if p.exists()), None)
        if path is None:
            return None
        try:
            with np.load(path) as data:
                meta = data["meta"]
                layer = Layer(players, k, data["values"], residual=meta[0], epsilon=meta[1])
                for name in data.files:
                    kind, _, rest = name.partition(":")
                    if kind in TABLES:
                        getattr(layer, kind)[_sigma_of(rest)] = data[name]
        except (OSError, ValueError, KeyError):
            return None  # a damaged cache file is solved again
        if layer.values.shape != (MAX_LIVES**players, players):
            return None
        return layer


TABLES = ("elect", "elect_ev", "buy", "buy_ev", "turn")


def save_layer(layer: Layer, path: Path) -> None:
    """Write a layer atomically (a compressed .npz); failures to write are ignored."""
    arrays: dict[str, Any] = {
        "values": layer.values,
        "meta": np.array([layer.residual, layer.epsilon]),
    }
    for kind in TABLES:
        for sigma, a in getattr(layer, kind).items():
            arrays[f"{kind}:{_sigma_name(sigma)}"] = a
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.stem}.{os.getpid()}.tmp.npz")
        np.savez_compressed(tmp, **arrays)
        os.replace(tmp, path)
    except OSError:
        return


def _sigma_name(s: Sigma) -> str:
    return "-".join(str(int(x)) for x in s)


def _sigma_of(name: str) -> Sigma:
    p, a, b, c, lives = (int(x) for x in name.split("-"))
    return (p, bool(a), bool(b), bool(c), lives)


# --- one layer --------------------------------------------------------------------


def solve_layer(
    model: Model,
    chain: Chain,
    players: int,
    k: int,
    below: Layer | None,
    above: Layer | None,
) -> Layer:
    """Value iteration over turns for every position of `players` players at K = k."""
    sweep = TurnSweep(model, chain, players, k, below, above)
    values = np.zeros((MAX_LIVES**players, players))
    values[:] = sweep.prize / players
    change = float("inf")
    for count in range(1, MAX_SWEEPS + 1):
        sweep.frozen = count > FREEZE_AFTER
        new = sweep.run(values)
        change = float(np.max(np.abs(new - values)))
        values = new
        if change < TOLERANCE * sweep.prize:
            break
    layer = Layer(players, k, values, sweeps=count, residual=change, epsilon=sweep.epsilon())
    layer.elect, layer.buy = sweep.elect, sweep.buy
    layer.elect_ev, layer.buy_ev = sweep.elect_ev, sweep.buy_ev
    layer.turn = sweep.kept
    return layer


class TurnSweep:
    """One turn for every position of a layer at once.

    Arrays inside the turn are indexed (others' lives index o, player j) with j = 0
    the roller and j = i the i-th player to the roller's left; o encodes the
    others' lives like `position_index`.
    """

    def __init__(
        self,
        model: Model,
        chain: Chain,
        players: int,
        k: int,
        below: Layer | None,
        above: Layer | None,
    ) -> None:
        self.model, self.chain, self.players, self.k = model, chain, players, k
        self.below, self.above = below, above
        self.prize = float(k) if model.money else 1.0
        n_others = players - 1
        self.others = all_positions(n_others)  # (O, players - 1)
        self.count = len(self.others)
        self.others_sum = self.others.sum(axis=1)
        o = np.arange(self.count)
        self.next_index = [o * MAX_LIVES + (r - 1) for r in range(1, MAX_LIVES + 1)]
        # electing the i-th other player: where the others' lives go, and whether
        # that player goes out (then the turn goes on one layer down)
        self.elect_same: list[NDArray[np.int64]] = []
        self.elect_out: list[NDArray[np.bool_]] = []
        self.elect_down: list[NDArray[np.int64]] = []
        for i in range(1, players):
            weight = MAX_LIVES ** (n_others - i)
            lives_i = self.others[:, i - 1]
            self.elect_out.append(lives_i == 1)
            self.elect_same.append(np.where(lives_i > 1, o - weight, 0))
            rest = np.delete(self.others, i - 1, axis=1)
            down = np.zeros(self.count, dtype=np.int64)
            for col in range(rest.shape[1]):
                down = down * MAX_LIVES + (rest[:, col] - 1)
            self.elect_down.append(down)
        self.elect: dict[Sigma, NDArray[np.int8]] = {}
        self.elect_ev: dict[Sigma, NDArray[np.float32]] = {}
        self.buy: dict[Sigma, NDArray[np.bool_]] = {}
        self.buy_ev: dict[Sigma, NDArray[np.float32]] = {}
        self.kept: dict[Sigma, Array] = {}
        self.hysteresis = HYSTERESIS * self.prize
        self.elected_now: dict[Sigma, Array] = {}
        self.frozen = False
        self.knocked: dict[tuple[Sigma, int], Array] = {}
        self.plans = {sigma: _plan(sigma, edges) for sigma, edges in chain.edges.items()}

    # values at a turn's end

    def end_values(self, values: Array) -> list[Array]:
        """Per roller's final lives (0-4): values in this turn's player order."""
        players = self.players
        out = []
        if players == 2:
            dead = np.zeros((self.count, 2))
            dead[:, 1] = self.prize
        else:
            assert self.below is not None
            below = self.below.values[np.arange(self.count)]  # the others, in order
            dead = np.concatenate([np.zeros((self.count, 1)), below], axis=1)
        out.append(dead)
        for r in range(1, MAX_LIVES + 1):
            nxt = values[self.next_index[r - 1]]
            out.append(np.concatenate([nxt[:, players - 1 :], nxt[:, : players - 1]], axis=1))
        return out

    def run(self, values: Array) -> Array:
        ends = self.end_values(values)
        w: dict[Sigma, Array] = {}
        self.elected_now = {}
        for group in self.chain.groups:
            if len(group) > 1:
                for sigma in group:
                    w[sigma] = np.zeros((self.count, self.players))
            for _ in range(200 if len(group) > 1 else 1):
                change = 0.0
                for sigma in group:
                    new = self.update(sigma, w, ends)
                    if len(group) > 1:
                        change = max(change, float(np.max(np.abs(new - w[sigma]))))
                    w[sigma] = new
                if len(group) == 1 or change < TOLERANCE * 1e-3:
                    break
        self.kept = {s: a for s, a in w.items() if self.kept_for_above(s)}
        return np.concatenate([w[start_sigma(r)] for r in range(1, MAX_LIVES + 1)], axis=0)

    def kept_for_above(self, sigma: Sigma) -> bool:
        """Turn values other layers read: after an election that leaves a player
        fewer (the layer of one more player) and after a bought life (K - 2)."""
        return (sigma[3] and self.players < 8) or (self.model.money and sigma[4] == MAX_LIVES)

    def value(self, target: Go | End, w: Mapping[Sigma, Array], ends: list[Array]) -> Array:
        if isinstance(target, End):
            return ends[target.lives]
        return w[target.to]

    def update(self, sigma: Sigma, w: Mapping[Sigma, Array], ends: list[Array]) -> Array:
        plain, stay_once, special = self.plans[sigma]
        stay: Array | float = stay_once
        acc = np.zeros((self.count, self.players))
        for p, move in plain:
            acc += p * (ends[move.lives] if isinstance(move, End) else w[move.to])
        choice: tuple[float, Array, Go | End] | None = None
        for p, edge in special:
            if isinstance(edge, Elect):
                if edge.to not in self.elected_now:
                    self.elected_now[edge.to] = self.elected(edge.to, w)
                acc += p * self.elected_now[edge.to]
            elif isinstance(edge, FromPot):
                given = self.value(edge.given, w, ends)
                full = (self.k - sigma[4] - self.others_sum > 0)[:, None]
                if edge.empty == Go(sigma):  # nothing happens: the state repeats
                    acc += p * np.where(full, given, 0.0)
                    stay = stay + p * (~full[:, 0])
                else:
                    acc += p * np.where(full, given, self.value(edge.empty, w, ends))
            elif isinstance(edge, Buy):
                bought = self.bought(edge.bought, w, ends)
                if edge.declined == Go(sigma):
                    choice = (p, bought, edge.declined)
                else:
                    declined = self.value(edge.declined, w, ends)
                    buys = self.choose_buy(sigma, bought[:, 0], declined[:, 0])
                    acc += p * np.where(buys[:, None], bought, declined)
        if choice is None:
            return acc / (1.0 - np.asarray(stay))[..., None] if np.ndim(stay) else acc / (1 - stay)
        # a declined life repeats the state: buy where the life beats declining for good
        p, bought, _ = choice
        never = acc / (1.0 - stay - p)
        buys = self.choose_buy(sigma, bought[:, 0], never[:, 0])
        return np.where(buys[:, None], (acc + p * bought) / (1.0 - stay), never)

    def bought(self, target: Go | End, w: Mapping[Sigma, Array], ends: list[Array]) -> Array:
        """Values after buying a fourth life: K + 2, and the buyer pays for it."""
        if not self.model.money:
            return self.value(target, w, ends)
        if self.above is None:  # the top layer: K held (see the module text)
            value = self.value(target, w, ends).copy()
        elif isinstance(target, End):
            above = self.above
            nxt = above.values[self.next_index[target.lives - 1]]
            value = np.concatenate([nxt[:, self.players - 1 :], nxt[:, : self.players - 1]], axis=1)
        else:
            value = self.above.turn[target.to].copy()
        value[:, 0] -= 2.0
        return value

    def epsilon(self) -> float:
        """The largest gain of a one-decision deviation from the recorded choices."""
        gain = 0.0
        for to, ev in self.elect_ev.items():
            chosen = np.take_along_axis(ev, self.elect[to].astype(np.int64)[:, None] - 1, 1)
            gain = max(gain, float(np.max(ev.max(axis=1) - chosen[:, 0])))
        for sigma, ev in self.buy_ev.items():
            chosen = np.where(self.buy[sigma], ev[:, 0], ev[:, 1])
            gain = max(gain, float(np.max(ev.max(axis=1) - chosen)))
        return gain

    def choose_buy(self, sigma: Sigma, bought: Array, declined: Array) -> NDArray[np.bool_]:
        """Buy where it is worth more; a choice made in the last sweep changes only
        for a gain above the hysteresis, so near-ties cannot make the sweeps cycle."""
        previous = self.buy.get(sigma)
        if previous is not None and self.frozen:
            buys = previous
        elif previous is None:
            buys = bought > declined
        else:
            margin = np.where(previous, -self.hysteresis, self.hysteresis)
            buys = bought > declined + margin
        self.buy[sigma] = buys
        self.buy_ev[sigma] = np.stack([bought, declined], axis=1).astype(np.float32)
        return buys

    def elected(self, to: Sigma, w: Mapping[Sigma, Array]) -> Array:
        """Values after the roller elects the player whose lost life suits it best
        (the same hysteresis as `choose_buy`)."""
        stacked = self.election_values(to, w)
        mine = stacked[:, :, 0]
        best = np.argmax(mine, axis=0)
        previous = self.elect.get(to)
        if previous is not None and self.frozen:
            best = previous.astype(np.int64) - 1
        elif previous is not None:
            rows = np.arange(self.count)
            keep = mine[best, rows] <= mine[previous.astype(np.int64) - 1, rows] + self.hysteresis
            best = np.where(keep, previous.astype(np.int64) - 1, best)
        self.elect[to] = (best + 1).astype(np.int8)
        self.elect_ev[to] = mine.T.astype(np.float32)
        chosen: Array = stacked[best, np.arange(self.count)]
        return chosen

    def election_values(self, to: Sigma, w: Mapping[Sigma, Array]) -> Array:
        """Every seat's values after each choice of whom to elect: (choice, O, player)."""
        after = w[to]
        options = []
        for i in range(1, self.players):
            value = after[self.elect_same[i - 1]]
            out = self.elect_out[i - 1]
            if out.any():
                value = np.where(out[:, None], self.knocked_out(to, i), value)
            options.append(value)
        return np.stack(options)

    def knocked_out(self, to: Sigma, i: int) -> Array:
        """The elected i-th player loses their last life: the turn goes on a player fewer."""
        key = (to, i)
        if key not in self.knocked:
            self.knocked[key] = self._knocked_out(to, i)
        return self.knocked[key]

    def _knocked_out(self, to: Sigma, i: int) -> Array:
        players = self.players
        if players == 2:
            value = np.zeros((self.count, 2))
            value[:, 0] = self.prize
            return value
        assert self.below is not None
        down = self.below.turn[to][self.elect_down[i - 1]]  # (O, players - 1)
        return np.insert(down, i, 0.0, axis=1)


# --- the tables a game needs ------------------------------------------------------


def cache_dir() -> Path | None:
    """Where solved layers are kept (the project's table cache; None when it is off)."""
    from dicehall.core import diskcache

    folder = diskcache.cache_dir()
    return None if folder is None else folder / "toplshteyner"


@cache
def source_key() -> str:
    """Tables are read only if they come from this module and these rules."""
    from dicehall.core import diskcache
    from dicehall.games.toplshteyner import rules

    return diskcache.source_key(__file__, rules.__file__)[:12]


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
    """K of the position in `view`: pot + lives of the players in (see the module text)."""
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


def exact_players(objective: str) -> int:
    """The most players in that the tables of an objective hold."""
    return WIN_EXACT_PLAYERS if objective == "win" else EXACT_PLAYERS


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
            "are not computed yet: python benchmarks/toplshteyner_solver.py solves them"
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
