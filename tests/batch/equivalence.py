"""Does a batch simulator play the engine's game? Two samples compared statistic by statistic.

The engine plays the reference sample with random bots (uniform among the
legal actions, as the batch does) and keeps its event log, so each event type
is counted per game exactly as the batch counts it. Every statistic is a mean
over games (steps, a seat's wins, a seat's net gain, an event's count), and
each is compared with a two-sample z-test (Welch's; with the pooled variance
when one sample has none, as a rare event the engine's smaller sample never
saw); the family of tests of one configuration fails when any p-value is below
ALPHA / (number of tests) (Bonferroni), so a correct simulator fails one
configuration with probability below ALPHA, and the seeds are fixed besides.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from functools import cache

import numpy as np
import pytest
from numpy.typing import NDArray

from dicehall.batch import BatchResult
from dicehall.batch.seated import seated
from dicehall.core import Game, RandomDice, make_bots
from dicehall.games import make_game

ALPHA = 1e-3

Sample = Mapping[str, NDArray[np.float64]]
"""Statistic name -> its value in each game of the sample."""


def loop_result(game: Game, games: int, seed: int) -> BatchResult:
    """`games` whole games played by the compiled loop of a seated batch with no outside
    seats (`dicehall.batch.seated.compiled`), reported as the batch reports its own runs
    (`run` then finds every game over)."""
    pytest.importorskip("numba", reason="the rl extra is not installed: pip install '.[rl]'")
    batch = seated(game, games, seed)
    assert batch._loop is not None
    batch.advance(batch.every)
    assert batch.over(batch.every).all()
    return batch.run()  # type: ignore[attr-defined,no-any-return]


def batch_sample(result: BatchResult) -> Sample:
    seats = result.game.seats
    sample: dict[str, NDArray[np.float64]] = {"steps": result.steps.astype(float)}
    shares = result.win_shares()
    for s in range(seats):
        sample[f"wins[{s}]"] = shares[:, s].astype(float)
        sample[f"net[{s}]"] = result.net[:, s].astype(float)
    for name, counts in result.events.items():
        sample[f"event {name}"] = counts.astype(float)
    return sample


EventNames = Callable[[str, Mapping[str, object]], list[str]]
"""The batch's names for one engine event (type, data): its type, and names derived from it."""


def engine_sample(
    game: Game,
    games: int,
    seed: int,
    events: Sequence[str],
    names: EventNames,
    bots: Sequence[str] = ("random",),
) -> Sample:
    """`games` games on the engine, seat s played by `bots[s % len(bots)]` (random: uniform
    among the legal actions, as the batch), counting the batch's `events` from the log."""
    rng = random.Random(seed)
    dice = RandomDice(seed)
    rows: list[dict[str, float]] = []
    for _ in range(games):
        state = game.new_state(record=True)
        players = make_bots(game, list(bots), rng) if set(bots) != {"random"} else {}
        steps = 0
        while not state.is_over():
            if state.is_chance():
                state.apply_chance(dice.throw(state.chance_dice()))
            else:
                seat = state.actors()[0]
                legal = state.legal_actions(seat)
                if bots[seat % len(bots)] == "random":
                    state.apply(seat, legal[rng.randrange(len(legal))])
                else:
                    state.apply(seat, players[seat].choose(state.view(seat), legal))
            steps += 1
        result = state.result()
        row: dict[str, float] = {"steps": steps}
        for s in range(game.seats):
            row[f"wins[{s}]"] = sum(1 / len(result.winners) for w in result.winners if w == s)
            row[f"net[{s}]"] = result.net[s]
        counts = dict.fromkeys(events, 0.0)
        for event in state.log or []:
            for name in names(event.type, event.data):
                if name in counts:
                    counts[name] += 1
        row.update({f"event {k}": v for k, v in counts.items()})
        rows.append(row)
    return {key: np.array([row[key] for row in rows]) for key in rows[0]}


@cache
def reference(
    game_id: str,
    seats: int,
    options: tuple[tuple[str, object], ...],
    seed: int,
    games: int,
    events: tuple[str, ...],
    names: EventNames,
    bots: tuple[str, ...] = ("random",),
) -> Sample:
    """`engine_sample` of one configuration, played once per test run: the tests of a
    correct batch and of a deliberately broken one compare with the same sample."""
    game = make_game(game_id, seats, dict(options))
    return engine_sample(game, games, seed, events, names, bots)


def differences(a: Sample, b: Sample) -> list[tuple[str, float]]:
    """The statistics whose means differ significantly: (name, p-value)."""
    assert a.keys() == b.keys(), set(a) ^ set(b)
    tests: list[tuple[str, float]] = []
    for name in a:
        x, y = a[name], b[name]
        vx, vy = x.var(ddof=1), y.var(ddof=1)
        if vx == 0 or vy == 0:  # a rare event one sample never saw: pool the variances
            vx = vy = np.concatenate([x, y]).var(ddof=1)
        spread = math.sqrt(vx / x.size + vy / y.size)
        if spread == 0:
            p = 1.0 if x.mean() == y.mean() else 0.0
        else:
            z = (x.mean() - y.mean()) / spread
            p = math.erfc(abs(z) / math.sqrt(2))
        tests.append((name, p))
    threshold = ALPHA / len(tests)
    return [(name, p) for name, p in tests if p < threshold]
