"""Scripting Tao Dice in tests: moves by name, scripted tables, positions set up by hand."""

from __future__ import annotations

from dicehall.core import ScriptedDice, Table
from dicehall.games.tao.rules import TaoDice, TaoState

PASS: dict[str, object] = {"type": "pass"}
FOLD: dict[str, object] = {"type": "fold"}


def ante(white: int = 0) -> dict[str, object]:
    return {"type": "ante", "white": white}


def raise_(white: int = 0) -> dict[str, object]:
    return {"type": "raise", "white": white}


def call(white: int = 0) -> dict[str, object]:
    return {"type": "call", "white": white}


def table(seats: int, throws: list[list[int]], **options: object) -> Table:
    """A table whose first player is seat 0 unless told, with the throws scripted."""
    return Table(TaoDice(seats, {"opener": "0", **options}), ScriptedDice(throws))


def settle(t: Table) -> None:
    """Make the scripted throws that are due, as long as the script lasts."""
    assert isinstance(t.dice, ScriptedDice)
    while t.state.is_chance() and t.dice.remaining:
        t.roll()


def play(t: Table, *moves: tuple[int, dict[str, object]]) -> TaoState:
    """Throw what is due, then play each move, throwing after each."""
    settle(t)
    for seat, action in moves:
        t.act(seat, action)
        settle(t)
    state = t.state
    assert isinstance(state, TaoState)
    return state


def start_round(t: Table, stones: list[tuple[int, int]], out: tuple[int, ...] = ()) -> TaoState:
    """Restart the current round from a position: seat s holds stones[s] = (black, white).

    Long matches are reached in one step this way; the bid unit (D11) follows
    from who is `out`, and the stones must add up as at the start of a match.
    """
    state = t.state
    assert isinstance(state, TaoState)
    n = state.n
    state.black = [b for b, _ in stones]
    state.white = [w for _, w in stones]
    state.pot_black = state.pot_white = 0
    state.out = [s in out for s in range(n)]
    state.in_round = [s not in out for s in range(n)]
    state._mark_out()
    state._start_round(ante=True)
    assert state.conserved() == {"black": 4 * n, "white": 2 * n}
    return state


def held(state: TaoState, seat: int) -> tuple[int, int]:
    return state.black[seat], state.white[seat]


def pot(state: TaoState) -> tuple[int, int]:
    return state.pot_black, state.pot_white


SMALL: dict[str, object] = {
    "length": "round",
    "opener": "0",
    "tiebreaks": 0,
    "hidden_faces": 2,
    "shown_faces": 2,
    "black_stones": 1,
    "white_stones": 1,
}
"""The small research variant (docs/researchers/tao.md): one round, seat 0 opens, no
tie-break round (a tie goes to the lot), two d2 hidden and a d2 shown, one black and one
white stone each. At two seats: 19,287 histories."""
SMALL_HISTORIES = 19_287
