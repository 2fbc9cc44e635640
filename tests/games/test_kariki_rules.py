"""Kariki rules, one or more tests per ruling (K1-K10, C2, C5) and per option.

Every test scripts the dice: the roll-off first (the seat named `first`
throws a six, everyone else a one), then the throws of the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from dicehall.core import IllegalActionError, ScriptedDice, Table
from dicehall.games import make_game
from dicehall.games.kariki.rules import KarikiState

ROLL = {"type": "roll"}
PULL = {"type": "pull"}
PASS = {"type": "pass"}
BUY = {"type": "emergency"}
GO_OUT = {"type": "go-out"}


def claim(rank: str) -> dict[str, str]:
    return {"type": "claim", "rank": rank}


def start(
    seats: int,
    throws: Sequence[Sequence[int]],
    options: Mapping[str, object] | None = None,
    first: int = 0,
    way: str = "left",
) -> Table:
    """A table past the roll-off and the direction, its dice scripted."""
    roll_off = [[6] if seat == first else [1] for seat in range(seats)]
    table = Table(make_game("kariki", seats, options), ScriptedDice([*roll_off, *throws]))
    table.settle()
    table.act(first, {"type": "direction", "way": way})
    if throws:  # else the test sets the position up, then scripts the dice
        table.settle()
    return table


def act(table: Table, seat: int, action: Mapping[str, Any]) -> None:
    table.act(seat, action)
    table.settle()


def state_of(table: Table) -> KarikiState:
    assert isinstance(table.state, KarikiState)
    return table.state


def legal_types(table: Table, seat: int) -> list[str]:
    return [a["type"] for a in table.state.legal_actions(seat)]


# --- K1 table, C5 roll-off --------------------------------------------------------------


def test_K1_everyone_pays_the_buy_in_into_the_pot() -> None:
    table = start(4, [])
    assert table.state.view(None)["pot"] == 4
    assert table.state.view(None)["paid"] == [1, 1, 1, 1]
    dear = start(3, [], {"buy_in": 5})
    assert dear.state.view(None)["pot"] == 15
    assert dear.state.conserved() == {"money": 0}


def test_C5_roll_off_in_seat_order_and_ties_throw_again() -> None:
    game = make_game("kariki", 3)
    table = Table(game, ScriptedDice([[6], [3], [6], [2], [5]]))
    table.settle()
    state = state_of(table)
    assert state.actors() == (2,)
    thrown = [e["seat"] for e in state.events_for(None) if e["type"] == "roll-off"]
    assert thrown == [0, 1, 2, 0, 2]  # seat order; only the tied seats throw again
    assert state.view(None)["first_roller"] == 2
    assert state.view(None)["phase"] == "direction"
    tie = [e["text"] for e in state.events_for(None) if e["type"] == "roll-off-tie"]
    assert tie == ["seat 0 and seat 2 tie and throw again"]  # each seat an interface names


def test_K1_first_roller_chooses_the_direction() -> None:
    table = start(4, [[4, 5]], first=1, way="right")
    act(table, 1, claim("9"))
    view = table.state.view(None)
    assert view["direction"] == "right"
    assert view["responder"] == 0  # right: seat numbers go down
    left = start(4, [[4, 5]], first=3)
    act(left, 3, claim("9"))
    assert left.state.view(None)["responder"] == 0  # left: seat numbers go up, wrapping


# --- K2 ranks ----------------------------------------------------------------------------


def test_K2_ranks_best_first_and_same_total_same_rank() -> None:
    from dicehall.games.kariki.rules import RANK, RANK_IDS, rank_of

    best_first = [RANK_IDS[r] for r in range(14, -1, -1)]
    assert best_first == [
        "kariki", "6-6", "5-5", "4-4", "3-3", "2-2", "1-1",
        "11", "10", "9", "8", "7", "6", "5", "4",
    ]  # fmt: skip
    assert rank_of(1, 2) == rank_of(2, 1) == 14
    assert RANK[3][6] == RANK[4][5] == RANK[6][3]  # both Nine
    assert RANK[4][6] == RANK_IDS.index("10")  # Ten sits between Eleven and Nine
    assert RANK[1][1] > RANK[5][6]  # the lowest double beats every total


def test_K2_a_claim_of_nine_is_true_for_either_nine() -> None:
    table = start(2, [[3, 6], [1, 1]])
    act(table, 0, claim("9"))
    act(table, 1, PULL)
    assert table.state.view(None)["berries"] == [0, 1]  # 3-6 is a Nine: a false accusation


# --- K3 Kariki -----------------------------------------------------------------------


def test_K3_kariki_is_shown_crown_to_roller_berry_to_next() -> None:
    table = start(4, [[2, 1], [3, 4]], first=2)
    state = state_of(table)
    assert state.crowns == [0, 0, 1, 0]
    assert state.berries == [0, 0, 0, 1]
    assert state.actors() == (2,)  # the roller begins a fresh roll
    for seat in (None, 0, 1, 2, 3):
        shown = state.view(seat)["last_shown"]
        assert shown["dice"] == [2, 1] and shown["how"] == "kariki" and shown["berry_to"] == 3


def test_K3_option_the_berry_receiver_begins() -> None:
    table = start(4, [[1, 2], [3, 4]], {"after_kariki": "berry"}, first=2)
    assert table.state.actors() == (3,)


def test_K3_third_crown_gives_everyone_else_a_berry() -> None:
    table = start(4, [[1, 2], [1, 2], [1, 2], [3, 4]])
    state = state_of(table)
    assert state.crowns == [3, 0, 0, 0]
    assert state.berries == [0, 4, 1, 1]  # three Kariki berries and the third crown's berry


def test_K3_kariki_over_a_claim_rolled_higher() -> None:
    table = start(3, [[5, 5], [2, 1], [6, 6]])
    act(table, 0, claim("5-5"))
    act(table, 1, ROLL)
    state = state_of(table)
    assert state.crowns == [0, 1, 0] and state.berries == [0, 0, 1]
    assert state.view(None)["claim"] is None  # a fresh roll by the Kariki's roller
    assert state.actors() == (1,)


# --- K4 claims ------------------------------------------------------------------------------


def test_K4_a_fresh_roll_may_claim_any_rank_but_kariki() -> None:
    table = start(2, [[2, 3]])
    ranks = [a["rank"] for a in table.state.legal_actions(0)]
    assert len(ranks) == 14 and "kariki" not in ranks
    with pytest.raises(IllegalActionError, match="K4"):
        table.act(0, claim("kariki"))


def test_K4_a_claim_must_beat_the_claim_it_follows_and_lying_is_allowed() -> None:
    table = start(3, [[2, 3], [1, 3]])
    act(table, 0, claim("10"))  # a lie: 2-3 is a Five
    act(table, 1, ROLL)
    ranks = [a["rank"] for a in table.state.legal_actions(1)]
    assert ranks == ["11", "1-1", "2-2", "3-3", "4-4", "5-5", "6-6"]
    with pytest.raises(IllegalActionError, match="must beat Ten"):
        table.act(1, claim("10"))


# --- K5 roll higher, pull, pass -------------------------------------------------------------


def test_K5_roll_higher_is_blind() -> None:
    table = start(3, [[4, 4], [5, 6]])
    act(table, 0, claim("4-4"))
    assert table.state.view(1)["your_dice"] is None
    act(table, 1, ROLL)
    assert table.state.view(1)["your_dice"] == [5, 6]  # only the new throw
    act(table, 1, claim("5-5"))
    assert [e for e in table.state.events_for(1) if e.get("dice") == [4, 4]] == []


def test_K5_roll_higher_over_double_sixes_fails_without_kariki() -> None:
    table = start(3, [[6, 6], [5, 5], [2, 2]])
    act(table, 0, claim("6-6"))
    act(table, 1, ROLL)
    state = state_of(table)
    assert state.berries == [0, 1, 0]
    assert state.actors() == (2,)  # the player after the roller begins a fresh roll
    assert state.view(2)["claim"] is None
    assert all(e.get("dice") != [5, 5] for e in state.events_for(0))  # never shown


def test_K5_only_kariki_beats_double_sixes() -> None:
    table = start(3, [[3, 3], [1, 2], [4, 4]])
    act(table, 0, claim("6-6"))
    act(table, 1, ROLL)
    assert state_of(table).crowns == [0, 1, 0]
    assert state_of(table).berries == [0, 0, 1]


def test_K5_pull_catches_a_lie_and_the_puller_begins() -> None:
    table = start(3, [[2, 3], [4, 4]])
    act(table, 0, claim("3-3"))
    act(table, 1, PULL)
    state = state_of(table)
    assert state.berries == [1, 0, 0]
    assert state.actors() == (1,)
    assert state.view(2)["last_shown"]["dice"] == [2, 3]  # a pull shows the dice to all


def test_K5_pull_on_the_truth_is_a_false_accusation_and_the_owner_begins() -> None:
    table = start(3, [[3, 3], [4, 4]])
    act(table, 0, claim("3-3"))
    act(table, 1, PULL)
    assert state_of(table).berries == [0, 1, 0]
    assert table.state.actors() == (0,)


def test_K5_exact_pull_catches_a_claim_below_the_dice() -> None:
    table = start(2, [[5, 5], [1, 1]])
    act(table, 0, claim("9"))  # the dice are better than the claim: still not what was said
    act(table, 1, PULL)
    assert state_of(table).berries == [1, 0]


def test_K5_option_at_least_pull_spares_a_claim_below_the_dice() -> None:
    table = start(2, [[5, 5], [1, 1]], {"pull": "at-least"})
    act(table, 0, claim("9"))
    act(table, 1, PULL)
    assert state_of(table).berries == [0, 1]
    caught = start(2, [[4, 5], [1, 1]], {"pull": "at-least"})
    act(caught, 0, claim("10"))
    act(caught, 1, PULL)
    assert state_of(caught).berries == [1, 0]


def test_K5_pass_moves_ownership() -> None:
    table = start(3, [[2, 3], [1, 1]])
    act(table, 0, claim("8"))
    act(table, 1, PASS)
    view = table.state.view(None)
    assert view["claim_owner"] == 1 and view["responder"] == 2 and view["pass_chain"] == [1]
    act(table, 2, PULL)
    assert state_of(table).berries == [0, 1, 0]  # the passer, not the thrower
    assert table.state.actors() == (2,)


def test_K5_passer_who_is_pulled_on_the_truth_begins() -> None:
    table = start(3, [[4, 4], [1, 1]])
    act(table, 0, claim("4-4"))
    act(table, 1, PASS)
    act(table, 2, PULL)
    assert state_of(table).berries == [0, 0, 1]
    assert table.state.actors() == (1,)


# --- K6 passing limits ----------------------------------------------------------------------


def test_K6_thrower_may_pull_or_pass_not_roll() -> None:
    table = start(2, [[2, 2], [1, 1]])
    act(table, 0, claim("5-5"))
    act(table, 1, PASS)
    assert legal_types(table, 0) == ["pull", "pass"]
    with pytest.raises(IllegalActionError, match="K6"):
        table.act(0, ROLL)
    act(table, 0, PULL)  # the thrower knows it was a lie: the passer pays
    assert state_of(table).berries == [0, 1]


def test_K6_a_player_who_passed_must_roll_or_pull() -> None:
    table = start(2, [[2, 2]])
    act(table, 0, claim("2-2"))
    act(table, 1, PASS)
    act(table, 0, PASS)
    assert table.state.actors() == (1,)
    assert legal_types(table, 1) == ["roll", "pull"]
    with pytest.raises(IllegalActionError, match="already passed"):
        table.act(1, PASS)


def test_K6_the_pass_chain_goes_round_the_table() -> None:
    table = start(4, [[3, 4]])
    act(table, 0, claim("7"))
    for seat in (1, 2, 3):
        assert "pass" in legal_types(table, seat)
        act(table, seat, PASS)
    assert legal_types(table, 0) == ["pull", "pass"]
    act(table, 0, PASS)
    assert legal_types(table, 1) == ["roll", "pull"]
    assert table.state.view(None)["pass_chain"] == [1, 2, 3, 0]


# --- K7 out, poo and the pot ------------------------------------------------------------------


def test_K7_four_berries_in_the_poo_five_out_last_one_wins_the_pot() -> None:
    table = start(3, [[2, 3], [1, 1]])
    state = state_of(table)
    state.berries[0] = 3  # setup: three berries from earlier rounds
    state.berries[2] = 4
    assert table.state.view(None)["in_the_poo"] == [False, False, True]
    act(table, 0, claim("3-3"))
    act(table, 1, PULL)
    assert state.view(None)["in_the_poo"] == [True, False, True]
    table = start(2, [[2, 3]])
    state = state_of(table)
    state.berries[0] = 4
    act(table, 0, claim("3-3"))
    act(table, 1, PULL)
    assert state.is_over()
    assert state.view(None)["out"] == [True, False]
    result = state.result()
    assert result.winners == (1,)
    assert result.net == (-1, 1)
    assert result.unit == "stakes"


def test_K7_out_players_are_skipped() -> None:
    table = start(4, [[2, 3], [4, 4]])
    state = state_of(table)
    state.out[1] = True  # setup: seat 1 went out earlier
    state.berries[1] = 5
    state.in_count = 3
    act(table, 0, claim("3-3"))
    assert table.state.actors() == (2,)


# --- C2 edges: who begins when the one who should is out ----------------------------------


def test_C2_berry_receiver_who_goes_out_hands_the_fresh_roll_on() -> None:
    table = start(4, [], {"after_kariki": "berry"})
    state = state_of(table)
    state.berries[1] = 4
    table.dice = ScriptedDice([[1, 2], [3, 4]])
    table.settle()
    assert state.out[1]  # seat 1 had four berries: the Kariki's berry puts them out
    assert state.actors() == (2,)


def test_C2_third_crown_puts_several_out_at_once() -> None:
    table = start(4, [])
    state = state_of(table)
    state.crowns[0] = 2
    state.berries[1:] = [3, 4, 4]
    table.dice = ScriptedDice([[2, 1], [5, 6]])
    table.settle()
    assert state.out == [False, True, True, True]
    assert state.is_over()
    assert state.result().winners == (0,)
    assert state.result().net == (3, -1, -1, -1)


def test_C2_failed_roll_over_double_sixes_that_puts_the_roller_out() -> None:
    table = start(3, [])
    state = state_of(table)
    state.berries[1] = 4
    table.dice = ScriptedDice([[6, 6], [3, 3], [2, 2]])
    table.settle()
    act(table, 0, claim("6-6"))
    act(table, 1, ROLL)
    assert state.out == [False, True, False]
    assert state.actors() == (2,)


def test_C2_game_ends_mid_claim_chain() -> None:
    table = start(3, [])
    state = state_of(table)
    state.berries[1:] = [4, 5]
    state.out[2] = True
    state.in_count = 2
    table.dice = ScriptedDice([[6, 5], [4, 4]])
    table.settle()
    act(table, 0, claim("11"))
    act(table, 1, ROLL)
    act(table, 1, claim("2-2"))
    act(table, 0, PULL)
    assert state.is_over() and state.result().winners == (0,)
    assert state.view(None)["last_shown"]["dice"] == [4, 4]


# --- K8 slashes and timers -----------------------------------------------------------------


def test_K8_timeout_gives_a_slash_and_the_table_acts() -> None:
    table = start(3, [[2, 3], [4, 4]])
    table.timeout(0)  # default claim: the lowest legal rank, blind to the dice (C6)
    assert table.state.view(None)["claim"] == "4"
    assert state_of(table).slashes == [1, 0, 0]
    table.timeout(1)  # default response: pass when allowed
    assert table.state.view(None)["claim_owner"] == 1
    table.timeout(2)
    table.timeout(0)  # the thrower passes back
    table.timeout(1)  # already passed: pull
    table.settle()
    state = state_of(table)
    assert state.slashes == [2, 2, 1]
    assert state.berries == [1, 0, 0]  # 2-3 is no Four: the thrower passed it last


def test_K8_three_slashes_make_a_berry() -> None:
    table = start(2, [[2, 3]])
    state = state_of(table)
    state.slashes[0] = 2
    table.timeout(0)
    assert state.slashes[0] == 3 and state.berries[0] == 1
    assert table.state.view(None)["claim"] == "4"  # the table still claims for them


def test_K8_default_claim_after_a_roll_higher_is_the_lowest_legal_rank() -> None:
    table = start(2, [[5, 5], [2, 3]])
    act(table, 0, claim("5-5"))
    act(table, 1, ROLL)
    table.timeout(1)
    assert table.state.view(None)["claim"] == "6-6"


def test_K8_slash_berry_that_puts_a_player_out_on_their_turn() -> None:
    table = start(3, [[2, 3], [4, 4]])
    state = state_of(table)
    act(table, 0, claim("3-3"))
    state.berries[1] = 4
    state.slashes[1] = 2
    table.timeout(1)
    table.settle()
    assert state.out[1]
    assert state.actors() == (2,)  # the claim is dropped; the next player begins afresh
    assert state.view(None)["claim"] is None


def test_K8_option_no_slashes_a_timeout_only_makes_the_default_move() -> None:
    table = start(2, [[2, 3]], {"slashes": False})
    table.timeout(0)
    assert state_of(table).slashes == [0, 0]
    assert table.state.view(None)["claim"] == "4"


def test_K8_the_table_chooses_left_for_a_timed_out_first_roller() -> None:
    table = Table(make_game("kariki", 3), ScriptedDice([[1], [6], [1], [4, 5]]))
    table.settle()
    assert table.state.view(None)["phase"] == "direction"
    table.timeout(1)
    table.settle()
    assert table.state.view(None)["direction"] == "left"
    assert state_of(table).slashes == [0, 1, 0]
    assert table.state.actors() == (1,)  # and the roller still throws and claims for itself


def test_K8_the_table_declines_the_emergency_berry_for_a_timed_out_seat() -> None:
    table = start(3, [[2, 3]], {"high_rollers": True})
    state = state_of(table)
    state.berries[0] = 4
    act(table, 0, claim("3-3"))
    act(table, 1, PULL)
    assert table.state.view(None)["phase"] == "emergency"
    table.timeout(0)
    assert state.out[0] and state.berries[0] == 5
    assert state.paid == [1, 1, 1]  # nothing bought for them


def test_K8_a_slash_berry_that_puts_a_high_roller_out_is_not_bought_for_them() -> None:
    table = start(3, [[2, 3], [4, 5]], {"high_rollers": True})
    state = state_of(table)
    act(table, 0, claim("3-3"))
    state.berries[1], state.slashes[1] = 4, 2
    table.timeout(1)
    table.settle()
    assert state.out[1] and state.berries[1] == 5 and state.paid == [1, 1, 1]
    assert state.view(None)["claim"] is None  # the claim is dropped unchecked
    assert state.actors() == (2,)  # the next player still in begins a fresh roll


# --- K9 emergency dingle berry -------------------------------------------------------------


def test_K9_off_by_default_five_berries_is_out() -> None:
    table = start(3, [[2, 3], [1, 1]])
    state = state_of(table)
    state.berries[0] = 4
    act(table, 0, claim("3-3"))
    act(table, 1, PULL)
    assert state.out[0]


def test_K9_high_rollers_buy_an_emergency_berry_once() -> None:
    table = start(3, [[2, 3], [1, 1], [2, 3]], {"high_rollers": True})
    state = state_of(table)
    state.berries[0] = 4
    act(table, 0, claim("3-3"))
    act(table, 1, PULL)
    view = table.state.view(0)
    assert view["phase"] == "emergency" and view["deciding"] == 0
    assert view["emergency_price"] == 3
    assert legal_types(table, 0) == ["emergency", "go-out"]
    act(table, 0, BUY)
    assert state.berries[0] == 4 and not state.out[0]
    assert state.pot == 6 and state.paid == [4, 1, 1]
    assert state.conserved() == {"money": 0}
    assert state.actors() == (1,)  # the puller begins as usual
    act(table, 1, claim("4"))
    act(table, 2, PULL)  # 1-1 is not Four
    assert state.berries[1] == 1
    state.berries[0] = 4
    state.emergency_used[0] = True
    # once per game: a second fifth berry is out at once
    table.dice = ScriptedDice([[2, 3], [1, 1]])
    table.settle()
    act(table, 2, claim("6-6"))
    act(table, 0, PASS)
    act(table, 1, PULL)
    assert state.out[0]


def test_K9_declining_goes_out() -> None:
    table = start(2, [[2, 3]], {"high_rollers": True})
    state = state_of(table)
    state.berries[0] = 4
    act(table, 0, claim("3-3"))
    act(table, 1, PULL)
    act(table, 0, GO_OUT)
    assert state.is_over() and state.result().winners == (1,)


def test_K9_several_about_to_go_out_decide_in_order_of_play() -> None:
    table = start(4, [], {"high_rollers": True}, way="right")
    state = state_of(table)
    state.crowns[0] = 2
    state.berries[1:] = [4, 4, 4]
    table.dice = ScriptedDice([[1, 2], [4, 5]])
    table.settle()
    assert state.actors() == (3,)  # right: seat 3 is next after the roller
    act(table, 3, GO_OUT)
    assert state.actors() == (2,)
    act(table, 2, BUY)
    assert state.actors() == (1,)
    act(table, 1, GO_OUT)
    assert state.out == [False, True, False, True]
    assert state.berries[2] == 4
    assert state.actors() == (0,)  # the roller begins the fresh roll


def test_K9_several_buyers_each_pay_the_pot_as_it_stands_then() -> None:
    table = start(4, [], {"high_rollers": True})
    state = state_of(table)
    state.crowns[0] = 2
    state.berries[1:] = [4, 4, 4]
    table.dice = ScriptedDice([[2, 1], [4, 5]])
    table.settle()
    assert state.actors() == (1,)  # left: seat 1 decides first
    assert table.state.view(1)["emergency_price"] == 4
    act(table, 1, BUY)
    assert table.state.view(2)["emergency_price"] == 8  # the pot has doubled since
    act(table, 2, BUY)
    act(table, 3, GO_OUT)
    assert state.paid == [1, 5, 9, 1] and state.pot == 16
    assert state.conserved() == {"money": 0}


def test_K9_a_player_who_goes_out_keeps_five_berries_never_more() -> None:
    table = start(3, [])
    state = state_of(table)
    state.crowns[0] = 2
    state.berries[1] = 4  # the next player: K3's berry and the third crown's at once
    table.dice = ScriptedDice([[1, 2], [4, 5]])
    table.settle()
    assert state.out[1] and state.berries[1] == 5
    assert state.berries[2] == 1


# --- K10 names and the score sheet ------------------------------------------------------------


def test_K10_score_sheet_shows_nicknames_and_the_cross() -> None:
    from rich.console import Console

    from dicehall.games.kariki.render import cross

    assert cross(0).count("·") == 5 and cross(3).count("●") == 3
    table = start(3, [[2, 3]])
    state = state_of(table)
    state.berries[1] = 4
    console = Console(width=100, record=True)
    console.print(table.game.render(state.view(0), ["Running Bear", "Soaring Eagle", "Owl"]))
    text = console.export_text()
    assert "Running Bear" in text and "Soaring Eagle" in text
    assert "in the poo" in text
    assert "⚁ 2 ⚂ 3" in text  # seat 0 sees its own dice
    console = Console(width=100, record=True)
    console.print(table.game.render(state.view(1), ["Running Bear", "Soaring Eagle", "Owl"]))
    assert "hidden" in console.export_text()


def test_action_labels_in_words() -> None:
    game = make_game("kariki", 2)
    assert game.action_label(claim("5-5")) == "claim Double Fives"
    assert game.action_label(claim("10")) == "claim Ten"
    assert game.action_label(PULL) == "pull"
    assert game.action_label(ROLL) == "roll higher"
    assert game.action_label(PASS) == "pass"


# --- C6 hidden dice ----------------------------------------------------------------------------


def test_C6_dice_under_the_mug_are_seen_only_by_their_thrower() -> None:
    table = start(3, [[6, 4], [2, 5], [1, 1]])
    act(table, 0, claim("10"))
    act(table, 1, PASS)
    for seat in (None, 1, 2):
        assert table.state.view(seat)["your_dice"] is None
        assert all("dice" not in e for e in table.state.events_for(seat))
    assert table.state.view(0)["your_dice"] == [6, 4]
    act(table, 2, ROLL)  # the dice taken over are never seen
    assert table.state.view(2)["your_dice"] == [2, 5]
    assert all(e.get("dice") != [6, 4] for e in table.state.events_for(2))
    act(table, 2, claim("11"))
    act(table, 0, PULL)
    for seat in (None, 0, 1, 2):
        assert table.state.view(seat)["last_shown"]["dice"] == [2, 5]
    assert all(e.get("dice") != [6, 4] for e in table.state.events_for(None))


def test_throws_are_checked_on_the_fast_path_too() -> None:
    from dicehall.core import ChanceError

    state = make_game("kariki", 2).new_state()
    for bad in [(True,), (0,), (7,), (1, 2), ("1",)]:
        with pytest.raises(ChanceError):
            state.apply_chance(bad)
    table = start(2, [[2, 3]])
    with pytest.raises(ChanceError, match="no throw is due"):
        table.state.apply_chance((1, 1))
    assert table.state.view(0)["your_dice"] == [2, 3]
