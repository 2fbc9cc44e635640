"""Whole Kariki games: hidden dice stay hidden, the bot wins, the example replays."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from dicehall.core import RandomDice, ScriptedDice, Table, make_bots
from dicehall.core.transcript import replay
from dicehall.games import make_game

EXAMPLE = Path(__file__).parent.parent.parent / "docs" / "examples" / "kariki.json"
OPTIONS = [
    {},
    {"pull": "at-least", "after_kariki": "berry"},
    {"high_rollers": True, "slashes": False, "buy_in": 2},
]


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("seed", range(6))
def test_C6_dice_never_reach_another_seat_before_they_are_shown(
    options: dict[str, object], seed: int
) -> None:
    game = make_game("kariki", 2 + seed % 4, options)
    table = Table(game, RandomDice(seed))
    rng = random.Random(seed)
    state = table.state
    shown: set[tuple[int, int]] = set()
    while not state.is_over():
        if state.is_chance():
            table.roll()
        else:
            seat = state.actors()[0]
            if rng.random() < 0.05:
                table.timeout(seat)
            else:
                legal = state.legal_actions(seat)
                table.act(seat, legal[int(rng.random() * len(legal))])
        view = state.view(None)
        thrower = view["roller"]
        under = state.view(thrower)["your_dice"] if thrower is not None else None
        if view["last_shown"] is not None:
            shown.add(tuple(view["last_shown"]["dice"]))  # type: ignore[arg-type]
        if under is not None:
            for seat in [None, *range(game.seats)]:
                if seat != thrower:
                    assert state.view(seat)["your_dice"] is None
    for seat in [None, *range(game.seats)]:
        for event in state.events_for(seat):
            if "dice" in event and event["type"] not in ("kariki", "pull"):
                assert event["seat"] == seat, f"{event} reached seat {seat}"


@pytest.mark.parametrize("options", OPTIONS)
def test_C4_C6_every_option_conserves_hides_and_replays(options: dict[str, object]) -> None:
    """The generic properties, here with the options and timeouts the generic tests skip."""
    for seed in range(4):
        game = make_game("kariki", 2 + seed, options)
        table = Table(game, RandomDice(seed))
        rng = random.Random(seed)
        state = table.state
        while not state.is_over():
            if state.is_chance():
                table.roll()
            else:
                seat = state.actors()[0]
                if rng.random() < 0.1:
                    table.timeout(seat)
                else:
                    legal = state.legal_actions(seat)
                    table.act(seat, legal[int(rng.random() * len(legal))])
            assert state.conserved() == {"money": 0}
            for viewer in [None, *range(game.seats)]:
                assert state.resample_hidden(viewer, rng).view(viewer) == state.view(viewer)
        assert sum(state.result().net) == 0
        again = replay(json.loads(json.dumps(table.transcript())))
        assert again.view(None) == state.view(None)


def test_heuristic_bot_beats_random_bots() -> None:
    wins = 0
    games = 200
    for seed in range(games):
        game = make_game("kariki", 3)
        table = Table(game, RandomDice(seed), record=False)
        bots = make_bots(game, ["heuristic", "random", "random"], random.Random(seed))
        table.play(bots)
        wins += table.state.result().winners == (0,)
    assert wins > games * 0.7  # random play would win a third


def test_heuristic_bots_play_every_option() -> None:
    for options in OPTIONS:
        game = make_game("kariki", 4, options)
        table = Table(game, RandomDice(3), record=False)
        table.play(make_bots(game, ["heuristic"], random.Random(3)))
        assert table.state.is_over()


def test_example_transcript_replays() -> None:
    data = json.loads(EXAMPLE.read_text())
    state = replay(data)
    assert state.is_over()
    assert state.result().to_json() == data["result"]


def test_heuristic_bot_claims_truth_or_least_bluff_and_knows_its_own_dice() -> None:
    from dicehall.games.kariki.bots import HeuristicBot

    game = make_game("kariki", 2)
    table = Table(game, ScriptedDice([[6], [1], [4, 5], [2, 3]]))
    table.settle()
    table.act(0, {"type": "direction", "way": "left"})
    table.settle()
    bots = {s: HeuristicBot(game, s, random.Random(s)) for s in range(2)}

    def move(seat: int) -> dict[str, object]:
        state = table.state
        return dict(bots[seat].choose(state.view(seat), state.legal_actions(seat)))

    assert move(0) == {"type": "claim", "rank": "9"}  # the truth
    table.act(0, {"type": "claim", "rank": "9"})
    table.act(1, {"type": "roll"})
    table.settle()
    assert move(1) == {"type": "claim", "rank": "10"}  # a Five: the least bluff above Nine
    table.act(1, {"type": "claim", "rank": "10"})
    table.act(0, {"type": "pass"})
    assert move(1) == {"type": "pull"}  # its own lie came back, passed by seat 0


def test_heuristic_bot_trusts_a_thrower_less_after_an_unforced_lie() -> None:
    from dicehall.games.kariki.bots import HeuristicBot

    bot = HeuristicBot(make_game("kariki", 2), 1, random.Random(0))
    before = bot.honesty(0)
    shown = {
        "dice": [2, 3],
        "rank": "5",
        "thrower": 0,
        "how": "pull",
        "claim": "6-6",
        "previous_claim": None,
        "puller": 1,
        "berry_to": 0,
    }
    bot.observe({"last_shown": shown})
    bot.observe({"last_shown": shown})  # the same pull, seen again, counts once
    assert bot.honesty(0) < before
    assert bot.unforced_claims[0] == 1
    forced = {**shown, "claim": "6-6", "previous_claim": "5-5"}
    bot.observe({"last_shown": forced})
    assert bot.unforced_claims[0] == 1  # a lowest legal claim may have been forced
