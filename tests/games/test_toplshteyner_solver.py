"""The Toplshteyner solver against independent computations, and its bots and advice."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from dicehall.core import RandomDice, Table, make_bots
from dicehall.core.odds import show
from dicehall.games import make_game
from dicehall.games.toplshteyner import odds
from dicehall.games.toplshteyner.rules import BUY_CHOICES, ELECT_SEAT
from dicehall.games.toplshteyner.solver import model, policy, solve


def test_two_player_end_games_match_the_turn_outcome_dp() -> None:
    """Two players: the only choice is a fourth life; the solver (turn chain by arrays,
    every turn state) agrees with odds.py's independent recursion over whole-turn
    outcomes in exact fractions, for every pair of lives."""
    engine = solve.Solver(model.Model("win", False, False), 2)
    layer = engine.layer(2, engine.model.key(2))
    reference = odds.WinChances(False, False)
    for a in range(1, 5):
        for b in range(1, 5):
            ours = layer.values[model.position_index((a, b))]
            assert ours == pytest.approx(reference.chances((a, b)), abs=1e-8)
    assert layer.epsilon == 0.0


def test_P9_for_fun_fourth_life_needs_a_stake_in_the_pot() -> None:
    """For fun, the first 6-6 at three lives gives nothing while the pot is empty:
    the roller's chance drops from 44.75% (a paying table) to 43.31%, which is what
    400,000 simulated games of the engine give (43.25% +- 0.16%)."""
    paying = solve.Solver(model.Model("win", False, False), 2)
    fun = solve.Solver(model.Model("win", True, False), 2)
    i = model.position_index((3, 3))
    assert paying.layer(2, paying.model.key(2)).values[i][0] == pytest.approx(0.44753, abs=1e-5)
    assert fun.layer(2, fun.model.key(2)).values[i][0] == pytest.approx(0.43312, abs=1e-5)


def test_shipped_tables_are_what_a_fresh_solve_gives() -> None:
    """The tables in the package (default options) agree with solving afresh."""
    for objective in model.OBJECTIVES:
        shipped = solve.Solver(model.Model(objective, False, False), 2)
        assert shipped.ready()
        fresh = solve.Solver(model.Model(objective, False, False), 2)
        fresh._paths = lambda players, k: []  # type: ignore[method-assign]
        for key in fresh.layer_keys():
            a, b = shipped.layer(*key), fresh.layer(*key)
            assert a.values == pytest.approx(b.values, abs=1e-9)
            assert all((a.elect[s] == b.elect[s]).all() for s in b.elect)
            assert all((a.buy[s] == b.buy[s]).all() for s in b.buy)


def test_money_values_sum_to_the_pot_and_lives() -> None:
    """Money: each seat's value is its expected K at the end less two stakes a bought
    life; the winner takes K, so values sum to K less the expected buys."""
    engine = solve.Solver(model.Model("money", False, False), 2)
    layer = engine.layer(2, 6)
    start = layer.values[model.position_index((3, 3))]
    assert 5.0 < start.sum() <= 6.0 + 1e-9
    assert start[1] > start[0]  # the second roller is better off, as for win chances


def view(lives: list[int], phase: str, **extra: object) -> dict[str, object]:
    base: dict[str, object] = {
        "phase": phase,
        "roller": 0,
        "lives": lives,
        "pot": sum(3 - x for x in lives) + 2 * sum(x == 4 for x in lives),
        "bought": [int(x == 4) for x in lives],
        "point": 10,
        "snake_eyes": False,
        "threes": False,
        "high_fives": phase == "elect",
        "for_fun": False,
        "sixes_end_turn": False,
        "stake": 1,
    }
    base.update(extra)
    return base


def test_P8_solver_elects_its_best_valued_target() -> None:
    v = view([2, 1, 3], "elect")
    for objective in model.OBJECTIVES:
        d = policy.decision(v, objective)
        values = dict(d.values)
        assert set(values) == {1, 2}
        assert values[d.choice] == max(values.values())  # type: ignore[index]


def test_P8_two_player_duel_elects_the_last_life() -> None:
    """Electing the other player's last life wins the game at once (P10)."""
    d = policy.decision(view([3, 1], "elect"), "win")
    assert d.choice == 1 and dict(d.values)[1] == pytest.approx(1.0)


def test_P9_money_and_win_disagree_where_the_pot_is_small() -> None:
    """Buying costs a stake: for win chances a fourth life is worth taking, while the
    money objective weighs the stake against the pot."""
    v = view([3, 3], "buy", point=4, high_fives=False)
    win = policy.decision(v, "win")
    assert win.choice is True
    money = policy.decision(v, "money")
    assert dict(money.values)[money.choice] == max(dict(money.values).values())


def test_solver_bots_follow_the_heuristic_and_decide_from_the_view_alone() -> None:
    game = make_game("toplshteyner", 2)
    assert list(game.bots())[:3] == ["heuristic", "solver", "solver_money"]
    for name in ("solver", "solver_money"):
        for seed in range(3):
            table = Table(game, RandomDice(seed), record=False)
            bots = make_bots(game, [name], random.Random(seed))
            seen: dict[str, object] = {}

            def check(t: Table, bots: dict[int, object] = bots, seen: dict = seen) -> None:
                state = t.state
                for seat in state.actors():
                    v = state.view(seat)
                    # C6: the decision is a function of the seat's view
                    a = bots[seat].choose(v, state.legal_actions(seat))  # type: ignore[attr-defined]
                    b = bots[seat].choose(dict(v), state.legal_actions(seat))  # type: ignore[attr-defined]
                    assert a == b
                    seen["decisions"] = 1

            table.play(bots, on_step=check)
            assert sum(table.state.result().net) == 0


def test_P10_solver_plays_for_the_win_and_solver_money_for_money() -> None:
    """The game's object is to be the last with lives (P10): `solver` takes the choice
    of the largest chance to win, `solver_money` that of the largest expected net."""
    game = make_game("toplshteyner", 3)
    bots = game.bots()
    v = view([2, 1, 3], "elect")
    legal = [ELECT_SEAT[1], ELECT_SEAT[2]]
    win, money = policy.decision(v, "win"), policy.decision(v, "money")
    assert bots["solver"](game, 0, random.Random(0)).choose(v, legal)["seat"] == win.choice
    assert bots["solver_money"](game, 0, random.Random(0)).choose(v, legal)["seat"] == money.choice


def test_advice_names_the_solver_and_every_choice() -> None:
    game = make_game("toplshteyner", 3)
    v = view([2, 1, 3], "elect")
    table = game.advice(v, [ELECT_SEAT[1], ELECT_SEAT[2]])
    assert table is not None and "solver" in table.note
    assert len(table.rows) == 2 and sum(r[-1] != "" for r in table.rows) == 1
    marked = next(r for r in table.rows if r[-1])
    chances = {r[0]: float(r[1].rstrip("%")) for r in table.rows}
    assert chances[marked[0]] == max(chances.values())  # the solver plays for the win
    buy = game.advice(view([3, 3, 2], "buy", high_fives=False), BUY_CHOICES)
    assert buy is not None and len(buy.rows) == 2


def test_odds_show_percentages_first_and_fractions_only_when_short() -> None:
    assert show(Fraction(7, 36)) == "19.44% (7/36)"
    long = Fraction(3761464738790390363761, 35933 * 10**18)
    assert show(long) == f"{float(long) * 100:.2f}%"
    assert show(long, exact=True).endswith(f"({long.numerator}/{long.denominator})")
    assert show(Fraction(0)) == "0%" and show(Fraction(1)) == "100%"
