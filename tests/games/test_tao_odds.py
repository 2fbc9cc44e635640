"""Tao Dice odds (D8): the 2d6 + d12 distribution, showdown chances, the odds panel."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dicehall.core import OptionError, ScriptedDice, Table
from dicehall.games.tao import TaoDice
from dicehall.games.tao.odds import advice_table, chances, odds_tables, totals


def test_D8_distribution_of_2d6_plus_d12_is_exact() -> None:
    (table,) = odds_tables({})
    rows = {row[0]: row for row in table.rows}
    assert sorted(rows) == list(range(3, 25))
    assert sum(row[1] for row in table.rows) == 432
    assert rows[3][2] == Fraction(1, 432)
    assert rows[13][2] == rows[14][2] == Fraction(1, 12)
    assert rows[14][3] == Fraction(1, 2)
    assert sum(row[2] for row in table.rows) == 1


def test_D8_showdown_chances_with_and_without_rerolls() -> None:
    (table,) = odds_tables({"dice": "6,6", "d12": "12", "opponents": "1,?"})
    keep, reroll_two_d6, reroll_d12 = table.rows
    assert keep[0] == "keep the dice"
    assert keep[1:] == [Fraction(431, 432), Fraction(1, 432), Fraction(0)]
    assert reroll_two_d6[0] == "reroll the two d6" and reroll_d12[0] == "reroll the d12"
    for row in table.rows:
        assert sum(row[1:]) == 1


def test_D8_a_win_tie_and_loss_against_a_known_d12() -> None:
    (table,) = odds_tables({"dice": "1,1", "d12": "1", "opponents": "1"})
    # 3 against 2d6 + 1: a tie only if the opponent throws 1-1.
    assert table.rows[0][1:] == [Fraction(0), Fraction(1, 36), Fraction(35, 36)]


def test_odds_counts_agree_with_brute_force() -> None:
    own = totals(7, None)
    opponent = totals(None, 5)
    win = tie = 0
    for d in range(1, 13):
        for a in range(1, 7):
            for b in range(1, 7):
                mine, theirs = 7 + d, a + b + 5
                win += mine > theirs
                tie += mine == theirs
    assert chances(own, [opponent]) == (win, tie, 12 * 36)


@pytest.mark.parametrize(
    "query",
    [{"dice": "3,9"}, {"dice": "3"}, {"d12": "13"}, {"opponents": "2,x"}, {"beat": "4"}],
)
def test_bad_odds_queries_raise(query: dict[str, str]) -> None:
    with pytest.raises(OptionError):
        odds_tables(query)


def test_advice_gives_the_chances_behind_each_betting_choice() -> None:
    game = TaoDice(2, {"opener": "0"})
    t = Table(game, ScriptedDice([[6, 6], [1, 1]]))
    t.settle()
    t.act(0, {"type": "ante", "white": 0})
    t.act(1, {"type": "ante", "white": 0})
    t.settle()
    state = t.state
    assert advice_table(state.view(0), [], game.action_label) is None
    advice = advice_table(state.view(0), state.legal_actions(0), game.action_label)
    assert advice is not None
    labels = [row[0] for row in advice.rows]
    assert labels == ["pass", "raise, no white", "raise, 1 white: reroll"]
    keep, reroll = advice.rows[1][1], advice.rows[2][1]
    assert isinstance(keep, Fraction) and isinstance(reroll, Fraction) and keep > reroll
    assert advice.rows[0][1:] == advice.rows[1][1:]
    assert advice_table(state.view(None), state.legal_actions(0), game.action_label) is None
