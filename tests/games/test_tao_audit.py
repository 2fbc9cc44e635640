"""An independent audit of the Tao Dice rules: the edge cases of D2-D12 and C6.

Each test scripts the throws in the order the table makes them (2d6, d12 and
rerolls one player at a time, in seat order) and plays the actions in turn
order. Positions that take long to reach are set up by restarting a round
with the stones each seat holds (`restart_round`).
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from dicehall.core import IllegalActionError, ScriptedDice, Table
from dicehall.games.tao import TaoDice
from dicehall.games.tao.odds import advice_table, odds_tables
from tests.games.tao_script import FOLD, PASS, ante, call, play, raise_, start_round, table


def seen_dice(t: Table, viewer: int | None) -> list[object]:
    """Every die face list that reached `viewer` through events or its view."""
    state = t.state
    faces: list[object] = [e["dice"] for e in state.events_for(viewer) if "dice" in e]
    for e in state.events_for(viewer):
        faces += [list(shown[1:3]) for shown in e.get("players", [])]  # seat, d6, d6, ...
    faces += [p["dice"] for p in state.view(viewer)["players"] if p["dice"] is not None]
    return faces


# --- D3 betting ----------------------------------------------------------------------


def test_D3_a_raise_by_the_last_to_speak_is_answered_by_all_who_passed() -> None:
    t = table(4, [[2, 2]] * 4)
    state = play(t, *[(s, ante()) for s in range(4)], (0, PASS), (1, PASS), (2, PASS))
    state = play(t, (3, raise_()))
    assert state.view(None)["raiser"] == 3
    order = []
    while state.phase == "bet":
        (seat,) = state.actors()
        order.append(seat)
        assert state.legal_actions(seat)[-1] == FOLD
        state = play(t, (seat, call()))
    assert order == [0, 1, 2]  # clockwise from the raiser, nobody twice
    assert state.pot_black == 8


def test_D3_nobody_folds_before_a_raise() -> None:
    t = table(2, [[2, 2]] * 2)
    state = play(t, (0, ante()), (1, ante()))
    assert FOLD not in state.legal_actions(0)
    before = state.view(0)
    with pytest.raises(IllegalActionError):
        state.apply(0, FOLD)
    assert state.view(0) == before


def test_D3_stage_two_is_opened_by_the_token_holder_again_not_the_raiser() -> None:
    t = table(3, [[2, 2]] * 3 + [[5], [6], [7]])
    state = play(t, *[(s, ante()) for s in range(3)])
    state = play(t, (0, PASS), (1, raise_()), (2, call()), (0, call()))
    assert state.stage == 2 and state.phase == "bet"
    assert state.actors() == (0,) and state.view(None)["opener"] == 0
    assert state.view(None)["raiser"] is None  # a fresh stage: one raise allowed again
    assert raise_() in state.legal_actions(0)


def test_D3_the_token_holder_out_of_the_match_hands_the_opening_clockwise() -> None:
    t = table(4, [])
    state = play(t)
    state.token_holder = 1
    state = start_round(t, [(6, 3), (0, 0), (5, 3), (5, 2)], out=(1,))
    assert state.opener == 2 and state.actors() == (2,)


# --- D4 gratis -------------------------------------------------------------------------


def test_D4_a_player_with_no_stones_may_not_raise_even_when_nobody_has() -> None:
    t = table(3, [[3, 3]] * 3)
    start_round(t, [(7, 3), (5, 2), (0, 1)])
    state = play(t, (0, ante()), (1, ante()), (2, ante(1)), (0, PASS), (1, PASS))
    assert state.legal_actions(2) == (PASS,)
    with pytest.raises(IllegalActionError):
        state.apply(2, raise_(0))


# --- D5 white stones -------------------------------------------------------------------


def test_D5_two_white_stones_in_one_raise_buy_one_d12_reroll() -> None:
    # Four players, two out: m = 2 (D11). Seat 0 raises with two white in stage two.
    throws = [[3, 3], [3, 3], [9], [9], [1]]
    t = table(4, throws)
    start_round(t, [(8, 4), (8, 4), (0, 0), (0, 0)], out=(2, 3))
    state = play(t, (0, ante()), (1, ante()), (0, PASS), (1, PASS))
    assert state.stage == 2 and state.m == 2
    state = play(t, (0, raise_(2)), (1, call(0)))
    rerolls = [e for e in state.events_for(None) if e["type"] == "d12" and "again" in e["text"]]
    assert [(e["seat"], e["d12"]) for e in rerolls] == [(0, 1)]
    # 3+3+1 = 7 loses to 3+3+9 = 15 after the one reroll.
    assert (state.black[1], state.white[1]) == (4 + 6, 4 + 2)


def test_D5_a_reroll_owed_when_the_others_fold_is_never_thrown() -> None:
    t = table(2, [[1, 1], [6, 6]])
    state = play(t, (0, ante()), (1, ante()), (0, raise_(1)), (1, FOLD))
    assert state.phase == "ante" and state.round_no == 2
    assert not any("again" in e["text"] for e in state.events_for(None))
    # Seat 0 keeps 3 black and 1 white after its ante and raise, and takes 2 black + 1 white.
    assert (state.black[0], state.white[0]) == (5, 2) and state.pot_black == 0


def test_D5_a_stage_one_reroll_reaches_only_its_owner() -> None:
    t = table(3, [[1, 2], [2, 3], [3, 4], [6, 5]])
    state = play(t, *[(s, ante()) for s in range(3)], (0, raise_()), (1, call(1)))
    state = play(t, (2, call()))
    assert state.phase == "d12" and state.dice[1] == (6, 5)
    assert state.view(1)["players"][1]["dice"] == [6, 5]
    for viewer in (0, 2, None):
        assert [6, 5] not in seen_dice(t, viewer)
        assert [2, 3] not in seen_dice(t, viewer)


# --- D6 stage two --------------------------------------------------------------------


def test_D6_advice_counts_an_opponents_pending_d12_reroll() -> None:
    """A d12 that a white stone will throw again is not yet that player's d12 (D5)."""
    game = TaoDice(2, {"opener": "0"})
    t = Table(game, ScriptedDice([[6, 6], [6, 6], [1], [12]]))
    play(t, (0, ante()), (1, ante()), (0, PASS), (1, PASS), (0, PASS))
    state = play(t, (1, raise_(1)))  # seat 1's d12 of 12 is about to be thrown again
    advice = advice_table(state.view(0), state.legal_actions(0), game.action_label)
    assert advice is not None
    keep = advice.rows[0]
    assert keep[0] == "call, no white"
    # 6+6+1 = 13 against 2d6 + a fresh d12: not the certain loss that 12 would give.
    (against_any_d12,) = odds_tables({"dice": "6,6", "d12": "1", "opponents": "?"})
    assert keep[1:] == against_any_d12.rows[0][1:3]
    assert isinstance(keep[1], Fraction) and keep[1] > 0


# --- D7 folding ----------------------------------------------------------------------


def test_D7_the_last_player_in_shows_nothing_and_the_folder_shows_nothing() -> None:
    t = table(3, [[1, 2], [3, 4], [5, 6], [7], [8]])
    state = play(t, *[(s, ante()) for s in range(3)], (0, raise_()), (1, call()), (2, FOLD))
    state = play(t, (0, PASS), (1, raise_()), (0, FOLD))
    assert state.round_no == 2 and state.view(None)["showdown"] is None
    assert (state.black[1], state.white[1]) == (1 + 6, 2)  # kept 1 black; a pot of 6
    thrown = [[1, 2], [3, 4], [5, 6]]
    for viewer in (0, 1, 2):
        assert seen_dice(t, viewer) == [thrown[viewer]]  # one's own throw, nobody else's
    assert seen_dice(t, None) == []


# --- D8 showdown -----------------------------------------------------------------------


def test_D8_a_gratis_player_at_the_showdown_shows_too_and_is_then_out() -> None:
    t = table(3, [[6, 6], [1, 1], [2, 2], [12], [1], [1]])
    start_round(t, [(7, 3), (5, 2), (0, 1)])
    moves = [(0, ante()), (1, ante()), (2, ante(1)), (0, raise_()), (1, FOLD), (2, call())]
    state = play(t, *moves, (0, PASS), (2, PASS))
    shown = state.view(1)["showdown"]
    assert [(p["seat"], p["dice"]) for p in shown["players"]] == [(0, [6, 6]), (2, [2, 2])]
    assert state.out == [False, False, True]
    assert [1, 1] not in seen_dice(t, 0)  # the folder's dice stay hidden


# --- D9 ties ---------------------------------------------------------------------------


def test_D9_the_tie_break_is_opened_by_the_next_tied_player_and_others_sit_out() -> None:
    throws = [[1, 1], [4, 4], [5, 3], [1], [6], [6]]  # 3, 14, 14: seats 1 and 2 tie
    throws += [[6, 6], [1, 1], [1], [1]]  # tie-break: 13 against 3
    t = table(3, throws)
    state = play(t, *[(s, ante()) for s in range(3)], *[(s, PASS) for s in (0, 1, 2) * 2])
    assert state.tiebreak == 1 and state.phase == "bet"
    assert state.opener == 1 and state.actors() == (1,)  # the token/first player sits out
    assert state.view(None)["players"][0]["status"] == "sitting out"
    assert state.view(1)["players"][1]["dice"] == [6, 6]  # fresh 2d6 for the tied only
    assert state.legal_actions(0) == ()
    assert (state.pot_black, state.black) == (3, [3, 3, 3])  # no new ante
    state = play(t, (1, PASS), (2, PASS), (1, PASS), (2, PASS))
    assert state.tiebreak == 0 and state.round_no == 2
    assert state.black == [3, 6, 3]


def test_D9_D10_a_player_left_without_stones_by_a_tie_is_out_before_the_tie_break() -> None:
    """The interpretation in rules.py: the tied round has ended for those sitting out."""
    throws = [[6, 6], [6, 6], [1, 1], [1, 1], [1], [1], [1], [1]]
    throws += [[6, 6], [1, 1], [12], [1]]
    t = table(4, throws)
    start_round(t, [(7, 5), (7, 3), (1, 0), (1, 0)])
    state = play(t, *[(s, ante()) for s in range(4)], *[(s, PASS) for s in range(4)] * 2)
    assert state.tiebreak == 1 and state.out == [False, False, True, True]
    assert state.m == 2  # D11 counts them at once
    state = play(t, (0, raise_()))
    assert state.pot_black == 4 + 2 and state.legal_actions(1)[:3] == (call(0), call(1), call(2))


# --- D12 token -------------------------------------------------------------------------


def test_D12_a_gold_token_goes_silver_to_another_winner_and_the_game_goes_on() -> None:
    t = table(3, [])
    state = play(t)
    state.token_holder, state.token_gold = 1, True
    state.matches_won = [0, 2, 0]
    t.dice = ScriptedDice([[6, 6], [1, 1], [12], [1]])
    start_round(t, [(11, 6), (1, 0), (0, 0)], out=(2,))
    assert state.opener == 1  # the gold holder opens
    state = play(t, (1, ante()), (0, ante()), (1, PASS), (0, PASS), (1, PASS), (0, PASS))
    assert not state.is_over() and state.match_no == 2
    assert state.view(None)["token"] == {"holder": 0, "side": "silver"}


# --- C6 hidden information -----------------------------------------------------------


def test_C6_resample_keeps_every_view_and_redraws_only_what_is_hidden() -> None:
    t = table(3, [[1, 1], [2, 2], [3, 3], [4], [5]])
    state = play(t, *[(s, ante()) for s in range(3)], (0, raise_()), (1, call()), (2, FOLD))
    rng = random.Random(7)
    redrawn: dict[int, set[tuple[int, int]]] = {s: set() for s in range(3)}
    for _ in range(50):
        for seat in (0, 1, 2, None):
            other = state.resample_hidden(seat, rng)
            assert other.view(seat) == state.view(seat)
            assert other.conserved() == state.conserved()
            for s in range(3):
                if s != seat:
                    redrawn[s].add(other.dice[s])
                else:
                    assert other.dice[s] == state.dice[s]
    assert all(len(faces) > 1 for faces in redrawn.values())  # the folder's too


def test_C6_after_the_game_dice_never_shown_stay_hidden() -> None:
    t = table(2, [[6, 6], [1, 1], [2], [3]], length="single")
    start_round(t, [(7, 4), (1, 0)])
    state = play(t, (0, ante()), (1, ante()), (0, PASS), (1, PASS))
    assert state.stage == 2 and state.black[1] + state.white[1] == 0
    state = play(t, (0, raise_()), (1, FOLD))  # D4 would let seat 1 stay free; it folds
    assert state.is_over() and state.view(None)["winner"] == 0
    assert [1, 1] not in seen_dice(t, 0) and [6, 6] not in seen_dice(t, 1)
    assert seen_dice(t, None) == []
