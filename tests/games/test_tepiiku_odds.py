"""Tepiiku's exact odds, checked against plain enumeration of rune faces; its bot and views."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from rich.console import Console

from dicehall.core import OptionError, RandomDice, Table, make_bots
from dicehall.games import make_game
from dicehall.games.tepiiku.bots import HeuristicBot
from dicehall.games.tepiiku.odds import fish_chances, odds_tables
from dicehall.games.tepiiku.rules import RUNE, SUBSETS, TepiikuState, score
from dicehall.games.tepiiku.solver import stored

GAME = make_game("tepiiku")
RUNES = {"I": "ingot", "G": "gem", "F": "fire", "W": "water", "S": "skull", "P": "person"}


def brute_reroll(hand: list[str], dice: tuple[int, ...]) -> Counter[int]:
    """New scores of every way the rerolled dice can land (6**len(dice) of them)."""
    out: Counter[int] = Counter()
    for faces in itertools.product(RUNE, repeat=len(dice)):
        new = list(hand)
        for i, face in zip(dice, faces, strict=True):
            new[i] = str(face)
        out[score(new)] += 1
    return out


def test_score_distribution_matches_the_216_throws() -> None:
    (table,) = odds_tables({})
    counts = Counter(score(list(map(str, t))) for t in itertools.product(RUNE, repeat=3))
    assert [row[0] for row in table.rows] == sorted(counts)
    for value, ways, chance, at_least in table.rows:
        assert ways == counts[value]
        assert chance == Fraction(counts[value], 216)
        assert at_least == Fraction(sum(c for v, c in counts.items() if v >= value), 216)
    assert sum(row[2] for row in table.rows) == 1
    json.dumps(table.to_json())


@pytest.mark.parametrize(
    ("dice", "beat", "hook"),
    [("fire,water,skull", 5, None), ("gem,gem,skull", 5, 8), ("ingot,skull,skull", 0, 3)],
)
def test_reroll_odds_match_enumeration(dice: str, beat: int, hook: int | None) -> None:
    query = {"dice": dice, "beat": str(beat)}
    if hook is not None:
        query["hook"] = str(hook)
    (table,) = odds_tables(query)
    hand = dice.split(",")
    old = score(hand)
    assert len(table.rows) == 7
    for dice_set, row in zip(SUBSETS, table.rows, strict=True):
        counts = brute_reroll(hand, dice_set)
        n = 6 ** len(dice_set)
        bust = Fraction(sum(c for v, c in counts.items() if v <= old), n)
        still = Fraction(sum(c for v, c in counts.items() if old < v < beat), n)
        tie = Fraction(sum(c for v, c in counts.items() if v in (beat, hook)), n)
        assert row[1:5] == [bust, still, tie, 1 - bust - still - tie]
        assert row[5] == row[3] + row[4]
    best = max(table.rows, key=lambda r: (r[5], -r[1]))
    assert table.extra["best"] == best[0]


def test_fire_water_skull_against_five() -> None:
    chances = fish_chances(["fire", "water", "skull"], (0, 2), 5)
    assert chances.beat == Fraction(1, 2) and chances.bust == Fraction(1, 18)


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ({"dice": "fire,water"}, "dice"),
        ({"dice": "fire,water,lava", "beat": "5"}, "dice"),
        ({"dice": "fire,water,skull", "beat": "five"}, "beat"),
        ({"dice": "fire,water,skull", "beat": "13"}, "beat"),
        ({"dice": "fire,water,skull", "beat": "-2"}, "beat"),
        ({"dice": "fire,water,skull"}, "beat"),
        ({"beat": "5"}, "dice"),
        ({"dice": "gem,gem,skull", "beat": "5", "hook": "4"}, "hook"),
        ({"target": "5"}, "target"),
    ],
)
def test_bad_odds_queries_name_the_parameter(query: dict[str, str], name: str) -> None:
    with pytest.raises(OptionError, match=name):
        odds_tables(query)


def fish_position() -> tuple[Table, int]:
    table = Table(GAME, RandomDice(0))
    table.settle()
    for seat in range(3):
        table.act(seat, {"type": "thumbs", "up": False})
    while table.state.phase != "fish":  # type: ignore[attr-defined]
        for seat in table.state.actors():
            table.act(seat, table.state.legal_actions(seat)[-1])
        table.settle()
    return table, table.state.actors()[0]


def test_advice_for_the_fish_and_nobody_else() -> None:
    table, fish = fish_position()
    state = table.state
    advice = GAME.advice(state.view(fish), state.legal_actions(fish))
    assert advice is not None and len(advice.rows) == 8
    json.dumps(advice.to_json())
    other = (fish + 1) % 3
    assert GAME.advice(state.view(other), state.legal_actions(other)) is None


def test_render_shows_runes_roles_pot_and_coins() -> None:
    table, fish = fish_position()
    console = Console(width=120, record=True, color_system=None)
    console.print(GAME.render(table.state.view(fish), ["Ann", "Bob", "Cy"]))
    text = console.export_text()
    assert "Fish" in text and "Hook" in text and "pot 1" in text and "20" in text
    assert any(rune in text for rune in map(str, RUNE))


def test_heuristic_bot_beats_random() -> None:
    rng = random.Random(11)
    wins = 0.0
    games = 300
    for _ in range(games):
        bots = make_bots(GAME, ["heuristic", "random", "random"], rng)
        table = Table(GAME, RandomDice(rng.random()), record=False)
        table.play(bots)
        winners = table.state.result().winners
        wins += (0 in winners) / len(winners)
    assert wins / games > 0.45  # a random seat's fair share is 1/3


def shown(*codes: str) -> TepiikuState:
    state = GAME.new_state()
    assert isinstance(state, TepiikuState)
    for code in codes:
        state.apply_chance([RUNES[c] for c in code])
    for seat in range(3):
        state.apply(seat, {"type": "thumbs", "up": False})
    return state


def test_heuristic_fish_pays_when_a_reroll_mostly_busts() -> None:
    state = shown("WWI", "WWG", "WWW")  # 9 against 10 and 12
    bot = HeuristicBot(GAME, 0, random.Random(0))
    assert bot.choose(state.view(0), state.legal_actions(0)) == {"type": "pay"}


def test_heuristic_fish_rerolls_a_hopeless_throw() -> None:
    state = shown("SSS", "IIS", "WGG")  # -6 against 0 and 8
    bot = HeuristicBot(GAME, 0, random.Random(0))
    action = bot.choose(state.view(0), state.legal_actions(0))
    assert action["type"] == "reroll"


def test_heuristic_thumbs_follow_the_strength_of_the_throw() -> None:
    state = GAME.new_state()
    for code in ("WWW", "SSS", "III"):
        state.apply_chance([RUNES[c] for c in code])
    bots = [HeuristicBot(GAME, seat, random.Random(0)) for seat in range(3)]
    ups = [bots[s].choose(state.view(s), state.legal_actions(s))["up"] for s in range(3)]
    assert ups == [True, False, False]


def test_tie_reroll_advice_and_choice(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The heuristic's advice: what the panel shows where the solver's tables are missing."""
    monkeypatch.setattr(stored, "SHIPPED", tmp_path)
    stored.tables.cache_clear()
    state = shown("III", "PII", "WGG")  # 3, 3, 8: seats 0 and 1 tied
    advice = GAME.advice(state.view(0), state.legal_actions(0))
    assert advice is not None and len(advice.rows) == 7
    for row in advice.rows:
        assert sum(row[1:]) == 1
    action = HeuristicBot(GAME, 1, random.Random(0)).choose(state.view(1), state.legal_actions(1))
    assert action in state.legal_actions(1)
