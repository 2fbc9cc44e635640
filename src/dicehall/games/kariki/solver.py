"""Two-seat Kariki solved with the strategy engine, and the exact exploitability of any policy.

`solve` runs CFR+ on every subgame of `rounds.RoundModel`, scores closest to
the end first and, inside a round, the highest claim to beat first, so every
leaf's value is known when its subgame is solved. `exploitability` composes
the two exact best responses the same way. Values are seat 0's chance of
winning the game; the game's start is a roll-off, so the start's value is the
mean over who rolls first.

A policy here is one array per subgame (thrower, claim to beat): scores x
(infoset, action) in the subgame tree's order, plus the emergency-berry rule
(K9), which the solver always takes: staying in never lowers a chance of
winning.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from dicehall.core.bots import BotFactory
from dicehall.games.kariki.rounds import (
    CLAIMS,
    N_P,
    ZERO,
    InfosetKey,
    RoundModel,
    Scores,
    settle,
    solved_options,
)
from dicehall.games.kariki.rules import KarikiState
from dicehall.strategy.cfr import solve as cfr_solve
from dicehall.strategy.passes import Passes
from dicehall.strategy.strategy_file import StrategyFile
from dicehall.strategy.tree import FloatArray

Subgame = tuple[int, int]
Policies = dict[Subgame, FloatArray]
Buys = Callable[[KarikiState, int], bool | None]
Tick = Callable[[Subgame, int, float | None], None]
"""Progress: the subgame solved, the iterations it took, the largest exploitability in it."""


@dataclass
class Solved:
    policies: Policies
    values: FloatArray
    """Seat 0's value of every subgame at every score: scores x thrower x (p + 1)."""
    iterations: dict[Subgame, int] = field(default_factory=dict)
    """The most CFR+ iterations any batch of a subgame took."""
    seconds: float = 0.0

    @property
    def start_value(self) -> float:
        return start_value(self.values, 0)


def start_value(values: FloatArray, score: int) -> float:
    """Seat 0's chance of winning from a fresh game: the roll-off picks either seat (C5)."""
    return float(values[score, 0, 0] + values[score, 1, 0]) / 2


class Backward:
    """The backward induction shared by solving and best responses."""

    def __init__(self, model: RoundModel) -> None:
        self.model = model
        self.passes = {key: Passes(tree) for key, tree in model.trees.items()}
        n = len(model.scores)
        self.labels = {key: tree.leaf_labels for key, tree in model.trees.items()}
        self.n = n

    def run(
        self, step: Callable[[Subgame, np.ndarray, FloatArray], FloatArray], buys: Buys
    ) -> FloatArray:
        """Fill the value table: step(subgame, scores, leaf values) gives the subgames' values."""
        values = np.full((self.n, 2, N_P), np.nan)
        for level in self.model.scores.levels():
            ends = {
                label: np.array(
                    [
                        settle(self.model.ends[label][s], self.model.scores, values[:, :, 0], buys)
                        for s in level
                    ]
                )
                for label in self.model.end_labels
            }
            for key in self.model.subgames():
                leaf = np.empty((len(level), len(self.labels[key])))
                for j, label in enumerate(self.labels[key]):
                    assert isinstance(label, tuple)
                    if label[0] == "roll":
                        leaf[:, j] = values[level, label[1], label[2] + 1]
                    else:
                        leaf[:, j] = ends[label[1:]]
                values[level, key[0], key[1] + 1] = step(key, level, leaf)
        return values


def solve(
    model: RoundModel,
    iterations: int | None = None,
    target: float | None = None,
    tick: Tick | None = None,
) -> Solved:
    """CFR+ on every subgame: a fixed number of iterations, or to `target` per subgame."""
    start = time.perf_counter()
    backward = Backward(model)
    policies: Policies = {
        key: np.zeros((backward.n, tree.n_sa)) for key, tree in model.trees.items()
    }
    most: dict[Subgame, int] = {}

    def step(key: Subgame, level: np.ndarray, leaf: FloatArray) -> FloatArray:
        tree = model.trees[key]
        if tree.n_sa == 0:
            return backward.passes[key].values(np.zeros((len(level), 0)), leaf)[:, 0]
        solution = cfr_solve(
            tree, leaf, iterations=iterations, target=target, passes=backward.passes[key]
        )
        policies[key][level] = solution.policy
        most[key] = max(most.get(key, 0), solution.iterations)
        if tick is not None:
            tick(key, solution.iterations, float(solution.exploitability.max()))
        return solution.value

    values = backward.run(step, lambda state, seat: True)
    return Solved(policies, values, most, time.perf_counter() - start)


@dataclass
class Exploitability:
    exploitability: float
    """NashConv / 2 from the start, in win probability."""
    best_response: tuple[float, float]
    """Seat 0's winning chance when seat 0, then seat 1, best-responds."""
    seconds: float


def exploitability(
    model: RoundModel, policies: Policies, buys: Buys, tick: Tick | None = None
) -> Exploitability:
    """The exact exploitability of a policy over the whole two-seat game."""
    start = time.perf_counter()
    backward = Backward(model)
    br = []
    for seat in (0, 1):

        def step(key: Subgame, level: np.ndarray, leaf: FloatArray, seat: int = seat) -> FloatArray:
            policy = policies[key][level]
            values = backward.passes[key].best_response(policy, leaf, seat)[0][:, 0]
            if tick is not None:
                tick(key, 0, None)
            return values

        def seat_buys(state: KarikiState, who: int, seat: int = seat) -> bool | None:
            return None if who == seat else buys(state, who)

        values = backward.run(step, seat_buys)
        br.append(start_value(values, model.scores.index[ZERO]))
    return Exploitability((br[0] - br[1]) / 2, (br[0], br[1]), time.perf_counter() - start)


def bot_policies(model: RoundModel, factory: BotFactory) -> tuple[Policies, Buys]:
    """A bot's policy at every information state, asked through its seat's view.

    Bots that say how likely each action is (a `policy(view, legal)` method)
    are taken at their word; others are asked for one choice, taken as
    certain. Each decision is put to the bot with no pull shown before it in
    the round, the only history a subgame has, at every score.
    """
    game = model.game
    bots = [factory(game, seat, random.Random(seat)) for seat in (0, 1)]
    policies: Policies = {}
    for key, tree in model.trees.items():
        policy = np.zeros((len(model.scores), tree.n_sa))
        passes = Passes(tree)
        for i in range(tree.n_infosets):
            node = int(passes.infoset_rep[i])
            seat = int(tree.infoset_player[i])
            legal = tree.infoset_actions[i]
            first = int(tree.infoset_sa[i])
            base = tree.states[node]
            assert isinstance(base, KarikiState)
            for s, score in enumerate(model.scores.all):
                state = base.clone()
                state.berries = list(score.berries)
                state.crowns = list(score.crowns)
                state.emergency_used = list(score.used)
                policy[s, first : first + len(legal)] = action_chances(
                    bots[seat], state.view(seat), legal
                )
        policies[key] = policy

    def buys(state: KarikiState, seat: int) -> bool:
        choice = bots[seat].choose(state.view(seat), state.legal_actions(seat))
        return bool(choice["type"] == "emergency")

    return policies, buys


def action_chances(
    bot: object, view: Mapping[str, object], legal: tuple[Mapping[str, object], ...]
) -> np.ndarray:
    """The chance of each legal action: the bot's `policy` if it has one, else its choice."""
    policy = getattr(bot, "policy", None)
    if policy is not None:
        return np.asarray(policy(view, legal), dtype=np.float64)
    chosen = bot.choose(view, legal)  # type: ignore[attr-defined]
    return np.array([1.0 if a == chosen else 0.0 for a in legal])


def subgame_count() -> int:
    return 2 * len(CLAIMS)


# --- strategy files -------------------------------------------------------------------

QUANTUM = 65535
"""Action chances are stored as 16-bit fractions of this, then renormalised on loading."""


def to_file(model: RoundModel, solved: Solved, meta: Mapping[str, object]) -> StrategyFile:
    """A strategy file of a solution: per subgame its infoset keys, their policy indices and
    the chances (16-bit), plus the value table."""
    arrays: dict[str, np.ndarray] = {"values": solved.values.astype(np.float32)}
    for (thrower, p), tree in model.trees.items():
        name = f"{thrower}_{p + 1}"
        arrays[f"keys_{name}"] = np.array(tree.infoset_keys, dtype=np.int8).reshape(-1, 4)
        arrays[f"sa_{name}"] = tree.infoset_sa.astype(np.int16)
        arrays[f"policy_{name}"] = np.rint(solved.policies[thrower, p] * QUANTUM).astype(np.uint16)
    return StrategyFile("kariki", 2, solved_options(model.game), arrays, dict(meta))


@dataclass
class Strategy:
    """A loaded two-seat strategy: chances by (subgame, infoset key) at every score.

    The 16-bit chances stay as stored until asked for: a decision normalises
    one infoset's few entries, and `policies` (for best responses and advice)
    converts the whole table once.
    """

    file: StrategyFile
    scores: Scores
    values: FloatArray
    infosets: dict[Subgame, dict[InfosetKey, int]]
    starts: dict[Subgame, np.ndarray]

    @classmethod
    def of_file(cls, file: StrategyFile) -> Strategy:
        scores = Scores(bool(file.options["high_rollers"]))
        infosets: dict[Subgame, dict[InfosetKey, int]] = {}
        starts: dict[Subgame, np.ndarray] = {}
        for thrower in (0, 1):
            for p in CLAIMS:
                name = f"{thrower}_{p + 1}"
                keys = file.arrays[f"keys_{name}"].tolist()
                infosets[thrower, p] = {tuple(k): i for i, k in enumerate(keys)}
                starts[thrower, p] = file.arrays[f"sa_{name}"].astype(np.int64)
        return cls(file, scores, file.arrays["values"].astype(np.float64), infosets, starts)

    def raw(self, subgame: Subgame) -> np.ndarray:
        return self.file.arrays[f"policy_{subgame[0]}_{subgame[1] + 1}"]

    @cached_property
    def policies(self) -> Policies:
        """Every subgame's chances as floats, each infoset summing to one."""
        out: Policies = {}
        for subgame, sa in self.starts.items():
            raw = self.raw(subgame).astype(np.float64)
            counts = np.diff(sa)
            if not len(counts):
                out[subgame] = raw
                continue
            owner = np.repeat(np.arange(len(counts)), counts)
            out[subgame] = raw / np.add.reduceat(raw, sa[:-1], axis=1)[:, owner]
        return out

    def chances(self, score: int, subgame: Subgame, key: InfosetKey) -> np.ndarray:
        """The chance of each legal action, in the order of `legal_actions`."""
        i = self.infosets[subgame][key]
        sa = self.starts[subgame]
        entries = self.raw(subgame)[score, sa[i] : sa[i + 1]].astype(np.float64)
        chances: np.ndarray = entries / entries.sum()
        return chances
