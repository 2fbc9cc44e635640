"""Batches with seats played from outside, one decision at a time: what vector environments step.

`seated(game, games, ...)` builds one for any game the batch simulator plays;
`dicehall.rl.vector` is the Gymnasium vector environment on top of it.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

import numpy as np

from dicehall.batch.base import POLICIES
from dicehall.batch.seated.base import Seated
from dicehall.core.errors import OptionError
from dicehall.core.game import Game

SEATED = {
    "kariki": "dicehall.batch.seated.kariki:KarikiSeated",
    "toplshteyner": "dicehall.batch.seated.toplshteyner:ToplshteynerSeated",
    "tepiiku": "dicehall.batch.seated.tepiiku:TepiikuSeated",
    "tao": "dicehall.batch.seated.tao:TaoSeated",
}
"""Each supported game's seated batch, imported when first used."""


def seated(
    game: Game,
    games: int,
    seed: int | np.random.Generator | None = None,
    bots: Sequence[str] = ("random",),
    outside: Sequence[int] = (),
    max_decisions: int | None = None,
) -> Seated:
    """`games` games of `game`; seat s played from outside if in `outside`, else by the
    batch as `bots[s % len(bots)]` (`dicehall.batch.POLICIES`)."""
    if game.id not in SEATED:
        raise OptionError(f"seated batches play {', '.join(SEATED)}, not {game.id}")
    wrong = sorted(set(bots) - set(POLICIES))
    if wrong:
        raise OptionError(f"the batch plays the bots {', '.join(POLICIES)}, not {', '.join(wrong)}")
    module, name = SEATED[game.id].split(":")
    cls: type[Seated] = getattr(importlib.import_module(module), name)
    return cls(game, games, seed, bots, outside, max_decisions)


__all__ = ["SEATED", "Seated", "seated"]
