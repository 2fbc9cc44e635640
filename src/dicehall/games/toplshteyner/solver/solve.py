"""Solving the Toplshteyner model (`model.py`) exactly: value iteration over turns, layer by layer.

A layer's values are solved by value iteration over turns, each sweep playing
one whole turn for every position at once (NumPy arrays indexed by the other
players' lives). Within a sweep the turn's chain is solved exactly: its
strongly connected groups (a point swapped between 2 and 6 by 4-4 and 3-3; a
declined life, which repeats) in reverse topological order, self-loops summed
in closed form. The elected player losing their last life mid-turn leaves the
roller throwing in the layer of one player fewer, already solved; a bought
life leaves it in the layer of K + 2, solved before (layers go from the top K
down).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from dicehall.games.toplshteyner.rules import MAX_LIVES
from dicehall.games.toplshteyner.solver.model import (
    Array,
    Buy,
    Chain,
    Edge,
    Elect,
    End,
    FromPot,
    Go,
    Layer,
    Model,
    Sigma,
    all_positions,
    start_sigma,
    turn_chain,
)
from dicehall.games.toplshteyner.solver.stored import layer_paths, load_layer, save_layer

EXACT_PLAYERS = 5
"""Positions with at most this many players in are solved for money ..."""
WIN_EXACT_PLAYERS = 6
"""... and for the win, whose tables are one layer per number of players in (K does
not matter on a paying table) and shared by every seat count: a 6-player layer takes
about a minute on a shared core (choices frozen where best replies cycle, epsilon
0.009). A 7-player one takes ten (epsilon 0.013), and with it the 7-seat duel went
14.05% against 14.48% without (docs/researchers/toplshteyner.md). Beyond, the bots choose as the
heuristic does."""
TOLERANCE = 1e-10
"""Value iteration stops when no value moves by more than this (stakes or chance)."""
MAX_SWEEPS = 3_000
FREEZE_AFTER = 150
"""Sweeps after which choices stop changing, if best replies still go round."""
HYSTERESIS = 1e-6
"""A choice is revised only for a gain above this share of the prize (see `choose_buy`)."""


def exact_players(objective: str) -> int:
    """The most players in that the tables of an objective hold."""
    return WIN_EXACT_PLAYERS if objective == "win" else EXACT_PLAYERS


# --- the layers of a game -----------------------------------------------------------


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
        then a decision is a lookup. Bots never solve on the spot (see bot.py)."""
        if not self._ready:
            self._ready = all(
                key in self.layers or any(p.exists() for p in self._paths(*key))
                for key in self.layer_keys()
            )
        return self._ready

    # disk cache, and the tables shipped in the package (stored.py)

    def _paths(self, players: int, k: int) -> list[Path]:
        """Where a layer may be, first found first read (`stored.layer_paths`)."""
        return layer_paths(self.model, self.seats, players, k, self.cache_dir)

    def _path(self, players: int, k: int) -> Path | None:
        return self._paths(players, k)[0] if self.cache_dir is not None else None

    def _save(self, layer: Layer) -> None:
        path = self._path(layer.players, layer.k)
        if path is not None:
            save_layer(layer, path)

    def _load(self, players: int, k: int) -> Layer | None:
        path = next((p for p in self._paths(players, k) if p.exists()), None)
        return None if path is None else load_layer(path, players, k)


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
        if self.above is None:  # the top layer: K held (see model.py)
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
