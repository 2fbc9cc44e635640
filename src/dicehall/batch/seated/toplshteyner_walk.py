# mypy: disable-error-code="no-untyped-def"
# (Numba types the loop from its arguments when it compiles it.)
"""Toplshteyner's seated batch: the chain walked game by game (`compiled`).

Toplshteyner's seated batch walks the throws between two outside decisions
on the tables of `toplshteyner_chain`, a few NumPy operations a throw for
every game at once, in passes of `COLUMNS` throws, the games that stopped
kept after each (`ToplshteynerSeated._walk`). Four seats throw for long
between two of one seat's decisions, and most of a vector step is that walk.
`walk` reads the same tables a throw at a time for one game after another,
up to where the passes would stop it: the game over, an outside seat to
decide, or its decisions within `COLUMNS` of their limit (the passes then
play on). What a view shows (this turn's throws, the last throw, the last
turn's end and whose it was) and the lives bought and won back are counted
as the passes count them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from dicehall.batch.base import Ints
from dicehall.batch.seated import compiled
from dicehall.batch.seated import toplshteyner_chain as chain_


def walk(
    batch: Any,
    g: Ints,
    chain: chain_.Chain,
    columns: int,
    tk: Ints,
    lk: Ints,
    state: tuple[Ints, ...],
) -> None:
    """Walk games `g` from turn keys `tk` and lives keys `lk` (both updated in place), with
    `state` (this turn's throws, the last throw's number, the last end, its seat and the
    decisions, each by place in `g`) updated as the walk goes."""
    turns = chain.turns
    tables = (
        chain.klass, turns.packed, chain.after, turns.info, chain.key_over, turns.stops,
        chain.key_roller,
    )  # fmt: skip
    counts = (batch.bought.reshape(-1), batch.reclaimed.reshape(-1))
    limit, seed = compiled.limit(batch), compiled.seed(batch)
    _walk(g, batch.n, columns, limit, seed, tables, tk, lk, state, counts)


@njit(cache=True)
def _walk(g, n, columns, limit, seed, tables, tk, lk, state, counts):
    np.random.seed(seed)
    klass, packed, after, info, key_over, stops, key_roller = tables
    throws, last_code, last_end, last_seat, decisions = state
    bought, reclaimed = counts
    for j in range(g.size):
        t, lives = tk[j], lk[j]
        while not (key_over[lives] or stops[t]):
            if limit >= 0 and decisions[j] + columns >= limit:  # left to the passes
                break
            code = int(np.random.random() * 36)
            key = klass[lives] + t + code
            facts = info[key]
            before = lives
            t = packed[key] >> chain_.SHIFT
            lives = after[(packed[key] & chain_.MASK) + lives]
            if facts & chain_.THROWN:
                throws[j] += 1
                last_code[j] = code
            if facts & chain_.ENDED:
                throws[j] = 0
                last_end[j] = ((facts >> 3) & 7) - 1
                last_seat[j] = key_roller[before]
            if facts & chain_.DECIDED:
                decisions[j] += 1
            if facts & chain_.BOUGHT:
                bought[g[j] * n + key_roller[before]] += 1
            if facts & chain_.WON_BACK:
                reclaimed[g[j] * n + key_roller[before]] += 1
        tk[j], lk[j] = t, lives
