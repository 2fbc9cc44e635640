"""Batch simulation: many games of one configured game advanced together with NumPy.

`play(game, games, seed, bots)` plays `games` games, seat s played by
`bots[s % len(bots)]` (random by default), and returns a `BatchResult`. Each
supported game has a second, array-based implementation of its rules here,
checked statistically against the engine (tests/batch/); the engine stays the
reference. Every game is supported, each seat played at random or as the
game's heuristic bot (POLICIES).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

import numpy as np

from dicehall.batch.base import POLICIES as BOTS
from dicehall.batch.result import BatchResult
from dicehall.core.errors import OptionError
from dicehall.core.game import Game
from dicehall.core.sim import SimStats

SIMULATORS = {
    "kariki": "dicehall.batch.kariki:KarikiBatch",
    "toplshteyner": "dicehall.batch.toplshteyner:ToplshteynerBatch",
    "tepiiku": "dicehall.batch.tepiiku:TepiikuBatch",
    "tao": "dicehall.batch.tao:TaoBatch",
}
"""Each supported game's batch simulator, imported when first used."""
SUPPORTED = tuple(SIMULATORS)
"""The games `play` accepts, so `dicehall sim --batch` can refuse the others by name."""
POLICIES = dict.fromkeys(SIMULATORS, BOTS)
"""The bots each game's batch can play."""


def policies(game_id: str) -> tuple[str, ...]:
    """The bots a game's batch can play (random alone for a game it does not know)."""
    return POLICIES.get(game_id, ("random",))


def play(
    game: Game,
    games: int,
    seed: int | np.random.SeedSequence | None = None,
    bots: Sequence[str] = ("random",),
) -> BatchResult:
    """Play `games` games of `game` at once, seat s played by `bots[s % len(bots)]`."""
    if game.id not in SIMULATORS:
        raise OptionError(
            f"batch play supports {', '.join(SUPPORTED)}, not {game.id}; leave out --batch"
        )
    allowed = policies(game.id)
    names = [bots[s % len(bots)] for s in range(game.seats)]
    wrong = sorted(set(names) - set(allowed))
    if wrong:
        raise OptionError(
            f"batch play of {game.id} plays the bots {', '.join(allowed)}, not "
            f"{', '.join(wrong)}; leave out --batch"
        )
    module, name = SIMULATORS[game.id].split(":")
    simulator = getattr(importlib.import_module(module), name)
    return simulator(game, games, seed, names).run()  # type: ignore[no-any-return]


CHUNK = 50_000
"""Games played at once by `simulate`: enough to amortise NumPy's overhead, bounded memory."""


def simulate(
    game: Game, games: int, seed: int | None = None, bots: Sequence[str] = ("random",)
) -> SimStats:
    """`dicehall sim --batch`: `games` games, in chunks, as one summary."""
    names = [bots[s % len(bots)] for s in range(game.seats)]
    seeds = np.random.SeedSequence(seed).spawn(-(-games // CHUNK))
    total: SimStats | None = None
    for i, chunk_seed in enumerate(seeds):
        size = min(CHUNK, games - i * CHUNK)
        stats = play(game, size, chunk_seed, names).stats(names)
        if total is None:
            total = stats
        else:
            total.games += stats.games
            total.steps += stats.steps
            total.wins = [a + b for a, b in zip(total.wins, stats.wins, strict=True)]
            total.net = [a + b for a, b in zip(total.net, stats.net, strict=True)]
    assert total is not None
    return total


__all__ = ["POLICIES", "SUPPORTED", "BatchResult", "play", "policies", "simulate"]
