"""Toplshteyner's rules, ruling by ruling (P1-P10, C2, C5), with scripted dice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from dicehall.core import IllegalActionError, OptionError, ScriptedDice, Table
from dicehall.core.transcript import replay
from dicehall.games import make_game
from dicehall.games.toplshteyner.rules import ToplshteynerState

BUY = {"type": "buy"}
DECLINE = {"type": "decline"}


def elect(seat: int) -> dict[str, Any]:
    return {"type": "elect", "seat": seat}


def table(seats: int = 3, first: int = 0, **options: object) -> Table:
    """A table whose roll-off seat `first` wins with a 6 against 1s."""
    rolloff = [[6 if s == first else 1] for s in range(seats)]
    t = Table(make_game("toplshteyner", seats, options), ScriptedDice(rolloff))
    for _ in rolloff:
        t.roll()
    assert t.state.view(None)["roller"] == first
    return t


def throw(t: Table, *throws: Sequence[int]) -> ToplshteynerState:
    """Throw the given pairs in order; each must be due."""
    t.dice = ScriptedDice(throws)
    for _ in throws:
        t.roll()
    state = t.state
    assert isinstance(state, ToplshteynerState)
    return state


def events(t: Table) -> list[str]:
    return [e["type"] for e in t.state.events_for(None)]


# --- P1 lives and stakes ------------------------------------------------------


def test_P1_three_lives_each_and_a_lost_life_goes_to_the_pot() -> None:
    t = table(4)
    view = t.state.view(None)
    assert view["lives"] == [3, 3, 3, 3]
    assert view["pot"] == 0
    state = throw(t, [2, 6], [3, 4])  # point 8, then a seven
    assert state.lives == [2, 3, 3, 3]
    assert state.pot == 1
    assert state.paid == [1, 0, 0, 0]


def test_P1_seat_counts_and_the_stake_option() -> None:
    for bad in (1, 9):
        with pytest.raises(OptionError):
            make_game("toplshteyner", bad)
    with pytest.raises(OptionError):
        make_game("toplshteyner", 2, {"stake": 0})
    assert make_game("toplshteyner").seats == 4
    t = table(2, stake=5)
    state = throw(t, [2, 4], [3, 3], [3, 3])  # seat 0 loses all three lives (P6)
    result = state.result()
    assert state.is_over()
    assert result.unit == "stakes"
    assert result.winners == (1,)
    assert result.net == (-3, 3)
    assert result.detail["net_money"] == [-15, 15]
    assert state.view(None)["stake"] == 5
    assert result.detail["stake"] == 5


# --- P2 order: roll-off and passing the dice -----------------------------------


def test_P2_C5_rolloff_highest_throws_first_ties_throw_again_in_seat_order() -> None:
    game = make_game("toplshteyner", 4)
    t = Table(game, ScriptedDice([[2], [5], [5], [1], [3], [4]]))
    t.roll()
    t.roll()
    assert t.state.view(None)["rolloff"] == {"contenders": [0, 1, 2, 3], "faces": [2, 5]}
    t.roll()
    t.roll()  # seats 1 and 2 tie on 5
    view = t.state.view(None)
    assert view["phase"] == "rolloff"
    assert view["rolloff"] == {"contenders": [1, 2], "faces": []}
    assert t.state.chance_dice() == ((1, 2, 3, 4, 5, 6),)
    t.roll()
    t.roll()  # seat 1 throws 3, seat 2 throws 4
    view = t.state.view(None)
    assert view["phase"] == "turn"
    assert view["roller"] == 2
    assert view["rolloff"] is None
    assert len(t.state.chance_dice()) == 2


def test_P2_C2_dice_pass_to_the_next_player_still_in() -> None:
    t = table(3, first=2)
    state = throw(t, [2, 2])  # Saving Grace
    assert state.roller == 0
    state = throw(t, [2, 2])
    assert state.roller == 1
    state.lives[2] = 1
    state = throw(t, [1, 3], [5, 2])  # seat 1: point 4, seven
    assert state.roller == 2
    state = throw(t, [1, 1])  # seat 2 loses its last life: out, dice to seat 0
    assert state.lives[2] == 0
    assert state.roller == 0
    state = throw(t, [2, 2], [2, 2])
    assert state.roller == 0  # seat 2 is skipped


# --- P3 the turn ----------------------------------------------------------------


def test_P3_seven_before_a_point_is_thrown_again() -> None:
    t = table(2)
    state = throw(t, [3, 4], [6, 1], [2, 5])
    assert state.roller == 0
    assert state.point == 0
    assert state.lives == [3, 3]


def test_P3_point_made_is_safe_and_other_totals_throw_again() -> None:
    t = table(2)
    state = throw(t, [4, 5])
    assert state.point == 9
    state = throw(t, [1, 2], [6, 5], [2, 6])
    assert (state.roller, state.point) == (0, 9)
    state = throw(t, [3, 6])
    assert state.roller == 1
    assert state.lives == [3, 3]
    assert state.view(None)["last_turn"] == {"seat": 0, "end": "point"}


def test_P3_seven_after_the_point_costs_a_life_and_ends_the_turn() -> None:
    t = table(2)
    state = throw(t, [1, 3], [6, 1])
    assert state.lives == [2, 3]
    assert state.roller == 1
    assert state.view(None)["last_turn"] == {"seat": 0, "end": "seven"}


def test_P3_a_double_never_makes_a_point_of_its_total() -> None:
    t = table(2)
    state = throw(t, [2, 6], [4, 4])  # point 8, 4-4 makes the point 2, not 8
    assert state.point == 2
    t = table(2)
    state = throw(t, [1, 5], [3, 3])  # point 6: a first 3-3 does not make it
    assert state.point == 6
    assert state.roller == 0
    assert state.lives == [3, 3]


# --- P4 Snake Eyes ----------------------------------------------------------------


def test_P4_first_snake_eyes_costs_a_life_and_sets_point_two_then_again_is_safe() -> None:
    t = table(2)
    state = throw(t, [1, 1])
    assert state.lives == [2, 3]
    assert state.point == 2
    assert state.roller == 0  # the turn goes on
    state = throw(t, [3, 4])  # the point is 2 now, so a 7 costs another life
    assert state.lives == [1, 3]
    assert state.roller == 1


def test_P4_snake_eyes_twice_in_a_row_costs_one_life_only() -> None:
    t = table(2)
    state = throw(t, [1, 1], [1, 1])
    assert state.lives == [2, 3]
    assert state.roller == 1
    assert state.view(None)["last_turn"]["end"] == "point"


def test_P4_crazy_eight_then_snake_eyes_makes_the_point_without_loss() -> None:
    t = table(2)
    state = throw(t, [4, 4], [1, 1])
    assert state.lives == [3, 3]
    assert state.roller == 1


def test_P4_second_snake_eyes_on_another_point_ends_the_turn_safe() -> None:
    t = table(2)
    state = throw(t, [3, 5], [1, 1])
    assert state.lives == [2, 3]
    assert state.point == 8  # a set point stays
    state = throw(t, [4, 2], [1, 1])
    assert state.lives == [2, 3]
    assert state.roller == 1
    assert state.view(None)["last_turn"]["end"] == "second_snake_eyes"


def test_P4_P10_snake_eyes_on_the_last_life_ends_the_turn() -> None:
    t = table(3)
    t.state.lives[0] = 1  # type: ignore[attr-defined]
    t.state.pot = 2  # type: ignore[attr-defined]
    t.state.paid[0] = 2  # type: ignore[attr-defined]
    state = throw(t, [1, 1])
    assert state.lives == [0, 3, 3]
    assert state.roller == 1
    assert not state.is_over()


# --- P5 Saving Grace -----------------------------------------------------------------


def test_P5_saving_grace_ends_the_turn_safe() -> None:
    t = table(2)
    state = throw(t, [5, 6], [2, 2])
    assert state.roller == 1
    assert state.lives == [3, 3]
    assert state.view(None)["last_turn"]["end"] == "saving_grace"


# --- P6 Threes ------------------------------------------------------------------------


def test_P6_threes_then_crazy_eight_then_threes_then_threes_loses_all() -> None:
    t = table(3)
    state = throw(t, [3, 3])
    assert state.point == 6
    state = throw(t, [4, 4])
    assert state.point == 2
    state = throw(t, [3, 3])  # point 2, not 6: the point becomes 6, no loss
    assert state.point == 6
    assert state.lives == [3, 3, 3]
    state = throw(t, [3, 3])
    assert state.lives == [0, 3, 3]
    assert state.pot == 3
    assert state.roller == 1
    assert "out" in events(t)


def test_P6_threes_changes_a_set_point_to_six() -> None:
    t = table(2)
    state = throw(t, [4, 6], [3, 3])
    assert state.point == 6
    state = throw(t, [2, 4])  # 6 made
    assert state.roller == 1
    assert state.lives == [3, 3]


def test_P6_point_six_thrown_plainly_then_two_threes_lose_all() -> None:
    t = table(2)
    state = throw(t, [2, 4], [3, 3])
    assert state.lives == [3, 3]
    state = throw(t, [3, 3])
    assert state.is_over()
    assert state.result().winners == (1,)


# --- P7 Crazy Eight -------------------------------------------------------------------


def test_P7_crazy_eight_sets_or_reverts_the_point_to_two() -> None:
    t = table(2)
    state = throw(t, [4, 4])
    assert state.point == 2
    t = table(2)
    state = throw(t, [4, 5], [4, 4], [4, 5])  # 9 no longer makes it
    assert state.point == 2
    assert state.roller == 0
    state = throw(t, [5, 2])
    assert state.lives == [2, 3]


# --- P8 High Fives --------------------------------------------------------------------


def test_P8_high_fives_first_sets_point_ten_and_elects() -> None:
    t = table(3)
    state = throw(t, [5, 5])
    assert state.point == 10
    assert state.actors() == (0,)
    assert list(state.legal_actions(0)) == [elect(1), elect(2)]
    assert state.view(1)["phase"] == "elect"
    t.act(0, elect(2))
    assert state.lives == [3, 3, 2]
    assert state.pot == 1
    state = throw(t, [4, 6])  # the point of 10 made
    assert state.roller == 1
    assert state.lives == [3, 3, 2]


def test_P8_a_later_high_fives_is_a_plain_ten() -> None:
    t = table(3)
    throw(t, [5, 5])
    t.act(0, elect(1))
    state = throw(t, [5, 5])  # makes the point of 10, no second election
    assert state.roller == 1
    assert state.lives == [3, 2, 3]
    t = table(3)
    throw(t, [3, 5], [5, 5])
    t.act(0, elect(2))
    state = throw(t, [5, 5])  # a plain 10 on a point of 8: throw again
    assert state.actors() == ()
    assert state.roller == 0
    assert state.point == 8
    assert state.lives == [3, 3, 2]


def test_P8_election_only_of_another_player_still_in() -> None:
    t = table(4)
    t.state.lives[2] = 0  # type: ignore[attr-defined]
    t.state.alive = 3  # type: ignore[attr-defined]
    state = throw(t, [5, 5])
    assert list(state.legal_actions(0)) == [elect(1), elect(3)]
    before = state.view(None)
    for bad in (elect(0), elect(2), elect(7), BUY):
        with pytest.raises(IllegalActionError):
            t.act(0, bad)
    with pytest.raises(IllegalActionError):
        t.act(1, elect(3))
    with pytest.raises(IllegalActionError, match=r"seat 2 is out \(P10\)"):
        t.act(0, elect(2))
    with pytest.raises(IllegalActionError, match="another player, not themself"):
        t.act(0, elect(0))
    assert state.view(None) == before


def test_P8_a_timeout_elects_the_next_player() -> None:
    t = table(3, first=1)
    state = throw(t, [5, 5])
    t.timeout(1)
    assert state.lives == [3, 3, 2]


def test_P8_P10_high_fives_takes_the_last_life_in_a_two_player_game() -> None:
    t = table(2)
    t.state.lives[1] = 1  # type: ignore[attr-defined]
    t.state.pot = 2  # type: ignore[attr-defined]
    t.state.paid[1] = 2  # type: ignore[attr-defined]
    state = throw(t, [5, 5])  # the only other player is elected without an action
    assert state.is_over()
    assert state.lives == [3, 0]
    result = state.result()
    assert result.winners == (0,)
    assert result.net == (3, -3)
    assert state.view(None)["result"]["winners"] == [0]


# --- P9 Trick Sixes -------------------------------------------------------------------


def test_P9_trick_sixes_at_three_lives_buying_a_fourth() -> None:
    t = table(2)
    state = throw(t, [6, 6])
    assert state.actors() == (0,)
    assert list(state.legal_actions(0)) == [BUY, DECLINE]
    t.act(0, BUY)
    assert state.lives == [4, 3]
    assert state.pot == 1
    assert state.paid == [1, 0]
    assert state.bought == [1, 0]
    state = throw(t, [6, 6])  # never above four
    assert state.lives == [4, 3]
    assert state.roller == 0  # the turn goes on
    assert state.actors() == ()


def test_P9_trick_sixes_at_three_lives_declining() -> None:
    t = table(2)
    throw(t, [6, 6])
    t.act(0, DECLINE)
    state = t.state
    assert state.lives == [3, 3]
    assert state.pot == 0
    assert state.view(None)["phase"] == "turn"


def test_P9_a_timeout_keeps_three_lives() -> None:
    t = table(2)
    state = throw(t, [6, 6])
    with pytest.raises(IllegalActionError, match="buy a fourth life or decline"):
        t.act(0, elect(1))
    t.timeout(0)
    assert state.lives == [3, 3]
    assert state.pot == 0
    assert t.steps[-1] == {"seat": 0, "timeout": True}


def test_P9_trick_sixes_below_three_takes_a_life_back_from_the_pot() -> None:
    t = table(2)
    state = throw(t, [1, 1], [6, 6])
    assert state.lives == [3, 3]
    assert state.pot == 0
    assert state.reclaimed == [1, 0]
    state = throw(t, [6, 6])  # not limited to once a turn: now at three, a choice
    assert state.actors() == (0,)


def test_P9_for_fun_the_fourth_life_comes_from_the_pot_automatically() -> None:
    t = table(2, for_fun=True)
    state = throw(t, [6, 6])  # the pot is empty: nothing to take
    assert state.lives == [3, 3]
    assert state.actors() == ()
    state = throw(t, [2, 2], [1, 1], [2, 2])  # seat 1 loses a life
    assert state.lives == [3, 2]
    assert state.pot == 1
    state = throw(t, [6, 6])  # seat 0 at three: free from the pot, no action
    assert state.actors() == ()
    assert state.lives == [4, 2]
    assert state.pot == 0
    assert state.reclaimed == [1, 0]
    assert state.bought == [0, 0]


def test_P9_an_empty_pot_gives_no_life() -> None:
    t = table(2, for_fun=True)
    state = throw(t, [2, 2], [1, 1], [2, 2])  # seat 1 loses a life: the pot holds it
    state = throw(t, [6, 6], [2, 2])  # seat 0 at three takes it as a fourth, for fun
    assert (state.lives, state.pot) == ([4, 2], 0)
    state = throw(t, [6, 6])  # seat 1 is owed a life, but the pot is empty
    assert (state.lives, state.pot) == ([4, 2], 0)
    assert state.reclaimed == [1, 0]
    assert state.conserved() == {"pot_balance": 0, "lives_and_pot": 6}  # C4: nothing created


def test_P9_sixes_end_turn_option() -> None:
    t = table(2, sixes_end_turn=True)
    state = throw(t, [6, 6])
    t.act(0, DECLINE)
    assert state.roller == 1
    assert state.view(None)["last_turn"] == {"seat": 0, "end": "trick_sixes"}
    state = throw(t, [1, 1], [6, 6])  # a life back, and the turn ends
    assert state.lives == [3, 3]
    assert state.roller == 0
    t = table(2)
    state = throw(t, [1, 1], [6, 6])
    assert state.roller == 0  # by default the turn goes on


# --- P10 out and the winner ------------------------------------------------------------


def test_P10_last_player_with_lives_wins_the_pot() -> None:
    t = table(3, first=1)
    state = throw(t, [3, 3], [3, 3])  # seat 1 loses all lives: out, not yet over
    assert state.lives == [3, 0, 3]
    assert not state.is_over()
    assert state.roller == 2
    state = throw(t, [2, 2], [3, 3], [3, 3])  # seat 2 safe; seat 0 loses all
    assert state.lives == [0, 0, 3]
    assert state.is_over()
    assert state.actors() == ()
    assert not state.is_chance()
    result = state.result()
    assert result.winners == (2,)
    assert result.net == (-3, -3, 6)
    assert sum(result.net) == 0
    assert state.view(0)["winner"] == 2
    assert state.view(None)["roller"] is None


def test_P10_net_counts_bought_lives_and_lives_back() -> None:
    t = table(2)
    throw(t, [6, 6])
    t.act(0, BUY)  # seat 0: four lives, paid 1
    throw(t, [1, 1], [3, 4])  # loses two (paid 3)
    throw(t, [2, 2])  # seat 1 safe
    state = throw(t, [6, 6], [2, 2])  # seat 0 takes one back (reclaimed 1)
    assert state.lives == [3, 3]
    for _ in range(3):
        throw(t, [2, 6], [3, 4])  # seat 1 loses a life each turn
        if not t.state.is_over():
            throw(t, [2, 2])
    state = t.state
    assert state.is_over()
    result = state.result()
    assert result.winners == (0,)
    assert state.pot == 5
    assert result.net == (5 - 3 + 1, -3)
    assert state.conserved() == {"pot_balance": 0, "lives_and_pot": 6}


# --- views and transcripts --------------------------------------------------------------


def test_C6_everything_is_public() -> None:
    t = table(3)
    throw(t, [3, 5], [5, 5])
    spectator = t.state.view(None)
    for seat in range(3):
        view = t.state.view(seat)
        assert view["seat"] == seat
        assert {**view, "seat": None} == spectator
    assert spectator["throws"] == [[3, 5], [5, 5]]
    assert spectator["high_fives"] is True
    assert spectator["actors"] == [0]
    assert spectator["over"] is False


def test_example_transcript_replays(tmp_path: Any) -> None:
    import json
    from pathlib import Path

    path = Path(__file__).parents[2] / "docs" / "examples" / "toplshteyner.json"
    data = json.loads(path.read_text())
    state = replay(data)
    assert state.is_over()
    assert data["result"] == state.result().to_json()
