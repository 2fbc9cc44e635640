"""The Toplshteyner batch simulator plays the engine's game, at every seat count and option."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from dicehall.batch import play
from dicehall.batch.toplshteyner import EVENTS, ToplshteynerBatch
from dicehall.games import make_game
from tests.batch.equivalence import batch_sample, differences, engine_sample

BATCH_GAMES = 20_000
ENGINE_GAMES = 600

CONFIGS = [(n, {}) for n in range(2, 9)] + [
    (3, {"for_fun": True}),
    (4, {"sixes_end_turn": True}),
    (5, {"for_fun": True, "sixes_end_turn": True}),
]


def event_names(kind: str, data: Mapping[str, object]) -> list[str]:
    """The batch's names for one engine event: a double by its face, a turn by its end."""
    if kind == "double":
        return [f"double {data['face']}"]
    if kind == "turn":
        return [f"turn {data['end']}"]
    return [kind]


def compare(seats: int, options: dict[str, object], seed: int = 1) -> list[tuple[str, float]]:
    game = make_game("toplshteyner", seats, options)
    batch = batch_sample(play(game, BATCH_GAMES, seed))
    engine = engine_sample(game, ENGINE_GAMES, seed, EVENTS, event_names)
    return differences(batch, engine)


@pytest.mark.parametrize(("seats", "options"), CONFIGS, ids=[f"{n}-{o}" for n, o in CONFIGS])
def test_batch_plays_the_engines_toplshteyner(seats: int, options: dict[str, object]) -> None:
    assert compare(seats, options) == []


def test_P4_a_second_snake_eyes_costing_a_life_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check has teeth: forget that a second 1-1 ends the turn safe and it fails."""
    original = ToplshteynerBatch._snake_eyes

    def every_one_the_first(self: ToplshteynerBatch, g):  # type: ignore[no-untyped-def]
        self.snake_eyes[g] = False
        original(self, g)

    monkeypatch.setattr(ToplshteynerBatch, "_snake_eyes", every_one_the_first)
    assert "event turn second_snake_eyes" in dict(compare(4, {}))
