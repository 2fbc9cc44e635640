"""What a batch of games gives back: per-game arrays, and the summary `dicehall sim` prints."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from dicehall.core.game import Game
from dicehall.core.sim import SimStats


@dataclass
class BatchResult:
    """Per game: its steps, its winner, each seat's net gain; and counts of events by name."""

    game: Game
    steps: NDArray[np.int64]
    winner: NDArray[np.int64]
    net: NDArray[np.int64]
    """Shape (games, seats)."""
    unit: str
    events: dict[str, NDArray[np.int64]] = field(default_factory=dict)
    """Per event name (the engine's event types), how often it happened in each game."""

    @property
    def games(self) -> int:
        return int(self.steps.size)

    def stats(self, bots: list[str]) -> SimStats:
        """The same summary as `dicehall.core.sim.simulate` gives."""
        seats = self.game.seats
        wins = np.bincount(self.winner, minlength=seats)
        return SimStats(
            self.game.id,
            seats,
            bots,
            games=self.games,
            wins=[float(w) for w in wins],
            net=[int(x) for x in self.net.sum(axis=0)],
            unit=self.unit,
            steps=int(self.steps.sum()),
        )
