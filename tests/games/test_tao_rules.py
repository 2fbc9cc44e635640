"""Tao Dice rules, one or more tests per ruling D1-D12, with scripted dice.

Each test writes down the throws in the order the table makes them (2d6 and
d12 throws one player at a time, in seat order) and the actions in turn
order. Long matches are shortened by starting a round from a crafted
position (`start_round`): the stones each seat holds and who is out.
"""

from __future__ import annotations

import pytest

from dicehall.core import IllegalActionError, ScriptedDice, Table
from dicehall.core.chance import D12
from dicehall.games import make_game
from dicehall.games.tao.rules import ONE_D12, TWO_D6, TaoDice, TaoState, bid_unit
from tests.games.tao_script import (
    FOLD,
    PASS,
    ante,
    call,
    held,
    play,
    pot,
    raise_,
    start_round,
    table,
)

# --- D1 stones ---------------------------------------------------------------------


def test_D1_every_player_starts_with_four_black_and_two_white() -> None:
    state = TaoDice(5).new_state()
    assert state.conserved() == {"black": 20, "white": 10}
    view = state.view(None)
    assert [(p["black"], p["white"]) for p in view["players"]] == [(4, 2)] * 5


def test_D1_stones_keep_their_colour_through_the_pot() -> None:
    t = table(2, [[1, 1], [6, 6], [1], [1]])
    state = play(t, (0, ante(1)), (1, ante(0)), (0, PASS), (1, PASS), (0, PASS), (1, PASS))
    # Seat 1 wins a pot of one white (seat 0's) and one black (its own).
    assert held(state, 0) == (4, 1)
    assert held(state, 1) == (4, 3)


# --- D2 ante -----------------------------------------------------------------------


def test_D2_antes_pick_colours_and_never_force_a_reroll() -> None:
    t = table(3, [])
    state = play(t)
    assert state.legal_actions(0) == (ante(0), ante(1))
    state = play(t, (0, ante(1)), (1, ante(0)), (2, ante(1)))
    assert pot(state) == (1, 2)
    assert not any(p["must_reroll"] for p in state.view(None)["players"])
    assert state.is_chance() and state.chance_dice() == TWO_D6


def test_D2_the_two_d6_are_hidden_from_the_others() -> None:
    t = table(2, [[2, 5], [3, 4]])
    state = play(t, (0, ante()), (1, ante()))
    assert state.view(0)["players"][0]["dice"] == [2, 5]
    assert state.view(0)["players"][1]["dice"] is None
    assert state.view(1)["players"][0]["dice"] is None
    assert state.view(None)["players"][1]["dice"] is None
    assert all(e.get("dice") is None for e in state.events_for(1) if e.get("seat") == 0)


def test_D2_with_fewer_stones_than_the_bid_unit_one_antes_all() -> None:
    t = table(4, [])
    state = start_round(t, [(11, 5), (4, 2), (1, 1), (0, 0)], out=(3,))
    state.m = 2
    state = play(t, (0, ante()), (1, ante()))
    assert state.legal_actions(2) == (ante(1),)  # two stones, one black and one white
    state = play(t, (2, ante(1)))
    assert held(state, 2) == (0, 0)
    assert pot(state) == (4 + 1, 1)


# --- D3 betting ----------------------------------------------------------------------


def test_D3_random_first_player_is_a_throw_of_a_seat_die() -> None:
    game = TaoDice(4)
    state = game.new_state()
    assert state.is_chance() and state.chance_dice() == ((0, 1, 2, 3),)
    state.apply_chance([2])
    assert state.view(None)["first_player"] == 2
    assert state.actors() == (2,)  # antes clockwise from the opener


def test_D3_passing_clockwise_from_the_opener_then_calls_clockwise_from_the_raiser() -> None:
    t = table(4, [[1, 1]] * 4, opener="2")
    state = play(t, (2, ante()), (3, ante()), (0, ante()), (1, ante()))
    assert state.actors() == (2,)
    state = play(t, (2, PASS))
    assert state.legal_actions(3) == (PASS, raise_(0), raise_(1))
    state = play(t, (3, raise_()))
    # The raise ends the passing: 0, 1 and then 2 (who passed) call or fold.
    assert state.actors() == (0,)
    assert state.legal_actions(0) == (call(0), call(1), FOLD)  # no re-raise
    with pytest.raises(IllegalActionError):
        state.apply(0, raise_())
    state = play(t, (0, call()), (1, FOLD))
    assert state.actors() == (2,)
    state = play(t, (2, call()))
    assert state.phase == "d12" and pot(state) == (7, 0)


def test_D3_when_all_pass_the_stage_ends_without_stones() -> None:
    t = table(3, [[1, 1]] * 3)
    state = play(t, (0, ante()), (1, ante()), (2, ante()), (0, PASS), (1, PASS), (2, PASS))
    assert state.phase == "d12" and pot(state) == (3, 0)


def test_D3_an_opener_who_folded_is_replaced_by_the_next_player_in() -> None:
    t = table(3, [[1, 1], [2, 2], [3, 3], [4], [5]])
    state = play(t, (0, ante()), (1, ante()), (2, ante()))
    state = play(t, (0, PASS), (1, raise_()), (2, call()), (0, FOLD))
    assert state.stage == 2 and state.phase == "bet"
    assert state.view(None)["opener"] == 1 and state.actors() == (1,)
    assert [p["d12"] for p in state.view(None)["players"]] == [None, 4, 5]


def test_D3_the_token_holder_opens() -> None:
    t = table(3, [])
    state = play(t)
    state.token_holder = 2
    start_round(t, [(4, 2)] * 3)
    assert state.actors() == (2,)


# --- D4 gratis -----------------------------------------------------------------------


def test_D4_a_player_without_stones_stays_in_free_and_cannot_raise() -> None:
    t = table(3, [[1, 1], [1, 2], [6, 6], [1], [1], [1]])
    start_round(t, [(6, 3), (6, 2), (0, 1)])
    state = play(t, (0, ante()), (1, ante()))
    assert state.legal_actions(2) == (ante(1),)
    state = play(t, (2, ante(1)), (0, raise_()), (1, call()))
    assert state.legal_actions(2) == (call(0), FOLD)
    state = play(t, (2, call(0)))
    assert held(state, 2) == (0, 0) and pot(state) == (4, 1)
    state = play(t, (0, PASS), (1, PASS))
    assert state.legal_actions(2) == (PASS,)
    state = play(t, (2, PASS))
    # 6+6+1 beats 1+1+1 and 1+2+1: the gratis player takes the whole pot (D8).
    assert held(state, 2) == (4, 1)
    assert state.round_no == 2 and not state.out[2]


def test_D4_fewer_stones_than_the_bid_unit_raise_with_what_they_have() -> None:
    t = table(4, [[1, 1]] * 3)
    start_round(t, [(12, 4), (4, 1), (0, 3), (0, 0)], out=(3,))
    state = t.state
    assert isinstance(state, TaoState)
    state.m = 2
    state = play(t, (0, ante()), (1, ante()))
    assert state.legal_actions(2) == (ante(2),)
    state = play(t, (2, ante(2)), (0, PASS), (1, PASS))
    assert state.legal_actions(2) == (PASS, raise_(1))
    state = play(t, (2, raise_(1)))
    assert held(state, 2) == (0, 0) and pot(state) == (4, 3)
    assert state.legal_actions(0) == (call(0), call(1), call(2), FOLD)  # m = 2 for the others


# --- D5 white stones -----------------------------------------------------------------


def test_D5_a_raise_called_with_a_white_stone_rerolls_the_hidden_2d6() -> None:
    t = table(2, [[1, 1], [6, 6], [2, 2], [5], [5]])
    state = play(t, (0, ante()), (1, ante()), (0, raise_(0)))
    state = play(t, (1, call(1)))
    assert state.view(None)["players"][1]["must_reroll"] is False  # the reroll is made
    assert state.view(1)["players"][1]["dice"] == [2, 2]
    assert state.view(0)["players"][1]["dice"] is None
    assert [e["type"] for e in state.events_for(0)][-4:] == ["call", "throw", "d12", "d12"]
    state = play(t, (0, PASS), (1, PASS))
    # 1+1+5 = 7 loses to the rerolled 2+2+5 = 9.
    assert held(state, 0) == (2, 2)
    assert held(state, 1) == (6, 2)
    assert state.view(0)["showdown"]["players"][1] == {
        "seat": 1,
        "dice": [2, 2],
        "d12": 5,
        "total": 9,
    }


def test_D5_the_reroll_waits_for_all_betting_in_the_stage() -> None:
    t = table(3, [[3, 3]] * 3)
    state = play(t, (0, ante()), (1, ante()), (2, ante()), (0, raise_(1)))
    assert state.actors() == (1,) and state.view(None)["players"][0]["must_reroll"]
    state = play(t, (1, call()), (2, call(1)))
    assert state.phase == "reroll" and state.chance_dice() == TWO_D6
    assert state.queue == [0, 2]


def test_D5_an_ante_white_stone_or_a_fold_means_no_reroll() -> None:
    t = table(2, [[3, 3]] * 2)
    state = play(t, (0, ante(1)), (1, ante(1)), (0, PASS), (1, PASS))
    assert state.phase == "d12"


def test_D6_white_in_stage_two_rerolls_the_d12_for_all_to_see() -> None:
    t = table(2, [[3, 3], [3, 3], [4], [10], [12]])
    state = play(t, (0, ante()), (1, ante()), (0, PASS), (1, PASS))
    assert [p["d12"] for p in state.view(1)["players"]] == [4, 10]
    state = play(t, (0, raise_(1)), (1, call(0)))
    assert state.phase == "over" or state.round_no == 2
    # The d12 reroll: 3+3+12 = 18 beats 3+3+10 = 16.
    assert held(state, 0) == (6, 2)
    assert state.view(1)["showdown"]["players"][0]["d12"] == 12


def test_D6_the_d12_reroll_is_one_d12() -> None:
    t = table(2, [[3, 3], [3, 3], [4], [10]])
    state = play(t, (0, ante()), (1, ante()), (0, PASS), (1, PASS), (0, raise_(1)), (1, call()))
    assert state.phase == "reroll" and state.chance_dice() == ONE_D12 == (D12,)


# --- D7 folding ----------------------------------------------------------------------


def test_D7_the_last_player_in_takes_the_pot_at_once() -> None:
    t = table(3, [[1, 1], [6, 6], [6, 6]])
    state = play(t, (0, ante()), (1, ante()), (2, ante()), (0, raise_()), (1, FOLD))
    assert state.actors() == (2,)
    state = play(t, (2, FOLD))
    assert state.round_no == 2 and state.phase == "ante"
    assert held(state, 0) == (6, 2) and pot(state) == (0, 0)
    assert state.view(0)["showdown"] is None  # nobody shows


def test_D7_folded_stones_stay_in_the_pot_and_folded_dice_stay_hidden() -> None:
    t = table(3, [[1, 1], [6, 6], [2, 2], [1], [1]])
    state = play(t, (0, ante()), (1, ante()), (2, ante()), (0, raise_()), (1, call()))
    state = play(t, (2, FOLD))
    assert pot(state) == (5, 0) and state.view(None)["players"][2]["status"] == "folded"
    state = play(t, (0, PASS), (1, PASS))
    assert held(state, 1) == (2 + 5, 2)
    assert [e["seat"] for e in state.view(0)["showdown"]["players"]] == [0, 1]
    assert not any(e.get("dice") == [2, 2] for e in state.events_for(0))


# --- D8 showdown ---------------------------------------------------------------------


def test_D8_highest_2d6_plus_d12_takes_the_whole_pot() -> None:
    t = table(3, [[6, 5], [1, 1], [2, 2], [1], [12], [6]])
    moves = [(s, ante()) for s in range(3)] + [(s, PASS) for s in (0, 1, 2, 0, 1, 2)]
    state = play(t, *moves)
    # 6+5+1 = 12, 1+1+12 = 14, 2+2+6 = 10
    assert held(state, 1) == (6, 2)
    assert state.view(2)["showdown"] == {
        "match": 1,
        "round": 1,
        "players": [
            {"seat": 0, "dice": [6, 5], "d12": 1, "total": 12},
            {"seat": 1, "dice": [1, 1], "d12": 12, "total": 14},
            {"seat": 2, "dice": [2, 2], "d12": 6, "total": 10},
        ],
        "top": [1],
    }


# --- D9 ties -------------------------------------------------------------------------


def test_D9_tie_break_round_with_a_gratis_player() -> None:
    throws = [[3, 3], [1, 1], [3, 3], [5], [1], [5]]  # 11, 3, 11: seats 0 and 2 tie
    throws += [[1, 1], [6, 6], [1], [1]]  # the tie-break: 3 against 13
    t = table(3, throws)
    start_round(t, [(6, 3), (6, 2), (0, 1)])
    moves = [(0, ante()), (1, ante()), (2, ante(1))]
    moves += [(s, PASS) for s in (0, 1, 2, 0, 1, 2)]
    state = play(t, *moves)
    view = state.view(None)
    assert state.tiebreak == 1 and state.phase == "bet" and state.stage == 1
    assert [p["status"] for p in view["players"]] == ["in", "sitting out", "in"]
    assert pot(state) == (2, 1)  # carried over: nobody antes again
    assert held(state, 2) == (0, 0) and not state.out[2]  # gratis goes on into the tie-break
    state = play(t, (0, raise_()))
    assert state.legal_actions(2) == (call(0), FOLD)
    state = play(t, (2, call(0)), (0, PASS), (2, PASS))
    assert held(state, 2) == (3, 1)
    assert state.round_no == 2 and state.tiebreak == 0 and state.actors() == (0,)


def test_D9_ties_repeat_while_tied() -> None:
    t = table(2, [[2, 2], [2, 2], [3], [3], [1, 2], [2, 1], [6], [6], [5, 5], [1, 1], [1], [1]])
    state = play(t, (0, ante()), (1, ante()), *[(s, PASS) for s in (0, 1, 0, 1)])
    assert state.tiebreak == 1
    state = play(t, *[(s, PASS) for s in (0, 1, 0, 1)])
    assert state.tiebreak == 2
    state = play(t, *[(s, PASS) for s in (0, 1, 0, 1)])
    assert state.tiebreak == 0 and held(state, 0) == (5, 2)


# --- D10 out of the match ------------------------------------------------------------


def test_D10_no_stones_after_a_round_means_out_of_the_match() -> None:
    t = table(3, [[6, 6], [1, 1], [1, 1], [12], [1], [1]])
    start_round(t, [(6, 3), (6, 2), (0, 1)])
    moves = [(0, ante()), (1, ante()), (2, ante(1))] + [(s, PASS) for s in (0, 1, 2, 0, 1, 2)]
    state = play(t, *moves)
    assert state.out == [False, False, True] and state.m == 1  # D11: fewer than four seats
    assert state.view(None)["players"][2]["status"] == "out"
    assert state.queue == [0, 1] and state.round_no == 2 and state.match_no == 1


def test_D10_the_match_ends_when_one_player_holds_every_stone() -> None:
    t = table(2, [[6, 6], [1, 1], [12], [1]], length="single")
    start_round(t, [(8, 3), (0, 1)])
    state = play(t, (0, ante()), (1, ante(1)), *[(s, PASS) for s in (0, 1, 0, 1)])
    assert state.is_over()
    result = state.result()
    assert result.winners == (0,)
    assert result.net == (6, -6) and result.unit == "stones"
    assert result.detail == {"matches_won": [1, 0]}


# --- D11 bid multiplier ----------------------------------------------------------------


def lose_last_stones(t: Table, losers: tuple[int, ...]) -> TaoState:
    """Play a round that seat 0 wins, all passing; each loser antes its last stone."""
    state = t.state
    assert isinstance(state, TaoState)
    in_round = [s for s in range(state.n) if state.in_round[s]]
    t.dice = ScriptedDice(
        [[6, 6] if s == 0 else [1, 1] for s in in_round]
        + [[12] if s == 0 else [1] for s in in_round]
    )
    antes = [(s, ante(int(s in losers and state.black[s] == 0))) for s in state.queue]
    passes = [(s, PASS) for s in state.orders[state.opener] if state.in_round[s]] * 2
    return play(t, *antes, *passes)


def test_D11_four_players_reach_multiplier_two() -> None:
    t = table(4, [])
    state = start_round(t, [(7, 4), (8, 3), (1, 0), (0, 1)])
    assert state.m == 1
    state = lose_last_stones(t, (2, 3))
    assert state.out == [False, False, True, True]
    assert state.view(None)["m"] == 2
    assert state.legal_actions(0) == (ante(0), ante(1), ante(2))
    state = play(t, (0, ante(0)))
    assert pot(state) == (2, 0)


def test_D11_six_players_reach_multiplier_three() -> None:
    t = table(6, [])
    state = start_round(t, [(12, 5), (11, 6), (1, 0), (0, 1), (0, 0), (0, 0)], out=(4, 5))
    assert state.m == 2
    state = lose_last_stones(t, (2, 3))
    assert sum(state.out) == 4 and state.m == 3
    assert state.legal_actions(0)[-1] == ante(3)


def test_D11_one_stone_under_multiplier_two_is_paid_and_then_gratis() -> None:
    t = table(4, [[1, 1], [6, 6], [1, 1], [2, 2], [1], [12]])
    start_round(t, [(14, 7), (1, 0), (1, 1), (0, 0)], out=(3,))
    state = t.state
    assert isinstance(state, TaoState)
    state.m = 2  # as if a second player had gone out earlier
    state = play(t, (0, ante()), (1, ante()))
    assert held(state, 1) == (0, 0) and pot(state) == (3, 0)
    state = play(t, (2, ante(1)), (0, raise_(2)))
    assert state.legal_actions(1) == (call(0), FOLD)
    state = play(t, (1, call(0)), (2, FOLD))
    rerolls = [e for e in state.events_for(None) if e["type"] == "throw" and "again" in e["text"]]
    assert [e["seat"] for e in rerolls] == [0]  # one reroll for two white stones
    state = play(t, (0, PASS), (1, PASS))
    assert held(state, 1) == (4, 3)  # the whole pot: antes 4 black, 1 white; raise 2 white


def test_D11_the_bid_unit_by_players_out() -> None:
    assert [bid_unit(2, k) for k in range(2)] == [1, 1]
    assert [bid_unit(3, k) for k in range(3)] == [1, 1, 1]
    assert [bid_unit(4, k) for k in range(4)] == [1, 1, 2, 2]
    assert [bid_unit(6, k) for k in range(6)] == [1, 1, 2, 2, 3, 3]


# --- D12 token and game length --------------------------------------------------------


def win_match(t: Table, winner: int) -> TaoState:
    """From a fresh match, let `winner` take every stone in one round."""
    state = t.state
    assert isinstance(state, TaoState)
    n = state.n
    loser = (winner + 1) % n
    stones = [(0, 0)] * n
    stones[winner] = (4 * n - 1, 2 * n)
    stones[loser] = (1, 0)
    start_round(t, stones, out=tuple(s for s in range(n) if s not in (winner, loser)))
    order = list(state.queue)
    t.dice = ScriptedDice(
        [[6, 6] if s == winner else [1, 1] for s in sorted(order)]
        + [[12] if s == winner else [1] for s in sorted(order)]
    )
    return play(t, *[(s, ante()) for s in order], *[(s, PASS) for s in order * 2])


def test_D12_two_players_the_token_holder_who_wins_again_wins_the_game() -> None:
    t = table(2, [])
    state = win_match(t, 0)
    assert state.view(None)["token"] == {"holder": 0, "side": None} and state.match_no == 2
    assert (state.black, state.white) == ([4, 4], [2, 2])  # D1: a new match
    state = win_match(t, 1)
    assert state.view(None)["token"]["holder"] == 1 and not state.is_over()
    assert state.actors() == (1,)  # the holder opens
    state = win_match(t, 1)
    assert state.is_over() and state.result().winners == (1,)
    assert state.result().detail == {"matches_won": [1, 2]}


def test_D12_three_players_the_token_passes_between_two_match_winners() -> None:
    t = table(3, [])
    state = win_match(t, 0)
    assert state.view(None)["token"] == {"holder": 0, "side": "silver"}
    state = win_match(t, 2)
    assert state.view(None)["token"] == {"holder": 2, "side": "silver"}
    state = win_match(t, 2)
    assert state.view(None)["token"] == {"holder": 2, "side": "gold"}
    state = win_match(t, 0)
    assert state.view(None)["token"] == {"holder": 0, "side": "silver"}
    state = win_match(t, 0)
    state = win_match(t, 0)
    assert state.is_over() and state.view(None)["winner"] == 0
    assert state.matches_won == [4, 0, 2]
    assert state.result().net == (12, -6, -6)


def test_D12_length_single_is_one_match() -> None:
    t = table(4, [], length="single")
    state = win_match(t, 3)
    assert state.is_over() and state.result().winners == (3,)
    assert state.result().net == (-6, -6, -6, 18)


def test_D12_length_two_is_first_to_two_matches() -> None:
    t = table(3, [], length="two")
    state = win_match(t, 0)
    state = win_match(t, 1)
    state = win_match(t, 1)  # token rules would only turn it gold
    assert state.is_over() and state.result().winners == (1,)


def test_D12_length_token_is_the_default() -> None:
    t = table(3, [])
    for _ in range(3):
        state = win_match(t, 1)
    assert state.is_over() and state.matches_won == [0, 3, 0]
    assert TaoDice(3).options["length"] == "token"


@pytest.mark.parametrize("length", ["single", "two"])
def test_D12_under_the_shorter_lengths_the_token_still_moves_and_names_the_opener(
    length: str,
) -> None:
    t = table(3, [], length=length)
    state = win_match(t, 2)
    assert state.view(None)["token"] == {"holder": 2, "side": "silver"}
    if length == "single":
        assert state.is_over() and state.result().winners == (2,)
        return
    assert not state.is_over() and state.actors() == (2,)  # the holder opens match two
    state = win_match(t, 0)
    assert state.view(None)["token"] == {"holder": 0, "side": "silver"}  # hands changed
    assert state.actors() == (0,)
    state = win_match(t, 0)
    assert state.is_over() and state.result().winners == (0,)  # first to two, not gold


# --- options, labels, errors -----------------------------------------------------------


def test_opener_option_must_be_a_seat_of_the_table() -> None:
    from dicehall.core import OptionError

    with pytest.raises(OptionError, match="opener"):
        TaoDice(3, {"opener": "4"})
    with pytest.raises(OptionError):
        TaoDice(3, {"length": "forever"})


def test_illegal_colour_split_says_why() -> None:
    t = table(2, [])
    state = play(t)
    with pytest.raises(IllegalActionError, match="from 0 to 1 may be white"):
        state.apply(0, ante(2))
    with pytest.raises(IllegalActionError, match="the choice now is ante"):
        state.apply(0, PASS)


def test_default_action_folds_to_a_raise_unless_free() -> None:
    t = table(2, [[1, 1], [1, 1]])
    state = play(t, (0, ante()), (1, ante()))
    assert state.default_action(0) == PASS
    state = play(t, (0, raise_()))
    assert state.default_action(1) == FOLD


def test_action_labels() -> None:
    game = make_game("tao", 2)  # labels are the registry's, on top of the rules
    assert game.action_label(call(1)) == "call, 1 white: reroll"
    assert game.action_label(ante(0)) == "ante, no white"
    assert game.action_label(FOLD) == "fold"


def test_the_documented_example_replays() -> None:
    import json
    from pathlib import Path

    from dicehall.core.transcript import replay

    path = Path(__file__).parents[2] / "docs" / "examples" / "tao.json"
    data = json.loads(path.read_text())
    state = replay(data)
    assert state.is_over() and state.result().to_json() == data["result"]


def test_C6_no_seat_ever_sees_dice_that_were_not_shown() -> None:
    """Over whole games, another's 2d6 reach a seat only at a showdown (D2, D7, D8)."""
    import random

    from dicehall.core import RandomDice, make_bots

    game = TaoDice(4, {"length": "single"})
    for seed in range(5):
        t = Table(game, RandomDice(seed))
        t.play(make_bots(game, ["random"], random.Random(seed)))
        assert t.state.log is not None
        for event in t.state.log:
            if event.type == "dice":
                assert event.to == frozenset({event.data["seat"]})
            elif event.type == "showdown":
                assert event.to is None
            else:
                assert "dice" not in event.data and "players" not in event.data
