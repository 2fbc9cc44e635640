"""The trusted fast path plays exactly the game the checked API plays.

`apply_trusted` / `apply_chance_trusted` skip the checks of `apply` /
`apply_chance`; given the same legal steps they must leave every state
exactly as the checked calls do, for every game, toy and seat count.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from dicehall.core import D6, D12, State
from dicehall.core.chance import face_table, outcomes, random_faces
from dicehall.core.sim import simulate
from dicehall.core.transcript import replay
from dicehall.games import make_game
from tests.test_properties import CONFIGS, IDS

GAMES_PER_CONFIG = 3


def everything_seen(state: State) -> list[object]:
    seats = range(state.game.seats)
    return [
        state.view(None),
        [state.view(s) for s in seats],
        [state.legal_actions(s) for s in seats],
        state.actors(),
        state.is_chance(),
        dict(state.conserved()),
    ]


@pytest.mark.parametrize(("cls", "seats"), CONFIGS, ids=IDS)
def test_trusted_steps_match_checked_steps(cls: type, seats: int) -> None:
    game = cls(seats)
    rng = random.Random(seats)
    for _ in range(GAMES_PER_CONFIG):
        checked, trusted = game.new_state(), game.new_state()
        while not checked.is_over():
            if checked.is_chance():
                faces = random_faces(checked.chance_dice(), rng.random)
                checked.apply_chance(faces)
                trusted.apply_chance_trusted(faces)
            else:
                seat = rng.choice(checked.actors())
                legal = checked.legal_actions(seat)
                action = legal[rng.randrange(len(legal))]
                checked.apply(seat, action)
                trusted.apply_trusted(seat, action)
            assert everything_seen(trusted) == everything_seen(checked)
        assert trusted.is_over()
        assert trusted.result() == checked.result()


@pytest.mark.parametrize(
    "dice", [(D6,), (D6, D6), (D12,), (D6, D12), (("a", "b"), D6, D6), (D6,) * 4]
)
def test_random_faces_draws_each_outcome_equally(dice: tuple) -> None:
    """N evenly spaced random numbers give each of the N outcomes exactly once (C1)."""
    expected = [faces for faces, _ in outcomes(dice)]
    assert face_table(dice) is not None
    n = len(expected)
    points = iter([(i + 0.5) / n for i in range(n)])
    drawn = [random_faces(dice, points.__next__) for _ in range(n)]
    assert sorted(map(repr, drawn)) == sorted(map(repr, expected))


def test_random_faces_of_a_large_throw_draws_each_die() -> None:
    dice = (D6,) * 6  # 46,656 outcomes: above the table limit
    assert face_table(dice) is None
    values = iter([0.0, 0.2, 0.4, 0.6, 0.8, 0.99])
    assert random_faces(dice, values.__next__) == (1, 2, 3, 4, 5, 6)


def test_simulations_on_the_fast_path_replay_through_every_check(tmp_path: Path) -> None:
    game = make_game("kariki", 3, {"high_rollers": True})
    stats = simulate(game, ["heuristic", "random"], 5, seed=7, save_dir=tmp_path)
    assert stats.games == 5
    for path in sorted(tmp_path.iterdir()):
        state = replay(json.loads(path.read_text()))
        assert state.is_over()
