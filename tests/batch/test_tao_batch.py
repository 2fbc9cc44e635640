"""The Tao Dice batch simulator plays the engine's game, at every seat count and length."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from dicehall.batch import play
from dicehall.batch.tao import EVENTS, TaoBatch
from dicehall.games import make_game
from tests.batch.equivalence import batch_sample, differences, engine_sample

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


def compare(
    seats: int,
    options: dict[str, object],
    seed: int = 1,
    batch_games: int = BATCH_GAMES,
    engine_games: int = ENGINE_GAMES,
) -> list[tuple[str, float]]:
    game = make_game("tao", seats, options)
    batch = batch_sample(play(game, batch_games, seed))
    engine = engine_sample(game, engine_games, seed, EVENTS, event_names)
    return differences(batch, engine)


@pytest.mark.parametrize(("seats", "options"), CONFIGS, ids=[f"{n}-{o}" for n, o in CONFIGS])
def test_batch_plays_the_engines_tao(seats: int, options: dict[str, object]) -> None:
    assert compare(seats, options) == []


def test_batch_plays_the_engines_whole_tao_game() -> None:
    """Two seats, the token game: matches, the token (D12), outs (D10)."""
    assert compare(2, {}, batch_games=5000, engine_games=250) == []


@pytest.mark.slow
@pytest.mark.parametrize(
    ("seats", "options"), SLOW_CONFIGS, ids=[f"{n}-{o}" for n, o in SLOW_CONFIGS]
)
def test_batch_plays_the_engines_whole_tao_games(seats: int, options: dict[str, object]) -> None:
    assert compare(seats, options, batch_games=5000, engine_games=400) == []


def test_D5_a_second_reroll_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check has teeth: let a white stone buy two rerolls instead of one and it fails."""
    original = TaoBatch._reroll

    def twice(self: TaoBatch, g, throw, event):  # type: ignore[no-untyped-def]
        original(self, g, throw, event)
        original(self, g, throw, event)

    monkeypatch.setattr(TaoBatch, "_reroll", twice)
    failed = dict(compare(4, ROUND))
    assert "steps" in failed
