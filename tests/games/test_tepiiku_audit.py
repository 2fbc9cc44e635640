"""An independent audit of Tepiiku against its rule text and rulings T1-T10, C3, C4, C6.

Every scripted test drives a real `Table` with `ScriptedDice`, so the throws go
through the same path as at a live table. Hands are rune initials: I ingot,
G gem, F fire, W water, S skull, P person ("GGS" scores 2+2-2 = 2).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from dicehall.core import IllegalActionError, RandomBot, RandomDice, ScriptedDice, Table
from dicehall.games import make_game
from dicehall.games.tepiiku.rules import SCORE, TepiikuState

RUNES = {"I": "ingot", "G": "gem", "F": "fire", "W": "water", "S": "skull", "P": "person"}
PAY = {"type": "pay"}
UP = {"type": "thumbs", "up": True}
DOWN = {"type": "thumbs", "up": False}


def hand(code: str) -> list[str]:
    return [RUNES[c] for c in code]


def reroll(*dice: int) -> dict[str, object]:
    return {"type": "reroll", "dice": list(dice)}


def scripted(*throws: str, bankroll: int = 20) -> Table:
    """A table whose throws are the given hands or partial rerolls, settled to the first choice."""
    game = make_game("tepiiku", 3, {"bankroll": bankroll})
    table = Table(game, ScriptedDice([hand(code) for code in throws]))
    table.settle()
    return table


def state_of(table: Table) -> TepiikuState:
    state = table.state
    assert isinstance(state, TepiikuState)
    return state


def act(table: Table, seat: int, action: dict[str, object]) -> None:
    """Act, then throw what the script holds (a paid round leaves the next one unthrown)."""
    table.act(seat, action)
    dice = table.dice
    assert isinstance(dice, ScriptedDice)
    while table.state.is_chance() and dice.remaining:
        table.roll()


def bet(table: Table, *ups: bool) -> None:
    for seat, up in enumerate(ups):
        act(table, seat, UP if up else DOWN)


def roles(table: Table) -> tuple[int, int, int]:
    r = table.state.view(None)["roles"]
    return r["fish"], r["middle"], r["hook"]


# --- T1, T2: the dice and the score, counted independently ---------------------------


def reference_score(faces: tuple[str, ...]) -> int:
    """T2 written out afresh: each face's worth given the other two faces of the same hand."""
    total = 0
    for face in faces:
        if face == "ingot":
            total += 1
        elif face == "gem":
            total += 2
        elif face == "skull":
            total -= 2
        elif face == "fire":
            total += 0 if "water" in faces else 3
        elif face == "water":
            total += 0 if "fire" in faces else 4
        else:
            total += faces.count("person")
    return total


def test_T1_T2_every_throw_scores_as_the_ruling_counts() -> None:
    runes = tuple(RUNES.values())
    throws = list(itertools.product(runes, repeat=3))
    assert len(throws) == 216 and set(SCORE) == set(throws)
    for faces in throws:
        assert SCORE[faces] == reference_score(faces), faces
    assert min(SCORE.values()) == -6 and max(SCORE.values()) == 12
    # A few that are easy to get wrong: mixed Fire and Water, Persons with other runes.
    assert SCORE[("fire", "fire", "water")] == 0
    assert SCORE[("fire", "water", "gem")] == 2
    assert SCORE[("person", "person", "skull")] == 2
    assert SCORE[("person", "fire", "fire")] == 7


def test_T2_a_players_score_ignores_the_others_dice() -> None:
    # Seat 1 shows Water; seat 0's Fire still counts 3 (T2: own dice only).
    table = scripted("FFF", "WWW", "GGG")
    bet(table, False, False, False)
    assert table.state.view(None)["scores"] == [9, 12, 6]


# --- T3, T4: bankroll, payment cap, the end ------------------------------------------


def test_T3_a_bust_owing_more_than_the_fish_has_pays_everything_and_T4_ends() -> None:
    table = scripted("GGS", "GGI", "WGG", "S", bankroll=3)  # 2, 5, 8
    bet(table, True, False, False)  # pot 2
    act(table, 0, reroll(2))  # GGS again: bust, owes 4, has 3
    state = state_of(table)
    assert state.coins == [0, 3, 6]
    assert state.is_over() and not state.is_chance() and state.actors() == ()
    result = state.result()
    assert result.winners == (2,) and result.net == (-3, 0, 3) and sum(result.net) == 0
    for viewer in (None, 0, 1, 2):
        assert table.state.view(viewer)["result"]["winners"] == [2]
        assert table.state.view(viewer)["over"] is True


def test_T3_T4_a_fish_left_with_coins_does_not_end_the_game() -> None:
    table = scripted("GGS", "GGI", "WGG", bankroll=2)
    bet(table, False, False, False)
    act(table, 0, PAY)
    assert state_of(table).coins == [1, 2, 3]
    assert not table.state.is_over() and table.state.is_chance()  # round 2 throws


# --- T5, C3: secret throws and simultaneous thumbs -----------------------------------


@pytest.mark.parametrize("ups", list(itertools.product((False, True), repeat=3)))
def test_T5_the_pot_is_one_plus_the_thumbs_up(ups: tuple[bool, bool, bool]) -> None:
    table = scripted("GGS", "GGI", "WGG")
    order = [2, 0, 1]  # the commit order does not matter
    for seat in order:
        assert table.state.view(None)["pot"] == 0
        act(table, seat, UP if ups[seat] else DOWN)
    assert table.state.view(None)["pot"] == 1 + sum(ups)
    assert table.state.view(None)["thumbs"] == list(ups)


def test_C3_a_seat_learns_nothing_of_the_others_before_all_thumbs_are_in() -> None:
    table = scripted("PPP", "SSS", "WWW")
    act(table, 0, UP)
    act(table, 1, DOWN)
    for viewer in (None, 1, 2):
        view = table.state.view(viewer)
        assert view["dice"][0] is None and view["scores"][0] is None
        assert view["thumbs"][0] is None
    for event in table.state.events_for(2):
        assert "person" not in event["text"] and "skull" not in event["text"]
        assert event.get("up") is None  # nobody else's thumb, in text or data


# --- T6: tie resolution ---------------------------------------------------------------


def test_T6_tied_players_choose_at_once_and_the_pot_stays() -> None:
    # 5, 5, 8: seats 0 and 1 tie; their rerolls are thrown in seat order.
    table = scripted("GGI", "PGG", "WGG", "S", "W")
    bet(table, True, True, False)
    state = state_of(table)
    assert state.phase == "ties" and state.actors() == (0, 1)
    assert list(state.legal_actions(2)) == []
    with pytest.raises(IllegalActionError):
        table.act(2, reroll(0))  # the Hook-to-be is not tied
    act(table, 1, reroll(2))
    assert table.state.view(0)["choices"] == [None, None, None]  # seat 1's pick is secret
    assert table.state.view(None)["choices"] == [None, None, None]
    assert table.state.view(1)["choices"] == [None, [2], None]
    act(table, 0, reroll(2))  # seat 0: GGS = 2; seat 1: PGW = 7
    assert state.view(None)["scores"] == [2, 7, 8]
    assert state.pot == 3  # T6: the pot does not change
    assert roles(table) == (0, 1, 2)


def test_T6_a_three_way_tie_after_rerolls_brings_everyone_back() -> None:
    table = scripted("GGI", "PGG", "GGP", "G", "G", "G", "WWW", "SSS", "III")  # 5, 5, 5
    bet(table, False, False, False)
    state = state_of(table)
    assert state.tied == (0, 1, 2) and state.actors() == (0, 1, 2)
    act(table, 2, reroll(2))  # GGG = 6
    act(table, 0, reroll(2))  # GGG = 6
    act(table, 1, reroll(0))  # GGG = 6: all three tie again
    assert state.phase == "ties" and state.tied == (0, 1, 2) and state.pot == 1
    for seat in range(3):
        act(table, seat, reroll(0, 1, 2))
    assert state.view(None)["scores"] == [12, -6, 3]
    assert roles(table) == (1, 2, 0)


# --- T7: the Fish's choice ---------------------------------------------------------------


def test_T7_only_the_fish_chooses_and_a_reroll_names_at_least_one_die() -> None:
    table = scripted("GGS", "GGI", "WGG")
    bet(table, False, False, False)
    state = state_of(table)
    assert state.actors() == (0,)
    legal = list(state.legal_actions(0))
    assert PAY in legal and len(legal) == 8
    assert sorted(tuple(a["dice"]) for a in legal if a["type"] == "reroll") == sorted(
        c for k in (1, 2, 3) for c in itertools.combinations(range(3), k)
    )
    for bad in (reroll(), reroll(0, 0), reroll(3), reroll(1, 0)):
        with pytest.raises(IllegalActionError):
            table.act(0, bad)
    for seat in (1, 2):
        assert list(state.legal_actions(seat)) == []
        with pytest.raises(IllegalActionError):
            table.act(seat, PAY)


def test_T7_die_indices_that_equal_integers_reroll_the_right_dice() -> None:
    # A JSON client may send 0.0 or true; they compare equal to legal indices.
    table = scripted("III", "GGG", "WWW", "G", "GG")
    bet(table, False, False, False)
    act(table, 0, {"type": "reroll", "dice": [0.0]})
    state = state_of(table)
    assert state.dice[0] == hand("GII") and state.scores[0] == 4
    assert state.pot == 2  # still the Fish
    act(table, 0, {"type": "reroll", "dice": [True, 2]})  # dice 1 and 2
    assert state.dice[0] == hand("GGG")  # ties the middle's 6
    assert state.phase == "forced"


# --- T8: the Fish's reroll ---------------------------------------------------------------


def test_T8_a_bust_after_improving_pays_twice_the_raised_pot() -> None:
    table = scripted("ISS", "GGI", "WGG", "I", "S")  # -3, 5, 8
    bet(table, False, False, False)
    act(table, 0, reroll(1))  # IIS = 0: still the Fish, pot 2
    assert state_of(table).pot == 2
    act(table, 0, reroll(2))  # a Skull for the Skull: still 0, a bust
    assert state_of(table).coins == [16, 20, 24]


def test_T8_still_then_tie_adds_one_then_doubles() -> None:
    table = scripted("ISS", "GGI", "WGG", "I", "GG", "SSS")  # -3, 5, 8
    bet(table, True, False, False)  # pot 2
    act(table, 0, reroll(1))  # IIS = 0: pot 3
    act(table, 0, reroll(1, 2))  # IGG = 5: ties the middle, pot 6
    state = state_of(table)
    assert state.pot == 6 and state.phase == "forced" and state.actors() == (1,)
    assert list(state.legal_actions(1)) and PAY not in state.legal_actions(1)
    act(table, 1, reroll(0, 1, 2))  # the middle drops to -6: no bust, no +1
    assert state.pot == 6 and state.coins == [20, 20, 20]
    assert roles(table) == (1, 0, 2) and state.actors() == (1,)
    act(table, 1, PAY)
    assert state.coins == [20, 14, 26]


def test_T8_a_forced_reroll_to_the_same_score_ties_back_and_the_fish_rerolls() -> None:
    table = scripted("GGS", "GGI", "WGG", "I", "G", "SSS")  # 2, 5, 8
    bet(table, False, False, False)
    act(table, 0, reroll(2))  # GGI = 5: tie, pot 2, seat 1 rerolls
    act(table, 1, reroll(0))  # GGI again: 5, tied with the Fish: pot 4, seat 0 rerolls
    state = state_of(table)
    assert state.phase == "forced" and state.actors() == (0,) and state.pot == 4
    act(table, 0, reroll(0, 1, 2))  # the old Fish drops to -6: never a bust
    assert state.coins == [20, 20, 20] and state.pot == 4
    assert roles(table) == (0, 1, 2) and state.phase == "fish"


def test_T8_a_chain_of_ties_doubles_each_time() -> None:
    table = scripted("GGS", "GGI", "WGG", "I", "W", "S", "G")  # 2, 5, 8
    bet(table, True, True, True)  # pot 4
    act(table, 0, reroll(2))  # 5: ties the middle, 8
    act(table, 1, reroll(2))  # GGW = 8: ties the Hook, 16
    act(table, 2, reroll(0))  # SGG = 2, ties nobody
    state = state_of(table)
    assert state.pot == 16 and state.view(None)["scores"] == [5, 8, 2]
    assert roles(table) == (2, 0, 1)
    act(table, 2, reroll(0))  # GGG = 6: beats the middle's 5, pot 32
    assert state.pot == 32 and roles(table) == (0, 2, 1)


def test_T8_passing_the_middle_and_tying_the_hook_doubles_once() -> None:
    table = scripted("GGS", "GGI", "WGG", "W", "S")  # 2, 5, 8
    bet(table, False, False, False)
    act(table, 0, reroll(2))  # GGW = 8 = the Hook
    state = state_of(table)
    assert state.pot == 2 and state.actors() == (2,) and state.view(None)["forced"] == 2
    act(table, 2, reroll(0))  # SGG = 2
    assert state.pot == 2 and roles(table) == (2, 1, 0)


def test_T8_beating_the_middle_or_both_doubles_once() -> None:
    table = scripted("GGS", "GGI", "WGG", "G")
    bet(table, False, False, False)
    act(table, 0, reroll(2))  # 6: beats the middle only
    assert state_of(table).pot == 2 and roles(table) == (1, 0, 2)
    table = scripted("GGS", "GGI", "WGG", "WWW")
    bet(table, False, False, False)
    act(table, 0, reroll(0, 1, 2))  # 12: beats both
    assert state_of(table).pot == 2 and roles(table) == (1, 2, 0)


# --- T9, C4, C6, T10 over whole random games -----------------------------------------


def test_T9_C4_C6_whole_games_hold_the_invariants() -> None:
    """Coins move only Fish to Hook; hidden throws and thumbs reach only their owner."""
    rng = random.Random(7)
    for game_no in range(60):
        game = make_game("tepiiku", 3, {"bankroll": 40})
        table = Table(game, RandomDice(game_no))
        bots = {s: RandomBot(game, s, random.Random(rng.random())) for s in range(3)}
        state = state_of(table)
        rounds = 0
        for _ in range(5000):
            if state.is_over():
                break
            before = state.coins[:]
            fish, middle, hook = state.fish, state.middle, state.hook
            round_before = state.round
            if state.is_chance():
                table.roll()
            else:
                seat = state.actors()[0]
                table.act(seat, bots[seat].choose(state.view(seat), state.legal_actions(seat)))
            assert sum(state.coins) == 120
            if state.coins != before:  # T9: only the Fish pays, only the Hook receives
                assert state.coins[middle] == before[middle]
                assert state.coins[fish] < before[fish] and state.coins[hook] > before[hook]
                assert min(state.coins) == 0 or state.round == round_before + 1
            if not state.revealed:
                for viewer in (0, 1, 2):
                    view = state.view(viewer)
                    for other in range(3):
                        if other != viewer:
                            assert view["dice"][other] is None
                            assert view["scores"][other] is None
                            assert view["thumbs"][other] is None
                assert state.view(None)["dice"] == [None, None, None]
            rounds = state.round
        assert state.is_over(), "a game did not end"
        assert rounds >= 1
        assert state.result().winners and 0 not in [state.coins[w] for w in state.result().winners]
        assert state.log is not None
        for event in state.log:
            if event.to is not None:  # a private fact goes to its owner only
                assert event.to == frozenset({event.data["seat"]})
            elif event.type == "throw":  # a public throw comes after the reveal
                assert event.text.startswith("Seat")


def test_C6_resampling_keeps_every_seats_view_through_a_scripted_round() -> None:
    table = scripted("GGI", "PGG", "WGG", "S", "W")  # a tie between seats 0 and 1
    state = state_of(table)
    rng = random.Random(1)
    script = [(0, UP), (2, DOWN), (1, UP), (1, reroll(2)), (0, reroll(2))]
    for seat, action in [(None, None), *script]:
        if seat is not None and action is not None:
            act(table, seat, action)
        for viewer in (None, 0, 1, 2):
            for _ in range(5):
                assert state.resample_hidden(viewer, rng).view(viewer) == state.view(viewer)


def test_T10_a_new_round_hides_the_fresh_throws_again() -> None:
    table = scripted("GGS", "GGI", "WGG", "PPP", "SSS", "III")
    bet(table, False, False, False)
    act(table, 0, PAY)
    state = state_of(table)
    assert state.round == 2 and state.phase == "bet"
    assert state.view(1)["dice"] == [None, hand("SSS"), None]
    assert state.view(None)["dice"] == [None, None, None]
    assert Counter(e["type"] for e in state.events_for(1) if e.get("seat") == 0)["throw"] == 0
