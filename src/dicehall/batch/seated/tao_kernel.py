"""Tao Dice's seated batch, the batch's own random seats played game by game in machine code.

A seated batch plays its own seats pass by pass, one decision in every game
waiting for one (`Seated.advance`): a few dozen NumPy calls a pass, and a
vector step needs a dozen passes or more at four seats (each of three
opponents' bets, antes, stages, rounds and the rounds the learning seat sits
out), most of them for a few games. When every seat of the batch's own plays
at random, `advance` here plays each game on instead, seat by seat in a
loop that Numba compiles, until an outside seat is to decide, the game is
over, or the decisions reach their limit: the same rules, steps and view as
`TaoSeated`'s handlers, on the batch's own arrays in place.

A random seat's choices depend on its own stones and the bid unit alone, so
the loop draws them as the handlers do: the index of a uniform choice among
the legal actions, in the same order (`TaoSeated._ante_step`,
`TaoSeated._bet_step`). Its draws come from Numba's generator, seeded from
the batch's at each call, so a seeded batch plays the same games every time.

`tests/rl/test_vector_stats.py` checks the episodes against the single
environment's, with this loop and without it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit
from numpy.typing import NDArray

from dicehall.batch.base import Ints
from dicehall.batch.tao import EVENTS, OPENER, OVER, ROUND

ANTE, BET = OVER + 1, OVER + 2
"""`TaoSeated`'s decision phases (restated: that module imports this one)."""
PASS, RAISE, CALL, FOLD = range(4)
LENGTHS = {"round": 0, "single": 1, "two": 2, "token": 3}
"""The game's length (D12 option; "round": the research variant) as the loop's number."""
(
    FIRST, MATCH, ROUND_EV, ANTE_EV, THROW, D12, PASS_EV, RAISE_EV, CALL_EV, WHITE_BET,
    GRATIS, FOLD_EV, SHOWDOWN, TIE, POT, OUT, MATCH_WON, TOKEN,
) = range(len(EVENTS))  # fmt: skip
"""The columns of the batch's event counts (`TaoSeated.counts`), in `EVENTS` order."""
assert EVENTS[TOKEN] == "token" and EVENTS[WHITE_BET] == "white bet"
START_BLACK, START_WHITE = 4, 2


class Arrays(NamedTuple):
    """The seated batch's arrays the loop reads and writes, by their names there."""

    phase: NDArray[Any]
    black: NDArray[Any]
    white: NDArray[Any]
    out: NDArray[Any]
    in_round: NDArray[Any]
    matches_won: NDArray[Any]
    pot_black: NDArray[Any]
    pot_white: NDArray[Any]
    m: NDArray[Any]
    ante_due: NDArray[Any]
    token_holder: NDArray[Any]
    token_gold: NDArray[Any]
    first_player: NDArray[Any]
    winner: NDArray[Any]
    steps: NDArray[Any]
    dice: NDArray[Any]
    d12: NDArray[Any]
    must_reroll: NDArray[Any]
    faces: NDArray[Any]
    folded: NDArray[Any]
    bet: NDArray[Any]
    paid_black: NDArray[Any]
    paid_white: NDArray[Any]
    stage: NDArray[Any]
    first: NDArray[Any]
    queue: NDArray[Any]
    pos: NDArray[Any]
    raiser: NDArray[Any]
    opener: NDArray[Any]
    round_no: NDArray[Any]
    tiebreak: NDArray[Any]
    shown: NDArray[Any]
    shown_total: NDArray[Any]
    top: NDArray[Any]
    decisions: NDArray[Any]
    counts: NDArray[Any]


def advance(batch: Any, g: Ints) -> None:
    """Play the batch's own seats of games `g` on (see the module docstring)."""
    limit = -1 if batch.max_decisions is None else batch.max_decisions
    seed = int(batch.rng.integers(2**62))
    arrays = Arrays(*(getattr(batch, name) for name in Arrays._fields))
    _advance(g, batch.outside, limit, seed, LENGTHS[batch.length], batch.n, arrays)


@njit(cache=True)
def _advance(g, outside, limit, seed, length, n, a):  # type: ignore[no-untyped-def]
    np.random.seed(seed)
    for k in range(g.size):
        i = g[k]
        while True:
            p = a.phase[i]
            if p == OVER:
                break
            if p == OPENER:  # D3 option random: a die whose faces are the seats
                a.steps[i] += 1
                a.counts[i, FIRST] += 1
                a.first_player[i] = int(np.random.random() * n)
                a.round_no[i] = 0
                _start_match(i, n, a)
                continue
            if p == ROUND:  # the view's last round cleared, the opener found
                for s in range(n):
                    a.folded[i, s] = False
                    a.faces[i, s, 0] = a.faces[i, s, 1] = 0
                    a.dice[i, s] = a.d12[i, s] = 0
                a.stage[i] = 1
                a.opener[i] = _opener(i, n, a)
                if a.ante_due[i]:
                    _reset_bets(i, n, a)
                    a.phase[i] = ANTE
                    _line_up(i, n, a.opener[i], False, a)
                else:  # D9: the tie-break's pot is its ante
                    _throw_two_d6(i, n, a)
                    _start_betting(i, n, a)
                continue
            seat = (a.first[i] + a.pos[i]) % n
            if outside[seat] or (limit >= 0 and a.decisions[i] >= limit):
                break
            a.decisions[i] += 1
            a.steps[i] += 1
            have = a.black[i, seat] + a.white[i, seat]
            pay = a.m[i] if a.m[i] < have else have  # D2, D4: m, or all it has
            low = pay - a.black[i, seat] if pay > a.black[i, seat] else 0
            high = a.white[i, seat] if a.white[i, seat] < pay else pay
            if p == ANTE:  # D2: the fewest to the most white, uniformly
                paid = low + int(np.random.random() * (high - low + 1))
                _stake(i, seat, pay - paid, paid, a)
                a.counts[i, ANTE_EV] += 1
                if _next(i, a):
                    _throw_two_d6(i, n, a)
                    _start_betting(i, n, a)
                continue
            # D3, D4, D7: pass or raise low..high white; after the raise, call low..high or fold
            colours = high - low + 1
            reply = a.raiser[i] >= 0
            pick = int(np.random.random() * (colours + 1)) if reply or pay > 0 else 0
            if not reply:
                if pick == 0:
                    a.bet[i, seat] = PASS
                    a.counts[i, PASS_EV] += 1
                else:
                    paid = low + pick - 1
                    a.bet[i, seat] = RAISE
                    a.counts[i, RAISE_EV] += 1
                    a.counts[i, WHITE_BET] += paid > 0
                    _stake(i, seat, pay - paid, paid, a)
                    a.must_reroll[i, seat] = paid > 0  # D5: one reroll, however many white
                    a.raiser[i] = seat
                    _line_up(i, n, seat, True, a)
                    continue
            elif pick < colours:
                paid = low + pick
                a.bet[i, seat] = CALL
                a.counts[i, CALL_EV] += 1
                a.counts[i, WHITE_BET] += paid > 0
                a.counts[i, GRATIS] += pay == 0
                _stake(i, seat, pay - paid, paid, a)
                a.must_reroll[i, seat] = paid > 0
            else:
                a.bet[i, seat] = FOLD
                a.counts[i, FOLD_EV] += 1
                a.in_round[i, seat] = False
                a.folded[i, seat] = True
                a.must_reroll[i, seat] = False
                left, last = 0, -1
                for s in range(n):
                    if a.in_round[i, s]:
                        left += 1
                        last = s
                if left == 1:  # D7: everyone else folded
                    _take_pot(i, n, last, length, a)
                    continue
            if _next(i, a):
                _end_stage(i, n, length, a)


@njit(cache=True)
def _stake(i, seat, b, w, a):  # type: ignore[no-untyped-def]
    """Stones into the pot from one seat, counted as paid in this stage."""
    a.black[i, seat] -= b
    a.white[i, seat] -= w
    a.paid_black[i, seat] += b
    a.paid_white[i, seat] += w
    a.pot_black[i] += b
    a.pot_white[i] += w


@njit(cache=True)
def _next(i, a):  # type: ignore[no-untyped-def]
    """The next place in the order still to act; True if the order is done."""
    later = a.queue[i] >> (a.pos[i] + 1)
    if later == 0:
        return True
    place = a.pos[i] + 1
    while not later & 1:
        later >>= 1
        place += 1
    a.pos[i] = place
    return False


@njit(cache=True)
def _line_up(i, n, head, skip_first, a):  # type: ignore[no-untyped-def]
    """The seats in the round clockwise from `head` (without it, after a raise)."""
    a.first[i] = head
    bits = 0
    for k in range(n):
        if a.in_round[i, (head + k) % n] and not (skip_first and k == 0):
            bits |= 1 << k
    a.queue[i] = bits
    place = 0
    if bits:
        while not (bits >> place) & 1:
            place += 1
    a.pos[i] = place


@njit(cache=True)
def _opener(i, n, a):  # type: ignore[no-untyped-def]
    """D3: the token holder, else the first player; if not in the round, the next one in."""
    start = a.token_holder[i] if a.token_holder[i] >= 0 else a.first_player[i]
    for k in range(n):
        seat = (start + k) % n
        if a.in_round[i, seat]:
            return seat
    return start


@njit(cache=True)
def _reset_bets(i, n, a):  # type: ignore[no-untyped-def]
    for s in range(n):
        a.bet[i, s] = -1
        a.paid_black[i, s] = a.paid_white[i, s] = 0
        a.must_reroll[i, s] = False
    a.raiser[i] = -1


@njit(cache=True)
def _start_betting(i, n, a):  # type: ignore[no-untyped-def]
    """D3: a stage's betting, clockwise from the opener."""
    _reset_bets(i, n, a)
    a.opener[i] = _opener(i, n, a)
    a.phase[i] = BET
    _line_up(i, n, a.opener[i], False, a)


@njit(cache=True)
def _throw_two_d6(i, n, a):  # type: ignore[no-untyped-def]
    """D2: everyone in throws two d6, hidden."""
    for s in range(n):
        if a.in_round[i, s]:
            a.faces[i, s, 0] = 1 + int(np.random.random() * 6)
            a.faces[i, s, 1] = 1 + int(np.random.random() * 6)
            a.steps[i] += 1
            a.counts[i, THROW] += 1
        else:
            a.faces[i, s, 0] = a.faces[i, s, 1] = 0
        a.dice[i, s] = a.faces[i, s, 0] + a.faces[i, s, 1]


@njit(cache=True)
def _end_stage(i, n, length, a):  # type: ignore[no-untyped-def]
    """D5, D6: after a stage's betting, its rerolls; then the d12 and stage two's betting,
    or the showdown (D8, D9)."""
    one = a.stage[i] == 1
    for s in range(n):
        if a.must_reroll[i, s] and a.in_round[i, s]:
            a.steps[i] += 1
            if one:
                a.faces[i, s, 0] = 1 + int(np.random.random() * 6)
                a.faces[i, s, 1] = 1 + int(np.random.random() * 6)
                a.dice[i, s] = a.faces[i, s, 0] + a.faces[i, s, 1]
                a.counts[i, THROW] += 1
            else:
                a.d12[i, s] = 1 + int(np.random.random() * 12)
                a.counts[i, D12] += 1
        a.must_reroll[i, s] = False
    if one:  # D6: the d12 for all to see, then stage two's betting
        a.stage[i] = 2
        for s in range(n):
            if a.in_round[i, s]:
                a.d12[i, s] = 1 + int(np.random.random() * 12)
                a.steps[i] += 1
                a.counts[i, D12] += 1
            else:
                a.d12[i, s] = 0
        _start_betting(i, n, a)
        return
    a.counts[i, SHOWDOWN] += 1
    best = -1
    for s in range(n):
        total = a.dice[i, s] + a.d12[i, s] if a.in_round[i, s] else -1
        a.shown[i, s] = a.in_round[i, s]
        a.shown_total[i, s] = total if total > 0 else 0
        if total > best:
            best = total
    tied, winner_seat = 0, -1
    for s in range(n):
        a.top[i, s] = a.in_round[i, s] and a.dice[i, s] + a.d12[i, s] == best
        if a.top[i, s]:
            tied += 1
            winner_seat = s
    if tied == 1:
        _take_pot(i, n, winner_seat, length, a)
        return
    a.counts[i, TIE] += 1  # D9: the tied play a tie-break round, the pot their ante
    for s in range(n):
        a.in_round[i, s] = a.top[i, s]
    _mark_out(i, n, a)
    a.counts[i, ROUND_EV] += 1
    a.phase[i] = ROUND
    a.ante_due[i] = False
    a.tiebreak[i] += 1


@njit(cache=True)
def _take_pot(i, n, seat, length, a):  # type: ignore[no-untyped-def]
    """The pot to the winner of the round; D10: out, the end of the match, or a round."""
    a.counts[i, POT] += 1
    a.black[i, seat] += a.pot_black[i]
    a.white[i, seat] += a.pot_white[i]
    a.pot_black[i] = a.pot_white[i] = 0
    for s in range(n):
        a.in_round[i, s] = False
    _mark_out(i, n, a)
    if length == 0:  # research variant: the first pot ends the game
        a.winner[i] = seat
        a.phase[i] = OVER
        return
    holders = 0
    for s in range(n):
        holders += not a.out[i, s]
    if holders == 1:  # D12: the token moves to the winner, turns gold, or wins the game
        a.counts[i, MATCH_WON] += 1
        a.matches_won[i, seat] += 1
        lacks = a.token_holder[i] != seat
        turns = not lacks and not a.token_gold[i] and n > 2
        if lacks:
            a.token_holder[i] = seat
            a.token_gold[i] = False
        if turns:
            a.token_gold[i] = True
        a.counts[i, TOKEN] += lacks or turns
        if length == 1:
            won = True
        elif length == 2:
            won = a.matches_won[i, seat] == 2
        else:
            won = not lacks and not turns
        if won:
            a.winner[i] = seat
            a.phase[i] = OVER
            return
        a.round_no[i] = 0
        _start_match(i, n, a)
        return
    for s in range(n):
        a.in_round[i, s] = not a.out[i, s]
    a.counts[i, ROUND_EV] += 1
    a.phase[i] = ROUND
    a.ante_due[i] = True
    a.round_no[i] += 1
    a.tiebreak[i] = 0


@njit(cache=True)
def _mark_out(i, n, a):  # type: ignore[no-untyped-def]
    """D10, D11: a seat not in the round with no stones is out; m follows the outs."""
    outs = 0
    for s in range(n):
        if not a.out[i, s] and not a.in_round[i, s] and a.black[i, s] + a.white[i, s] == 0:
            a.out[i, s] = True
            a.counts[i, OUT] += 1
        outs += a.out[i, s]
    if n >= 4:
        a.m[i] = 1 + outs // 2


@njit(cache=True)
def _start_match(i, n, a):  # type: ignore[no-untyped-def]
    """D1: four black and two white stones each; everyone is in; the first round."""
    a.counts[i, MATCH] += 1
    for s in range(n):
        a.black[i, s] = START_BLACK
        a.white[i, s] = START_WHITE
        a.out[i, s] = False
        a.in_round[i, s] = True
    a.m[i] = 1
    a.counts[i, ROUND_EV] += 1
    a.phase[i] = ROUND
    a.ante_due[i] = True
    a.round_no[i] += 1
    a.tiebreak[i] = 0
