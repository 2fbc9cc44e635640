"""Batch simulation: many games of one configured game advanced together with NumPy.

`play(game, games, seed)` plays `games` games with every seat at random and
returns a `BatchResult`. Each supported game has a second, array-based
implementation of its rules here, checked statistically against the engine
(tests/batch/); the engine stays the reference. Supported: Kariki and Toplshteyner.
"""

from __future__ import annotations

import numpy as np

from dicehall.batch.result import BatchResult
from dicehall.core.errors import OptionError
from dicehall.core.game import Game
from dicehall.core.sim import SimStats

SUPPORTED = ("kariki", "toplshteyner")


def play(game: Game, games: int, seed: int | np.random.SeedSequence | None = None) -> BatchResult:
    """Play `games` random games of `game` at once."""
    if game.id == "kariki":
        from dicehall.batch.kariki import KarikiBatch

        return KarikiBatch(game, games, seed).run()
    if game.id == "toplshteyner":
        from dicehall.batch.toplshteyner import ToplshteynerBatch

        return ToplshteynerBatch(game, games, seed).run()
    raise OptionError(
        f"batch play supports {', '.join(SUPPORTED)}, not {game.id}; leave out --batch"
    )


CHUNK = 50_000
"""Games played at once by `simulate`: enough to amortise NumPy's overhead, bounded memory."""


def simulate(game: Game, games: int, seed: int | None = None) -> SimStats:
    """`dicehall sim --batch`: random play of `games` games, in chunks, as one summary."""
    seeds = np.random.SeedSequence(seed).spawn(-(-games // CHUNK))
    total: SimStats | None = None
    for i, chunk_seed in enumerate(seeds):
        size = min(CHUNK, games - i * CHUNK)
        stats = play(game, size, chunk_seed).stats(["random"] * game.seats)
        if total is None:
            total = stats
        else:
            total.games += stats.games
            total.steps += stats.steps
            total.wins = [a + b for a, b in zip(total.wins, stats.wins, strict=True)]
            total.net = [a + b for a, b in zip(total.net, stats.net, strict=True)]
    assert total is not None
    return total


__all__ = ["SUPPORTED", "BatchResult", "play", "simulate"]
