"""An independent audit of Toplshteyner's rules (P1-P10, C2, C5, C6), with scripted dice.

Each test pins one point where a throw's effects could be ordered or combined
wrongly; the last ones check the exact turn odds against a turn chain written
here from the rulings alone, without the game's code.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest

from dicehall.core import ScriptedDice, Table
from dicehall.games import make_game
from dicehall.games.toplshteyner.odds import roller_turn_odds, turn_outcome_odds
from dicehall.games.toplshteyner.rules import ToplshteynerState

BUY = {"type": "buy"}
DECLINE = {"type": "decline"}
SEVEN_ON_EIGHT = ([2, 6], [3, 4])
"""A turn that sets the point 8 and throws a 7: one life lost."""


def elect(seat: int) -> dict[str, Any]:
    return {"type": "elect", "seat": seat}


def table(seats: int, **options: object) -> Table:
    """Seat 0 wins the roll-off (C5) with a 6 against 1s."""
    t = Table(make_game("toplshteyner", seats, options), ScriptedDice([[6]] + [[1]] * (seats - 1)))
    for _ in range(seats):
        t.roll()
    return t


def throw(t: Table, *throws: Sequence[int]) -> ToplshteynerState:
    """Throw the given pairs; each must be due (no decision pending)."""
    t.dice = ScriptedDice(throws)
    for _ in throws:
        assert t.state.is_chance()
        t.roll()
    return state_of(t)


def state_of(t: Table) -> ToplshteynerState:
    state = t.state
    assert isinstance(state, ToplshteynerState)
    return state


def texts(t: Table, start: int = 0) -> list[str]:
    return [e["text"] for e in t.state.events_for(None, start)]


def assert_conserved(t: Table) -> None:
    state = state_of(t)
    assert state.pot == sum(state.paid) - sum(state.reclaimed)
    assert sum(state.lives) + state.pot == 3 * state.game.seats + 2 * sum(state.bought)


# --- order of effects within one throw -------------------------------------------------


def test_P4_P10_first_snake_eyes_on_the_last_life_sets_no_point() -> None:
    """The life is lost first; the roller is then out and the point is never set."""
    t = table(3)
    throw(t, *SEVEN_ON_EIGHT)  # seat 0: 2 lives
    throw(t, [2, 2], [2, 2])  # seats 1 and 2 safe
    throw(t, *SEVEN_ON_EIGHT)  # seat 0: 1 life
    throw(t, [2, 2], [2, 2])
    start = len(t.state.log or [])
    state = throw(t, [1, 1])
    assert state.lives == [0, 3, 3]
    assert state.roller == 1
    assert state.point == 0
    assert not state.snake_eyes
    assert state.throws == []
    told = texts(t, start)
    assert not any("point is 2" in line for line in told)
    assert told.index("seat 0 loses 1 life") < told.index("seat 0 is out")
    # seat 1's turn starts fresh: a 1-1 costs seat 1 a life (no point of 2 inherited)
    state = throw(t, [1, 1])
    assert state.lives == [0, 2, 3]
    assert state.point == 2
    assert_conserved(t)


def test_P4_first_snake_eyes_tells_the_life_then_the_point() -> None:
    t = table(2)
    start = len(t.state.log or [])
    throw(t, [1, 1])
    told = texts(t, start)
    assert told.index("seat 0 loses 1 life") < told.index("the point is 2")


def test_P4_P8_snake_eyes_then_high_fives_keeps_the_point_two() -> None:
    """5-5 sets 10 only when no point is set; a later 1-1 then makes the point of 2."""
    t = table(3)
    state = throw(t, [1, 1], [5, 5])
    assert state.point == 2
    t.act(0, elect(2))
    state = throw(t, [4, 6], [5, 5])  # neither a plain 10 nor a second 5-5 makes 2
    assert (state.roller, state.point) == (0, 2)
    state = throw(t, [1, 1])
    assert state.roller == 1
    assert state.lives == [2, 3, 2]
    assert state.view(None)["last_turn"] == {"seat": 0, "end": "point"}


def test_P8_first_high_fives_on_a_point_of_ten_elects_and_does_not_make_it() -> None:
    t = table(3)
    state = throw(t, [4, 6], [5, 5])
    assert state.actors() == (0,)
    t.act(0, elect(1))
    assert (state.roller, state.point) == (0, 10)
    state = throw(t, [5, 5])  # the second 5-5 is a plain 10: the point is made
    assert state.roller == 1
    assert state.lives == [3, 2, 3]


def test_P8_P7_high_fives_after_crazy_eight_is_no_ten() -> None:
    t = table(3)
    state = throw(t, [4, 4], [5, 5])
    assert state.point == 2
    t.act(0, elect(1))
    state = throw(t, [5, 5], [6, 4], [3, 4])  # plain tens miss a point of 2; then a 7
    assert state.lives == [2, 2, 3]
    assert state.roller == 1


def test_P6_threes_first_sets_six_and_a_plain_six_makes_it() -> None:
    t = table(2)
    state = throw(t, [3, 3], [1, 5])
    assert state.roller == 1
    assert state.lives == [3, 3]


def test_P6_threes_twice_in_a_row_before_any_point_loses_all() -> None:
    t = table(3)
    state = throw(t, [3, 3], [3, 3])
    assert state.lives == [0, 3, 3]
    assert state.pot == 3
    assert state.roller == 1


def test_P6_P7_threes_after_crazy_eight_only_changes_the_point() -> None:
    """Crazy Eight then Threes: the point was 2, so the 3-3 makes it 6 (no loss),
    even though a 3-3 was thrown earlier this turn; a third 3-3 then loses all."""
    t = table(2)
    state = throw(t, [4, 4], [3, 3])
    assert (state.point, state.lives) == (6, [3, 3])
    t = table(2)
    state = throw(t, [3, 3], [4, 4], [3, 3])
    assert (state.point, state.lives, state.roller) == (6, [3, 3], 0)
    state = throw(t, [3, 3])
    assert state.is_over()
    assert state.result().winners == (1,)


def test_P6_P9_threes_take_a_fourth_life_too() -> None:
    t = table(2)
    throw(t, [6, 6])
    t.act(0, BUY)
    state = throw(t, [3, 3], [3, 3])
    assert state.lives == [0, 3]
    assert state.pot == 5  # the bought stake and all four lives
    assert state.result().net == (-5, 5)


def test_P4_P6_second_snake_eyes_ends_the_turn_even_on_a_point_of_six() -> None:
    t = table(2)
    state = throw(t, [3, 3], [1, 1])
    assert (state.point, state.lives) == (6, [2, 3])
    state = throw(t, [1, 1])
    assert state.roller == 1
    assert state.view(None)["last_turn"] == {"seat": 0, "end": "second_snake_eyes"}


def test_P4_snake_eyes_on_a_point_of_two_costs_nothing_even_first() -> None:
    t = table(2)
    state = throw(t, [5, 6], [4, 4], [1, 1])
    assert state.lives == [3, 3]
    assert state.roller == 1
    assert state.view(None)["last_turn"]["end"] == "point"


def test_P4_snake_eyes_and_crazy_eight_then_snake_eyes_is_one_life() -> None:
    t = table(2)
    state = throw(t, [2, 5], [1, 1], [4, 4], [1, 1])  # the 7 before a point is thrown again
    assert state.lives == [2, 3]
    assert state.roller == 1


# --- High Fives and the end of the game mid-turn --------------------------------------


def test_P8_P10_election_of_a_last_life_with_others_in_goes_on() -> None:
    t = table(4)
    throw(t, [2, 2], *SEVEN_ON_EIGHT)  # seat 0 safe, seat 1: 2 lives
    throw(t, [2, 2], [2, 2], [2, 2])  # seats 2, 3, 0 safe
    throw(t, *SEVEN_ON_EIGHT)  # seat 1: 1 life
    throw(t, [2, 2])  # seat 2 safe
    state = throw(t, [5, 5])  # seat 3 elects seat 1's last life
    assert list(state.legal_actions(3)) == [elect(0), elect(1), elect(2)]
    t.act(3, elect(1))
    assert state.lives == [3, 0, 3, 3]
    assert not state.is_over()
    assert (state.roller, state.point) == (3, 10)  # the roller's turn goes on
    state = throw(t, [4, 6])
    assert state.roller == 0
    state = throw(t, [2, 2])
    assert state.roller == 2  # seat 1 is skipped (C2)
    assert_conserved(t)


def test_P8_P10_high_fives_ends_the_game_in_mid_turn() -> None:
    """Three seats, one out: the roller's 5-5 takes the other's last life at once."""
    t = table(3)
    throw(t, [3, 3], [3, 3])  # seat 0 out
    throw(t, *SEVEN_ON_EIGHT)  # seat 1: 2 lives
    throw(t, *SEVEN_ON_EIGHT)  # seat 2: 2 lives
    throw(t, *SEVEN_ON_EIGHT)  # seat 1: 1 life
    state = throw(t, [5, 5])  # seat 2 elects the only other player still in
    assert state.is_over()
    assert not state.is_chance()
    assert state.actors() == ()
    assert state.lives == [0, 0, 2]
    result = state.result()
    assert result.winners == (2,)
    assert result.net == (-3, -3, 6)
    assert state.pot == 7
    view = state.view(1)
    assert view["over"] and view["winner"] == 2 and view["result"]["winners"] == [2]
    assert view["last_turn"] == {"seat": 2, "end": "over"}
    assert_conserved(t)


def test_P3_P10_seven_on_the_last_life_ends_the_game() -> None:
    t = table(2)
    throw(t, *SEVEN_ON_EIGHT)
    throw(t, [2, 2])
    throw(t, *SEVEN_ON_EIGHT)
    throw(t, [2, 2])
    state = throw(t, *SEVEN_ON_EIGHT)
    assert state.is_over()
    assert state.result().winners == (1,)
    assert state.result().net == (-3, 3)


# --- Trick Sixes at two, three and four lives, with every option ------------------------


OPTIONS = [
    {},
    {"for_fun": True},
    {"sixes_end_turn": True},
    {"for_fun": True, "sixes_end_turn": True},
]


def roller_with(lives: int, **options: object) -> Table:
    """A two-seat table where seat 0 is to throw with `lives` and seat 1 has lost a
    life (so the pot holds a stake for a for-fun fourth life)."""
    t = table(2, **options)
    throw(t, [2, 2], *SEVEN_ON_EIGHT)  # seat 1: 2 lives
    if lives == 2:
        throw(t, *SEVEN_ON_EIGHT)
        throw(t, [2, 2])
    elif lives == 4:
        state = throw(t, [6, 6])
        if state.actors():
            t.act(0, BUY)
        if not options.get("sixes_end_turn"):
            throw(t, [2, 2])
        throw(t, [2, 2])
    assert (state_of(t).roller, state_of(t).lives[0]) == (0, lives)
    return t


@pytest.mark.parametrize("options", OPTIONS)
def test_P9_trick_sixes_at_two_lives_takes_a_life_from_the_pot(options: dict[str, bool]) -> None:
    t = roller_with(2, **options)
    pot = state_of(t).pot
    state = throw(t, [6, 6])
    assert state.lives[0] == 3
    assert state.pot == pot - 1
    assert state.actors() == ()
    assert state.roller == (1 if options.get("sixes_end_turn") else 0)
    assert_conserved(t)


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("choice", [BUY, DECLINE])
def test_P9_trick_sixes_at_three_lives(options: dict[str, bool], choice: dict[str, str]) -> None:
    t = roller_with(3, **options)
    pot = state_of(t).pot
    state = throw(t, [6, 6])
    if options.get("for_fun"):  # free from the pot, no choice
        assert state.actors() == ()
        assert (state.lives[0], state.pot, state.bought[0]) == (4, pot - 1, 0)
    else:  # bought from the pocket, or not
        assert state.actors() == (0,)
        assert state.view(1)["phase"] == "buy"
        assert state.roller == 0  # the turn waits for the choice
        t.act(0, choice)
        bought = choice is BUY
        assert (state.lives[0], state.pot, state.bought[0]) == (3 + bought, pot + bought, bought)
    assert state.roller == (1 if options.get("sixes_end_turn") else 0)
    assert_conserved(t)


@pytest.mark.parametrize("options", OPTIONS)
def test_P9_trick_sixes_at_four_lives_gives_nothing(options: dict[str, bool]) -> None:
    t = roller_with(4, **options)
    pot = state_of(t).pot
    state = throw(t, [6, 6])
    assert (state.lives[0], state.pot, state.actors()) == (4, pot, ())
    ended = options.get("sixes_end_turn", False)
    assert state.roller == (1 if ended else 0)
    if ended:
        assert state.view(None)["last_turn"] == {"seat": 0, "end": "trick_sixes"}


def test_P9_trick_sixes_twice_in_a_turn_from_two_lives_to_four() -> None:
    t = roller_with(2)
    state = throw(t, [6, 6], [6, 6])
    t.act(0, BUY)
    state = throw(t, [6, 6])
    assert state.lives[0] == 4
    assert state.reclaimed[0] == 1 and state.bought[0] == 1
    assert_conserved(t)


def test_P9_sixes_end_turn_does_not_end_a_turn_twice() -> None:
    """A bought life on a 6-6 that ends the turn passes the dice exactly once."""
    t = table(3, sixes_end_turn=True)
    throw(t, [6, 6])
    t.act(0, BUY)
    assert t.state.view(None)["roller"] == 1


# --- views after the end --------------------------------------------------------------


def test_C6_views_after_the_end_agree_and_carry_the_result() -> None:
    t = table(2)
    state = throw(t, [3, 3], [3, 3])
    spectator = state.view(None)
    assert spectator["over"] and spectator["actors"] == [] and spectator["roller"] is None
    for seat in (0, 1):
        assert {**state.view(seat), "seat": None} == spectator
    assert all(e.to is None for e in state.log or [])  # nothing is private


# --- the exact turn odds, against a chain built from the rulings alone -----------------

Key = tuple[int, bool, bool, bool, int, bool]
"""(point, 1-1 seen, 3-3 seen, 5-5 seen, roller's lives, an election happened)."""


def ruled_throw(key: Key, a: int, b: int, sixes_end: bool) -> tuple[str, Key]:
    """One throw by P3-P10 for a roller who takes every fourth life: the turn's end
    ("" if it goes on) and the next key. Lives are never taken below zero here:
    any loss to zero ends the turn as "out"."""
    point, se, th, hf, lives, el = key
    if a == b == 1:
        if point == 2:
            return "point", key
        if se:
            return "second_snake_eyes", key
        if lives == 1:
            return "out", (point, True, th, hf, 0, el)
        return "", (point or 2, True, th, hf, lives - 1, el)
    if a == b == 2:
        return "saving_grace", key
    if a == b == 3:
        if point == 6 and th:
            return "out", (point, se, th, hf, 0, el)
        return "", (6, se, True, hf, lives, el)
    if a == b == 4:
        return "", (2, se, th, hf, lives, el)
    if a == b == 5 and not hf:
        return "", (point or 10, se, th, True, lives, True)
    if a == b == 6:
        after = (point, se, th, hf, min(4, lives + 1), el)
        return ("trick_sixes" if sixes_end else ""), after
    total = a + b
    if point == 0:
        return "", (0 if total == 7 else total, se, th, hf, lives, el)
    if total == point:
        return "point", key
    if total == 7:
        return ("seven" if lives > 1 else "out"), (point, se, th, hf, lives - 1, el)
    return "", key


def ruled_turn(lives: int, sixes_end: bool) -> dict[tuple[str, bool, int], Fraction]:
    """Exact chances of (end, election, roller's lives at the end), by Gauss-Jordan
    elimination over every reachable key."""
    start: Key = (0, False, False, False, lives, False)
    keys, moves = [start], {}
    for key in keys:
        moves[key] = [ruled_throw(key, a, b, sixes_end) for a in range(1, 7) for b in range(1, 7)]
        for end, nxt in moves[key]:
            if not end and nxt not in moves and nxt not in keys:
                keys.append(nxt)
    ends = sorted({(end, nxt[5], nxt[4]) for key in keys for end, nxt in moves[key] if end})
    n, where = len(keys), {key: i for i, key in enumerate(keys)}
    rows = [[Fraction(int(i == j)) for j in range(n)] + [Fraction(0)] * len(ends) for i in range(n)]
    for key in keys:
        for end, nxt in moves[key]:
            col = n + ends.index((end, nxt[5], nxt[4])) if end else where[nxt]
            rows[where[key]][col] += Fraction(1, 36) if end else -Fraction(1, 36)
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col])
        rows[col], rows[pivot] = rows[pivot], rows[col]
        rows[col] = [x / rows[col][col] for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col]:
                rows[r] = [x - rows[r][col] * y for x, y in zip(rows[r], rows[col], strict=True)]
    return {end: rows[0][n + i] for i, end in enumerate(ends) if rows[0][n + i]}


@pytest.mark.parametrize("sixes_end", [False, True])
@pytest.mark.parametrize("lives", [1, 2, 3, 4])
def test_odds_roller_turn_agrees_with_the_rulings(lives: int, sixes_end: bool) -> None:
    ruled = ruled_turn(lives, sixes_end)
    assert sum(ruled.values()) == 1
    by_lives: dict[tuple[bool, int], Fraction] = {}
    for (_, elected, left), p in ruled.items():
        by_lives[(elected, left)] = by_lives.get((elected, left), Fraction(0)) + p
    for for_fun in (False, True):  # the roller takes every fourth life either way
        assert roller_turn_odds(lives, for_fun, sixes_end) == by_lives


@pytest.mark.parametrize("sixes_end", [False, True])
def test_odds_turn_table_ends_agree_with_the_rulings(sixes_end: bool) -> None:
    """The printed turn table (a roller of four lives who never buys: the ends do not
    depend on lives then) against the ruled chain for a roller of four."""
    ruled: dict[str, Fraction] = {}
    for (end, _, _), p in ruled_turn(4, sixes_end).items():
        ruled[end] = ruled.get(end, Fraction(0)) + p
    table: dict[str, Fraction] = {}
    for (end, _, _, _), p in turn_outcome_odds(sixes_end).items():
        table[end] = table.get(end, Fraction(0)) + p
    assert table == ruled
    assert ruled["seven"] > Fraction(1, 2) - Fraction(1, 10)  # the 7 is the usual end
