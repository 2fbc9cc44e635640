"""CFR+ on a batch of trees: regret matching+, alternating updates, linear averaging.

Each iteration updates one seat, then the other (alternating updates), each
from one reach pass and one value pass over the whole tree as arrays
(`passes.py`): no Python call per history. Regrets are clipped at zero
(regret matching+) and the average strategy weighs iteration t by t, the
CFR+ scheme of Tammelin (2014), which on small games converges far faster
than the 1/sqrt(T) bound of vanilla CFR.

The batch solves many instances of one tree at once, each with its own leaf
values (the rounds of a game from many different scores, say). Exploitability
is measured exactly on the average strategy every `check_every` iterations;
`target` stops as soon as every instance is below it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from dicehall.strategy.passes import Passes, exploitability
from dicehall.strategy.tree import FloatArray, Tree

Progress = Callable[[int, float | None], None]
"""Called after each iteration with the iteration count and, when measured, the exploitability."""


@dataclass
class Solution:
    """What a CFR+ run returns: the average strategy and how far from an equilibrium it is."""

    policy: FloatArray
    """The average strategy, B x policy indices."""
    iterations: int
    exploitability: FloatArray
    """Per instance, NashConv / 2 of `policy`, in the leaf values' unit."""
    value: FloatArray
    """Per instance, seat 0's value at the root of the average strategy."""
    seconds: float
    history: list[tuple[int, float]] = field(default_factory=list)
    """(iteration, the largest exploitability over the batch) at every check."""


class CFRPlus:
    """The state of a CFR+ run: cumulative regrets and the average strategy."""

    def __init__(self, tree: Tree, leaf_values: FloatArray, passes: Passes | None = None) -> None:
        if leaf_values.ndim != 2 or leaf_values.shape[1] != len(tree.leaf_labels):
            raise ValueError(
                f"leaf values must be (instances x {len(tree.leaf_labels)}); "
                f"got {leaf_values.shape}"
            )
        self.tree = tree
        self.passes = passes or Passes(tree)
        self.leaf_values = leaf_values
        batch = leaf_values.shape[0]
        self.regret = np.zeros((batch, tree.n_sa))
        self.average = np.zeros((batch, tree.n_sa))
        self.policy = tree.uniform_policy(batch)
        self.iterations = 0
        p = self.passes
        self.seat_sa = [np.flatnonzero(p.sa_player == s) for s in (0, 1)]
        self.seat_rep = [p.infoset_rep[p.sa_infoset[sa]] for sa in self.seat_sa]

    def iterate(self, count: int = 1) -> None:
        p = self.passes
        for _ in range(count):
            self.iterations += 1
            t = float(self.iterations)
            for seat in (0, 1):
                r0, r1 = p.reach(self.policy)
                v = p.values(self.policy, self.leaf_values)
                own, other = (r0, r1) if seat == 0 else (r1, r0)
                edges = p.edges[seat]
                if not len(edges):
                    continue
                parents = self.tree.parent[edges]
                sign = 1.0 if seat == 0 else -1.0
                weight = other[:, parents] * p.chance_reach[parents]
                gain = sign * weight * (v[:, edges] - v[:, parents])
                regret = np.add.reduceat(gain, p.edge_starts[seat], axis=1)
                sa = p.edge_sa[seat]
                self.regret[:, sa] = np.maximum(self.regret[:, sa] + regret, 0.0)
                mine = self.seat_sa[seat]
                self.average[:, mine] += t * own[:, self.seat_rep[seat]] * self.policy[:, mine]
                fresh = p.normalise(self.regret)
                self.policy[:, mine] = fresh[:, mine]

    def average_policy(self) -> FloatArray:
        """The average strategy; where a seat's own play never reaches an infoset, the current one.

        Such an infoset has no average (its own reach is zero), but its
        regrets, weighed by the others' reach, still learn the best reply
        there: a seat that finds itself off its path (a table of other bots,
        advice after a human's odd move) still plays well.
        """
        policy = self.passes.normalise(self.average)
        unreached = self.passes.infoset_sums(self.average) <= 0
        return np.where(unreached, self.passes.normalise(self.regret), policy)

    def exploitability(self) -> FloatArray:
        return exploitability(self.passes, self.average_policy(), self.leaf_values)[0]


def solve(
    tree: Tree,
    leaf_values: FloatArray,
    iterations: int | None = None,
    target: float | None = None,
    check_every: int = 50,
    max_iterations: int = 100_000,
    progress: Progress | None = None,
    passes: Passes | None = None,
) -> Solution:
    """Run CFR+ for `iterations`, or until every instance's exploitability is below `target`."""
    if iterations is None and target is None:
        raise ValueError("give iterations or a target exploitability")
    start = time.perf_counter()
    run = CFRPlus(tree, leaf_values, passes)
    limit = iterations if iterations is not None else max_iterations
    history: list[tuple[int, float]] = []
    eps = None
    while run.iterations < limit:
        step = min(check_every, limit - run.iterations)
        run.iterate(step)
        eps = run.exploitability()
        worst = float(eps.max()) if len(eps) else 0.0
        history.append((run.iterations, worst))
        if progress is not None:
            progress(run.iterations, worst)
        if target is not None and worst <= target:
            break
    policy = run.average_policy()
    if eps is None:
        eps = run.exploitability()
    value = run.passes.values(policy, leaf_values)[:, 0]
    return Solution(policy, run.iterations, eps, value, time.perf_counter() - start, history)
