"""The array passes over a `Tree` that CFR and best response are made of.

All of them take a *batch*: B instances of the same tree with their own leaf
values (B x labels) and their own policies (B x policy indices). A policy
holds, for each infoset and action, the chance of that action; the entries of
an infoset sum to one.

- `reach`: each seat's probability of reaching every node (B x nodes), and
  chance's (nodes).
- `values`: seat 0's expected value at every node under a policy.
- `best_response`: the values when one seat plays its best reply to the
  other's policy, chosen per infoset from the reach-weighted values of the
  nodes it cannot tell apart (the exact best response of a perfect-recall
  game, computed depth by depth from the leaves).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dicehall.strategy.tree import CHANCE, DECISION, LEAF, FloatArray, IntArray, Tree


@dataclass
class _Depth:
    nodes: slice
    """The nodes of this depth."""
    parents: IntArray
    """Each node's parent (absolute index)."""
    sa: IntArray
    """Each node's policy index, 0 where it is entered by chance."""
    seat_edge: list[FloatArray]
    """Per seat: 1.0 where the node is entered by that seat's decision."""
    chance: FloatArray
    internal: IntArray
    """The nodes of the depth above with children (absolute), in order."""
    starts: IntArray
    """Where each internal node's children start, relative to this depth."""
    decision_edge: FloatArray
    """1.0 where the edge into the node is a decision."""


class Passes:
    """Precomputed index arrays for fast passes over one tree."""

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        n = tree.n_nodes
        self.depths: list[_Depth] = []
        parent_player = np.where(tree.parent >= 0, tree.player[np.maximum(tree.parent, 0)], -1)
        for d in range(1, len(tree.depth_start) - 1):
            lo, hi = tree.depth_start[d], tree.depth_start[d + 1]
            if lo == hi:
                continue
            parents = tree.parent[lo:hi]
            internal, starts = np.unique(parents, return_index=True)
            pp = parent_player[lo:hi]
            self.depths.append(
                _Depth(
                    nodes=slice(lo, hi),
                    parents=parents,
                    sa=np.maximum(tree.sa[lo:hi], 0),
                    seat_edge=[(pp == s).astype(np.float64) for s in (0, 1)],
                    chance=tree.chance[lo:hi],
                    internal=internal,
                    starts=starts,
                    decision_edge=(tree.sa[lo:hi] >= 0).astype(np.float64),
                )
            )
        self.leaves = np.flatnonzero(tree.kind == LEAF)
        self.leaf_label = tree.node_leaf[self.leaves]
        # Chance's reach does not depend on any policy.
        self.chance_reach = np.ones(n)
        for dp in self.depths:
            self.chance_reach[dp.nodes] = self.chance_reach[dp.parents] * dp.chance
        # Decision edges grouped by policy index, per seat: for summing over an infoset.
        self.edges: list[IntArray] = []
        self.edge_starts: list[IntArray] = []
        self.edge_sa: list[IntArray] = []
        for s in (0, 1):
            edge_nodes = np.flatnonzero((tree.sa >= 0) & (parent_player == s))
            order = np.argsort(tree.sa[edge_nodes], kind="stable")
            edge_nodes = edge_nodes[order]
            sa_of = tree.sa[edge_nodes]
            uniq, starts = np.unique(sa_of, return_index=True)
            self.edges.append(edge_nodes)
            self.edge_starts.append(starts)
            self.edge_sa.append(uniq)
        self.sa_infoset = tree.sa_infoset()
        self.sa_player = tree.infoset_player[self.sa_infoset] if tree.n_sa else np.zeros(0, int)
        counts = np.diff(tree.infoset_sa)
        self.infoset_counts = counts
        self.max_actions = int(counts.max()) if len(counts) else 0
        # The representative node of each infoset (its first), for own-reach weights.
        rep = np.full(tree.n_infosets, -1, dtype=np.int64)
        dec = np.flatnonzero(tree.kind == DECISION)
        infs = tree.node_infoset[dec]
        first = np.unique(infs, return_index=True)[1]
        rep[infs[first]] = dec[first]
        self.infoset_rep = rep
        self.is_chance = tree.kind == CHANCE

    # --- the passes -----------------------------------------------------------------

    def reach(self, policy: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Each seat's reach probability of every node (B x nodes) under `policy`."""
        policy = _nonempty(policy)
        batch = policy.shape[0]
        r0 = np.ones((batch, self.tree.n_nodes))
        r1 = np.ones((batch, self.tree.n_nodes))
        for dp in self.depths:
            sigma = policy[:, dp.sa]
            r0[:, dp.nodes] = r0[:, dp.parents] * (1.0 + dp.seat_edge[0] * (sigma - 1.0))
            r1[:, dp.nodes] = r1[:, dp.parents] * (1.0 + dp.seat_edge[1] * (sigma - 1.0))
        return r0, r1

    def values(self, policy: FloatArray, leaf_values: FloatArray) -> FloatArray:
        """Seat 0's expected value at every node (B x nodes) when both seats follow `policy`."""
        policy = _nonempty(policy)
        batch = policy.shape[0]
        v = np.zeros((batch, self.tree.n_nodes))
        v[:, self.leaves] = leaf_values[:, self.leaf_label]
        for dp in reversed(self.depths):
            weight = np.where(dp.decision_edge > 0, policy[:, dp.sa], dp.chance)
            v[:, dp.internal] = np.add.reduceat(weight * v[:, dp.nodes], dp.starts, axis=1)
        return v

    def best_response(
        self, policy: FloatArray, leaf_values: FloatArray, seat: int
    ) -> tuple[FloatArray, FloatArray]:
        """Seat 0's values at every node when `seat` best-responds to `policy`.

        Returns the values and the best response as a (pure) policy over all
        infosets: `seat`'s entries are 0/1, the other seat's are `policy`'s.
        """
        tree = self.tree
        policy = _nonempty(policy)
        batch = policy.shape[0]
        r0, r1 = self.reach(policy)
        other = r1 if seat == 0 else r0
        opp = other * self.chance_reach  # what weighs the nodes of one infoset
        sign = 1.0 if seat == 0 else -1.0
        v = np.zeros((batch, tree.n_nodes))
        v[:, self.leaves] = leaf_values[:, self.leaf_label]
        br = policy.copy()
        for dp in reversed(self.depths):
            mine = dp.seat_edge[seat]
            sigma = policy[:, dp.sa]
            weight = np.where(dp.decision_edge > 0, sigma, dp.chance)
            child = v[:, dp.nodes]
            if mine.any():
                # q(I, a): the opponent-reach-weighted value of action a over infoset I.
                my_nodes = np.flatnonzero(mine)
                abs_nodes = my_nodes + dp.nodes.start
                sa_nodes = tree.sa[abs_nodes]
                q = sign * child[:, my_nodes] * opp[:, dp.parents[my_nodes]]
                order = np.argsort(sa_nodes, kind="stable")
                uniq, starts = np.unique(sa_nodes[order], return_index=True)
                q_sa = np.add.reduceat(q[:, order], starts, axis=1)
                choice = self._argmax_by_infoset(q_sa, uniq)
                br[:, uniq] = choice
                weight = np.where(mine > 0, br[:, dp.sa], weight)
            v[:, dp.internal] = np.add.reduceat(weight * child, dp.starts, axis=1)
        return v, br

    def _argmax_by_infoset(self, q_sa: FloatArray, sa: IntArray) -> FloatArray:
        """0/1 indicators of the best action per infoset (first among ties) for the given sa."""
        infos = self.sa_infoset[sa]
        pos = sa - self.tree.infoset_sa[infos]
        uniq_inf, slot = np.unique(infos, return_inverse=True)
        batch = q_sa.shape[0]
        pad = np.full((batch, len(uniq_inf), self.max_actions), -np.inf)
        pad[:, slot, pos] = q_sa
        best = np.argmax(pad, axis=2)  # B x infosets
        choice: FloatArray = (best[:, slot] == pos[None, :]).astype(np.float64)
        return choice

    def infoset_sums(self, per_sa: FloatArray) -> FloatArray:
        """Sum each infoset's entries, broadcast back to its policy indices."""
        if not self.tree.n_sa:
            return per_sa
        sums = np.add.reduceat(per_sa, self.tree.infoset_sa[:-1], axis=1)
        return sums[:, self.sa_infoset]

    def normalise(self, weights: FloatArray) -> FloatArray:
        """A policy from non-negative weights per action: uniform where an infoset has none."""
        totals = self.infoset_sums(weights)
        uniform = 1.0 / self.infoset_counts[self.sa_infoset]
        safe = np.where(totals > 0, totals, 1.0)
        policy: FloatArray = np.where(totals > 0, weights / safe, uniform)
        return policy


def _nonempty(policy: FloatArray) -> FloatArray:
    """A tree without decisions still indexes column 0 for its chance edges."""
    return policy if policy.shape[1] else np.ones((policy.shape[0], 1))


def exploitability(
    passes: Passes, policy: FloatArray, leaf_values: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per instance: (NashConv / 2, seat 0's best-response value, seat 1's best-response value).

    Both best-response values are seat 0's utility at the root; NashConv is
    their difference, for zero-sum and constant-sum games alike.
    """
    br0 = passes.best_response(policy, leaf_values, 0)[0][:, 0]
    br1 = passes.best_response(policy, leaf_values, 1)[0][:, 0]
    return (br0 - br1) / 2, br0, br1
