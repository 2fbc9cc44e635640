# mypy: disable-error-code="no-untyped-def,no-untyped-call"
# (Numba types the loop and its inner functions from their arguments when it compiles them.)
"""Toplshteyner's seated batch: its own random seats played game by game (`compiled`).

At four seats the other three throw for long between two of the learner's
decisions: dozens of throws, most of them plain. The passes walk them on the
tables of `toplshteyner_chain`, a few NumPy operations a throw for every
game at once; the loop plays the rules themselves (P3-P10: the roll-off,
throws, the six doubles, elections, bought lives and going out) on a game's
few numbers, one game at a time, and keeps what the views show as
`ToplshteynerSeated` does.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit
from numpy.typing import NDArray

from dicehall.batch.base import Ints
from dicehall.batch.seated import compiled
from dicehall.batch.seated.draws import choose, roll_off
from dicehall.batch.toplshteyner import (
    BUY,
    ELECT,
    EVENTS,
    MAX_LIVES,
    OVER,
    ROLLOFF,
    START_LIVES,
    TURN,
    TURN_ENDS,
)
from dicehall.games.toplshteyner.rules import TURN_END_WORDS

(
    DOUBLE, TURN_EV, POINT_EV, LIFE_LOST, OUT_EV, ELECT_EV, ELECT_SEAT, BUY_EV, DECLINE_EV,
    LIFE_BACK, EMPTY_POT, ROLLOFF_TIE,
) = (
    EVENTS.index(name) for name in (
        "double 1", "turn point", "point", "life_lost", "out", "elect", "elect 0", "buy",
        "decline", "life_back", "empty_pot", "rolloff_tie",
    )
)  # fmt: skip
"""The first columns of the batch's event counts (`Seated.counts`): a double's column is
DOUBLE + face - 1, a turn's end TURN_EV + its reason, an election of seat s ELECT_SEAT + s."""
POINT, SAVING_GRACE, SECOND_SNAKE_EYES, SEVEN, TRICK_SIXES, WENT_OUT = range(len(TURN_ENDS))
"""A turn's ends, numbered as the batch's events and the view's words (`last_end`)."""
ENDED_GAME = len(TURN_ENDS)
"""The view's last end "over": the game ended in the roller's turn."""
assert (*TURN_ENDS, "over") == tuple(TURN_END_WORDS)


class Arrays(NamedTuple):
    """The seated batch's arrays the loop reads and writes, by their names there."""

    phase: NDArray[Any]
    steps: NDArray[Any]
    contenders: NDArray[Any]
    lives: NDArray[Any]
    paid: NDArray[Any]
    reclaimed: NDArray[Any]
    bought: NDArray[Any]
    pot: NDArray[Any]
    alive: NDArray[Any]
    roller: NDArray[Any]
    winner: NDArray[Any]
    point: NDArray[Any]
    snake_eyes: NDArray[Any]
    threes: NDArray[Any]
    high_fives: NDArray[Any]
    nxt: NDArray[Any]
    throws: NDArray[Any]
    last_throw: NDArray[Any]
    last_seat: NDArray[Any]
    last_end: NDArray[Any]
    decisions: NDArray[Any]
    counts: NDArray[Any]


def advance(batch: Any, g: Ints, given: Ints | None = None) -> None:
    """Play games `g` on (`compiled`), each first with the outside seat's choice `given`."""
    options = (batch.for_fun, batch.sixes_end_turn)
    _advance(*compiled.arguments(batch, g, given, Arrays), options)


@njit(cache=True)
def _advance(g, given, outside, limit, rng, arrays, options):
    for_fun, sixes_end_turn = options
    (
        phase, steps, contenders, lives, paid, reclaimed, bought, pot, alive, roller, winner,
        point, snake_eyes, threes, high_fives, nxt, throws, last_throw, last_seat, last_end,
        decisions, counts,
    ) = arrays  # fmt: skip
    n = lives.shape[1]
    faces = np.zeros(n, dtype=np.int64)
    chosen = np.full(1, -1)
    """The outside seat's choice in the game being played, until it is taken (`choose`)."""

    def end_turn(i, why):
        """P2, C2: the dice pass to the next player still in."""
        counts[i, TURN_EV + why] += 1
        last_seat[i] = roller[i]
        last_end[i] = why
        throws[i] = 0
        point[i] = 0
        snake_eyes[i] = threes[i] = high_fives[i] = False
        roller[i] = nxt[i, roller[i]]

    def set_point(i, value):
        point[i] = value
        counts[i, POINT_EV] += 1

    def lose(i, seat, count):
        """P1, P10: lives into the pot; out at none, and the last one in wins."""
        lives[i, seat] -= count
        paid[i, seat] += count
        pot[i] += count
        counts[i, LIFE_LOST] += 1
        if lives[i, seat] > 0:
            return
        alive[i] -= 1
        counts[i, OUT_EV] += 1
        after = nxt[i, seat]
        for s in range(n):
            if nxt[i, s] == seat:
                nxt[i, s] = after
        if alive[i] == 1:
            for s in range(n):
                if lives[i, s] > 0:
                    winner[i] = s
                    break
            phase[i] = OVER
            last_seat[i] = roller[i]
            last_end[i] = ENDED_GAME
            roller[i] = -1
        elif seat == roller[i]:
            end_turn(i, WENT_OUT)

    def elected(i, target):
        counts[i, ELECT_EV] += 1
        counts[i, ELECT_SEAT + target] += 1
        lose(i, target, 1)

    def double(i, face):
        """P4-P9: what a double does."""
        counts[i, DOUBLE + face - 1] += 1
        seat = roller[i]
        if face == 1:  # P4 Snake Eyes
            if point[i] == 2:
                end_turn(i, POINT)
            elif snake_eyes[i]:
                end_turn(i, SECOND_SNAKE_EYES)
            else:  # the life first: a roller who went out has ended the turn
                snake_eyes[i] = True
                lose(i, seat, 1)
                if point[i] == 0 and roller[i] == seat:
                    set_point(i, 2)
        elif face == 2:  # P5 Saving Grace
            end_turn(i, SAVING_GRACE)
        elif face == 3:  # P6 Threes
            if point[i] == 6 and threes[i]:
                lose(i, seat, lives[i, seat])
            else:
                threes[i] = True
                set_point(i, 6)
        elif face == 4:  # P7 Crazy Eight
            set_point(i, 2)
        elif face == 5:  # P8 High Fives; a later 5-5 is a plain 10
            if high_fives[i]:
                if point[i] == 10:
                    end_turn(i, POINT)
                return
            high_fives[i] = True
            if point[i] == 0:
                set_point(i, 10)
            if alive[i] == 2:  # one other player: no choice to ask
                for s in range(n):
                    if s != seat and lives[i, s] > 0:
                        elected(i, s)
                        return
            phase[i] = ELECT
        else:  # P9 Trick Sixes: a life back below three; at three, buy one (or for fun)
            held = lives[i, seat]
            if held < MAX_LIVES and (held < START_LIVES or for_fun):
                if pot[i] > 0:
                    lives[i, seat] += 1
                    pot[i] -= 1
                    reclaimed[i, seat] += 1
                    counts[i, LIFE_BACK] += 1
                else:  # nothing is created (C4)
                    counts[i, EMPTY_POT] += 1
            if held == START_LIVES and not for_fun:
                phase[i] = BUY
            elif sixes_end_turn:
                end_turn(i, TRICK_SIXES)

    for k in range(g.size):
        i, chosen[0] = g[k], given[k]
        while phase[i] != OVER:
            p = phase[i]
            if p == ROLLOFF:  # C5: one die per contender; those tied for highest again
                roll_off(rng, i, faces, contenders, steps, roller, phase, counts, TURN, ROLLOFF_TIE)
                continue
            if p == TURN:  # P3: plain throws (they only move the point), then one that bites
                plain, value, sets = 0, point[i], 0
                while True:
                    plain += 1
                    code = int(rng.random() * 36)
                    a, b = code // 6 + 1, code % 6 + 1
                    if a == b or (value != 0 and (a + b == 7 or a + b == value)):
                        break
                    if value == 0 and a + b != 7:  # a 7 before a point is thrown again
                        value = a + b
                        sets += 1
                steps[i] += plain
                throws[i] += plain
                point[i] = value
                counts[i, POINT_EV] += sets
                last_throw[i, 0], last_throw[i, 1] = a, b
                if a == b:
                    double(i, a)
                elif a + b == value:
                    end_turn(i, POINT)
                else:
                    seat = roller[i]
                    lose(i, seat, 1)
                    if lives[i, seat] > 0:  # else P10 has ended the turn already
                        end_turn(i, SEVEN)
                continue
            seat = roller[i]
            if chosen[0] < 0 and (outside[seat] or (limit >= 0 and decisions[i] >= limit)):
                break
            decisions[i] += 1
            steps[i] += 1
            phase[i] = TURN
            if p == ELECT:  # P8: the pick-th of the others still in, in seat order
                pick = choose(rng, chosen, alive[i] - 1)
                for s in range(n):
                    if s != seat and lives[i, s] > 0:
                        if pick == 0:
                            elected(i, s)
                            break
                        pick -= 1
            else:  # P9: buy a fourth life for one stake, or decline
                if choose(rng, chosen, 2) == 0:
                    lives[i, seat] += 1
                    paid[i, seat] += 1
                    bought[i, seat] += 1
                    pot[i] += 1
                    counts[i, BUY_EV] += 1
                else:
                    counts[i, DECLINE_EV] += 1
                if sixes_end_turn:
                    end_turn(i, TRICK_SIXES)
