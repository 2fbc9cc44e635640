"""Two-seat Kariki solved with the strategy engine, and the exact exploitability of any policy.

`solve` runs CFR+ on every subgame of `model.RoundModel`, scores closest to
the end first and, inside a round, the highest claim to beat first, so every
leaf's value is known when its subgame is solved. `exploitability` composes
the two exact best responses the same way. Values are seat 0's chance of
winning the game; the game's start is a roll-off, so the start's value is the
mean over who rolls first.

A policy here is one array per subgame (thrower, claim to beat): scores x
(infoset, action) in the subgame tree's order, plus the emergency-berry rule
(K9), which the solver always takes: staying in never lowers a chance of
winning. A solution is written to a strategy file and read back by `stored.py`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from dicehall.cluster import Local, Runner
from dicehall.core import Game
from dicehall.core.bots import BotFactory
from dicehall.games.kariki.rules import KarikiState
from dicehall.games.kariki.solver.model import (
    CLAIMS,
    N_P,
    ZERO,
    EndLabel,
    RoundModel,
    settle,
)
from dicehall.strategy.cfr import solve as cfr_solve
from dicehall.strategy.passes import Passes
from dicehall.strategy.tree import FloatArray

Subgame = tuple[int, int]
Policies = dict[Subgame, FloatArray]
Buys = Callable[[KarikiState, int], bool | None]
Tick = Callable[[Subgame, int, float | None], None]
"""Progress: the subgame solved, the iterations it took, the largest exploitability in it."""
Steps = Callable[[list[tuple[Subgame, np.ndarray, FloatArray]]], list[FloatArray]]
"""Subgames' values from (subgame, scores, leaf values) jobs, any number at once."""


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
        return self.run_pairs(lambda jobs: [step(*job) for job in jobs], buys)

    def run_pairs(self, steps: Steps, buys: Buys) -> FloatArray:
        """`run`, handing `steps` both throwers' subgames of one claim at once: neither
        leads into the other (rolling higher raises the claim), so they may run side by side."""
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
            for p in reversed(CLAIMS):
                jobs = [
                    (key, level, self._leaf(key, level, values, ends)) for key in ((0, p), (1, p))
                ]
                for (key, _, _), value in zip(jobs, steps(jobs), strict=True):
                    values[level, key[0], key[1] + 1] = value
        return values

    def _leaf(
        self, key: Subgame, level: np.ndarray, values: FloatArray, ends: dict[EndLabel, np.ndarray]
    ) -> FloatArray:
        leaf = np.empty((len(level), len(self.labels[key])))
        for j, label in enumerate(self.labels[key]):
            assert isinstance(label, tuple)
            if label[0] == "roll":
                leaf[:, j] = values[level, label[1], label[2] + 1]
            else:
                leaf[:, j] = ends[label[1:]]
        return leaf


_BACKWARDS: dict[tuple[tuple[str, object], ...], Backward] = {}
"""Each process's models by the game's options: built once (trees, ends), however many
chunks of a solve it runs."""


def backward_of(game: Game, model: RoundModel | None = None) -> Backward:
    """The (cached) backward induction of a two-seat game's options; `model` if it is new."""
    key = tuple(sorted(game.options.items()))
    if key not in _BACKWARDS:
        if len(_BACKWARDS) >= 4:
            _BACKWARDS.pop(next(iter(_BACKWARDS)))
        _BACKWARDS[key] = Backward(model or RoundModel(game))
    return _BACKWARDS[key]


SCORE_CHUNK = 45
"""Scores per CFR+ chunk: a default level is one chunk (as large a batch as the arrays like),
larger levels (high_rollers) split. Chunks stop separately at a target exploitability."""


@dataclass(frozen=True)
class CFRChunk:
    """One CFR+ batch: a subgame at some scores, with their leaf values."""

    game: Game
    subgame: Subgame
    leaf: FloatArray
    iterations: int | None
    target: float | None


@dataclass
class CFRChunkResult:
    policy: FloatArray
    value: FloatArray
    iterations: int
    exploitability: float


def solve_chunk(chunk: CFRChunk) -> CFRChunkResult:
    """CFR+ on one chunk, wherever it runs (the process's cached trees)."""
    backward = backward_of(chunk.game)
    tree = backward.model.trees[chunk.subgame]
    solution = cfr_solve(
        tree,
        chunk.leaf,
        iterations=chunk.iterations,
        target=chunk.target,
        passes=backward.passes[chunk.subgame],
    )
    worst = float(solution.exploitability.max())
    return CFRChunkResult(solution.policy, solution.value, solution.iterations, worst)


def solve(
    model: RoundModel,
    iterations: int | None = None,
    target: float | None = None,
    tick: Tick | None = None,
    runner: Runner | None = None,
) -> Solved:
    """CFR+ on every subgame: a fixed number of iterations, or to `target` per subgame.

    The batches are chunks of SCORE_CHUNK scores, run by `runner` (here, or on
    Ray: `dicehall.cluster`) two subgames at a time; the same chunks either way,
    so the same strategy.
    """
    start = time.perf_counter()
    backward = backward_of(model.game, model)
    run = runner or Local()
    policies: Policies = {
        key: np.zeros((backward.n, tree.n_sa)) for key, tree in model.trees.items()
    }
    most: dict[Subgame, int] = {}

    def steps(jobs: list[tuple[Subgame, np.ndarray, FloatArray]]) -> list[FloatArray]:
        values = []
        chunks: list[CFRChunk] = []
        parts: list[tuple[int, slice]] = []
        for j, (key, level, leaf) in enumerate(jobs):
            if model.trees[key].n_sa == 0:  # no decision: nothing to solve
                values.append(backward.passes[key].values(np.zeros((len(level), 0)), leaf)[:, 0])
                continue
            values.append(np.empty(len(level)))
            for lo in range(0, len(level), SCORE_CHUNK):
                part = slice(lo, lo + SCORE_CHUNK)
                chunks.append(CFRChunk(model.game, key, leaf[part], iterations, target))
                parts.append((j, part))
        worst: dict[Subgame, float] = {}
        for (j, part), result in zip(parts, run.map(solve_chunk, chunks), strict=True):
            key, level, _ = jobs[j]
            policies[key][level[part]] = result.policy
            values[j][part] = result.value
            most[key] = max(most.get(key, 0), result.iterations)
            worst[key] = max(worst.get(key, 0.0), result.exploitability)
        if tick is not None:
            for key, _, _ in jobs:
                if key in worst:
                    tick(key, most[key], worst[key])
        return values

    values = backward.run_pairs(steps, lambda state, seat: True)
    return Solved(policies, values, most, time.perf_counter() - start)


@dataclass
class Exploitability:
    exploitability: float
    """NashConv / 2 from the start, in win probability."""
    best_response: tuple[float, float]
    """Seat 0's winning chance when seat 0, then seat 1, best-responds."""
    seconds: float


@dataclass(frozen=True)
class BestResponse:
    """One seat's exact best response to a policy: a chunk of `exploitability`.

    `bot` answers the emergency-berry questions of the other seat (K9), a fresh
    copy per chunk; None buys always, the solver's rule.
    """

    game: Game
    policies: Policies
    bot: BotFactory | None
    seat: int


def best_response(chunk: BestResponse) -> float:
    """Seat 0's chance of winning from the start when `chunk.seat` best-responds."""
    seat = chunk.seat
    backward = backward_of(chunk.game)
    buys = _buyer(chunk.game, chunk.bot)

    def step(key: Subgame, level: np.ndarray, leaf: FloatArray) -> FloatArray:
        policy = chunk.policies[key][level]
        return backward.passes[key].best_response(policy, leaf, seat)[0][:, 0]

    def seat_buys(state: KarikiState, who: int) -> bool | None:
        return None if who == seat else buys(state, who)

    values = backward.run(step, seat_buys)
    return start_value(values, backward.model.scores.index[ZERO])


def _buyer(game: Game, bot: BotFactory | None) -> Buys:
    if bot is None:
        return lambda state, seat: True
    bots = [bot(game, seat, random.Random(seat)) for seat in (0, 1)]

    def buys(state: KarikiState, seat: int) -> bool:
        choice = bots[seat].choose(state.view(seat), state.legal_actions(seat))
        return bool(choice["type"] == "emergency")

    return buys


def exploitability(
    model: RoundModel,
    policies: Policies,
    bot: BotFactory | None = None,
    on_seat: Callable[[int], None] | None = None,
    runner: Runner | None = None,
) -> Exploitability:
    """The exact exploitability of a policy over the whole two-seat game.

    `bot` makes the emergency-berry choices the policy's seat faces (None:
    always buy). The two best responses are chunks `runner` may run side by side.
    """
    start = time.perf_counter()
    backward_of(model.game, model)
    chunks = [BestResponse(model.game, policies, bot, seat) for seat in (0, 1)]
    br = []
    for chunk, value in zip(chunks, (runner or Local()).map(best_response, chunks), strict=True):
        br.append(value)
        if on_seat is not None:
            on_seat(chunk.seat)
    return Exploitability((br[0] - br[1]) / 2, (br[0], br[1]), time.perf_counter() - start)


@dataclass(frozen=True)
class BotPolicy:
    """A bot asked at every information state of one subgame: a chunk of `bot_policies`."""

    game: Game
    bot: BotFactory
    subgame: Subgame


def bot_policy(chunk: BotPolicy) -> FloatArray:
    """The chunk's subgame policy (scores x policy indices), from fresh copies of the bot."""
    game = chunk.game
    backward = backward_of(game)
    model = backward.model
    tree = model.trees[chunk.subgame]
    passes = backward.passes[chunk.subgame]
    bots = [chunk.bot(game, seat, random.Random(seat)) for seat in (0, 1)]
    policy = np.zeros((len(model.scores), tree.n_sa))
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
    return policy


def bot_policies(
    model: RoundModel,
    factory: BotFactory,
    on_subgame: Callable[[Subgame], None] | None = None,
    runner: Runner | None = None,
) -> Policies:
    """A bot's policy at every information state, asked through its seat's view.

    Bots that say how likely each action is (a `policy(view, legal)` method)
    are taken at their word; others are asked for one choice, taken as
    certain. Each decision is put to the bot with no pull shown before it in
    the round, the only history a subgame has, at every score. Each subgame is
    a chunk with its own fresh bots (seeded by seat), so `runner` may ask them
    side by side and the answers are the same.
    """
    backward_of(model.game, model)
    chunks = [BotPolicy(model.game, factory, key) for key in model.trees]
    policies: Policies = {}
    for chunk, policy in zip(chunks, (runner or Local()).map(bot_policy, chunks), strict=True):
        policies[chunk.subgame] = policy
        if on_subgame is not None:
            on_subgame(chunk.subgame)
    return policies


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
