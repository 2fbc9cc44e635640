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
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from dicehall.cli import app
from dicehall.core import RandomDice, Table, make_bots
from dicehall.core.errors import OptionError
from dicehall.core.odds import OddsTable
from dicehall.games import game_class, make_game
from dicehall.games.tepiiku.rules import SUBSETS
from dicehall.games.tepiiku.solver import policy, solve, stored
from dicehall.games.tepiiku.solver.bot import SolverBot
from dicehall.games.tepiiku.solver.model import ACTIONS, COUNT, FRESH, HANDS, SCORES, hand_index
from dicehall.games.tepiiku.solver.odds import choice_words


@cache
def random_tables(cap: int) -> stored.Tables:
    rng = np.random.default_rng(cap)
    lay = solve.layout()
    fish, forced = len(lay.fish), len(lay.forced)

    def mixes(*shape: int) -> np.ndarray:
        raw = rng.random((*shape, ACTIONS))
        return (raw / raw.sum(axis=-1, keepdims=True)).astype(np.float32)

    triples = {
        score: mixes(4, len(hands), len(hands), len(hands), 3)
        for score, hands in lay.score_hands.items()
    }
    return stored.Tables(
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
    monkeypatch.setattr(stored, "tables", random_tables)
    yield


def test_solver_is_offered_first_then_the_heuristic() -> None:
    assert list(make_game("tepiiku").bots()) == ["solver", "heuristic", "random"]


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_C6_solver_decides_the_same_whatever_others_dice(seed: int) -> None:
    """Redraw what a deciding seat may not see: the same choice from the same random draw."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(stored, "tables", random_tables)
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
    table = stored.tables(policy.cap_of(view, 0))
    choice = policy.fish_choice(table, view)
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
    assert policy.cap_of({"coins": [20, 3, 37]}, 0) == 20
    assert policy.cap_of({"coins": [20, 3, 37]}, 1) == 2
    assert policy.cap_of({"coins": [20, 3, 37]}, 2) == stored.MAX_CAP


@pytest.fixture
def no_tables(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """Neither the package's tables nor the cache's (the tests' cache is off)."""
    monkeypatch.setattr(stored, "SHIPPED", tmp_path)
    stored.tables.cache_clear()
    yield
    stored.tables.cache_clear()


def test_without_tables_the_bot_plays_as_the_heuristic(no_tables: None) -> None:
    """Nothing is solved, so the bot falls back (and `bot_warning` says so)."""
    game = make_game("tepiiku", 3, {"bankroll": 4})

    def play(names: list[str]) -> list[object]:
        table = Table(game, RandomDice(9), record=False)
        table.play(make_bots(game, names, random.Random(9)))
        return table.steps

    assert play(["solver"]) == play(["heuristic"])


# --- dicehall odds tepiiku: the solver's tables -----------------------------------------


def fish_odds(query: dict[str, str]) -> list[OddsTable]:
    return game_class("tepiiku").odds(query)


def test_odds_without_a_solve_say_how_to_compute_it_and_show_no_number(no_tables: None) -> None:
    """No tables: the exact chances, then how to solve them."""
    score, policy_table = fish_odds({})
    assert score.title.startswith("Score of three rune dice")
    assert policy_table.rows == [] and "dicehall solve tepiiku" in policy_table.note
    code, output = run_cli("odds", "tepiiku", "--option", "cap=8")
    assert code == 0 and "Not computed yet" in output and "dicehall solve tepiiku" in output


def test_odds_show_the_solvers_fish_policy_with_expected_coins(tables: None) -> None:
    _, policy_table = fish_odds({"cap": "8"})
    tab = stored.tables(8)
    lay = solve.layout()
    assert len(policy_table.rows) == len({tuple(SCORES[t]) for t in lay.fish})
    assert "solver's model" in policy_table.note
    # one row by brute force: every hand of those scores, weighted by its throw chance
    row = policy_table.rows[len(policy_table.rows) // 2]
    f, m, h = (int(c) for c in row[:3])
    for pot in (1, 2, 3, 4):
        words: dict[str, float] = {}
        total = weight_sum = 0.0
        for i, hands in enumerate(lay.fish):
            if tuple(int(s) for s in SCORES[hands]) != (f, m, h):
                continue
            w = float(np.prod(FRESH[hands]))
            code = int(tab.fish_policy[min(pot, 8) - 1, i])
            word = choice_words(int(hands[0]), code)
            words[word] = words.get(word, 0.0) + w
            total += w * float(tab.fish_value[min(pot, 8) - 1, i, 0])
            weight_sum += w
        cell = str(row[2 + pot])
        assert cell.split(" ")[0] == max(words, key=lambda k: words[k])
        assert cell.endswith(f"{total / weight_sum:+.2f}")


def test_odds_of_one_fish_hand_give_each_choices_expected_coins(tables: None) -> None:
    hand = ("gem", "skull", "skull")
    query = {"dice": "skull,gem,skull", "beat": "3", "hook": "6", "pot": "2", "cap": "4"}
    chances, choices = fish_odds(query)
    assert chances.title.startswith("The Fish's rerolls")  # the exact chances come first
    tab = stored.tables(4)
    lay = solve.layout()
    f = hand_index(hand)
    expected: dict[str, Any] = {}
    shares: dict[str, float] = {}
    weight_sum = 0.0
    for m in range(COUNT):
        for h in range(COUNT):
            if SCORES[m] != 3 or SCORES[h] != 6:
                continue
            w = float(FRESH[m] * FRESH[h])
            weight_sum += w
            index = int(lay.fish_at[f, m, h])
            values = policy.fish_choices(tab, index, 2)
            words = {}  # rerolls of the same runes are one choice
            for code in range(ACTIONS + 1):
                word = "pay the pot" if code == solve.PAY else choice_words(f, code)
                words.setdefault(word, values[code])
            for word, value in words.items():
                expected[word] = expected.get(word, 0.0) + w * value
            chosen = int(tab.fish_policy[1, index])
            word = "pay the pot" if chosen == solve.PAY else choice_words(f, chosen)
            shares[word] = shares.get(word, 0.0) + w
    by_word = {row[0]: row for row in choices.rows}
    assert set(by_word) == set(expected)  # duplicate rune sets share a row
    for word, row in by_word.items():
        assert [float(str(c)) for c in row[1:4]] == pytest.approx(
            list(expected[word] / weight_sum), abs=1e-3
        )
        assert row[4] == pytest.approx(shares.get(word, 0.0) / weight_sum)
    assert by_word["pay the pot"][1] == "-2.000"
    code, output = run_cli(
        "odds", "tepiiku", "--dice", "skull,gem,skull", "--beat", "3", "-o", "hook=6", "-o", "cap=4"
    )
    assert code == 0 and "Fish's expected coins" in output and "solver's model" in output


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ({"cap": "3"}, "'cap'"),
        ({"pot": "0"}, "'pot'"),
        ({"pot": "two"}, "'pot'"),
        ({"thumbs": "up"}, "'thumbs'"),
        ({"dice": "skull,gem,skull", "beat": "3", "hook": "11"}, "'hook'"),
    ],
)
def test_odds_bad_solver_parameters_are_named(
    tables: None, query: dict[str, str], named: str
) -> None:
    with pytest.raises(OptionError, match=named):
        fish_odds(query)


def run_cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.output
