"""The Toplshteyner batch simulator plays the engine's game, at every seat count and option."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import numpy as np
import pytest

from dicehall.batch import play, toplshteyner
from dicehall.batch.toplshteyner import EVENTS, ToplshteynerBatch
from dicehall.core import Game
from dicehall.games import make_game
from dicehall.games.toplshteyner.bots import HeuristicBot
from dicehall.games.toplshteyner.rules import ELECT_SEAT
from tests.batch.equivalence import batch_sample, differences, loop_result, reference

BATCH_GAMES = 20_000
ENGINE_GAMES = 600

CONFIGS = [(n, {}) for n in range(2, 9)] + [
    (3, {"for_fun": True}),
    (4, {"sixes_end_turn": True}),
    (5, {"for_fun": True, "sixes_end_turn": True}),
]


def event_names(kind: str, data: Mapping[str, object]) -> list[str]:
    """The batch's names for one engine event: a double by its face, a turn by its end,
    an election also by the seat elected."""
    if kind == "double":
        return [f"double {data['face']}"]
    if kind == "turn":
        return [f"turn {data['end']}"]
    if kind == "elect":
        return [kind, f"elect {data['seat']}"]
    return [kind]


HEURISTIC: list[tuple[int, dict[str, object], tuple[str, ...]]] = [
    (4, {}, ("heuristic", "random")),
    (6, {"for_fun": True}, ("heuristic",)),
]


def compare(
    seats: int,
    options: dict[str, object],
    seed: int = 1,
    bots: Sequence[str] = ("random",),
    loop: bool = False,
) -> list[tuple[str, float]]:
    game = make_game("toplshteyner", seats, options)
    result = loop_result(game, BATCH_GAMES, seed) if loop else play(game, BATCH_GAMES, seed, bots)
    batch = batch_sample(result)
    engine = reference(
        "toplshteyner", seats, tuple(options.items()), seed, ENGINE_GAMES, EVENTS, event_names,
        tuple(bots),
    )  # fmt: skip
    return differences(batch, engine)


@pytest.mark.parametrize(("seats", "options"), CONFIGS, ids=[f"{n}-{o}" for n, o in CONFIGS])
def test_batch_plays_the_engines_toplshteyner(seats: int, options: dict[str, object]) -> None:
    assert compare(seats, options) == []


@pytest.mark.parametrize(("seats", "options"), CONFIGS, ids=[f"{n}-{o}" for n, o in CONFIGS])
def test_the_compiled_loop_plays_the_engines_toplshteyner(
    seats: int, options: dict[str, object]
) -> None:
    """The vector environment's compiled loop (`toplshteyner_kernel`), whole games with no outside
    seat: every event counted as the batch counts it."""
    assert compare(seats, options, loop=True) == []


def test_P4_a_second_snake_eyes_costing_a_life_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check has teeth: forget that a second 1-1 ends the turn safe and it fails."""
    original = ToplshteynerBatch._snake_eyes

    def every_one_the_first(self: ToplshteynerBatch, g):  # type: ignore[no-untyped-def]
        self.snake_eyes[g] = False
        original(self, g)

    monkeypatch.setattr(ToplshteynerBatch, "_snake_eyes", every_one_the_first)
    assert "event turn second_snake_eyes" in dict(compare(4, {}))


@pytest.mark.parametrize(
    ("seats", "options", "bots"),
    [
        pytest.param(*config, marks=() if i == 0 else pytest.mark.slow)
        for i, config in enumerate(HEURISTIC)
    ],
    ids=[f"{n}-{o}-{b}" for n, o, b in HEURISTIC],
)
def test_batch_plays_the_engines_heuristic_toplshteyner(
    seats: int, options: dict[str, object], bots: tuple[str, ...]
) -> None:
    """The heuristic bot's policy as the batch plays it, against the engine's bot."""
    assert compare(seats, options, bots=bots) == []


def test_P8_a_heuristic_electing_the_next_player_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The check has teeth for the bot too: elect the next player in play order instead of
    the one whose lost life most raises the bot's chance to win, and it fails."""

    def next_player(game: Game, for_fun: bool, sixes_end_turn: bool, *lives: int) -> int:
        return 1  # the first after the roller in play order

    monkeypatch.setattr(toplshteyner, "_elect", next_player)
    monkeypatch.setattr(toplshteyner, "ELECTIONS", {})  # none of the right answers kept
    failed = dict(compare(*HEURISTIC[0][:2], bots=HEURISTIC[0][2]))
    assert "event turn out" in failed  # its elected players go out (P10) at other rates


def test_the_heuristics_elections_are_the_bots() -> None:
    """The batch asks the bot once per position (the lives of those in, in play order
    from the roller): on random tables the seat it elects is the one the bot elects.
    (Never five players in, nor six: the exact table of five takes seconds to solve.)"""
    rng = random.Random(2)
    for _ in range(200):
        seats = rng.randint(3, 8)
        game = make_game("toplshteyner", seats)
        lives = [rng.choice([0, 1, 2, 3, 4]) for _ in range(seats)]
        roller = rng.randrange(seats)
        lives[roller] = max(lives[roller], 1)
        if sum(x > 0 for x in lives) in (0, 1, 2, 5, 6):
            continue
        batch = ToplshteynerBatch(game, 1, 1, ["heuristic"])
        batch.lives[0] = lives
        got = batch._heuristic_elect(np.array([0]), np.array([roller]))[0]
        view = {**game.new_state().view(roller), "phase": "elect", "roller": roller}
        view["lives"] = lives
        order = [s % seats for s in range(roller + 1, roller + seats) if lives[s % seats]]
        bot = HeuristicBot(game, roller, random.Random(0))
        assert got == bot.choose(view, [ELECT_SEAT[s] for s in order])["seat"]
