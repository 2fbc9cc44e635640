"""`dicehall duel`: rotation of seats, per-seat win rates with intervals, the JSON it prints."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from dicehall.cli import app
from dicehall.games import make_game
from dicehall.strategy.duel import duel, seating

runner = CliRunner()


def test_seating_cycles_the_bots_and_rotates() -> None:
    assert seating(["a", "b"], 3, 0) == ["a", "b", "a"]
    assert seating(["a", "b"], 3, 1) == ["b", "a", "b"]


def test_duel_scores_each_bot_per_seat() -> None:
    result = duel(make_game("kariki", 3), ["heuristic", "random"], games=12, seed=3)
    assert result.games == 12 and result.seats == 3
    rates = {name: s.win_rate for name, s in result.scores.items()}
    assert rates["heuristic"] > 1 / 3 > rates["random"]  # 1/3: the fair share of a seat
    for score in result.scores.values():
        low, high = score.ci95
        assert 0 <= low <= score.win_rate <= high <= 1
    again = duel(make_game("kariki", 3), ["heuristic", "random"], games=12, seed=3)
    assert again.to_json() == result.to_json()  # a seed makes the duel reproducible


def test_duel_command_prints_the_json_the_issue_names() -> None:
    args = ["duel", "kariki", "--bots", "heuristic,random", "--games", "8", "--json"]
    result = runner.invoke(app, [*args, "--seed", "1"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 8 and data["seats"] == 4
    assert set(data["win_rate"]) == {"heuristic", "random"}
    assert all(len(pair) == 2 for pair in data["ci95"].values())


def test_duel_refuses_one_bot_and_unknown_bots() -> None:
    result = runner.invoke(app, ["duel", "kariki", "--bots", "random"])
    assert result.exit_code == 2 and "two different bots" in result.output
    result = runner.invoke(app, ["duel", "kariki", "--bots", "random,nobody"])
    assert result.exit_code == 2 and "unknown bot 'nobody'" in result.output
