"""A game tree as flat NumPy arrays, built through the core API.

`build_tree` walks a game from a root `State` with nothing but the core's
methods (`is_chance`, `chance_outcomes`, `actors`, `legal_actions`, `apply`,
`clone`), so it works for any two-seat game without a simultaneous choice.
Three callbacks make it useful on games too large to enumerate whole:

- `leaf(state)` cuts the walk: it returns a label for a state that ends the
  tree (the game over, or the root of a subgame solved elsewhere), or None
  to go on. The values of the labels are supplied later, as a matrix with
  one row per *instance*: many games with the same tree and different leaf
  values (one round of a game from many scores) are solved in one batch.
- `infoset(state, seat)` names the information state of the seat to act.
  Nodes with the same name must offer the same actions and lie at the same
  depth (true of every game with perfect recall whose turns do not skip).
- `merge(state)` (optional) names the state after a throw: outcomes of one
  throw with the same name are one child, their chances summed (two throws
  of the same rank, say, where only the rank matters).

Nodes are numbered breadth first, so each depth is a contiguous range and
the children of a node are contiguous and in the order of their parents:
every pass over the tree is a handful of array operations per depth.
Values everywhere are seat 0's utility; seat 1's is a constant minus it
(zero-sum, or constant-sum like a win probability).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from dicehall.core import Action, State

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

CHANCE, DECISION, LEAF = 0, 1, 2

LeafFn = Callable[[State], Hashable | None]
InfosetFn = Callable[[State, int], Hashable]
MergeFn = Callable[[State], Hashable]


class TreeError(ValueError):
    """The game cannot be laid out as a tree this engine solves; says why."""


@dataclass
class Tree:
    """The tree of one game (or subgame), nodes breadth first."""

    kind: IntArray
    """CHANCE, DECISION or LEAF, per node."""
    player: IntArray
    """The seat to act at a decision node; -1 elsewhere."""
    parent: IntArray
    """The parent node; -1 for the root."""
    chance: FloatArray
    """The chance of the edge into this node (1 for the root and for decision edges)."""
    sa: IntArray
    """For a node entered by a decision: the index of (infoset, action) in a policy; else -1."""
    first_child: IntArray
    """Index of the first child (children are contiguous); -1 at a leaf."""
    n_children: IntArray
    node_infoset: IntArray
    """The information state of a decision node; -1 elsewhere."""
    node_leaf: IntArray
    """The label index of a leaf; -1 elsewhere."""
    depth_start: list[int]
    """Nodes of depth d are node_start[d] .. node_start[d + 1] - 1."""
    infoset_keys: list[Hashable]
    infoset_player: IntArray
    infoset_actions: list[tuple[Action, ...]]
    infoset_sa: IntArray
    """The first policy index of each infoset; its actions follow contiguously."""
    leaf_labels: list[Hashable]
    states: list[State] = field(default_factory=list)
    """The state at each node (kept when asked, for evaluating bots and for advice)."""

    @property
    def n_nodes(self) -> int:
        return len(self.kind)

    @property
    def n_sa(self) -> int:
        return int(self.infoset_sa[-1]) if len(self.infoset_sa) else 0

    @property
    def n_infosets(self) -> int:
        return len(self.infoset_keys)

    def infoset_index(self) -> dict[Hashable, int]:
        return {key: i for i, key in enumerate(self.infoset_keys)}

    def sa_infoset(self) -> IntArray:
        """The infoset of every policy index."""
        counts = np.diff(self.infoset_sa)
        return np.repeat(np.arange(self.n_infosets), counts)

    def leaf_values(self, value: Callable[[Hashable], float]) -> FloatArray:
        """One instance's leaf values (shape 1 x labels) from a function of the label."""
        return np.array([[value(label) for label in self.leaf_labels]], dtype=np.float64)

    def uniform_policy(self, batch: int = 1) -> FloatArray:
        """Every action of every infoset equally likely."""
        counts = np.diff(self.infoset_sa)
        row = np.repeat(1.0 / np.maximum(counts, 1), counts)
        return np.tile(row, (batch, 1))


def build_tree(
    root: State,
    leaf: LeafFn,
    infoset: InfosetFn,
    merge: MergeFn | None = None,
    keep_states: bool = False,
    max_nodes: int = 5_000_000,
) -> Tree:
    """Lay out the tree below `root` (see the module docstring for the callbacks)."""
    kind: list[int] = []
    player: list[int] = []
    parent: list[int] = []
    chance: list[float] = []
    sa: list[int] = []
    first_child: list[int] = []
    n_children: list[int] = []
    node_infoset: list[int] = []
    node_leaf: list[int] = []
    depth_start = [0]
    infoset_ids: dict[Hashable, int] = {}
    infoset_keys: list[Hashable] = []
    infoset_player: list[int] = []
    infoset_actions: list[tuple[Action, ...]] = []
    infoset_sa = [0]
    infoset_depth: list[int] = []
    leaf_ids: dict[Hashable, int] = {}
    leaf_labels: list[Hashable] = []
    states: list[State] = []

    # One entry per node of the current depth: (state, parent, chance, sa).
    level: list[tuple[State, int, float, int]] = [(root.clone(), -1, 1.0, -1)]
    depth = 0
    while level:
        nxt: list[tuple[State, int, float, int]] = []
        for state, par, p, edge in level:
            index = len(kind)
            if index >= max_nodes:
                raise TreeError(f"the tree has more than {max_nodes} nodes")
            parent.append(par)
            chance.append(p)
            sa.append(edge)
            if keep_states:
                states.append(state)
            label = leaf(state)
            if label is None and state.is_over():
                raise TreeError("a finished game reached the tree without a leaf label")
            if label is not None:
                node_leaf.append(leaf_ids.setdefault(label, len(leaf_ids)))
                if node_leaf[-1] == len(leaf_labels):
                    leaf_labels.append(label)
                kind.append(LEAF)
                player.append(-1)
                node_infoset.append(-1)
                first_child.append(-1)
                n_children.append(0)
                continue
            node_leaf.append(-1)
            first_child.append(len(level) + len(nxt) + depth_start[-1])
            if state.is_chance():
                kind.append(CHANCE)
                player.append(-1)
                node_infoset.append(-1)
                children = _chance_children(state, merge)
                for child, q in children:
                    nxt.append((child, index, q, -1))
                n_children.append(len(children))
                continue
            actors = state.actors()
            if len(actors) != 1 or actors[0] not in (0, 1):
                raise TreeError(f"only two seats acting one at a time are supported; {actors}")
            seat = actors[0]
            legal = tuple(state.legal_actions(seat))
            key = infoset(state, seat)
            i = infoset_ids.get(key)
            if i is None:
                i = infoset_ids[key] = len(infoset_keys)
                infoset_keys.append(key)
                infoset_player.append(seat)
                infoset_actions.append(legal)
                infoset_sa.append(infoset_sa[-1] + len(legal))
                infoset_depth.append(depth)
            elif infoset_actions[i] != legal or infoset_player[i] != seat:
                raise TreeError(f"infoset {key!r} is reached with different actions or seats")
            elif infoset_depth[i] != depth:
                raise TreeError(f"infoset {key!r} is reached at different depths")
            kind.append(DECISION)
            player.append(seat)
            node_infoset.append(i)
            for a, action in enumerate(legal):
                child = state.clone()
                child.apply(seat, action)
                nxt.append((child, index, 1.0, infoset_sa[i] + a))
            n_children.append(len(legal))
        depth_start.append(len(kind))
        level = nxt
        depth += 1

    def ints(values: Sequence[int]) -> IntArray:
        return np.array(values, dtype=np.int64)

    return Tree(
        kind=ints(kind),
        player=ints(player),
        parent=ints(parent),
        chance=np.array(chance, dtype=np.float64),
        sa=ints(sa),
        first_child=ints(first_child),
        n_children=ints(n_children),
        node_infoset=ints(node_infoset),
        node_leaf=ints(node_leaf),
        depth_start=depth_start,
        infoset_keys=infoset_keys,
        infoset_player=ints(infoset_player),
        infoset_actions=infoset_actions,
        infoset_sa=ints(infoset_sa),
        leaf_labels=leaf_labels,
        states=states,
    )


def _chance_children(state: State, merge: MergeFn | None) -> list[tuple[State, float]]:
    children: list[tuple[State, float]] = []
    merged: dict[Hashable, int] = {}
    for faces, p in state.chance_outcomes():
        child = state.clone()
        child.apply_chance(faces)
        if merge is None:
            children.append((child, float(p)))
            continue
        key = merge(child)
        at = merged.get(key)
        if at is None:
            merged[key] = len(children)
            children.append((child, float(p)))
        else:
            children[at] = (children[at][0], children[at][1] + float(p))
    return children


def view_key(state: State, seat: int) -> Any:
    """The default information state: the seat's view, which for most games is all it knows."""
    import json

    return json.dumps(state.view(seat), sort_keys=True)
