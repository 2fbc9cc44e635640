"""The table strategy with three or four seats in, per score: self-play CFR+ round by round,
backwards.

The round-game policy of `table_solve.py` reads no score, and costs each
round by its berry plus a discounted guess at the rounds after it. A best
response that reads the score beats it by about five points at three seats
(docs/researchers/kariki.md): near the end the stakes of a berry differ from
seat to seat, and the memoryless policy cannot follow them. This module
solves the game of k seats in (three or four) per score instead:

- **Scores.** The berries of the k seats in, 0-4 each (125 or 625 scores),
  read from the thrower in the direction of play; crowns are left out (a
  third crown's berries are not modelled), so the policy stays 5**k rows.
- **Backwards.** Every round gives a berry, so the scores are solved from
  the most berries down. A round's end leads to the next score with its
  beginner (its solved value, turned round to that beginner's frame), or,
  when a seat takes its fifth berry, to the k - 1 seats left, valued by the
  game one seat smaller (`Lower`): the scored solution of three seats in
  below four, the solved two-seat strategy's value table (`stored.py`) below
  three.
- **Inside a score,** the subgames split where a player rolls higher, as in
  `table_solve.py`; a roll higher by seat y leads to the same berries seen
  from y. Each decision's regret counts in the decider's own chance of
  losing the game (simultaneous CFR+, linear averaging), so the stakes are
  the game's, not a round's.

With three players CFR+ is not proven to reach an equilibrium; the exact best
response of `best_response.py` measures the result (benchmarks/results/kariki_tables.md).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

import numpy as np

from dicehall.core import Game
from dicehall.games.kariki.rules import DOUBLE_SIXES
from dicehall.games.kariki.solver.best_response import build_subgame
from dicehall.games.kariki.solver.model import Score
from dicehall.games.kariki.solver.table_solve import RoundPasses, TableKey
from dicehall.games.kariki.solver.table_stored import BERRIES, n_scores, score_index
from dicehall.strategy.tree import FloatArray, Tree

Berries = tuple[int, ...]
"""The berries of the seats in, from the thrower in the direction of play."""
Lower = Callable[[Berries], FloatArray]
"""The berries of the seats left after one goes out, from the next round's beginner in the
direction of play -> each one's chance of winning, in that order."""


def _scores(k: int) -> list[Berries]:
    """Every score of k seats in, in the order of their rows (`score_index`)."""
    return [tuple(int(b) for b in row) for row in np.ndindex(*(BERRIES,) * k)]


def _turn(berries: Berries, seat: int) -> Berries:
    """The same berries seen from `seat` (its own first)."""
    return berries[seat:] + berries[:seat]


@dataclass
class ScoredSolution:
    seats: int
    """The number of seats in solved for."""
    keys: list[TableKey]
    """Every decision's key, in the order of `starts`."""
    starts: list[int]
    """Where each decision's chances start in a row of `chances` (one more than the keys)."""
    chances: FloatArray
    """(5**seats, actions): per score row (`score_index`), every decision's chances."""
    values: dict[Berries, FloatArray]
    """Per score, each seat's chance of winning at a fresh roll, the thrower seat 0."""


def two_seat_values(game: Game) -> Lower:
    """The solved two-seat strategy's value at a fresh roll, crowns at zero."""
    from dicehall.games.kariki.solver.stored import strategy_for

    strategy = strategy_for(game)
    used = (False, False)

    def value(berries: Berries) -> FloatArray:
        first, other = berries
        i = strategy.scores.index[Score((first, other), (0, 0), used)]
        win = float(strategy.values[i, 0, 0])
        return np.array([win, 1.0 - win])

    return value


def scored_values(solution: ScoredSolution) -> Lower:
    """A scored solution's values at a fresh roll: the game below one seat more."""
    return lambda berries: solution.values[berries]


def solve_scored(
    game: Game,
    iterations: int,
    lower: Lower,
    tick: Callable[[int], None] | None = None,
) -> ScoredSolution:
    """Self-play CFR+ at every score of `game.seats` seats in, backwards (module docstring);
    `game` has the options solved for, and `lower` values the game one seat smaller."""
    k = game.seats
    ins = (True,) * k
    claims = list(range(DOUBLE_SIXES, -2, -1))
    trees = {p: build_subgame(game, ins, (0, p, -1)).tree for p in claims}
    passes = {p: BatchPasses(trees[p], k) for p in claims}
    offsets: dict[int, int] = {}
    keys: list[TableKey] = []
    starts = [0]
    for p in claims:
        tree = trees[p]
        offsets[p] = starts[-1]
        for i, key in enumerate(tree.infoset_keys):
            assert isinstance(key, tuple)
            keys.append((p, *(int(x) for x in key[1:])))  # type: ignore[arg-type]
            starts.append(starts[-1] + int(tree.infoset_sa[i + 1] - tree.infoset_sa[i]))
    chances = np.zeros((n_scores(k), starts[-1]))
    # cost[(berries, p)]: each seat's chance of losing, the thrower seat 0.
    cost: dict[tuple[Berries, int], FloatArray] = {}
    by_level: dict[int, list[Berries]] = {}
    for s in _scores(k):
        by_level.setdefault(sum(s), []).append(s)
    for level in sorted(by_level, reverse=True):
        level_scores = by_level[level]
        for p in claims:
            tree = trees[p]
            leaf = np.zeros((len(level_scores), k, len(tree.leaf_labels)))
            for b, s in enumerate(level_scores):
                for j, label in enumerate(tree.leaf_labels):
                    leaf[b, :, j] = _leaf_cost(label, s, cost, lower)
            if tree.n_sa == 0:
                out = passes[p].run(np.ones((len(level_scores), 1)), leaf)
            else:
                final = _cfr(passes[p], leaf, iterations)
                out = passes[p].run(final, leaf)
                lo = offsets[p]
                rows = [score_index(s) for s in level_scores]
                chances[rows, lo : lo + tree.n_sa] = final
            for b, s in enumerate(level_scores):
                cost[s, p] = out[b]
        if tick is not None:
            tick(level)
    values = {s: 1.0 - cost[s, -1] for s in _scores(k)}
    return ScoredSolution(k, keys, starts, chances, values)


def _cfr(passes: BatchPasses, leaf: FloatArray, iterations: int) -> FloatArray:
    """Simultaneous CFR+ with linear averaging, every score of a batch at once."""
    tree = passes.tree
    batch = len(leaf)
    starts = tree.infoset_sa[:-1]
    regret = np.zeros((batch, tree.n_sa))
    average = np.zeros((batch, tree.n_sa))
    current = _normalise_rows(tree, np.ones((batch, tree.n_sa)))
    for t in range(1, iterations + 1):
        cf, own = passes.regrets(current, leaf)
        base = np.add.reduceat(current * cf, starts, axis=1)[:, passes.sa_infoset]
        regret = np.maximum(regret + base - cf, 0.0)
        average += t * own * current
        current = _normalise_rows(tree, regret)
    return _normalise_rows(tree, average)


def _normalise_rows(tree: Tree, weights: FloatArray) -> FloatArray:
    owner = tree.sa_infoset()
    sums = np.add.reduceat(weights, tree.infoset_sa[:-1], axis=1)[:, owner]
    counts = np.diff(tree.infoset_sa)[owner]
    return np.where(sums > 0, weights / np.where(sums > 0, sums, 1.0), 1.0 / counts)


class BatchPasses(RoundPasses):
    """`RoundPasses` over a batch of scores at once: one policy and one set of leaf costs
    per score, on the same tree (the scores of a level share their subgames' trees)."""

    def run(  # type: ignore[override]
        self, policy: FloatArray, leaf_costs: FloatArray
    ) -> FloatArray:
        """Each seat's cost at the root, per score: (batch, k)."""
        return self._passes(policy, leaf_costs, False)[0][:, :, 0]

    def regrets(self, policy: FloatArray, leaf_costs: FloatArray) -> tuple[FloatArray, FloatArray]:
        """(each action's counterfactual cost summed over its infoset, the own reach of each
        action's infoset), per score."""
        _, cf, own = self._passes(policy, leaf_costs, True)
        return cf, own

    def _passes(
        self, policy: FloatArray, leaf_costs: FloatArray, counterfactual: bool
    ) -> tuple[FloatArray, FloatArray, FloatArray]:
        tree, k = self.tree, self.k
        batch, n = len(policy), tree.n_nodes
        reach = np.ones((batch, k, n))
        chance = np.ones(n)
        for dp in self.depths:
            reach[:, :, dp.nodes] = reach[:, :, dp.parents]
            moved = np.flatnonzero(dp.mover >= 0)
            cols = moved + dp.nodes.start
            reach[:, dp.mover[moved], cols] *= policy[:, dp.sa[moved]]
            chance[dp.nodes] = chance[dp.parents] * np.where(dp.mover >= 0, 1.0, dp.chance)
        cost = np.zeros((batch, k, n))
        cost[:, :, self.leaves] = leaf_costs[:, :, self.leaf_label]
        cf = np.zeros((batch, tree.n_sa))
        own = np.zeros((batch, tree.n_sa))
        for dp in reversed(self.depths):
            weight = np.where(dp.mover >= 0, policy[:, dp.sa], dp.chance)
            child = cost[:, :, dp.nodes]
            moved = np.flatnonzero(dp.mover >= 0)
            if counterfactual and len(moved):
                movers = dp.mover[moved]
                parents = dp.parents[moved]
                others = np.broadcast_to(chance[parents], (batch, len(moved))).copy()
                for t in range(k):
                    others *= np.where(movers == t, 1.0, reach[:, t, parents])
                np.add.at(cf.T, dp.sa[moved], (others * child[:, movers, moved]).T)
                np.add.at(own.T, dp.sa[moved], reach[:, movers, parents].T)
            cost[:, :, dp.internal] = np.add.reduceat(weight[:, None, :] * child, dp.starts, axis=2)
        return cost, cf, own


def _leaf_cost(
    label: Hashable,
    berries: Berries,
    cost: dict[tuple[Berries, int], FloatArray],
    lower: Lower,
) -> FloatArray:
    """Each seat's chance of losing the game at a leaf, the subgame's thrower seat 0."""
    assert isinstance(label, tuple)
    k = len(berries)
    if label[0] == "roll":
        roller, claim = int(label[1]), int(label[2])
        return np.roll(cost[_turn(berries, roller), claim], roller)
    how, seat, beginner = label[1], int(label[2]), int(label[3])
    victim = (seat + 1) % k if how == "kariki" else seat
    after = list(berries)
    after[victim] += 1
    if after[victim] < BERRIES:
        new = tuple(after)
        return np.roll(cost[_turn(new, beginner), -1], beginner)
    out = np.ones(k)
    first = beginner if beginner != victim else (beginner + 1) % k
    left = [s for s in ((first + i) % k for i in range(k)) if s != victim]
    out[left] = 1.0 - lower(tuple(after[s] for s in left))
    return out
