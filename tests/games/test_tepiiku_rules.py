"""Tepiiku's rules, one scripted position per ruling (T1-T10, C3, C6).

Hands are written as rune initials: I ingot, G gem, F fire, W water,
S skull, P person; "GGS" is gem, gem, skull (score 2).
"""

from __future__ import annotations

import itertools
import random

import pytest

from dicehall.core import IllegalActionError, OptionError, ScriptedDice, Table
from dicehall.games import make_game
from dicehall.games.tepiiku.rules import RUNE, SCORE, TepiikuState, score

RUNES = {"I": "ingot", "G": "gem", "F": "fire", "W": "water", "S": "skull", "P": "person"}
PAY = {"type": "pay"}


def hand(code: str) -> list[str]:
    return [RUNES[c] for c in code]


def new_state(bankroll: int = 20) -> TepiikuState:
    state = make_game("tepiiku", 3, {"bankroll": bankroll}).new_state(record=True)
    assert isinstance(state, TepiikuState)
    return state


def throw(state: TepiikuState, *codes: str) -> None:
    for code in codes:
        state.apply_chance(hand(code))


def bet(state: TepiikuState, *ups: bool) -> None:
    for seat, up in enumerate(ups):
        state.apply(seat, {"type": "thumbs", "up": up})


def reroll(state: TepiikuState, seat: int, *dice: int) -> None:
    state.apply(seat, {"type": "reroll", "dice": list(dice)})


def start(*codes: str, ups: tuple[bool, bool, bool] = (False, False, False), bankroll: int = 20):
    """A round thrown and bet: the dice are shown."""
    state = new_state(bankroll)
    throw(state, *codes)
    bet(state, *ups)
    return state


def roles(state: TepiikuState) -> tuple[int, int, int]:
    r = state.view(None)["roles"]
    return r["fish"], r["middle"], r["hook"]


# --- T1, T2 ---------------------------------------------------------------------------


def test_T1_six_runes_on_each_die() -> None:
    assert set(RUNE) == {"ingot", "gem", "fire", "water", "skull", "person"}
    state = new_state()
    assert state.chance_dice() == (RUNE, RUNE, RUNE)


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("III", 3),
        ("GGS", 2),
        ("SSS", -6),
        ("FII", 5),
        ("WII", 6),
        ("FWG", 2),  # Fire and Water cancel each other
        ("FFW", 0),
        ("WWF", 0),
        ("FFF", 9),
        ("WWW", 12),
        ("PII", 3),  # one Person: 1
        ("PPI", 5),  # two Persons: 2 each
        ("PPP", 9),  # three Persons: 3 each
    ],
)
def test_T2_scores(code: str, expected: int) -> None:
    assert score(hand(code)) == expected


def test_T2_scores_run_from_minus_6_to_12_and_count_own_dice_only() -> None:
    values = {SCORE[t] for t in itertools.product(RUNE, repeat=3)}
    assert min(values) == -6 and max(values) == 12
    # Another player's Water does not cancel this player's Fire.
    state = start("FFF", "WWW", "III")
    assert state.view(None)["scores"] == [9, 12, 3]


# --- T3, T4 -------------------------------------------------------------------------


def test_T3_bankroll_option() -> None:
    assert new_state().coins == [20, 20, 20]
    assert new_state(bankroll=7).coins == [7, 7, 7]
    with pytest.raises(OptionError, match="bankroll"):
        make_game("tepiiku", 3, {"bankroll": 0})
    with pytest.raises(OptionError, match="exactly 3"):
        make_game("tepiiku", 4)


def test_T3_no_coin_moves_before_the_fish_pays() -> None:
    state = start("GGS", "GGI", "WGG", ups=(True, True, True))
    assert state.pot == 4
    reroll(state, 0, 2)
    state.apply_chance(hand("I"))  # ties the middle: pot 8, nothing paid yet
    assert state.pot == 8 and state.coins == [20, 20, 20]


def test_T3_a_fish_that_owes_more_than_it_has_pays_everything_and_T4_ends() -> None:
    state = start("GGS", "GGI", "WGG", ups=(True, True, True), bankroll=3)
    state.apply(0, PAY)  # owes 4, has 3
    assert state.coins == [0, 3, 6]
    assert state.is_over()
    result = state.result()
    assert result.winners == (2,)
    assert result.net == (-3, 0, 3)
    assert result.unit == "coins"


def test_T4_equal_coins_between_the_other_two_is_a_shared_win() -> None:
    state = start("WGG", "GGI", "III", bankroll=2)  # seat 2 Fish, seat 0 Hook
    state.apply(2, PAY)
    assert state.coins == [3, 2, 1] and not state.is_over()
    throw(state, "GGI", "WGG", "III")  # seat 2 Fish, seat 1 Hook
    bet(state, False, False, False)
    state.apply(2, PAY)
    assert state.coins == [3, 3, 0]
    assert state.is_over()
    result = state.result()
    assert result.winners == (0, 1)
    assert result.net == (1, 1, -2)
    assert state.view(None)["result"]["winners"] == [0, 1]


# --- T5 and C3: secret throws, simultaneous thumbs --------------------------------------


def test_T5_pot_is_one_plus_the_thumbs_up() -> None:
    for ups, pot in [((False, False, False), 1), ((True, False, True), 3), ((True,) * 3, 4)]:
        assert start("III", "GGI", "WGG", ups=ups).pot == pot


def test_T5_throws_are_secret_until_every_thumb_is_in() -> None:
    state = new_state()
    throw(state, "III")
    assert state.view(0)["dice"][0] == hand("III") and state.view(0)["scores"][0] == 3
    assert state.view(1)["dice"][0] is None and state.view(None)["scores"][0] is None
    throw(state, "GGI", "WGG")
    assert state.view(None)["dice"] == [None, None, None]
    assert state.view(1)["dice"] == [None, hand("GGI"), None]
    assert state.actors() == (0, 1, 2)
    bet(state, False, False, False)
    assert state.view(None)["dice"] == [hand("III"), hand("GGI"), hand("WGG")]
    assert state.view(None)["revealed"] is True


def test_C3_thumbs_hidden_until_all_three_commit() -> None:
    state = new_state()
    throw(state, "III", "GGI", "WGG")
    state.apply(1, {"type": "thumbs", "up": True})
    assert state.actors() == (0, 2)
    assert state.view(1)["thumbs"] == [None, True, None]
    for viewer in (0, 2, None):
        view = state.view(viewer)
        assert view["thumbs"] == [None, None, None]
        assert view["committed"] == [False, True, False]
    with pytest.raises(IllegalActionError):
        state.apply(1, {"type": "thumbs", "up": False})  # committed once
    state.apply(2, {"type": "thumbs", "up": False})
    state.apply(0, {"type": "thumbs", "up": True})
    assert state.view(None)["thumbs"] == [True, True, False]
    events = [e["type"] for e in state.events_for(0)]
    assert events.count("thumbs") == 1  # its own, privately; others only "committed"


def test_C6_hidden_facts_do_not_reach_other_views() -> None:
    state = new_state()
    throw(state, "III", "GGI", "WGG")
    state.apply(0, {"type": "thumbs", "up": True})
    rng = random.Random(3)
    for viewer in (None, 0, 1, 2):
        assert state.resample_hidden(viewer, rng).view(viewer) == state.view(viewer)
    texts = " ".join(e["text"] for e in state.events_for(1))
    assert "ingot, ingot, ingot" not in texts and "gem, gem, ingot" in texts


# --- T6: tie resolution ---------------------------------------------------------------


def test_T6_three_way_initial_tie_all_reroll_at_once() -> None:
    state = start("III", "PII", "FSG", ups=(True, False, False))  # all score 3
    assert state.phase == "ties" and state.actors() == (0, 1, 2)
    reroll(state, 1, 1, 2)
    reroll(state, 0, 0)
    assert state.view(0)["choices"] == [[0], None, None]
    assert state.view(1)["choices"] == [None, [1, 2], None]
    assert state.view(2)["choices"] == [None, None, None]
    assert state.view(2)["committed"] == [True, True, False]
    assert not state.is_chance()
    reroll(state, 2, 0, 1, 2)
    # All in: thrown in seat order, each with the dice chosen.
    assert [r["seat"] for r in state.view(None)["rerolling"]] == [0, 1, 2]
    assert len(state.chance_dice()) == 1
    state.apply_chance(hand("G"))  # seat 0: GII = 4
    assert len(state.chance_dice()) == 2
    state.apply_chance(hand("GG"))  # seat 1: PGG = 5
    state.apply_chance(hand("WWW"))  # seat 2: 12
    assert state.pot == 2  # unchanged by ties
    assert roles(state) == (0, 1, 2)
    assert state.phase == "fish" and state.actors() == (0,)


def test_T6_a_new_tie_brings_in_a_player_who_did_not_reroll() -> None:
    state = start("III", "PII", "GGI")  # 3, 3, 5
    assert state.tied == (0, 1)
    reroll(state, 0, 0)
    reroll(state, 1, 1, 2)
    state.apply_chance(hand("G"))  # seat 0: 4
    state.apply_chance(hand("GG"))  # seat 1: PGG = 5, ties seat 2
    assert state.phase == "ties" and state.tied == (1, 2) and state.actors() == (1, 2)
    reroll(state, 2, 0)
    reroll(state, 1, 0)
    state.apply_chance(hand("S"))  # seat 1: SGG = 2
    state.apply_chance(hand("W"))  # seat 2: WGI = 7
    assert state.view(None)["scores"] == [4, 2, 7]
    assert roles(state) == (1, 0, 2) and state.pot == 1


# --- T7, T9: roles and payment ----------------------------------------------------------


def test_T7_roles_and_paying_ends_the_round() -> None:
    state = start("WGG", "III", "GGI", ups=(False, True, False))  # 8, 3, 5
    assert roles(state) == (1, 2, 0)
    assert state.legal_actions(1)[0] == PAY and len(state.legal_actions(1)) == 8
    assert state.legal_actions(0) == () and state.legal_actions(2) == ()
    state.apply(1, PAY)
    assert state.coins == [22, 18, 20]
    assert state.phase == "throw" and state.round == 2


def test_T7_the_fish_must_reroll_a_non_empty_set() -> None:
    state = start("WGG", "III", "GGI")
    for bad in ([], [3], [1, 1], [2, 0]):
        with pytest.raises(IllegalActionError, match="reroll"):
            state.apply(1, {"type": "reroll", "dice": bad})
    with pytest.raises(IllegalActionError):
        state.apply(0, PAY)  # only the Fish pays
    assert state.coins == [20, 20, 20] and state.actors() == (1,)


def test_T9_the_middle_never_pays_nor_receives() -> None:
    state = start("GGS", "GGI", "WGG")  # 2, 5, 8
    reroll(state, 0, 0, 1, 2)
    state.apply_chance(hand("SSS"))  # bust
    assert state.coins == [18, 20, 22]


# --- T8: the Fish's reroll ------------------------------------------------------------


def test_T8_bust_when_no_better_pays_twice_the_pot() -> None:
    state = start("GGS", "GGI", "WGG", ups=(False, True, False))  # pot 2
    reroll(state, 0, 2)
    state.apply_chance(hand("S"))  # same score: bust
    assert state.coins == [16, 20, 24]
    assert state.view(None)["last"]["kind"] == "pay"


def test_T8_still_the_fish_adds_one_and_compares_with_the_new_score() -> None:
    state = start("ISS", "GGI", "WGG")  # -3, 5, 8
    reroll(state, 0, 1)
    state.apply_chance(hand("I"))  # IIS = 0: still the Fish
    assert state.pot == 2 and state.actors() == (0,) and state.phase == "fish"
    assert state.last == {"kind": "still", "seat": 0, "before": -3, "after": 0}
    reroll(state, 0, 2)
    state.apply_chance(hand("S"))  # 0 again: bust against the new score
    assert state.coins == [16, 20, 24]


def test_T8_tie_with_the_middle_doubles_and_the_middle_must_reroll() -> None:
    state = start("GGS", "GGI", "WGG")  # 2, 5, 8
    reroll(state, 0, 2)
    state.apply_chance(hand("I"))  # GGI = 5
    assert state.pot == 2 and state.phase == "forced" and state.actors() == (1,)
    assert state.legal_actions(1)[0] != PAY and len(state.legal_actions(1)) == 7
    assert state.view(None)["forced"] == 1
    reroll(state, 1, 0, 1, 2)
    state.apply_chance(hand("SSS"))  # worse: no bust, no +1 for a forced reroll
    assert state.pot == 2 and state.coins == [20, 20, 20]
    assert roles(state) == (1, 0, 2) and state.actors() == (1,)


def test_T8_tie_chain_the_forced_roller_ties_the_third_player() -> None:
    state = start("GGS", "GGI", "WGG")  # 2, 5, 8
    reroll(state, 0, 2)
    state.apply_chance(hand("I"))  # ties the middle: pot 2, seat 1 rerolls
    reroll(state, 1, 2)
    state.apply_chance(hand("W"))  # GGW = 8 ties the Hook: pot 4, seat 2 rerolls
    assert state.pot == 4 and state.actors() == (2,)
    reroll(state, 2, 0)
    state.apply_chance(hand("S"))  # SGG = 2
    assert state.view(None)["scores"] == [5, 8, 2]
    assert roles(state) == (2, 0, 1) and state.pot == 4
    state.apply(2, PAY)
    assert state.coins == [20, 24, 16]


def test_T8_a_forced_reroll_that_ties_the_roller_again_sends_it_back() -> None:
    state = start("GGS", "GGI", "WGG")
    reroll(state, 0, 2)
    state.apply_chance(hand("I"))  # 5 = 5
    reroll(state, 1, 0)
    state.apply_chance(hand("G"))  # still 5: ties the Fish that tied it
    assert state.pot == 4 and state.actors() == (0,) and state.phase == "forced"


def test_T8_passing_the_middle_to_tie_the_hook_doubles_once() -> None:
    state = start("GGS", "GGI", "WGG")  # 2, 5, 8
    reroll(state, 0, 2)
    state.apply_chance(hand("W"))  # GGW = 8
    assert state.pot == 2 and state.actors() == (2,)
    assert state.last == {"kind": "tie", "seat": 0, "before": 2, "after": 8}
    reroll(state, 2, 0)
    state.apply_chance(hand("S"))  # the Hook drops to 2
    assert roles(state) == (2, 1, 0) and state.pot == 2


def test_T8_beat_doubles_and_the_middle_becomes_the_fish() -> None:
    state = start("GGS", "GGI", "WGG")  # 2, 5, 8
    reroll(state, 0, 2)
    state.apply_chance(hand("G"))  # GGG = 6
    assert state.pot == 2 and roles(state) == (1, 0, 2)
    assert state.actors() == (1,)


def test_T8_beating_both_makes_the_fish_the_hook() -> None:
    state = start("GGS", "GGI", "WGG")
    reroll(state, 0, 0, 1, 2)
    state.apply_chance(hand("WWW"))  # 12
    assert state.pot == 2 and roles(state) == (1, 2, 0)


# --- T10 -------------------------------------------------------------------------------


def test_T10_rounds_repeat_with_fresh_secret_throws() -> None:
    state = start("WGG", "III", "GGI", ups=(True, True, False))
    state.apply(1, PAY)
    view = state.view(None)
    assert view["phase"] == "throw" and view["round"] == 2
    assert view["dice"] == [None, None, None] and view["thumbs"] == [None, None, None]
    assert view["pot"] == 0 and view["roles"] is None
    throw(state, "III", "GGI", "WGG")
    assert state.phase == "bet" and state.actors() == (0, 1, 2)


def test_a_scripted_table_records_and_replays() -> None:
    from dicehall.core.transcript import replay

    game = make_game("tepiiku", 3, {"bankroll": 1})
    table = Table(game, ScriptedDice([hand("III"), hand("GGI"), hand("WGG"), hand("S")]))
    table.settle()
    for seat in range(3):
        table.act(seat, {"type": "thumbs", "up": False})
    table.act(0, {"type": "reroll", "dice": [0]})
    table.settle()  # SII = 0: bust, pays its only coin
    assert table.state.is_over()
    again = replay(table.transcript())
    assert again.result() == table.state.result()
    assert again.result().winners == (2,)


def test_default_actions_are_safe() -> None:
    state = new_state()
    throw(state, "GGS", "GGI", "WGG")
    state.timeout(0)
    assert state.view(0)["thumbs"][0] is False
    state.apply(1, {"type": "thumbs", "up": False})
    state.apply(2, {"type": "thumbs", "up": False})
    state.timeout(0)  # the Fish pays
    assert state.coins == [19, 20, 21]


def test_the_documented_example_replays() -> None:
    import json
    from pathlib import Path

    from dicehall.core.transcript import replay

    path = Path(__file__).parents[2] / "docs" / "examples" / "tepiiku.json"
    data = json.loads(path.read_text())
    state = replay(data)
    assert state.is_over() and state.result().to_json() == data["result"]


def test_reroll_choices_and_their_events_name_the_runes() -> None:
    state = start("WGG", "FIS", "GGI")  # the Fish, seat 1, holds fire, ingot, skull
    game = state.game
    labels = [game.choice_label(state.view(1), a) for a in state.legal_actions(1)]
    assert labels[0] == "pay the pot"
    assert "reroll fire and skull" in labels and "reroll all dice" in labels
    assert "die" not in " ".join(labels)
    reroll(state, 1, 0, 2)
    assert state.log is not None
    assert any(e.text == "Seat 1 rerolls fire and skull" for e in state.log)
