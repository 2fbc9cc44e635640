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
    shares: NDArray[np.float64] | None = None
    """Shape (games, seats): each seat's share of the win, for games where wins are shared
    (k winners get 1/k each); None when `winner` is the only winner of every game."""

    @property
    def games(self) -> int:
        return int(self.steps.size)

    def win_shares(self) -> NDArray[np.float64]:
        """Shape (games, seats): 1 for a sole winner, 1/k for each of k sharing a win."""
        if self.shares is not None:
            return self.shares
        one_hot: NDArray[np.float64] = np.eye(self.game.seats)[self.winner]
        return one_hot

    def stats(self, bots: list[str]) -> SimStats:
        """The same summary as `dicehall.core.sim.simulate` gives."""
        wins = self.win_shares().sum(axis=0)
        return SimStats(
            self.game.id,
            self.game.seats,
            bots,
            games=self.games,
            wins=[float(w) for w in wins],
            net=[int(x) for x in self.net.sum(axis=0)],
            unit=self.unit,
            steps=int(self.steps.sum()),
        )
