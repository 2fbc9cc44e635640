"""The Tao Dice heuristic bot: sound single decisions, and it beats the random bot."""

from __future__ import annotations

import random

from dicehall.core import RandomDice, ScriptedDice, Table, make_bots
from dicehall.games.tao import TaoDice
from dicehall.games.tao.bots import HeuristicBot


def bet_table(throws: list[list[int]], seats: int = 2) -> Table:
    """A table past the antes (all black), with the dice thrown as scripted."""
    t = Table(TaoDice(seats, {"opener": "0"}), ScriptedDice(throws))
    for seat in range(seats):
        t.act(seat, {"type": "ante", "white": 0})
    t.settle()
    return t


def bot_choice(t: Table, seat: int) -> dict[str, object]:
    bot = HeuristicBot(t.game, seat, random.Random(0))
    return dict(bot.choose(t.state.view(seat), t.state.legal_actions(seat)))


def test_antes_with_black() -> None:
    t = Table(TaoDice(2, {"opener": "0"}), ScriptedDice([]))
    assert bot_choice(t, 0) == {"type": "ante", "white": 0}


def test_raises_strong_dice_with_black_and_keeps_them() -> None:
    t = bet_table([[6, 6], [1, 1]])
    assert bot_choice(t, 0) == {"type": "raise", "white": 0}


def test_spends_a_white_stone_to_reroll_weak_dice() -> None:
    t = bet_table([[1, 1], [4, 5]])
    t.act(0, {"type": "raise", "white": 0})
    assert bot_choice(t, 1) == {"type": "call", "white": 0}  # 9 is better kept
    t = bet_table([[1, 1], [1, 2]])
    t.act(0, {"type": "raise", "white": 0})
    assert bot_choice(t, 1) == {"type": "call", "white": 1}


def test_folds_a_hopeless_showdown() -> None:
    t = bet_table([[1, 1], [6, 6], [1], [12]])
    t.act(0, {"type": "pass"})
    t.act(1, {"type": "pass"})
    t.settle()
    t.act(0, {"type": "pass"})
    t.act(1, {"type": "raise", "white": 0})
    # 1+1 against 12 on the opponent's d12: even a d12 reroll cannot pay for the call.
    assert bot_choice(t, 0) == {"type": "fold"}


def test_beats_the_random_bot() -> None:
    game = TaoDice(2, {"length": "single"})
    wins = 0
    for seed in range(200):
        table = Table(game, RandomDice(seed), record=False)
        table.play(make_bots(game, ["heuristic", "random"], random.Random(seed)))
        wins += table.state.result().winners == (0,)
    assert wins > 130
