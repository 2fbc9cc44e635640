"""Equilibria of small simultaneous-move games, many at once (Tepiiku's T6 tie rerolls).

A batch of games is an array `payoff[..., a0, a1, (a2,) seat]`: the value to each
seat of every joint action of the two (or three) players who choose. A pure
equilibrium is found for all games at once with NumPy; where a game has none,
its mixed equilibrium is found by support enumeration (two players) or
approximated by fictitious play (three players), and the most a player could
gain by deviating from the returned strategies (epsilon) is reported.

Among several pure equilibria the one with the largest total payoff to the
choosing players is taken (the first such in action order): the selection is a
deterministic function of the game, so every seat that solves the same game
plays its part of the same equilibrium.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

Array = NDArray[np.float64]
TOL = 1e-9
"""Payoffs closer than this are equal (the games' values are coins, of order 1-100)."""
FICTITIOUS_ROUNDS = 4000


def solve_batch(payoff: Array, players: Sequence[int]) -> tuple[list[Array], Array, float]:
    """Equilibrium strategies of every game in the batch, their values and epsilon.

    `payoff` has shape (G, A, A, [A,] seats); `players[i]` is the seat whose payoff
    player i (action axis i + 1) maximises. Returns the per-player strategies (each
    (G, A)), the values (G, seats) and the largest deviation gain of any game.
    """
    n = len(players)
    games, actions = payoff.shape[0], payoff.shape[1]
    mine = [payoff[..., seat] for seat in players]  # each (G, A, A[, A])
    equilibrium = np.ones(mine[0].shape, dtype=bool)
    for i in range(n):
        best = mine[i].max(axis=i + 1, keepdims=True)
        equilibrium &= mine[i] >= best - TOL
    total = sum(mine)
    score = np.where(equilibrium, total, -np.inf).reshape(games, -1)
    pick = score.argmax(axis=1)
    has_pure = np.isfinite(score[np.arange(games), pick])
    strategies = [np.zeros((games, actions)) for _ in range(n)]
    joint = np.unravel_index(pick, (actions,) * n)
    for i in range(n):
        strategies[i][np.arange(games), joint[i]] = 1.0
    epsilon = 0.0
    for g in np.flatnonzero(~has_pure):
        mixed = _mixed(payoff[g], players)
        for i in range(n):
            strategies[i][g] = mixed[i]
        epsilon = max(epsilon, deviation_gain(payoff[g], players, mixed))
    values = _expected(payoff, strategies)
    return strategies, values, epsilon


def evaluate(
    payoff: Array, players: Sequence[int], strategies: Sequence[Array]
) -> tuple[Array, float]:
    """The values (G, seats) of every game of the batch under given strategies (each
    (G, A)), and the most any player of any game gains by deviating from them alone."""
    values = _expected(payoff, list(strategies))
    n = len(players)
    letters = "abc"[:n]
    gain = 0.0
    for i, seat in enumerate(players):
        others = [j for j in range(n) if j != i]
        spec = f"g{letters}," + ",".join(f"g{letters[j]}" for j in others) + f"->g{letters[i]}"
        replies = np.einsum(spec, payoff[..., seat], *(strategies[j] for j in others))
        played = np.einsum("ga,ga->g", replies, strategies[i])
        if len(replies):
            gain = max(gain, float((replies.max(axis=1) - played).max()))
    return values, gain


def _expected(payoff: Array, strategies: list[Array]) -> Array:
    spec = "gabs,ga,gb->gs" if len(strategies) == 2 else "gabcs,ga,gb,gc->gs"
    values: Array = np.einsum(spec, payoff, *strategies)
    return values


def deviation_gain(payoff: Array, players: Sequence[int], strategies: Sequence[Array]) -> float:
    """The most any player of one game gains by changing its strategy alone."""
    gain = 0.0
    for i, seat in enumerate(players):
        table = payoff[..., seat]
        for j in reversed(range(len(players))):
            if j != i:
                table = np.tensordot(table, strategies[j], axes=([j], [0]))
        # what remains is indexed by player i's action
        gain = max(gain, float(table.max() - table @ strategies[i]))
    return gain


def _mixed(payoff: Array, players: Sequence[int]) -> list[Array]:
    if len(players) == 2:
        found = _support_enumeration(payoff[..., players[0]], payoff[..., players[1]])
        if found is not None:
            return found
    return _fictitious_play(payoff, players)


def _support_enumeration(a: Array, b: Array) -> list[Array] | None:
    """A mixed equilibrium of the bimatrix game (a, b) with supports of equal size,
    after removing duplicate actions (which make the game degenerate)."""
    rows = _distinct(a, b, axis=0)
    cols = _distinct(a, b, axis=1)
    sub_a, sub_b = a[np.ix_(rows, cols)], b[np.ix_(rows, cols)]
    m, k = len(rows), len(cols)
    for size in range(1, min(m, k) + 1):
        for r in itertools.combinations(range(m), size):
            for c in itertools.combinations(range(k), size):
                found = _indifferent(sub_a, sub_b, list(r), list(c))
                if found is not None:
                    x = np.zeros(a.shape[0])
                    y = np.zeros(a.shape[1])
                    x[[rows[i] for i in range(m)]] = found[0]
                    y[[cols[j] for j in range(k)]] = found[1]
                    return [x, y]
    return None


def _distinct(a: Array, b: Array, axis: int) -> list[int]:
    kept: list[int] = []
    for i in range(a.shape[axis]):
        row = (np.take(a, i, axis=axis), np.take(b, i, axis=axis))
        if not any(
            np.allclose(row[0], np.take(a, j, axis=axis), atol=TOL)
            and np.allclose(row[1], np.take(b, j, axis=axis), atol=TOL)
            for j in kept
        ):
            kept.append(i)
    return kept


def _indifferent(a: Array, b: Array, r: list[int], c: list[int]) -> tuple[Array, Array] | None:
    """Strategies on supports r, c that make the opponent indifferent, if they are an
    equilibrium (no action outside the support does better)."""
    size = len(r)
    y = _indifference(a[np.ix_(r, c)])  # column mix that equalises the row player
    x = _indifference(b[np.ix_(r, c)].T)
    if x is None or y is None:
        return None
    full_x = np.zeros(a.shape[0])
    full_y = np.zeros(a.shape[1])
    full_x[r], full_y[c] = x, y
    row_values = a @ full_y
    col_values = full_x @ b
    if row_values.max() > row_values[r].max() + TOL or col_values.max() > col_values[c].max() + TOL:
        return None
    if size > 1 and (np.ptp(row_values[r]) > TOL or np.ptp(col_values[c]) > TOL):
        return None
    return full_x, full_y


def _indifference(m: Array) -> Array | None:
    """A probability vector y with m @ y constant, or None."""
    size = m.shape[0]
    system = np.zeros((size + 1, size + 1))
    system[:size, :size] = m
    system[:size, size] = -1.0
    system[size, :size] = 1.0
    rhs = np.zeros(size + 1)
    rhs[size] = 1.0
    try:
        solution = np.linalg.solve(system, rhs)
    except np.linalg.LinAlgError:
        return None
    y = solution[:size]
    if (y < -TOL).any():
        return None
    y = np.clip(y, 0.0, None)
    mix: Array = y / y.sum()
    return mix


def _fictitious_play(payoff: Array, players: Sequence[int]) -> list[Array]:
    """Approximate mixed equilibrium by fictitious play (empirical mixes of best replies)."""
    n = len(players)
    actions = payoff.shape[0]
    counts = [np.ones(actions) / actions for _ in range(n)]
    for _ in range(FICTITIOUS_ROUNDS):
        mixes = [c / c.sum() for c in counts]
        for i, seat in enumerate(players):
            table = payoff[..., seat]
            for j in reversed(range(n)):
                if j != i:
                    table = np.tensordot(table, mixes[j], axes=([j], [0]))
            counts[i][int(table.argmax())] += 1.0
    return [c / c.sum() for c in counts]
