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
from dicehall.core.table import Played, bot_factories, play_trusted, step_rows
from dicehall.core.transcript import make_transcript


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
    decisions: int = 0
    """The seats' decisions: `steps` less the throws."""

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
    and any single game can be replayed from its saved transcript. Games are
    played on the trusted fast path (`play_trusted`), step for step as a
    trusted `Table` plays them; bots that read no view are given none.
    """
    rng = random.Random(seed)
    names = [bot_names[s % len(bot_names)] for s in range(game.seats)]
    stats = SimStats(game.id, game.seats, names, wins=[0.0] * game.seats, net=[0] * game.seats)
    if save_dir is not None:
        save_dir.mkdir(parents=True, exist_ok=True)
    factories = bot_factories(game, names)
    for i in range(games):
        game_seed = rng.getrandbits(64)
        seeds = random.Random(game_seed)  # each bot's source, as make_bots seeds them
        bots = {s: make(game, s, random.Random(seeds.random())) for s, make in enumerate(factories)}
        played: Played | None = [] if save_dir is not None else None
        playout = play_trusted(game, RandomDice(game_seed), bots, played)
        result = playout.state.result()
        for w in result.winners:
            stats.wins[w] += 1 / len(result.winners)
        for s, n in enumerate(result.net):
            stats.net[s] += n
        stats.unit = result.unit
        stats.steps += playout.steps
        stats.decisions += playout.decisions
        stats.games += 1
        if played is not None and save_dir is not None:
            path = save_dir / f"{game.id}-{i:06d}.json"
            transcript = make_transcript(game, step_rows(played), None, playout.state)
            path.write_text(json.dumps(transcript, indent=1))
        if on_game is not None:
            on_game(i)
    return stats
