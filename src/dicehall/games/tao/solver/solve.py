"""Two-seat Tao Dice solved: CFR+ on every betting round, the match's values iterated.

The betting rounds of `model.py` are too big for a tree of histories (two
hidden 2d6, rerolls, 144 pairs of d12s: about 10^8 histories), so they are
solved in *vector form* on the public tree: every array holds, for each
position of a batch, each public history and each private hand, one
number (a reach, a counterfactual value, a regret). A stage is six public
decision nodes; stage two is one copy per stage-one ending and d12 pair.
The algorithm is the engine's CFR+ (`dicehall.strategy.cfr`): regret
matching+, alternating updates, the average weighted by iteration, and the
exact best response is the same backward pass with a max at the best
responder's nodes.

Round ends are worth the value of the position they lead to (O's chance of
winning the match). Stones move both ways, so the values cannot be solved
backwards: `solve` runs CFR+ on every round given the current values, then
computes the values of the strategies found exactly (a linear system over
all positions: the match is a Markov chain once the rounds' strategies are
fixed), and repeats until the values move by less than `tolerance`. Best
responses are iterated the same way (policy iteration: the best round
replies given values, their exact values, again until nothing changes).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np

from dicehall.games.tao.solver.model import (
    CHILD,
    FOLD_WINNER,
    N_ENDS,
    N_GO_ON,
    N_NODES,
    N_SLOTS,
    NODE_PLAYER,
    Array,
    Dice,
    O,
    Paths,
    Positions,
    paths,
    rerolls,
)

DTYPE = np.float32
"""The passes run in single precision (halving time and memory); values are solved in double."""
CHUNK = 16
"""Positions per batch: stage two alone is 9 x 144 x 6 x 11 x 3 numbers per position."""
Tick = Callable[[int, int], None]
"""Progress: (done, total) positions of one pass."""


@dataclass
class Policy:
    """A two-seat strategy: every betting node's chances, and the antes.

    Node-major: stage1 is 6 nodes x 3 slots x positions x hands; stage2 is
    6 x 3 x positions x 9 stage-one ends x 144 d12 pairs x hands, a pair
    being (O's d12 - 1) * 12 + X's d12 - 1. ante_o: pre-ante positions x O's
    white stones k; ante_x: pre x k x X's white stones j.
    """

    stage1: Array
    stage2: Array
    ante_o: Array
    ante_x: Array

    def chunk(self, lo: int, hi: int) -> tuple[Array, Array]:
        return (
            self.stage1[:, :, lo:hi].astype(np.float64),
            self.stage2[:, :, lo:hi].astype(np.float64),
        )


class Model:
    """Positions, paths and showdown tables of one set of dice, and the passes over them."""

    def __init__(self, dice: Dice | None = None) -> None:
        self.dice = dice or Dice()
        self.positions = Positions(self.dice)
        self.paths: Paths = paths(self.positions)
        self.q = self.dice.hand_chances
        self.h = self.dice.hands
        self.pairs = self.dice.twelve**2
        win, tie = self.dice.showdown
        # Per stage-two end: win and tie matrices (pairs x hO x hX).
        self.win = np.stack(
            [win[rerolls(e)].reshape(self.pairs, self.h, self.h) for e in range(N_GO_ON)]
        )
        self.tie = np.stack(
            [tie[rerolls(e)].reshape(self.pairs, self.h, self.h) for e in range(N_GO_ON)]
        )
        self.ante_post, self.ante_legal = self.positions.antes()
        # For O's values, X's hands are summed out (r @ W^T); for X's, O's (r @ W).
        self.against_o = np.concatenate(
            [self.win.transpose(0, 1, 3, 2), self.tie.transpose(0, 1, 3, 2)], axis=-1
        ).astype(DTYPE)
        self.against_x = np.concatenate([self.win, self.tie], axis=-1).astype(DTYPE)

    def __len__(self) -> int:
        return len(self.positions)

    def chunks(self) -> Iterator[tuple[int, int]]:
        n = len(self)
        for lo in range(0, n, CHUNK):
            yield lo, min(n, lo + CHUNK)

    # --- one chunk of positions --------------------------------------------------------

    def masks(self, lo: int, hi: int) -> tuple[Array, Array]:
        """Node-major: 6 x 3 x n x 1 (stage one) and 6 x 3 x n x 9 x 1 x 1 (stage two)."""
        m1 = self.paths.stage1_masks[lo:hi].transpose(1, 2, 0)[..., None]
        m2 = self.paths.stage2_masks[lo:hi].transpose(2, 3, 0, 1)[..., None, None]
        return np.ascontiguousarray(m1), np.ascontiguousarray(m2)

    def shapes(self, lo: int, hi: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        n = hi - lo
        return (
            (N_NODES, N_SLOTS, n, self.h),
            (N_NODES, N_SLOTS, n, N_GO_ON, self.pairs, self.h),
        )

    def uniform(self, lo: int, hi: int) -> tuple[Array, Array]:
        m1, m2 = self.masks(lo, hi)
        shape1, shape2 = self.shapes(lo, hi)
        s1 = np.broadcast_to(m1 / m1.sum(1, keepdims=True), shape1)
        s2 = np.broadcast_to(m2 / m2.sum(1, keepdims=True), shape2)
        return s1.copy(), s2.copy()

    def leaf_values(self, ext: Array, lo: int, hi: int) -> dict[str, Array]:
        return {
            "fold1": ext[self.paths.fold1[lo:hi]],  # n x 13
            "fold2": ext[self.paths.fold2[lo:hi]],  # n x 9 x 13
            "show": ext[self.paths.show[lo:hi]],  # n x 9 x 9 x 3
        }

    def stage_two_roots(
        self, ends_o: list[Array], ends_x: list[Array], q: Array
    ) -> tuple[Array, Array]:
        """Each player's reach at the start of stage two (n x 9 x 1 x hands), rerolls made."""
        ro, rx = [], []
        for e in range(N_GO_ON):
            fo, fx = rerolls(e)
            a, b = ends_o[e], ends_x[e]
            ro.append(a.sum(-1, keepdims=True) * q if fo else a)
            rx.append(b.sum(-1, keepdims=True) * q if fx else b)
        return np.stack(ro, axis=1)[:, :, None, :], np.stack(rx, axis=1)[:, :, None, :]

    def showdown_cfv(self, player: int, opp: Array, e: int, values: Array) -> Array:
        """The counterfactual values of `player` at a showdown end of stage two.

        opp: the other's reach, n x 9 x pairs x hands; values: n x 9 x 3 (O wins, X wins, tie).
        """
        h = self.h
        n, p, d, _ = opp.shape
        # pairs x (n p) x hands, times pairs x hands x (win | tie): one batched product.
        flat = np.ascontiguousarray(opp.transpose(2, 0, 1, 3)).reshape(d, n * p, h)
        both = flat @ (self.against_o[e] if player == O else self.against_x[e])
        both = both.reshape(d, n, p, 2 * h).transpose(1, 2, 0, 3)
        w, t = both[..., :h], both[..., h:]
        total = opp.sum(-1, keepdims=True)
        vo, vx, vt = (values[:, :, None, None, i] for i in range(3))
        # O's value: vo if O wins, vx if X wins, vt if tied; lose = total - w - t.
        u: Array = vx * total + (vo - vx) * w + (vt - vx) * t
        return u if player == O else -u


def forward(
    sigma: Array, ro: Array, rx: Array
) -> tuple[list[Array], list[Array], list[Array], list[Array]]:
    """Each player's reach at every node and end of one stage.

    sigma: (6, 3, ..., hands), node-major; ro, rx: (..., hands), broadcastable against it.
    """
    nodes_o: list[Array] = [ro] + [ro] * (N_NODES - 1)
    nodes_x: list[Array] = [rx] + [rx] * (N_NODES - 1)
    ends_o: list[Array] = [ro] * N_ENDS
    ends_x: list[Array] = [rx] * N_ENDS
    for node in range(N_NODES):
        player = NODE_PLAYER[node]
        for slot, (kind, index) in enumerate(CHILD[node]):
            p = sigma[node, slot]
            a = nodes_o[node] * p if player == O else nodes_o[node]
            b = nodes_x[node] * p if player != O else nodes_x[node]
            if kind == "node":
                nodes_o[index], nodes_x[index] = a, b
            else:
                ends_o[index], ends_x[index] = a, b
    return nodes_o, nodes_x, ends_o, ends_x


def backward(
    sigma: Array,
    mask: Array,
    ends: list[Array],
    player: int,
    best: bool,
    keep: list[list[Array]] | None = None,
) -> tuple[Array, Array]:
    """Counterfactual values of `player` up one stage, from its ends' values.

    Returns the value at the stage's root and, per node and slot, the
    regret increments (CFR) or, with `best`, a best response (0/1 per slot;
    other players' nodes keep sigma). `keep`, if given, receives each
    node's children's values (for advice).
    """
    cfv: list[Array] = [np.zeros(0)] * N_NODES  # filled from the last node up
    out = np.zeros(np.broadcast_shapes(sigma.shape, mask.shape), dtype=sigma.dtype)
    for node in reversed(range(N_NODES)):
        children = [cfv[index] if kind == "node" else ends[index] for kind, index in CHILD[node]]
        if keep is not None:
            keep[node] = children
        if NODE_PLAYER[node] != player:
            cfv[node] = children[0] + children[1] + children[2]
            out[node] = sigma[node]
            continue
        m = mask[node]
        if best:
            value = np.where(m[0] > 0, children[0], -np.inf)
            pick = np.zeros(value.shape, dtype=np.int8)
            for slot in (1, 2):
                c = np.where(m[slot] > 0, children[slot], -np.inf)
                better = c > value
                value = np.where(better, c, value)
                pick = np.where(better, slot, pick)
            for slot in range(N_SLOTS):
                out[node, slot] = pick == slot
            cfv[node] = value
        else:
            sig = sigma[node]
            value = children[0] * sig[0] + children[1] * sig[1] + children[2] * sig[2]
            for slot, child in enumerate(children):
                np.multiply(child - value, m[slot], out=out[node, slot])
            cfv[node] = value
    root = cfv[0]
    return root, out


@dataclass
class Pass:
    """One pass over a chunk: the root value and the per-slot output of both stages."""

    value: Array
    """O's value of each position of the chunk (for `player`'s pass: its counterfactual view)."""
    stage1: Array
    stage2: Array
    reach1: Array
    reach2: Array
    """`player`'s own reach at each node (for the average strategy)."""
    detail: dict[str, list[list[Array]]] = field(default_factory=dict)
    """With `keep`: per stage, each node's children's counterfactual values, and
    per stage the other player's reach at each node ("reach1", "reach2")."""


def round_pass(
    model: Model,
    lo: int,
    hi: int,
    sigma1: Array,
    sigma2: Array,
    leaves: dict[str, Array],
    player: int,
    best: bool,
    keep: bool = False,
) -> Pass:
    """`player`'s counterfactual pass over the rounds of positions lo..hi (in sigma's dtype)."""
    dtype = sigma1.dtype
    q = model.q.astype(dtype)
    m1, m2 = (m.astype(dtype) for m in model.masks(lo, hi))
    leaves = {name: v.astype(dtype) for name, v in leaves.items()}
    n = hi - lo
    base = np.broadcast_to(q, (n, model.h))
    nodes_o, nodes_x, ends_o, ends_x = forward(sigma1, base, base)
    ro2, rx2 = model.stage_two_roots(ends_o, ends_x, q)
    nodes2_o, nodes2_x, ends2_o, ends2_x = forward(sigma2, ro2, rx2)
    sign = 1.0 if player == O else -1.0
    opp2 = ends2_x if player == O else ends2_o
    cfv2: list[Array] = []
    for e in range(N_ENDS):
        if e < N_GO_ON:
            cfv2.append(model.showdown_cfv(player, opp2[e], e, leaves["show"][:, :, e]))
        else:
            total = opp2[e].sum(-1, keepdims=True)
            cfv2.append(sign * leaves["fold2"][:, :, e, None, None] * total)
    detail: dict[str, list[list[Array]]] = {}
    if keep:
        detail = {"stage1": [[] for _ in range(N_NODES)], "stage2": [[] for _ in range(N_NODES)]}
        detail["reach1"] = [list(nodes_x if player == O else nodes_o)]
        detail["reach2"] = [list(nodes2_x if player == O else nodes2_o)]
    root2, out2 = backward(sigma2, m2, cfv2, player, best, detail.get("stage2"))
    at_two = root2.mean(axis=2)  # n x 9 x hands: the d12 pairs are equally likely
    opp1 = ends_x if player == O else ends_o
    cfv1: list[Array] = []
    for e in range(N_ENDS):
        if e < N_GO_ON:
            v = at_two[:, e]
            if rerolls(e)[player]:  # the old hand is thrown again: its value is the mean
                v = np.broadcast_to((v * q).sum(-1, keepdims=True), v.shape)
            cfv1.append(v)
        else:
            total = opp1[e].sum(-1, keepdims=True)
            cfv1.append(sign * leaves["fold1"][:, e, None] * total)
    root1, out1 = backward(sigma1, m1, cfv1, player, best, detail.get("stage1"))
    value = sign * (root1 * q).sum(-1)
    own1 = nodes_o if player == O else nodes_x
    own2 = nodes2_o if player == O else nodes2_x
    reach1 = np.stack(np.broadcast_arrays(*own1))
    reach2 = np.stack(np.broadcast_arrays(*own2))
    return Pass(value, out1, out2, reach1, reach2, detail)


def outcomes(model: Model, lo: int, hi: int, sigma1: Array, sigma2: Array) -> Array:
    """Where the rounds of positions lo..hi end: chances over `ext` indices (n x n_ext)."""
    q = model.q
    n = hi - lo
    base = np.broadcast_to(q, (n, model.h))
    _, _, ends_o, ends_x = forward(sigma1, base, base)
    ro2, rx2 = model.stage_two_roots(ends_o, ends_x, q)
    _, _, ends2_o, ends2_x = forward(sigma2, ro2, rx2)
    out = np.zeros((n, model.positions.n_ext))
    rows = np.arange(n)
    for e in FOLD_WINNER:
        chance = ends_o[e].sum(-1) * ends_x[e].sum(-1)
        np.add.at(out, (rows, model.paths.fold1[lo:hi, e]), chance)
        chance2 = (ends2_o[e].sum(-1) * ends2_x[e].sum(-1)).mean(-1)  # n x 9
        for p in range(N_GO_ON):
            np.add.at(out, (rows, model.paths.fold2[lo:hi, p, e]), chance2[:, p])
    for e in range(N_GO_ON):
        a, b = ends2_o[e], ends2_x[e]
        w = np.einsum("npdh,dhk,npdk->np", a, model.win[e], b, optimize=True) / model.pairs
        t = np.einsum("npdh,dhk,npdk->np", a, model.tie[e], b, optimize=True) / model.pairs
        total = (a.sum(-1) * b.sum(-1)).mean(-1)
        show = model.paths.show[lo:hi, :, e]  # n x 9 x 3
        for p in range(N_GO_ON):
            np.add.at(out, (rows, show[:, p, 0]), w[:, p])
            np.add.at(out, (rows, show[:, p, 1]), total[:, p] - w[:, p] - t[:, p])
            np.add.at(out, (rows, show[:, p, 2]), t[:, p])
    return out


def ante_values(model: Model, values: Array) -> Array:
    """O's value of each pre-ante position after each pair of antes (pre x k x j); nan: illegal."""
    v = values[model.ante_post]
    return np.where(model.ante_legal > 0, v, np.nan)


def ante_equilibrium(model: Model, values: Array) -> tuple[Array, Array]:
    """The antes as a game of perfect information: O picks, X sees it and picks (D2)."""
    v = ante_values(model, values)
    n = len(model.positions.pre)
    ante_x = np.zeros((n, 2, 2))
    xs = np.nanargmin(np.where(np.isnan(v), np.inf, v), axis=2)
    ante_x[np.arange(n)[:, None], np.arange(2)[None, :], xs] = 1.0
    after_x = np.where(
        model.ante_legal.any(-1), np.take_along_axis(v, xs[..., None], 2)[..., 0], -1
    )
    ks = after_x.argmax(axis=1)
    ante_o = np.zeros((n, 2))
    ante_o[np.arange(n), ks] = 1.0
    return ante_o, ante_x


def ante_best(
    model: Model, values: Array, ante_o: Array, ante_x: Array, player: int
) -> tuple[Array, Array]:
    """`player`'s best antes given values, the other keeping its ante policy."""
    v = np.where(model.ante_legal > 0, values[model.ante_post], np.nan)
    n = len(model.positions.pre)
    if player == O:
        after_x = np.nansum(v * ante_x, axis=2)
        after_x = np.where(model.ante_legal.any(-1), after_x, -np.inf)
        ks = after_x.argmax(axis=1)
        best = np.zeros((n, 2))
        best[np.arange(n), ks] = 1.0
        return best, ante_x
    xs = np.where(np.isnan(v), np.inf, v).argmin(axis=2)
    best_x = np.zeros((n, 2, 2))
    best_x[np.arange(n)[:, None], np.arange(2)[None, :], xs] = 1.0
    return ante_o, best_x


def evaluate(
    model: Model,
    transitions: Array,
    ante_o: Array,
    ante_x: Array,
) -> Array:
    """The exact values of all positions when every round ends as `transitions` says.

    values = T_post values + T_pre (antes) values + T_win, solved as one linear system.
    """
    pos = model.positions
    n = len(pos)
    n_pre = len(pos.pre)
    ante = ante_o[:, :, None] * ante_x * model.ante_legal  # pre x k x j
    pre_to_post = np.zeros((n_pre, n))
    rows = np.repeat(np.arange(n_pre), 4)
    np.add.at(pre_to_post, (rows, model.ante_post.reshape(-1)), ante.reshape(-1))
    a = transitions[:, :n] + transitions[:, n : n + n_pre] @ pre_to_post
    b = transitions[:, pos.win]
    values: Array = np.linalg.solve(np.eye(n) - a, b)
    return values


def extended(model: Model, values: Array, ante_o: Array, ante_x: Array) -> Array:
    """Values over `ext`: positions, pre-ante positions (through the antes), lose 0, win 1."""
    ante = ante_o[:, :, None] * ante_x * model.ante_legal
    pre = (ante * values[model.ante_post]).sum(axis=(1, 2))
    return np.concatenate([values, pre, [0.0, 1.0]])


@dataclass
class Solved:
    policy: Policy
    values: Array
    """O's chance of winning the match from each position (exact for `policy`)."""
    sweeps: int
    iterations: int
    change: float
    """How much the values moved in the last sweep."""
    seconds: float
    history: list[tuple[int, float]] = field(default_factory=list)


def regret_policy(regret: Array, mask: Array) -> Array:
    """Regret matching (node-major arrays: the slots are axis 1), uniform where no regret."""
    r = np.maximum(regret, 0) * mask
    total = r.sum(1, keepdims=True)
    uniform = mask / np.maximum(mask.sum(1, keepdims=True), 1)
    return np.where(total > 0, r / np.where(total > 0, total, 1), uniform).astype(regret.dtype)


def _refresh(
    sigma: Array, regret: Array, mask: Array, nodes: list[int], guess: Array | None = None
) -> None:
    """`regret_policy` again at `nodes` only, in place (the other nodes' regrets did not move),
    on the regrets plus `guess` where given (predictive CFR+).

    The slots are summed node by node, so each node's chances are the same
    numbers `regret_policy` gives over the whole array.
    """
    for node in nodes:
        r = regret[node] if guess is None else regret[node] + guess[node]
        sigma[node] = regret_policy(r[None], mask[node][None])[0]


def chunk_iterations(
    model: Model,
    ext: Array,
    lo: int,
    hi: int,
    block: list[Array],
    start: int,
    iterations: int,
    predictive: bool = False,
) -> None:
    """CFR+ iterations start + 1 .. start + iterations on one chunk's rounds, in place:
    `block` holds its regrets, then its average's weights, of both stages.

    `predictive`: predictive CFR+ (Farina, Kroer and Sandholm, 2021): each
    strategy is regret matching on the regrets plus the last iteration's own
    regrets (the guess that the next iteration's will be alike), and the
    average weighs iteration t by t squared. Same passes, same arrays; far
    ahead of CFR+ on small matches, no better on the full game
    (docs/researchers/tao.md). A sweep's first iteration has no last one to add and
    starts from the regrets alone.
    """
    own = [[node for node in range(N_NODES) if NODE_PLAYER[node] == p] for p in (0, 1)]
    leaves = model.leaf_values(ext, lo, hi)
    m1, m2 = (m.astype(DTYPE) for m in model.masks(lo, hi))
    r1, r2, a1, a2 = block
    s1, s2 = regret_policy(r1, m1), regret_policy(r2, m2)
    for it in range(start + 1, start + iterations + 1):
        w = DTYPE(it) * DTYPE(it) if predictive else DTYPE(it)
        for player in (0, 1):
            p = round_pass(model, lo, hi, s1, s2, leaves, player, best=False)
            for node in own[player]:
                np.maximum(r1[node] + p.stage1[node], 0, out=r1[node])
                np.maximum(r2[node] + p.stage2[node], 0, out=r2[node])
                a1[node] += w * p.reach1[node][None] * s1[node]
                a2[node] += w * p.reach2[node][None] * s2[node]
            _refresh(s1, r1, m1, own[player], p.stage1 if predictive else None)
            _refresh(s2, r2, m2, own[player], p.stage2 if predictive else None)


_shared: tuple[Model, Array] | None = None
"""A worker process's model and values (`_chunk_pool`): sent once, not with every chunk."""


def _share(model: Model, ext: Array) -> None:
    global _shared
    _shared = (model, ext)


def _chunk_job(
    lo: int, hi: int, block: list[Array], start: int, iterations: int, predictive: bool
) -> list[Array]:
    assert _shared is not None, "started by _chunk_pool"
    model, ext = _shared
    chunk_iterations(model, ext, lo, hi, block, start, iterations, predictive)
    return block


def _chunk_pool(model: Model, ext: Array, workers: int) -> ProcessPoolExecutor:
    """Fresh processes (spawned: a fork of a process whose BLAS runs threads may hang),
    each given the model and the values once."""
    return ProcessPoolExecutor(
        workers,
        mp_context=get_context("spawn"),
        initializer=_share,
        initargs=(model, ext),
    )


@dataclass
class CFRState:
    """What CFR+ needs to go on where it stopped: regrets, values, antes, counts (resumable)."""

    regrets: list[Array]
    """Per chunk, stage one's then stage two's regrets."""
    values: Array
    ante_o: Array
    ante_x: Array
    iterations: int
    sweeps: int
    history: list[tuple[int, float]]
    seconds: float
    averages: list[Array] | None = None
    """With a carried average (`solve(carry=True)`): its weights, laid out as `regrets`."""

    def save(self, where: Path) -> None:
        """One uncompressed archive (about 600 MB, twice that with averages): written beside,
        then moved into place."""
        arrays: dict[str, Any] = {f"r{i}": r for i, r in enumerate(self.regrets)}
        arrays.update({f"a{i}": a for i, a in enumerate(self.averages or [])})
        arrays.update(
            values=self.values, ante_o=self.ante_o, ante_x=self.ante_x,
            counts=np.array([self.iterations, self.sweeps]),
            history=np.array(self.history, dtype=np.float64).reshape(-1, 2),
            seconds=np.array(self.seconds),
        )  # fmt: skip
        temp = where.with_name(where.name + ".part")
        with temp.open("wb") as f:
            np.savez(f, **arrays)
        temp.replace(where)

    @classmethod
    def load(cls, where: Path) -> CFRState:
        with np.load(where) as z:
            regrets = [z[f"r{i}"] for i in range(sum(1 for k in z.files if k.startswith("r")))]
            averages = [z[f"a{i}"] for i in range(sum(1 for k in z.files if k[0] == "a"
                                                           and k[1:].isdigit()))]  # fmt: skip
            iterations, sweeps = (int(c) for c in z["counts"])
            history = [(int(i), float(c)) for i, c in z["history"]]
            return cls(regrets, z["values"], z["ante_o"], z["ante_x"], iterations, sweeps,
                       history, float(z["seconds"]), averages or None)  # fmt: skip


class CFR:
    """CFR+ state for every position, kept between sweeps: one block of arrays per chunk."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.blocks = []
        for lo, hi in model.chunks():
            shape1, shape2 = model.shapes(lo, hi)
            # Regrets, then the average's weights, of both stages.
            self.blocks.append([np.zeros(shape, DTYPE) for shape in (shape1, shape2) * 2])
        self.iterations = 0

    def regrets(self) -> list[Array]:
        return [r for block in self.blocks for r in block[:2]]

    def averages(self) -> list[Array]:
        return [a for block in self.blocks for a in block[2:]]

    def restore(
        self, regrets: list[Array], iterations: int, averages: list[Array] | None = None
    ) -> None:
        """Go on from saved regrets (`CFRState`), and a carried average's weights if kept."""
        if len(regrets) != 2 * len(self.blocks):
            raise ValueError(f"{len(regrets)} regret arrays for {len(self.blocks)} chunks")
        for i, block in enumerate(self.blocks):
            for stage in (0, 1):
                block[stage][...] = regrets[2 * i + stage]
                if averages is not None:
                    block[2 + stage][...] = averages[2 * i + stage]
        self.iterations = iterations

    def run(
        self,
        ext: Array,
        iterations: int,
        tick: Tick | None = None,
        carry: bool = False,
        workers: int = 1,
        predictive: bool = False,
    ) -> None:
        """`iterations` more CFR+ iterations on every round, given the values `ext`
        (predictive CFR+ with `predictive`: `chunk_iterations`).

        The regrets carry over from earlier runs (a warm start). Without
        `carry` the average starts afresh, iteration t of this run weighing t.
        With `carry` the average goes on across runs, iteration t of the whole
        solve weighing t (CFR+'s linear weights): the iterations of a sweep
        played against earlier leaf values keep a share of about
        (t_then / t_now)^2 of the average, which vanishes as the values settle,
        while the average itself stops being limited to one sweep's iterations.
        Each player's chances are recomputed after its own update only, at
        its own nodes: the other nodes' regrets have not moved.

        Given the values, the rounds of different positions do not touch, so
        with `workers` above one the chunks run in that many processes, each
        chunk's arrays sent there and back: the same numbers, in a fraction of
        the time on a machine with that many cores.
        """
        model = self.model
        start = self.iterations if carry else 0
        for block in self.blocks if not carry else ():
            block[2][...] = 0
            block[3][...] = 0
        chunks = list(model.chunks())
        done = 0
        if workers <= 1 or len(chunks) < 2:
            for (lo, hi), block in zip(chunks, self.blocks, strict=True):
                chunk_iterations(model, ext, lo, hi, block, start, iterations, predictive)
                done += hi - lo
                if tick is not None:
                    tick(done, len(model))
        else:
            with _chunk_pool(model, ext, workers) as pool:
                runs = {
                    pool.submit(_chunk_job, lo, hi, block, start, iterations, predictive): i
                    for i, ((lo, hi), block) in enumerate(zip(chunks, self.blocks, strict=True))
                }
                for run in as_completed(runs):
                    i = runs[run]
                    self.blocks[i] = run.result()
                    done += chunks[i][1] - chunks[i][0]
                    if tick is not None:
                        tick(done, len(model))
        self.iterations += iterations

    def policy(self, ante_o: Array, ante_x: Array) -> Policy:
        """The average strategy; where a player never reaches a node, the current one."""
        parts: list[list[Array]] = [[], []]
        for (lo, hi), block in zip(self.model.chunks(), self.blocks, strict=True):
            masks = self.model.masks(lo, hi)
            for stage in (0, 1):
                m = masks[stage].astype(DTYPE)
                a = block[2 + stage] * m
                total = a.sum(1, keepdims=True)
                current = regret_policy(block[stage], m)
                parts[stage].append(np.where(total > 0, a / np.where(total > 0, total, 1), current))
        return Policy(
            np.concatenate(parts[0], axis=2), np.concatenate(parts[1], axis=2), ante_o, ante_x
        )


def policy_values(model: Model, policy: Policy, tick: Tick | None = None) -> Array:
    """The exact values of every position when both players follow `policy`."""
    return evaluate(model, policy_transitions(model, policy, tick), policy.ante_o, policy.ante_x)


def solve(
    model: Model,
    iterations: int = 100,
    per_sweep: int = 25,
    tolerance: float = 1e-6,
    max_sweeps: int = 40,
    tick: Callable[[str, int, int], None] | None = None,
    after_sweep: Callable[[Solved], None] | None = None,
    resume: CFRState | None = None,
    keep: Callable[[CFRState], None] | None = None,
    carry: bool = False,
    workers: int = 1,
    predictive: bool = False,
) -> Solved:
    """CFR+ on every round given the values, the values of the result, repeated.

    Sweeps run `per_sweep`, then twice as many, ... up to `iterations` CFR+
    iterations (the regrets carry over), until a sweep of `iterations` moves
    the values by less than `tolerance`. Each sweep averages its own
    iterations, so the values' change settles at the noise of a sweep's
    average (about 1e-4 with sweeps of 80); with `carry` the average goes on
    across sweeps (`CFR.run`), and the change keeps falling as the whole
    solve's iterations grow. `keep` receives the state after every sweep;
    `resume` goes on from one (its sweeps count towards `max_sweeps`), so a
    stopped solve loses at most a sweep. A carried average resumed from a
    state kept without one starts at the resumed iteration. `workers`: processes
    for the CFR+ passes (`CFR.run`), the same numbers whatever their count;
    `predictive`: predictive CFR+ (`chunk_iterations`).
    """
    start = time.perf_counter()
    cfr = CFR(model)
    values = stone_shares(model)
    ante_o, ante_x = ante_equilibrium(model, values)
    change = np.inf
    history: list[tuple[int, float]] = []
    sweeps = 0
    before = 0.0
    if resume is not None:
        cfr.restore(resume.regrets, resume.iterations, resume.averages if carry else None)
        values, ante_o, ante_x = resume.values, resume.ante_o, resume.ante_x
        history, sweeps, before = list(resume.history), resume.sweeps, resume.seconds
        change = history[-1][1] if history else np.inf
    while sweeps < max_sweeps:
        sweeps += 1
        ext = extended(model, values, ante_o, ante_x)
        count = min(iterations, per_sweep * 2 ** (sweeps - 1))
        progress = None if tick is None else lambda d, t: tick("CFR+", d, t)
        cfr.run(ext, count, progress, carry, workers, predictive)
        policy = cfr.policy(ante_o, ante_x)
        transitions = policy_transitions(model, policy)
        new = evaluate(model, transitions, ante_o, ante_x)
        for _ in range(10):  # the antes' best choices, given the new values
            ante_o, ante_x = ante_equilibrium(model, new)
            again = evaluate(model, transitions, ante_o, ante_x)
            settled = np.abs(again - new).max() == 0
            new = again
            if settled:
                break
        change = float(np.abs(new - values).max())
        history.append((cfr.iterations, change))
        values = new
        seconds = before + time.perf_counter() - start
        if keep is not None:
            keep(CFRState(cfr.regrets(), values, ante_o, ante_x, cfr.iterations, sweeps,
                          list(history), seconds, cfr.averages() if carry else None))  # fmt: skip
        if after_sweep is not None:
            after_sweep(Solved(policy, values, sweeps, cfr.iterations, change, seconds,
                               list(history)))  # fmt: skip
        if change < tolerance and count == iterations:
            break
    policy = cfr.policy(ante_o, ante_x)
    seconds = before + time.perf_counter() - start
    return Solved(policy, values, sweeps, cfr.iterations, change, seconds, history)


def stone_shares(model: Model) -> Array:
    """A first guess at the values: O's share of the stones, half the pot counted as O's.

    A match of fair bets is a gambler's ruin, whose winning chance is exactly
    the share of the stones: a good start for the iteration.
    """
    s = model.positions.stones
    total = model.positions.black + model.positions.white
    pot = total - s.sum(axis=1)
    shares: Array = (s[:, 0] + s[:, 1] + pot / 2) / total
    return shares


def policy_transitions(model: Model, policy: Policy, tick: Tick | None = None) -> Array:
    """Where every position's round ends under `policy`: positions x `ext` chances."""
    rows = []
    for lo, hi in model.chunks():
        s1, s2 = policy.chunk(lo, hi)
        rows.append(outcomes(model, lo, hi, s1, s2))
        if tick is not None:
            tick(hi, len(model))
    return np.concatenate(rows)


@dataclass
class BestResponse:
    values: Array
    """O's value of each position when `player` best-responds."""
    start: float
    """O's chance of winning the match from its start, `player` best-responding (antes too)."""
    player: int
    rounds: int
    """Policy-iteration steps until the best response stopped improving."""


def best_response(
    model: Model,
    policy: Policy,
    player: int,
    start: Array | None = None,
    tolerance: float = 1e-10,
    max_rounds: int = 50,
    tick: Tick | None = None,
) -> BestResponse:
    """The exact best response of `player` (O or X) to `policy` over the whole match.

    Policy iteration: the best round replies and antes given the values, then
    the exact values of that reply against `policy`, until they stop moving.
    """
    values = policy_values(model, policy) if start is None else start
    rounds = max_rounds
    for step in range(1, max_rounds + 1):
        ante_o, ante_x = ante_best(model, values, policy.ante_o, policy.ante_x, player)
        ext = extended(model, values, ante_o, ante_x)
        rows = []
        for lo, hi in model.chunks():
            s1, s2 = policy.chunk(lo, hi)
            leaves = model.leaf_values(ext, lo, hi)
            br = round_pass(model, lo, hi, s1, s2, leaves, player, best=True)
            rows.append(outcomes(model, lo, hi, br.stage1, br.stage2))
            if tick is not None:
                tick(hi, len(model))
        new = evaluate(model, np.concatenate(rows), ante_o, ante_x)
        moved = float(np.abs(new - values).max())
        values = new
        if moved < tolerance:
            rounds = step
            break
    ante_o, ante_x = ante_best(model, values, policy.ante_o, policy.ante_x, player)
    first = extended(model, values, ante_o, ante_x)[model.positions.start]
    return BestResponse(values, float(first), player, rounds)


def token_holding(opener_wins: float, other_wins: float) -> float:
    """A seat's chance of winning a two-seat token game while it holds the token (and opens).

    It wins the game by winning the match (a), else the other takes the token
    and it wins the game only by winning a match back (b) and then this again.
    """
    a, b = opener_wins, other_wins
    return a / (1 - (1 - a) * b)


def token_game(opener_wins: float, other_wins: float) -> tuple[float, float]:
    """A seat's chance of winning a two-seat token game (D12) from its match chances.

    opener_wins: its chance of winning a match it opens; other_wins: of one
    the other seat opens. The holder of the token opens every match; the
    first match has no holder, and its first player opens it. Returns the
    seat's chance of winning the game when it is, and is not, the first player.
    """
    a, b = opener_wins, other_wins
    holding = token_holding(a, b)
    not_holding = b * holding
    return a * holding + (1 - a) * not_holding, b * holding + (1 - b) * not_holding


@dataclass
class Exploitability:
    match: float
    """NashConv / 2 in the chance of winning a single match (length=single)."""
    token: float
    """NashConv / 2 in the chance of winning the token game (length=token)."""
    best_response: tuple[float, float]
    """A best responder's chance of winning a match it opens, and one the policy opens."""
    policy_opener: float
    """The policy's chance of winning a match it opens, against itself."""
    rounds: tuple[int, int]


def exploitability(model: Model, policy: Policy, tick: Tick | None = None) -> Exploitability:
    """Exact exploitability of a policy played by both seats, for both game lengths.

    With the same policy in both seats and the first player random or fixed,
    NashConv = a + b - 1 for a single match, where a and b are a best
    responder's chances of winning a match it opens and one it does not; for
    the token game the same with each replaced by the game's chance.
    """
    values = policy_values(model, policy)
    as_o = best_response(model, policy, O, values, tick=tick)
    as_x = best_response(model, policy, 1, values, tick=tick)
    a, b = as_o.start, 1.0 - as_x.start
    first, second = token_game(a, b)
    p = extended(model, values, policy.ante_o, policy.ante_x)[model.positions.start]
    return Exploitability(
        (a + b - 1) / 2, (first + second - 1) / 2, (a, b), float(p), (as_o.rounds, as_x.rounds)
    )
