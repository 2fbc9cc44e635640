"""The Kariki solver bot: the strongest listed first, blind to others' dice (C6), reproducible."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicehall.core import Action, RandomDice, State, Table, make_bots
from dicehall.core.bots import Bot
from dicehall.games import make_game
from dicehall.games.kariki.rules import RANK_NAMES
from dicehall.games.kariki.solver import bot as solver_bot
from dicehall.games.kariki.solver import opening
from dicehall.games.kariki.solver.bot import SolverBot
from dicehall.games.kariki.solver.model import ZERO
from dicehall.games.kariki.solver.stored import strategy_for
from dicehall.games.kariki.solver.table_bot import TableBot
from tests.strategy.redraw import each_decision_redrawn


def test_the_strongest_is_listed_first_for_the_seat_count() -> None:
    for seats in (2, 3, 4):
        assert list(make_game("kariki", seats).bots()) == ["solver", "table", "heuristic", "random"]
    # from five seats the table bot loses duels to the heuristic (docs/researchers/kariki.md)
    assert list(make_game("kariki", 5).bots()) == ["solver", "heuristic", "table", "random"]
    # options the scored policies are not solved for: the table bot is the stronger there
    for seats in (3, 4):
        game = make_game("kariki", seats, {"berries": 3})
        assert list(game.bots()) == ["table", "solver", "heuristic", "random"]


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_solver_plays_as_the_table_bot_with_four_seats_in_or_fewer(seats: int) -> None:
    """For the default options: every decision with four seats in or fewer is the table
    bot's (its scored policies, the two-seat equilibrium at two in); with more in, and for
    other options, the solver's own."""
    game = make_game("kariki", seats)
    solver, table = SolverBot(game, 0, random.Random(0)), TableBot(game, 0, random.Random(0))
    other_options = SolverBot(make_game("kariki", seats, {"berries": 3}), 0, random.Random(0))
    seen = {True: 0, False: 0}

    def check(
        seat: int, state: State, other: State, legal: Sequence[Action], bots: list[Bot]
    ) -> None:
        view = state.view(seat)
        solver.seat = table.seat = seat
        if view["phase"] in ("claim", "respond"):
            few = sum(not out for out in view["out"]) <= 4
            seen[few] += 1
            if few:
                assert solver.policy(view, legal) == table.policy(view, legal)
            assert solver.plays_table(view) == few
        assert not other_options.plays_table(view)

    for seed in range(3):
        each_decision_redrawn("kariki", seats, ["solver"], seed, check)
    assert seen[True] > 0
    assert seen[False] > 0 or seats <= 4


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.sampled_from([2, 3, 5]))
def test_C6_solver_decides_the_same_whatever_others_dice(seed: int, seats: int) -> None:
    """At every decision its chances depend only on the view: redraw what it may not see."""
    probe = SolverBot(make_game("kariki", seats), 0, random.Random(0))

    def check(
        seat: int, state: State, other: State, legal: Sequence[Action], bots: list[Bot]
    ) -> None:
        probe.seat = seat
        if seats == 2:  # memoryless: the same view, the same chances
            assert probe.policy(other.view(seat), legal) == probe.policy(state.view(seat), legal)
        assert sum(bots[seat].policy(state.view(seat), legal)) > 0.999

    each_decision_redrawn("kariki", seats, ["solver"], seed, check)


def test_solver_play_is_reproducible_from_a_seed() -> None:
    game = make_game("kariki", 3)

    def play(seed: int) -> list[object]:
        table = Table(game, RandomDice(seed), record=False)
        table.play(make_bots(game, ["solver", "heuristic"], random.Random(seed)))
        return table.steps

    assert play(4) == play(4)
    assert play(4) != play(5)


def test_opening_table_holds_the_strategys_own_chances(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first roll's decisions, cached and read back, are the strategy's chances exactly."""
    monkeypatch.setenv("DICEHALL_CACHE", str(tmp_path))
    opening._opening.cache_clear()
    try:
        game = make_game("kariki", 2)
        computed = opening.opening_chances(game)
        opening._opening.cache_clear()
        read = opening.opening_chances(game)
    finally:
        opening._opening.cache_clear()
    assert read == computed
    strategy = strategy_for(game)
    zero = strategy.scores.index[ZERO]
    assert {key for key in read} == {
        (subgame, key) for subgame in opening.FRESH_ROLLS for key in strategy.infosets[subgame]
    }
    claims = [key for (_, key) in read if key[0] == 0]
    assert len(claims) == 2 * (len(RANK_NAMES) - 1)  # every rank but a Kariki, shown at once
    for (subgame, key), chances in read.items():
        assert chances == [float(c) for c in strategy.chances(zero, subgame, key)]


@pytest.mark.parametrize("seats", [2, 4])
def test_solver_plays_the_same_from_the_opening_table_as_from_the_strategy(
    seats: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = make_game("kariki", seats)

    def play(seed: int) -> list[object]:
        table = Table(game, RandomDice(seed), record=False)
        table.play(make_bots(game, ["solver"], random.Random(seed)))
        return table.steps

    with_table = [play(seed) for seed in range(3)]
    monkeypatch.setattr(solver_bot, "opening_chances", lambda game: {})
    assert [play(seed) for seed in range(3)] == with_table


def test_advice_shows_the_solvers_chances_and_the_claims_posterior() -> None:
    game = make_game("kariki", 2)
    state = game.new_state()
    state.apply_chance((6,))  # the roll-off: seat 0 rolls first
    state.apply_chance((1,))
    state.apply(0, {"type": "direction", "way": "left"})
    state.apply_chance((3, 4))  # Seven under the mug
    claiming = game.advice(state.view(0), state.legal_actions(0))
    assert claiming is not None and claiming.extra["model"] == "solver"
    assert len(claiming.rows) == len(state.legal_actions(0))
    state.apply(0, {"type": "claim", "rank": "9"})  # a bluff: Nine over a Seven
    legal = state.legal_actions(1)
    answer = game.advice(state.view(1), legal)
    assert answer is not None
    assert [row[0] for row in answer.rows] == [game.action_label(a) for a in legal]
    chances = [row[2] for row in answer.rows]
    assert abs(sum(chances) - 1) < 1e-3
    assert 0 < answer.extra["claim_true"] < 1  # the solver bluffs, so a claim may be a lie
    assert "solved two-seat strategy" in answer.note
    # Seat 1 sees nothing of the dice: the same advice whatever they are (C6).
    other = state.resample_hidden(1, random.Random(3))
    assert game.advice(other.view(1), legal) == answer


def test_advice_without_a_solved_strategy_says_it_is_the_truthful_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DICEHALL_STRATEGIES", str(tmp_path))  # an empty cache
    game = make_game("kariki", 2, {"pull": "at-least", "after_kariki": "berry"})
    state = game.new_state()
    state.apply_chance((6,))
    state.apply_chance((1,))
    state.apply(0, {"type": "direction", "way": "left"})
    state.apply_chance((3, 4))
    state.apply(0, {"type": "claim", "rank": "9"})
    answer = game.advice(state.view(1), state.legal_actions(1))
    assert answer is not None and "truthful model" in answer.note
    assert "dicehall solve kariki" in answer.note
    assert not list(tmp_path.iterdir())  # nothing was solved for a request
