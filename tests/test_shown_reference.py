"""The tracking of shown throws reports, step by step, exactly what the plain reference
(tests/shown_reference.py, the tracking before it was made faster) reports, over many
random games of every game and of the test games whose states keep a dict: the same
(throw, audience) pairs at the same steps; and `same_state`, on which its merging
without views rests, against clones and fields that cannot compare."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dicehall.core.game import Game
from dicehall.core.shown import ShownThrows, same_state
from dicehall.core.transcript import apply_step
from dicehall.games import game_ids, make_game
from tests.shown_reference import ReferenceShownThrows
from tests.toy_game import Duel, HighDie

GAMES = {"kariki": 40, "toplshteyner": 20, "tepiiku": 6, "tao": 3}
"""Random games per game: Tepiiku's and Tao's are slow to track (216 and 36 outcomes a
throw, Tao's games long), so fewer of them, and Tao's cut at `STEPS`."""
STEPS = 400


def random_steps(game: Game, rng: random.Random) -> list[dict[str, Any]]:
    """A game of random legal actions (any actor's, timeouts now and then) and fair dice."""
    state = game.new_state(record=True)
    steps: list[dict[str, Any]] = []
    while not state.is_over() and len(steps) < STEPS:
        if state.is_chance():
            step: dict[str, Any] = {"chance": [rng.choice(d) for d in state.chance_dice()]}
        else:
            seat = rng.choice(state.actors())
            if rng.random() < 0.03:
                step = {"seat": seat, "timeout": True}
            else:
                step = {"seat": seat, "action": dict(rng.choice(state.legal_actions(seat)))}
        apply_step(state, step)
        steps.append(step)
    return steps


def test_every_game_is_compared() -> None:
    assert set(GAMES) == set(game_ids())


@pytest.mark.parametrize("gid", sorted(GAMES))
def test_the_tracking_reports_what_the_reference_reports(gid: str) -> None:
    rng = random.Random(f"shown-{gid}")
    for n in range(GAMES[gid]):
        game = make_game(gid)
        if gid == "kariki":  # seats and options vary: throws shown and hidden in every way
            options = {"high_rollers": rng.random() < 0.5, "throws": rng.choice([0, 0, 2])}
            game = make_game(gid, rng.choice([2, 3, 4, 5]), options)
        steps = random_steps(game, rng)
        fast, slow = ShownThrows(game), ReferenceShownThrows(game)
        for i, step in enumerate(steps):
            assert fast.step(step) == slow.step(step), (gid, n, i)
        assert fast.shown == slow.shown
        assert [fast.sealed(a) for a in fast.audiences] == [slow.sealed(a) for a in fast.audiences]


@pytest.mark.parametrize("make", [HighDie, Duel])
def test_a_game_whose_state_keeps_its_fields_in_a_dict_is_tracked_the_same(make: Any) -> None:
    rng = random.Random(f"shown-{make.__name__}")
    for n in range(50):
        game = make(rng.randint(make.min_seats, make.max_seats))
        steps = random_steps(game, rng)
        fast, slow = ShownThrows(game), ReferenceShownThrows(game)
        for i, step in enumerate(steps):
            assert fast.step(step) == slow.step(step), (n, i)


@pytest.mark.parametrize("gid", sorted(GAMES))
def test_a_state_is_the_same_as_its_clone_until_either_moves(gid: str) -> None:
    game = make_game(gid)
    state = game.new_state(record=True)
    copy = state.clone()
    assert same_state(state, copy) and same_state(copy, state)
    steps = random_steps(game, random.Random(gid))
    apply_step(copy, steps[0])
    assert not same_state(state, copy)
    apply_step(state, steps[0])
    assert same_state(state, copy)  # the log aside


def test_a_field_that_cannot_say_it_is_equal_counts_as_different() -> None:
    game = HighDie(2)
    state, copy = game.new_state(), game.new_state()
    state.dice, copy.dice = ArrayLike(), ArrayLike()
    assert not same_state(state, copy)
    assert not same_state(state, make_game("kariki").new_state())


class ArrayLike:
    """Compares as an array does: an answer that is not a plain bool."""

    def __eq__(self, other: object) -> Any:
        raise ValueError("the truth value of an array is ambiguous")

    __hash__ = None  # type: ignore[assignment]
