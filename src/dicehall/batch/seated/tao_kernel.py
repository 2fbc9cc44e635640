# mypy: disable-error-code="no-untyped-def,no-untyped-call"
# (Numba types the loop and its inner functions from their arguments when it compiles them.)
"""Tao Dice's seated batch: its own random seats played game by game (`compiled`).

Here a vector step at four seats takes a dozen passes or more: each of three
opponents' antes and bets, the stages, the rounds and the rounds the learning
seat sits out, most of them for a few games. The loop plays the handlers of
`TaoSeated` (antes, bets, rerolls, the d12, showdowns, pots, outs, matches and
the token) for one game at a time.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit
from numpy.typing import NDArray

from dicehall.batch.base import Ints
from dicehall.batch.seated import compiled
from dicehall.batch.seated.draws import choose
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


def advance(batch: Any, g: Ints, given: Ints | None = None) -> None:
    """Play games `g` on (`compiled`), each first with the outside seat's choice `given`."""
    length = LENGTHS[batch.length]
    _advance(*compiled.arguments(batch, g, given, Arrays), length, batch.n)


@njit(cache=True)
def _advance(g, given, outside, limit, rng, arrays, length, n):
    (
        phase, black, white, out, in_round, matches_won, pot_black, pot_white, m, ante_due,
        token_holder, token_gold, first_player, winner, steps, dice, d12, must_reroll, faces,
        folded, bet, paid_black, paid_white, stage, first, queue, pos, raiser, opener, round_no,
        tiebreak, shown, shown_total, top, decisions, counts,
    ) = arrays  # fmt: skip
    chosen = np.full(1, -1)
    """The outside seat's choice in the game being played, until it is taken (`choose`)."""

    def stake(i, seat, b, w):
        """Stones into the pot from one seat, counted as paid in this stage."""
        black[i, seat] -= b
        white[i, seat] -= w
        paid_black[i, seat] += b
        paid_white[i, seat] += w
        pot_black[i] += b
        pot_white[i] += w

    def next_place(i):
        """The next place in the order still to act; True if the order is done."""
        later = queue[i] >> (pos[i] + 1)
        if later == 0:
            return True
        place = pos[i] + 1
        while not later & 1:
            later >>= 1
            place += 1
        pos[i] = place
        return False

    def line_up(i, head, skip_first):
        """The seats in the round clockwise from `head` (without it, after a raise)."""
        first[i] = head
        bits = 0
        for k in range(n):
            if in_round[i, (head + k) % n] and not (skip_first and k == 0):
                bits |= 1 << k
        queue[i] = bits
        place = 0
        if bits:
            while not (bits >> place) & 1:
                place += 1
        pos[i] = place

    def find_opener(i):
        """D3: the token holder, else the first player; if not in the round, the next one in."""
        start = token_holder[i] if token_holder[i] >= 0 else first_player[i]
        for k in range(n):
            seat = (start + k) % n
            if in_round[i, seat]:
                return seat
        return start

    def reset_bets(i):
        for s in range(n):
            bet[i, s] = -1
            paid_black[i, s] = paid_white[i, s] = 0
            must_reroll[i, s] = False
        raiser[i] = -1

    def start_betting(i):
        """D3: a stage's betting, clockwise from the opener."""
        reset_bets(i)
        opener[i] = find_opener(i)
        phase[i] = BET
        line_up(i, opener[i], False)

    def throw_two_d6(i):
        """D2: everyone in throws two d6, hidden."""
        for s in range(n):
            if in_round[i, s]:
                faces[i, s, 0] = 1 + int(rng.random() * 6)
                faces[i, s, 1] = 1 + int(rng.random() * 6)
                steps[i] += 1
                counts[i, THROW] += 1
            else:
                faces[i, s, 0] = faces[i, s, 1] = 0
            dice[i, s] = faces[i, s, 0] + faces[i, s, 1]

    def mark_out(i):
        """D10, D11: a seat not in the round with no stones is out; m follows the outs."""
        outs = 0
        for s in range(n):
            if not out[i, s] and not in_round[i, s] and black[i, s] + white[i, s] == 0:
                out[i, s] = True
                counts[i, OUT] += 1
            outs += out[i, s]
        if n >= 4:
            m[i] = 1 + outs // 2

    def start_match(i):
        """D1: four black and two white stones each; everyone is in; the first round."""
        counts[i, MATCH] += 1
        for s in range(n):
            black[i, s] = START_BLACK
            white[i, s] = START_WHITE
            out[i, s] = False
            in_round[i, s] = True
        m[i] = 1
        counts[i, ROUND_EV] += 1
        phase[i] = ROUND
        ante_due[i] = True
        round_no[i] += 1
        tiebreak[i] = 0

    def take_pot(i, seat):
        """The pot to the winner of the round; D10: out, the end of the match, or a round."""
        counts[i, POT] += 1
        black[i, seat] += pot_black[i]
        white[i, seat] += pot_white[i]
        pot_black[i] = pot_white[i] = 0
        for s in range(n):
            in_round[i, s] = False
        mark_out(i)
        if length == 0:  # research variant: the first pot ends the game
            winner[i] = seat
            phase[i] = OVER
            return
        holders = 0
        for s in range(n):
            holders += not out[i, s]
        if holders == 1:  # D12: the token moves to the winner, turns gold, or wins the game
            counts[i, MATCH_WON] += 1
            matches_won[i, seat] += 1
            lacks = token_holder[i] != seat
            turns = not lacks and not token_gold[i] and n > 2
            if lacks:
                token_holder[i] = seat
                token_gold[i] = False
            if turns:
                token_gold[i] = True
            counts[i, TOKEN] += lacks or turns
            if length == 1:
                won = True
            elif length == 2:
                won = matches_won[i, seat] == 2
            else:
                won = not lacks and not turns
            if won:
                winner[i] = seat
                phase[i] = OVER
                return
            round_no[i] = 0
            start_match(i)
            return
        for s in range(n):
            in_round[i, s] = not out[i, s]
        counts[i, ROUND_EV] += 1
        phase[i] = ROUND
        ante_due[i] = True
        round_no[i] += 1
        tiebreak[i] = 0

    def end_stage(i):
        """D5, D6: after a stage's betting, its rerolls; then the d12 and stage two's betting,
        or the showdown (D8, D9)."""
        one = stage[i] == 1
        for s in range(n):
            if must_reroll[i, s] and in_round[i, s]:
                steps[i] += 1
                if one:
                    faces[i, s, 0] = 1 + int(rng.random() * 6)
                    faces[i, s, 1] = 1 + int(rng.random() * 6)
                    dice[i, s] = faces[i, s, 0] + faces[i, s, 1]
                    counts[i, THROW] += 1
                else:
                    d12[i, s] = 1 + int(rng.random() * 12)
                    counts[i, D12] += 1
            must_reroll[i, s] = False
        if one:  # D6: the d12 for all to see, then stage two's betting
            stage[i] = 2
            for s in range(n):
                if in_round[i, s]:
                    d12[i, s] = 1 + int(rng.random() * 12)
                    steps[i] += 1
                    counts[i, D12] += 1
                else:
                    d12[i, s] = 0
            start_betting(i)
            return
        counts[i, SHOWDOWN] += 1
        best = -1
        for s in range(n):
            total = dice[i, s] + d12[i, s] if in_round[i, s] else -1
            shown[i, s] = in_round[i, s]
            shown_total[i, s] = total if total > 0 else 0
            if total > best:
                best = total
        tied, winner_seat = 0, -1
        for s in range(n):
            top[i, s] = in_round[i, s] and dice[i, s] + d12[i, s] == best
            if top[i, s]:
                tied += 1
                winner_seat = s
        if tied == 1:
            take_pot(i, winner_seat)
            return
        counts[i, TIE] += 1  # D9: the tied play a tie-break round, the pot their ante
        for s in range(n):
            in_round[i, s] = top[i, s]
        mark_out(i)
        counts[i, ROUND_EV] += 1
        phase[i] = ROUND
        ante_due[i] = False
        tiebreak[i] += 1

    for k in range(g.size):
        i, chosen[0] = g[k], given[k]
        while phase[i] != OVER:
            p = phase[i]
            if p == OPENER:  # D3 option random: a die whose faces are the seats
                steps[i] += 1
                counts[i, FIRST] += 1
                first_player[i] = int(rng.random() * n)
                round_no[i] = 0
                start_match(i)
                continue
            if p == ROUND:  # the view's last round cleared, the opener found
                for s in range(n):
                    folded[i, s] = False
                    faces[i, s, 0] = faces[i, s, 1] = 0
                    dice[i, s] = d12[i, s] = 0
                stage[i] = 1
                opener[i] = find_opener(i)
                if ante_due[i]:
                    reset_bets(i)
                    phase[i] = ANTE
                    line_up(i, opener[i], False)
                else:  # D9: the tie-break's pot is its ante
                    throw_two_d6(i)
                    start_betting(i)
                continue
            seat = (first[i] + pos[i]) % n
            if chosen[0] < 0 and (outside[seat] or (limit >= 0 and decisions[i] >= limit)):
                break
            decisions[i] += 1
            steps[i] += 1
            have = black[i, seat] + white[i, seat]
            pay = m[i] if m[i] < have else have  # D2, D4: m, or all it has
            low = pay - black[i, seat] if pay > black[i, seat] else 0
            high = white[i, seat] if white[i, seat] < pay else pay
            if p == ANTE:  # D2: the fewest to the most white, uniformly
                paid = low + choose(rng, chosen, high - low + 1)
                stake(i, seat, pay - paid, paid)
                counts[i, ANTE_EV] += 1
                if next_place(i):
                    throw_two_d6(i)
                    start_betting(i)
                continue
            # D3, D4, D7: pass or raise low..high white; after the raise, call low..high or fold
            colours = high - low + 1
            reply = raiser[i] >= 0
            pick = choose(rng, chosen, colours + 1 if reply or pay > 0 else 1)
            if not reply:
                if pick == 0:
                    bet[i, seat] = PASS
                    counts[i, PASS_EV] += 1
                else:
                    paid = low + pick - 1
                    bet[i, seat] = RAISE
                    counts[i, RAISE_EV] += 1
                    counts[i, WHITE_BET] += paid > 0
                    stake(i, seat, pay - paid, paid)
                    must_reroll[i, seat] = paid > 0  # D5: one reroll, however many white
                    raiser[i] = seat
                    line_up(i, seat, True)
                    continue
            elif pick < colours:
                paid = low + pick
                bet[i, seat] = CALL
                counts[i, CALL_EV] += 1
                counts[i, WHITE_BET] += paid > 0
                counts[i, GRATIS] += pay == 0
                stake(i, seat, pay - paid, paid)
                must_reroll[i, seat] = paid > 0
            else:
                bet[i, seat] = FOLD
                counts[i, FOLD_EV] += 1
                in_round[i, seat] = False
                folded[i, seat] = True
                must_reroll[i, seat] = False
                left, last = 0, -1
                for s in range(n):
                    if in_round[i, s]:
                        left += 1
                        last = s
                if left == 1:  # D7: everyone else folded
                    take_pot(i, last)
                    continue
            if next_place(i):
                end_stage(i)
