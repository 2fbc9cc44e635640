"""Many games between bots, and the statistics researchers ask of them."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dicehall.core.chance import RandomDice
from dicehall.core.game import Game
from dicehall.core.table import Table, make_bots


@dataclass
class SimStats:
    game: str
    seats: int
    bots: list[str]
    games: int = 0
    wins: list[float] = field(default_factory=list)
    """Per seat: a sole win counts 1, a win shared by k seats counts 1/k each."""
    net: list[int] = field(default_factory=list)
    """Per seat: the sum of its net gains over all games (the flow of money)."""
    unit: str = ""
    steps: int = 0

    @property
    def mean_steps(self) -> float:
        return self.steps / self.games if self.games else 0.0

    def win_rate(self, seat: int) -> float:
        return self.wins[seat] / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "games": self.games,
            "seats": self.seats,
            "bots": self.bots,
            "wins": self.wins,
            "win_rate": [self.win_rate(s) for s in range(self.seats)],
            "mean_steps": self.mean_steps,
            "net": self.net,
            "mean_net": [n / self.games if self.games else 0.0 for n in self.net],
            "unit": self.unit,
        }


def simulate(
    game: Game,
    bot_names: list[str],
    games: int,
    seed: int | None = None,
    save_dir: Path | None = None,
    on_game: Callable[[int], None] | None = None,
) -> SimStats:
    """Play `games` games; seat s is played by bot_names[s % len(bot_names)].

    Each game gets its own seed drawn from `seed`, so a run is reproducible
    and any single game can be replayed from its saved transcript.
    """
    rng = random.Random(seed)
    names = [bot_names[s % len(bot_names)] for s in range(game.seats)]
    stats = SimStats(game.id, game.seats, names, wins=[0.0] * game.seats, net=[0] * game.seats)
    if save_dir is not None:
        save_dir.mkdir(parents=True, exist_ok=True)
    for i in range(games):
        game_seed = rng.getrandbits(64)
        table = Table(game, RandomDice(game_seed), record=False, trusted=True)
        table.play(make_bots(game, names, random.Random(game_seed)))
        result = table.state.result()
        for w in result.winners:
            stats.wins[w] += 1 / len(result.winners)
        for s, n in enumerate(result.net):
            stats.net[s] += n
        stats.unit = result.unit
        stats.steps += len(table.steps)
        stats.games += 1
        if save_dir is not None:
            path = save_dir / f"{game.id}-{i:06d}.json"
            path.write_text(json.dumps(table.transcript(), indent=1))
        if on_game is not None:
            on_game(i)
    return stats
