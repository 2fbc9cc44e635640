"""Tournaments between bots with confidence intervals: what `dicehall duel` runs.

Seats are filled by cycling the bot list (as `dicehall sim` does). Games come
in blocks of one seating rotation per seat count: every game of a block
throws the same dice (one seed) with the bots shifted one seat further, so
each bot sits in every seat and rolls first (the roll-off's winner) equally
often. A block is the unit of sampling: the 95% interval of a bot's win rate
is the normal interval over block means, which keeps the pairing's variance
reduction honest.

A bot's win rate is per seat it holds: its wins divided by its seats, so the
fair share of a bot no better than the others is 1 / seats whatever the
seating; its net is per seat and game too.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from dicehall.cluster import Local, Runner, chunked
from dicehall.core import Game, Result, make_bots
from dicehall.core.table import play_game


@dataclass
class BotScore:
    """One bot's showing in a duel: its win rate per seat held, with the 95% interval that
    says whether it beats the fair share."""

    win_rate: float
    ci95: tuple[float, float]
    net_per_game: float


@dataclass
class DuelResult:
    """A whole duel: every bot's score, and what `dicehall duel --json` prints."""

    game: str
    seats: int
    games: int
    bots: list[str]
    scores: dict[str, BotScore]
    unit: str

    @property
    def fair_share(self) -> float:
        return 1.0 / self.seats

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seats": self.seats,
            "games": self.games,
            "bots": self.bots,
            "fair_share": self.fair_share,
            "win_rate": {name: s.win_rate for name, s in self.scores.items()},
            "ci95": {name: list(s.ci95) for name, s in self.scores.items()},
            "net_per_game": {name: s.net_per_game for name, s in self.scores.items()},
            "unit": self.unit,
        }


def seating(names: Sequence[str], seats: int, shift: int) -> list[str]:
    """The bot at each seat for one rotation of the seating."""
    return [names[(seat + shift) % len(names)] for seat in range(seats)]


CHUNK_GAMES = 240
"""About how many games one chunk plays (whole blocks): a Ray task's worth of work."""


@dataclass(frozen=True)
class Blocks:
    """A chunk of a duel: blocks of games, each with its seed and how many of its rotations."""

    game: Game
    names: tuple[str, ...]
    blocks: tuple[tuple[int, int], ...]


def play_blocks(chunk: Blocks) -> list[Result]:
    """Every game of a chunk's blocks, in order: rotation `shift` of a block seats the bots
    one seat further on the block's dice."""
    return [
        play_game(chunk.game, seating(chunk.names, chunk.game.seats, shift), seed, seed + shift)
        for seed, block_games in chunk.blocks
        for shift in range(block_games)
    ]


def duel(
    game: Game,
    names: Sequence[str],
    games: int,
    seed: int | None = None,
    on_game: Callable[[int], None] | None = None,
    runner: Runner | None = None,
    chunk_games: int = CHUNK_GAMES,
) -> DuelResult:
    """Play `games` games in blocks of rotations and score each bot.

    The block seeds are drawn first, the blocks played in chunks by `runner`
    (here, or on Ray: `dicehall.cluster`) and the games scored in order, so
    the result depends on the seed alone.
    """
    distinct = list(dict.fromkeys(names))
    if len(distinct) < 2:
        raise ValueError("a duel needs at least two different bots")
    make_bots(game, list(names), random.Random(0))  # unknown names fail before any game
    rng = random.Random(seed)
    n = game.seats
    plan = []
    for start in range(0, games, n):
        plan.append((rng.getrandbits(64), min(n, games - start)))
    chunks = [
        Blocks(game, tuple(names), tuple(part)) for part in chunked(plan, max(1, chunk_games // n))
    ]
    blocks: dict[str, list[float]] = {name: [] for name in distinct}
    wins = dict.fromkeys(distinct, 0.0)
    net = dict.fromkeys(distinct, 0.0)
    unit = ""
    played = 0
    for chunk, results in zip(chunks, (runner or Local()).map(play_blocks, chunks), strict=True):
        games_of = iter(results)
        for _, block_games in chunk.blocks:
            block_wins = dict.fromkeys(distinct, 0.0)
            for shift in range(block_games):
                bots = seating(names, n, shift)
                result = next(games_of)
                unit = result.unit
                held = {name: bots.count(name) for name in distinct}
                for w in result.winners:
                    block_wins[bots[w]] += 1 / len(result.winners) / held[bots[w]]
                for seat, gain in enumerate(result.net):
                    net[bots[seat]] += gain / held[bots[seat]]
                played += 1
                if on_game is not None:
                    on_game(played)
            for name in distinct:
                wins[name] += block_wins[name]
                blocks[name].append(block_wins[name] / block_games)
    scores = {}
    for name in distinct:
        rate = wins[name] / games
        spread = _standard_error(blocks[name])
        scores[name] = BotScore(
            win_rate=rate,
            ci95=(max(0.0, rate - 1.96 * spread), min(1.0, rate + 1.96 * spread)),
            net_per_game=net[name] / games,
        )
    return DuelResult(game.id, n, games, list(names), scores, unit)


def _standard_error(values: Sequence[float]) -> float:
    k = len(values)
    if k < 2:
        return 1.0  # one block: no spread to measure, so an interval of everything
    mean = sum(values) / k
    var = sum((v - mean) ** 2 for v in values) / (k - 1)
    return math.sqrt(var / k)
