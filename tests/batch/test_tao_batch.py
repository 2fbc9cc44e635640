"""The Tao Dice batch simulator plays the engine's game, at every seat count and length."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import numpy as np
import pytest

from dicehall.batch import play, tao
from dicehall.batch.tao import EVENTS, TaoBatch
from dicehall.games import make_game
from dicehall.games.tao.odds import equity, totals
from tests.batch.equivalence import batch_sample, differences, loop_result, reference

BATCH_GAMES = 20_000
ENGINE_GAMES = 600

ROUND: dict[str, object] = {"length": "round"}
CONFIGS: list[tuple[int, dict[str, object]]] = [(n, ROUND) for n in range(2, 7)] + [
    (4, {"length": "round", "opener": "2"}),
]
"""Whole games run long on the engine (a thousand steps and more from four seats): the
default run checks a round and its tie-breaks at every seat count, whole games at two
seats (test_batch_plays_the_engines_whole_tao_game), and `make soak` the rest."""
SLOW_CONFIGS: list[tuple[int, dict[str, object]]] = [(n, {}) for n in range(3, 7)] + [
    (3, {"length": "single", "opener": "1"}),
    (4, {"length": "two"}),
    (5, {"length": "single"}),
]


def event_names(kind: str, data: Mapping[str, object]) -> list[str]:
    """The batch's names for one engine event: its type, and D4's and D5's bets."""
    names = [kind]
    if kind in ("raise", "call") and data["white"]:
        names.append("white bet")
    if kind == "call" and not data["black"] and not data["white"]:
        names.append("gratis")
    return names


HEURISTIC: list[tuple[int, dict[str, object], tuple[str, ...]]] = [
    (3, ROUND, ("heuristic", "random")),
    (4, ROUND, ("heuristic",)),
    (5, ROUND, ("random", "heuristic", "heuristic")),
    (2, {}, ("heuristic", "random")),
]


def compare(
    seats: int,
    options: dict[str, object],
    seed: int = 1,
    batch_games: int = BATCH_GAMES,
    engine_games: int = ENGINE_GAMES,
    bots: Sequence[str] = ("random",),
    loop: bool = False,
) -> list[tuple[str, float]]:
    game = make_game("tao", seats, options)
    result = loop_result(game, batch_games, seed) if loop else play(game, batch_games, seed, bots)
    batch = batch_sample(result)
    engine = reference(
        "tao", seats, tuple(options.items()), seed, engine_games, EVENTS, event_names,
        tuple(bots),
    )  # fmt: skip
    return differences(batch, engine)


@pytest.mark.parametrize(("seats", "options"), CONFIGS, ids=[f"{n}-{o}" for n, o in CONFIGS])
def test_batch_plays_the_engines_tao(seats: int, options: dict[str, object]) -> None:
    assert compare(seats, options) == []


@pytest.mark.parametrize(("seats", "options"), CONFIGS, ids=[f"{n}-{o}" for n, o in CONFIGS])
def test_the_compiled_loop_plays_the_engines_tao(seats: int, options: dict[str, object]) -> None:
    """The vector environment's compiled loop (`tao_kernel`) with no outside seat: every
    event counted as the batch counts it."""
    assert compare(seats, options, loop=True) == []


@pytest.mark.parametrize("loop", [False, True], ids=["passes", "compiled loop"])
def test_batch_plays_the_engines_whole_tao_game(loop: bool) -> None:
    """Two seats, the token game: matches, the token (D12), outs (D10)."""
    assert compare(2, {}, batch_games=5000, engine_games=250, loop=loop) == []


@pytest.mark.slow
@pytest.mark.parametrize(
    ("seats", "options"), SLOW_CONFIGS, ids=[f"{n}-{o}" for n, o in SLOW_CONFIGS]
)
def test_batch_plays_the_engines_whole_tao_games(seats: int, options: dict[str, object]) -> None:
    assert compare(seats, options, batch_games=5000, engine_games=400) == []


@pytest.mark.parametrize(
    ("seats", "options", "bots"),
    [
        pytest.param(*config, marks=() if i == 1 else pytest.mark.slow)
        for i, config in enumerate(HEURISTIC)
    ],
    ids=[f"{n}-{o}-{b}" for n, o, b in HEURISTIC],
)
def test_batch_plays_the_engines_heuristic_tao(
    seats: int, options: dict[str, object], bots: tuple[str, ...]
) -> None:
    """The heuristic bot's policy as the batch plays it, against the engine's bot."""
    games = 5000 if options.get("length") != "round" else BATCH_GAMES
    assert compare(seats, options, bots=bots, batch_games=games, engine_games=250) == []


def test_the_batchs_equities_are_the_bots_to_the_last_bit() -> None:
    """`tao.equity` (arrays) against `odds.equity` (the bot's) on random positions: the
    heuristic's thresholds compare the very same floats."""
    rng = random.Random(1)
    for _ in range(500):
        n = rng.randint(2, 6)
        two, d12 = rng.choice([0, *range(2, 13)]), rng.randint(0, 12)
        opponents = [rng.random() < 0.7 for _ in range(n)]
        their = [rng.randint(0, 12) for _ in range(n)]
        exact = equity(
            totals(two or None, d12 or None),
            [totals(None, d or None) for o, d in zip(opponents, their, strict=True) if o],
        )
        arrays = tao.equity(
            np.array([two]), np.array([d12]), np.array([opponents]), np.array([their])
        )
        assert arrays[0] == exact


@pytest.mark.parametrize("wrong", ["stage-one equities", "fewest white"])
def test_a_wrong_heuristic_is_caught(wrong: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check has teeth for the bot too: judge stage two by stage one's equities, or
    never pay the white stone the bot pays to reroll, and it fails."""
    if wrong == "fewest white":
        monkeypatch.setattr(tao, "_white", lambda reroll, low, high: low)
    else:
        original = TaoBatch._equities

        def stage_one(self, g, stage, seat, opponents, rerolling):  # type: ignore[no-untyped-def]
            return original(self, g, 1, seat, opponents, rerolling)

        monkeypatch.setattr(TaoBatch, "_equities", stage_one)
    seats, options, bots = HEURISTIC[1]
    failed = dict(compare(seats, options, bots=bots, engine_games=250))
    assert "event white bet" in failed


def test_D5_a_second_reroll_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check has teeth: let a white stone buy two rerolls instead of one and it fails."""
    original = TaoBatch._reroll

    def twice(self: TaoBatch, g, throw, event):  # type: ignore[no-untyped-def]
        original(self, g, throw, event)
        original(self, g, throw, event)

    monkeypatch.setattr(TaoBatch, "_reroll", twice)
    failed = dict(compare(4, ROUND))
    assert "steps" in failed
