"""The Tepiiku solver bot and advice: view only (C6), reproducible, its tables' lookups.

Solving a cap takes minutes (benchmarks/tepiiku_solver.py), so these tests
give the bot tables of random choices of the right shapes: what is checked is
how it reads them from a view, not what they say (tests/games/
test_tepiiku_solver.py checks that).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicehall.core import RandomDice, Table, make_bots
from dicehall.games import make_game
from dicehall.games.tepiiku import solver, strategy
from dicehall.games.tepiiku.hands import ACTIONS, COUNT, HANDS, hand_index
from dicehall.games.tepiiku.rules import SUBSETS
from dicehall.games.tepiiku.solver_bot import SolverBot


@cache
def random_tables(cap: int) -> strategy.Tables:
    rng = np.random.default_rng(cap)
    lay = solver.layout()
    fish, forced = len(lay.fish), len(lay.forced)

    def mixes(*shape: int) -> np.ndarray:
        raw = rng.random((*shape, ACTIONS))
        return (raw / raw.sum(axis=-1, keepdims=True)).astype(np.float32)

    triples = {
        score: mixes(4, len(hands), len(hands), len(hands), 3)
        for score, hands in lay.score_hands.items()
    }
    return strategy.Tables(
        cap=cap,
        fish_policy=rng.integers(0, ACTIONS + 1, (cap, fish)).astype(np.int8),
        fish_value=rng.random((cap, fish, 3)).astype(np.float32),
        forced_policy=rng.integers(0, ACTIONS, (cap, forced)).astype(np.int8),
        forced_value=rng.random((cap, forced, 3)).astype(np.float32),
        pair_strategy=mixes(4, forced, 2),
        triple_strategy=triples,
        thumbs=rng.random((3, COUNT)),
        thumbs_value=rng.random((3, COUNT, 2)),
        thumbs_nash_conv=0.001,
        heuristic_nash_conv=0.1,
        tie_epsilon=0.0,
    )


@pytest.fixture
def tables(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(strategy, "tables", random_tables)
    yield


def test_solver_is_offered_after_the_heuristic() -> None:
    assert list(make_game("tepiiku").bots()) == ["heuristic", "solver", "random"]


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_C6_solver_decides_the_same_whatever_others_dice(seed: int) -> None:
    """Redraw what a deciding seat may not see: the same choice from the same random draw."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(strategy, "tables", random_tables)
        game = make_game("tepiiku", 3, {"bankroll": 5})
        table = Table(game, RandomDice(seed), record=False)
        bots = make_bots(game, ["solver"], random.Random(seed))
        rng = random.Random(seed + 1)
        probe = SolverBot(game, 0, random.Random(0))
        decisions = 0

        def check(t: Table) -> None:
            nonlocal decisions
            state = t.state
            for seat in state.actors():
                legal = state.legal_actions(seat)
                other = state.resample_hidden(seat, rng)
                assert other.view(seat) == state.view(seat)
                probe.seat = seat
                probe.rng = random.Random(decisions)
                mine = probe.choose(state.view(seat), legal)
                probe.rng = random.Random(decisions)
                assert probe.choose(other.view(seat), legal) == mine
                assert mine in legal
                decisions += 1

        table.play(bots, on_step=check)
        assert table.state.is_over() and decisions > 0


def test_solver_play_is_reproducible_from_a_seed(tables: None) -> None:
    game = make_game("tepiiku", 3, {"bankroll": 5})

    def play(seed: int) -> list[object]:
        table = Table(game, RandomDice(seed), record=False)
        table.play(make_bots(game, ["solver", "heuristic"], random.Random(seed)))
        return table.steps

    assert play(4) == play(4)
    assert play(4) != play(5)


def test_T8_the_bot_pays_or_rerolls_as_its_table_says(tables: None) -> None:
    game = make_game("tepiiku", 3)
    state = game.new_state()
    for hand in (["skull", "skull", "gem"], ["fire", "ingot", "skull"], ["person"] * 3):
        state.apply_chance(hand)
    for seat in range(3):
        state.apply(seat, {"type": "thumbs", "up": False})
    view = state.view(0)
    table = strategy.tables(strategy.cap_of(view, 0))
    choice = table.fish_choice(view)
    action = SolverBot(game, 0, random.Random(0)).choose(view, state.legal_actions(0))
    if choice is None:
        assert action == {"type": "pay"}
    else:
        assert action["type"] == "reroll"
        rerolled = sorted(view["dice"][0][i] for i in action["dice"])
        assert rerolled == sorted(HANDS[hand_index(view["dice"][0])][i] for i in SUBSETS[choice])


def test_advice_comes_from_the_solvers_model_and_says_so(tables: None) -> None:
    game = make_game("tepiiku", 3)
    state = game.new_state()
    for hand in (["skull", "skull", "gem"], ["fire", "ingot", "skull"], ["person"] * 3):
        state.apply_chance(hand)
    thumbs = game.advice(state.view(1), state.legal_actions(1))
    assert thumbs is not None and "solver's model" in thumbs.note
    for seat in range(3):
        state.apply(seat, {"type": "thumbs", "up": False})
    legal = state.legal_actions(0)
    panel = game.advice(state.view(0), legal)
    assert panel is not None
    assert len(panel.rows) == len(legal)
    assert "solver's model" in panel.note
    assert sum(1 for row in panel.rows if row[-1]) == 1  # one choice is the solver's


def test_cap_is_the_seats_coins_rounded_down_to_a_solved_cap() -> None:
    assert strategy.cap_of({"coins": [20, 3, 37]}, 0) == 20
    assert strategy.cap_of({"coins": [20, 3, 37]}, 1) == 2
    assert strategy.cap_of({"coins": [20, 3, 37]}, 2) == strategy.MAX_CAP


def test_without_tables_the_bot_plays_as_the_heuristic() -> None:
    """The tests' table cache is off: nothing is solved, so the bot falls back."""
    game = make_game("tepiiku", 3, {"bankroll": 4})

    def play(names: list[str]) -> list[object]:
        table = Table(game, RandomDice(9), record=False)
        table.play(make_bots(game, names, random.Random(9)))
        return table.steps

    assert play(["solver"]) == play(["heuristic"])
