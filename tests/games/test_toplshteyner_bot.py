"""The Toplshteyner heuristic bot, the terminal view, and whole games."""

from __future__ import annotations

import random
from typing import Any

from rich.console import Console

from dicehall.core import RandomDice, Table, make_bots
from dicehall.games import make_game
from dicehall.games.toplshteyner.bots import HeuristicBot
from dicehall.games.toplshteyner.odds import choice_chances
from dicehall.games.toplshteyner.rules import BUY_CHOICES, BUY_LIFE, ELECT_SEAT


def decision(lives: list[int], phase: str, bought: list[int] | None = None) -> dict[str, Any]:
    """Seat 0's view when it must elect or may buy."""
    return {
        "phase": phase,
        "roller": 0,
        "lives": lives,
        "bought": bought or [0] * len(lives),
        "for_fun": False,
        "sixes_end_turn": False,
    }


def bot(seats: int) -> HeuristicBot:
    return HeuristicBot(make_game("toplshteyner", seats), 0, random.Random(0))


def test_bot_elects_the_choice_that_most_raises_its_chance() -> None:
    view = decision([2, 1, 4, 3], "elect")
    legal = [ELECT_SEAT[s] for s in (1, 2, 3)]
    choice = bot(4).choose(view, legal)
    rated = {a["seat"]: chance for a, chance, exact in choice_chances(view, legal)}
    assert rated[choice["seat"]] == max(rated.values())
    assert len(set(rated.values())) == 3  # a real choice


def test_bot_elects_the_leader_beyond_the_exact_tables() -> None:
    view = decision([3, 1, 2, 4, 2, 1, 3], "elect")
    legal = [ELECT_SEAT[s] for s in range(1, 7)]
    assert bot(7).choose(view, legal) == ELECT_SEAT[3]


def test_bot_always_buys_a_fourth_life() -> None:
    assert bot(2).choose(decision([3, 3], "buy"), BUY_CHOICES) is BUY_LIFE
    assert bot(3).choose(decision([3, 3, 3], "buy"), BUY_CHOICES) is BUY_LIFE
    # three strong opponents, and more than five players in: the life still helps
    assert bot(4).choose(decision([3, 4, 4, 4], "buy"), BUY_CHOICES) is BUY_LIFE
    assert bot(8).choose(decision([3, 4, 4, 4, 3, 3, 3, 3], "buy"), BUY_CHOICES) is BUY_LIFE


def test_bots_finish_games_with_legal_moves() -> None:
    for seats in (2, 5, 8):
        game = make_game("toplshteyner", seats)
        for seed in range(5):
            t = Table(game, RandomDice(seed), record=False)
            t.play(make_bots(game, ["heuristic", "random"], random.Random(seed)))
            assert t.state.is_over()
            assert sum(t.state.result().net) == 0


def test_render_shows_lives_pot_point_and_throws() -> None:
    game = make_game("toplshteyner", 3, {"stake": 2})
    state = game.new_state()
    for faces in ([6], [1], [1], [1, 1], [3, 5], [5, 5]):
        state.apply_chance(faces)
    console = Console(width=100, record=True, color_system=None)
    console.print(game.render(state.view(1), ["Ada", "Ben", "Cleo"]))
    text = console.export_text()
    assert "Ada" in text and "Ben (you)" in text
    assert "♥♥♡♡" in text  # Ada lost a life to Snake Eyes
    assert "Pot: 1 stake(s) = 2" in text
    assert "Point: 2" in text
    assert "1-1 Snake Eyes" in text and "5-5 High Fives" in text
    assert "elects a player" in text


def test_render_a_finished_game() -> None:
    game = make_game("toplshteyner", 2)
    state = game.new_state()
    for faces in ([1], [6], [2, 4], [3, 3], [3, 3]):
        state.apply_chance(faces)
    console = Console(width=100, record=True, color_system=None)
    console.print(game.render(state.view(None), ["Ada", "Ben"]))
    text = console.export_text()
    assert "Ada wins the pot!" in text
    assert "out" in text
