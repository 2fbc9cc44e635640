"""A table strategy for Kariki at three to ten seats: self-play CFR+ on the round game.

No equilibrium of the whole many-seat game is known, and a policy per score
would be as large as the score space (3,825 scores at three seats, 61,440 at
four). This module solves a smaller game exactly in its structure and
approximates only its stakes:

- **The round game.** Every seat is in, the round ends at its first berry,
  and each seat's cost is its chance of taking that berry (a Kariki gives it
  to the next player, K3). Scores, crowns and who begins the next round are
  left out, so the policy reads no score: one policy per number of seats in.
- **Subgames.** The round splits where a player rolls higher, exactly as in
  `model.py`: "the thrower throws to beat claim p", with the thrower as seat
  0 of the tree; a roll higher by seat y to beat claim c leads to the solved
  subgame c, turned round so that y is its thrower. The highest claim is
  solved first.
- **Positions.** In a subgame the thrower is seat 0 and the decider of an
  answer after j passes is seat j + 1 (mod the seats in), so a decision's
  key `(p, kind, claim, passes, rank)` (`model.infoset_key` with the claim
  to beat) names the decider's position too: one table serves every seat.
- **Self-play.** Every seat plays the same policy; each decision's regret is
  counted in the decider's own cost (simultaneous CFR+, linear averaging).
  With three or more players CFR+ is not proven to reach an equilibrium; the
  exact best response of `best_response.py` measures how far the result is
  from one (docs/researchers/kariki.md).

The answers this gives weigh each claim by the posterior its claimant's
policy implies, since that policy is learnt in the same self-play, which is
what the heuristic's fixed prior did not do.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

import numpy as np

from dicehall.core import Game
from dicehall.games.kariki.rules import DOUBLE_SIXES
from dicehall.games.kariki.solver.best_response import SubgameTree, build_subgame
from dicehall.strategy.tree import LEAF, FloatArray, IntArray, Tree

DISCOUNT = 0.98
"""How much the next round's cost counts against this round's berry."""
SWEEPS = 20
"""Solves of the round game, each with the next round's cost from the one before."""

TableKey = tuple[int, int, int, int, int]
"""(claim to beat p, kind, claim, passes, rank): a decision of the round game at k seats in."""


@dataclass
class _Depth:
    nodes: slice
    parents: IntArray
    sa: IntArray
    mover: IntArray
    """The real seat whose decision enters each node; -1 for a chance edge."""
    chance: FloatArray
    internal: IntArray
    starts: IntArray


class RoundPasses:
    """Passes over one subgame tree for k seats that each count their own cost."""

    def __init__(self, tree: Tree, seats: int) -> None:
        self.tree = tree
        self.k = seats
        seat_of_infoset = np.array(
            [int(key[0]) for key in tree.infoset_keys if isinstance(key, tuple)] or [0],
            dtype=np.int64,
        )
        node_seat = np.where(
            tree.node_infoset >= 0, seat_of_infoset[np.maximum(tree.node_infoset, 0)], -1
        )
        self.depths: list[_Depth] = []
        for d in range(1, len(tree.depth_start) - 1):
            lo, hi = tree.depth_start[d], tree.depth_start[d + 1]
            if lo == hi:
                continue
            parents = tree.parent[lo:hi]
            internal, starts = np.unique(parents, return_index=True)
            decision = tree.sa[lo:hi] >= 0
            self.depths.append(
                _Depth(
                    nodes=slice(lo, hi),
                    parents=parents,
                    sa=np.maximum(tree.sa[lo:hi], 0),
                    mover=np.where(decision, node_seat[parents], -1),
                    chance=tree.chance[lo:hi],
                    internal=internal,
                    starts=starts,
                )
            )
        self.leaves = np.flatnonzero(tree.kind == LEAF)
        self.leaf_label = tree.node_leaf[self.leaves]
        self.sa_infoset = tree.sa_infoset()
        self.sa_seat = seat_of_infoset[self.sa_infoset] if tree.n_sa else np.zeros(0, np.int64)

    def run(
        self, policy: FloatArray, leaf_costs: FloatArray
    ) -> tuple[FloatArray, FloatArray, FloatArray]:
        """(costs k x nodes, each action's counterfactual cost summed over its infoset, the
        own reach of each action's infoset) under `policy` (every seat playing it)."""
        tree, k = self.tree, self.k
        n = tree.n_nodes
        reach = np.ones((k, n))
        chance = np.ones(n)
        for dp in self.depths:
            sigma = np.where(dp.mover >= 0, policy[dp.sa], 1.0)
            reach[:, dp.nodes] = reach[:, dp.parents]
            moved = np.flatnonzero(dp.mover >= 0)
            cols = moved + dp.nodes.start
            reach[dp.mover[moved], cols] *= sigma[moved]
            chance[dp.nodes] = chance[dp.parents] * np.where(dp.mover >= 0, 1.0, dp.chance)
        cost = np.zeros((k, n))
        cost[:, self.leaves] = leaf_costs[:, self.leaf_label]
        cf = np.zeros(tree.n_sa)
        own = np.zeros(tree.n_sa)
        for dp in reversed(self.depths):
            weight = np.where(dp.mover >= 0, policy[dp.sa], dp.chance)
            child = cost[:, dp.nodes]
            moved = np.flatnonzero(dp.mover >= 0)
            if len(moved):
                movers = dp.mover[moved]
                parents = dp.parents[moved]
                others = chance[parents].copy()
                for t in range(k):
                    others *= np.where(movers == t, 1.0, reach[t, parents])
                np.add.at(cf, dp.sa[moved], others * child[movers, moved])
                np.add.at(own, dp.sa[moved], reach[movers, parents])
            cost[:, dp.internal] = np.add.reduceat(weight * child, dp.starts, axis=1)
        return cost, cf, own


def _normalise(tree: Tree, weights: FloatArray) -> FloatArray:
    sums = np.add.reduceat(weights, tree.infoset_sa[:-1])[tree.sa_infoset()]
    counts = np.diff(tree.infoset_sa)[tree.sa_infoset()]
    return np.where(sums > 0, weights / np.where(sums > 0, sums, 1.0), 1.0 / counts)


@dataclass
class RoundSolution:
    seats: int
    policy: dict[TableKey, tuple[float, ...]]
    """Every decision's chances, in the order of the legal actions."""
    costs: dict[int, FloatArray]
    """Per claim to beat p: each seat's chance of the round's berry, the thrower seat 0."""


def solve_round(
    game: Game,
    iterations: int,
    discount: float = DISCOUNT,
    sweeps: int = SWEEPS,
    tick: Callable[[int], None] | None = None,
) -> RoundSolution:
    """Self-play CFR+ on the round game of `game.seats` seats, all in (module docstring).

    A round's end costs its berry plus `discount` times the next round's cost
    as seen from where its beginner sits; that next-round cost is the last
    sweep's fresh-roll cost (the first sweep counts the berry alone), so
    `sweeps` sweeps look that many rounds ahead. Only the last sweep's policy
    is kept: the sweeps before it run a third of the iterations.
    """
    k = game.seats
    ins = (True,) * k
    trees = {p: build_subgame(game, ins, (0, p, -1)) for p in range(DOUBLE_SIXES, -2, -1)}
    ahead = np.zeros(k)
    solution = RoundSolution(k, {}, {})
    for sweep in range(sweeps):
        last = sweep == sweeps - 1
        solution = _sweep(
            trees, k, iterations if last else max(1, iterations // 3), discount * ahead, tick
        )
        ahead = solution.costs[-1]
    return solution


def _sweep(
    trees: dict[int, SubgameTree],
    k: int,
    iterations: int,
    ahead: FloatArray,
    tick: Callable[[int], None] | None,
) -> RoundSolution:
    costs: dict[int, FloatArray] = {}
    policy: dict[TableKey, tuple[float, ...]] = {}
    for p, st in trees.items():
        tree = st.tree
        leaf_costs = np.zeros((k, len(tree.leaf_labels)))
        for j, label in enumerate(tree.leaf_labels):
            leaf_costs[:, j] = _leaf_cost(label, k, costs, ahead)
        passes = RoundPasses(tree, k)
        if tree.n_sa == 0:
            costs[p] = passes.run(np.ones(1), leaf_costs)[0][:, 0]
            continue
        regret = np.zeros(tree.n_sa)
        average = np.zeros(tree.n_sa)
        current = _normalise(tree, np.ones(tree.n_sa))
        for t in range(1, iterations + 1):
            _, cf, own = passes.run(current, leaf_costs)
            # cf is a cost: an action's regret is how much less it costs than the mix.
            base = np.add.reduceat(current * cf, tree.infoset_sa[:-1])[passes.sa_infoset]
            regret = np.maximum(regret + base - cf, 0.0)
            average += t * own * current
            current = _normalise(tree, regret)
        final = _normalise(tree, average)
        costs[p] = passes.run(final, leaf_costs)[0][:, 0]
        for i, key in enumerate(tree.infoset_keys):
            assert isinstance(key, tuple)
            lo, hi = int(tree.infoset_sa[i]), int(tree.infoset_sa[i + 1])
            tkey = (p, *(int(x) for x in key[1:]))
            assert tkey not in policy, f"two decisions share the key {tkey}"
            policy[tkey] = tuple(float(x) for x in final[lo:hi])  # type: ignore[index]
        if tick is not None:
            tick(p)
    return RoundSolution(k, policy, costs)


def _leaf_cost(
    label: Hashable, k: int, costs: dict[int, FloatArray], ahead: FloatArray
) -> FloatArray:
    """Each seat's cost at a leaf: a round's end (its berry, and the next round's cost
    from where its beginner sits), or a roll higher (the solved subgame's cost)."""
    assert isinstance(label, tuple)
    if label[0] == "end":
        how, seat, beginner = label[1], int(label[2]), int(label[3])
        out = np.roll(ahead, beginner)
        out[(seat + 1) % k if how == "kariki" else seat] += 1.0
        return out
    roller, claim = int(label[1]), int(label[2])
    return np.roll(costs[claim], roller)
