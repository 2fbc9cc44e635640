"""Toplshteyner's odds: the exact turn chain against simulated turns, win chances
against simulated games, the odds query, and the odds panel's advice."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from dicehall.core import OptionError, RandomDice
from dicehall.games import make_game
from dicehall.games.toplshteyner import Toplshteyner, odds
from dicehall.games.toplshteyner.odds import (
    TurnOutcome,
    after_throw,
    turn_ended,
    turn_outcome_odds,
    turn_start,
    win_chances,
)
from dicehall.games.toplshteyner.solver import odds as solver_odds
from dicehall.games.toplshteyner.solver.odds import simulate_chances


def simulate_turns(turns: int, seed: int, sixes_end_turn: bool) -> Counter[TurnOutcome]:
    """Play whole turns by the rules with random dice, as the chain describes them."""
    game = Toplshteyner(3, {"sixes_end_turn": sixes_end_turn})
    dice = RandomDice(seed)
    counts: Counter[TurnOutcome] = Counter()
    start = turn_start(game, 4)
    for _ in range(turns):
        state, sixes = start, 0
        while not turn_ended(state):
            faces = dice.throw(state.chance_dice())
            sixes += faces == (6, 6)
            state = after_throw(state, (int(faces[0]), int(faces[1])), buy=False)
        lost: int | str = "all" if state.lives[0] == 0 else state.paid[0]
        counts[(state.last_turn_end, lost, sum(state.paid[1:]) > 0, min(sixes, 3))] += 1
    return counts


def check_turns_against_chain(turns: int, sixes_end_turn: bool) -> None:
    exact = turn_outcome_odds(sixes_end_turn)
    counts = simulate_turns(turns, seed=12345, sixes_end_turn=sixes_end_turn)
    assert set(counts) <= set(exact)
    # every outcome and every marginal (end, lives lost, election, sixes) within 4.5 sigma
    groups: list[dict[object, list[TurnOutcome]]] = [{o: [o]} for o in exact]
    for field in range(4):
        marginal: dict[object, list[TurnOutcome]] = {}
        for o in exact:
            marginal.setdefault(o[field], []).append(o)
        groups.append(marginal)
    for group in groups:
        for outcomes in group.values():
            p = float(sum(exact[o] for o in outcomes))
            seen = sum(counts[o] for o in outcomes) / turns
            sigma = (p * (1 - p) / turns) ** 0.5
            assert abs(seen - p) <= 4.5 * sigma + 1e-9, (outcomes, seen, p)


def test_turn_chain_is_a_distribution() -> None:
    for sixes_end_turn in (False, True):
        exact = turn_outcome_odds(sixes_end_turn)
        assert sum(exact.values()) == 1
        assert all(isinstance(p, Fraction) and p > 0 for p in exact.values())
    ends = {o[0] for o in turn_outcome_odds(False)}
    assert ends == {"point", "saving_grace", "second_snake_eyes", "seven", "out"}
    assert "trick_sixes" in {o[0] for o in turn_outcome_odds(True)}


def test_turn_chain_read_back_from_the_cache_is_the_same_fractions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DICEHALL_CACHE", str(tmp_path))
    for sixes_end_turn in (False, True):
        turn_outcome_odds.cache_clear()
        first = turn_outcome_odds(sixes_end_turn)  # solved, then saved
        turn_outcome_odds.cache_clear()
        assert turn_outcome_odds(sixes_end_turn) == first  # read back
        assert first == odds._solve_turn_outcomes(sixes_end_turn)
    assert len(list(tmp_path.glob("toplshteyner-turn-outcomes-*.json"))) == 2
    turn_outcome_odds.cache_clear()


def test_turn_chain_simple_facts() -> None:
    exact = turn_outcome_odds(False)
    # all lives are lost only by Threes, and then the turn ends "out"
    assert all((o[0] == "out") == (o[1] == "all") for o in exact)
    # two lives lost means a first Snake Eyes and then a seven
    assert all(o[0] == "seven" for o in exact if o[1] == 2)
    # Saving Grace: at least the 1/36 of a 2-2 on the first throw, and more with re-throws
    grace = sum(p for o, p in exact.items() if o[0] == "saving_grace")
    assert Fraction(1, 36) < grace < Fraction(1, 5)


def test_turn_chain_matches_50000_simulated_turns() -> None:
    check_turns_against_chain(50_000, sixes_end_turn=False)


def test_turn_chain_with_sixes_ending_the_turn_matches_simulated_turns() -> None:
    check_turns_against_chain(20_000, sixes_end_turn=True)


@pytest.mark.slow
def test_turn_chain_matches_a_million_simulated_turns() -> None:
    check_turns_against_chain(1_000_000, sixes_end_turn=False)


# --- winning chances ------------------------------------------------------------------


def test_win_chances_sum_to_one_and_favour_lives() -> None:
    table = win_chances()
    for lives in [(3, 3), (1, 4), (3, 2, 1), (2, 2, 2, 2), (4, 1, 3, 2, 3)]:
        chances = table.chances(lives)
        assert sum(chances) == pytest.approx(1, abs=1e-7)
        assert all(0 < c < 1 for c in chances)
    two = table.chances((3, 3))
    assert two[0] < two[1]  # the roller is first at risk
    assert table.chances((4, 3))[0] > two[0] > table.chances((2, 3))[0]


def test_win_chances_match_simulated_games() -> None:
    games = 3000
    for lives in [(2, 1), (3, 2, 1)]:
        exact = win_chances().chances(lives)
        seen = simulate_chances(lives, False, False, games, seed=3)
        for p, q in zip(exact, seen, strict=True):
            assert abs(p - q) <= 4.5 * (p * (1 - p) / games) ** 0.5


def test_odds_tables_and_query() -> None:
    (turn,) = make_game("toplshteyner").odds({})
    labels = [row[0] for row in turn.rows]
    assert "safe: point made" in labels
    assert "a High Fives election" in labels
    assert "lives lost: all" in labels
    tables = Toplshteyner.odds({"seats": "3"})
    assert len(tables) == 2
    assert [row[1] for row in tables[1].rows] == [3, 3, 3]
    tables = Toplshteyner.odds({"lives": "3,2,1", "sixes_end_turn": "true"})
    assert "6-6 ends the turn" in tables[0].title
    assert tables[1].rows[2][:2] == [2, 1]


def test_odds_beyond_the_exact_tables_are_simulated(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solver_odds, "SIMULATED_GAMES", 50)
    tables = Toplshteyner.odds({"seats": "7"})
    assert "simulating 50 games" in tables[1].note
    assert len(tables[1].rows) == 7


@pytest.mark.parametrize(
    "query",
    [
        {"seats": "1"},
        {"seats": "9"},
        {"seats": "many"},
        {"lives": "3"},
        {"lives": "3,5"},
        {"lives": "0,2"},
        {"lives": "a,b"},
        {"seats": "3", "lives": "3,3,3"},
        {"for_fun": "maybe"},
        {"dice": "3,4"},
    ],
)
def test_bad_odds_queries_raise(query: dict[str, str]) -> None:
    with pytest.raises(OptionError):
        Toplshteyner.odds(query)


# --- advice for the odds panel -------------------------------------------------------


def test_advice_rates_every_choice() -> None:
    """The solver's advice: chance to win (its objective) and expected net of every choice."""
    game = make_game("toplshteyner", 3)
    state = game.new_state()
    for faces in ([6], [1], [1], [5, 5]):
        state.apply_chance(faces)
    legal = state.legal_actions(0)
    advice = game.advice(state.view(0), legal)
    assert advice is not None
    assert len(advice.rows) == len(legal) == 2
    assert advice.columns == ["choice", "chance to win", "expected net", "solver"]
    assert all(row[1].endswith("%") and row[2][0] in "+-" for row in advice.rows)
    state.apply(0, legal[0])
    assert game.advice(state.view(0), state.legal_actions(0)) is None
    state.apply_chance([6, 6])
    advice = game.advice(state.view(0), state.legal_actions(0))
    assert advice is not None
    assert [row[0] for row in advice.rows] == [
        "buy a fourth life for one stake",
        "keep three lives",
    ]
    buy, keep = (float(row[1].rstrip("%")) for row in advice.rows)
    assert buy > keep


def test_advice_beyond_the_tables_is_marked_approximate() -> None:
    game = make_game("toplshteyner", 8)
    state = game.new_state()
    for faces in ([6], [1], [1], [1], [1], [1], [1], [1], [5, 5]):
        state.apply_chance(faces)
    advice = game.advice(state.view(0), state.legal_actions(0))
    assert advice is not None
    assert all(row[1].startswith("≈") for row in advice.rows)
    assert "estimated" in advice.note
