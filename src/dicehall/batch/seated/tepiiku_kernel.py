# mypy: disable-error-code="no-untyped-def,no-untyped-call"
# (Numba types the loop and its inner functions from their arguments when it compiles them.)
"""Tepiiku's seated batch: its own random seats played game by game (`compiled`).

Between two of the learner's decisions the others' thumbs, the tie rerolls,
each choice of a Fish, each forced reroll and the next round's throws take a
pass apiece, most of them for a few games. The loop plays the handlers of
`TepiikuBatch` and `TepiikuSeated` (thumbs, ties, roles, the Fish's pay or
reroll, forced rerolls, payments and rounds) for one game at a time, and keeps
an outside seat's simultaneous choice (C3) until every outside seat has made
its own, as `TepiikuSeated` does.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit
from numpy.typing import NDArray

from dicehall.batch.base import Ints
from dicehall.batch.seated import compiled
from dicehall.batch.seated.draws import choose
from dicehall.batch.seated.tepiiku import PAID
from dicehall.batch.tepiiku import (
    BET,
    DICE,
    EVENTS,
    FISH,
    FORCED,
    KEPT,
    OUTCOMES,
    OVER,
    PAY,
    ROLLED,
    SCORES,
    SEATS,
    TIES,
)
from dicehall.games.tepiiku.rules import SUBSETS

(
    ROUND, THUMBS_UP, TIES_EV, CHOICE, REROLL, BUST_EV, STILL_EV, TIE_EV, BEAT_EV, SETTLED_EV,
    PAY_EV,
) = range(len(EVENTS))  # fmt: skip
"""The columns of the batch's event counts (`Seated.counts`), in `EVENTS` order."""
assert EVENTS[BUST_EV] == "outcome bust" and EVENTS[PAY_EV] == "pay"
STILL, TIE, BEAT, SETTLED = (OUTCOMES.index(k) for k in ("still", "tie", "beat", "settled"))
"""What settled, as the view's last kind (`TepiikuSeated.last_kind`; a payment is PAID)."""
HANDS = 6**DICE
REROLLS = len(SUBSETS)


class Arrays(NamedTuple):
    """The seated batch's arrays the loop reads and writes, by their names there."""

    phase: NDArray[Any]
    steps: NDArray[Any]
    coins: NDArray[Any]
    hands: NDArray[Any]
    scores: NDArray[Any]
    pot: NDArray[Any]
    tied: NDArray[Any]
    fish: NDArray[Any]
    middle: NDArray[Any]
    hook: NDArray[Any]
    forced: NDArray[Any]
    committed: NDArray[Any]
    chosen: NDArray[Any]
    up: NDArray[Any]
    last_kind: NDArray[Any]
    last_seat: NDArray[Any]
    last_before: NDArray[Any]
    last_after: NDArray[Any]
    last_hook: NDArray[Any]
    last_amount: NDArray[Any]
    decisions: NDArray[Any]
    counts: NDArray[Any]


def advance(batch: Any, g: Ints, given: Ints | None = None) -> None:
    """Play games `g` on (`compiled`), each first with the outside seat's choice `given`."""
    _advance(*compiled.arguments(batch, g, given, Arrays), SCORES, KEPT, ROLLED)


@njit(cache=True)
def _advance(g, given, outside, limit, rng, arrays, table, kept, rolled):
    (
        phase, steps, coins, hands, scores, pot, tied, fish, middle, hook, forced, committed,
        held, up, last_kind, last_seat, last_before, last_after, last_hook, last_amount,
        decisions, counts,
    ) = arrays  # fmt: skip
    # (`held`: the batch's `chosen`, the outside seats' simultaneous choices, C3)
    chosen = np.full(1, -1)
    """The outside seat's choice in the game being played, until it is taken (`choose`)."""
    picks = np.zeros(SEATS, dtype=np.int64)
    """A tie's rerolls, every one chosen before any is thrown (C3)."""

    def start_round(i):
        """T10: every seat throws in secret, one step each."""
        counts[i, ROUND] += 1
        for s in range(SEATS):
            hand = int(rng.random() * HANDS)
            hands[i, s] = hand
            scores[i, s] = table[hand]
        steps[i] += SEATS
        phase[i] = BET

    def reroll(i, seat, which):
        """The kept part of the old hand and the rerolled part of a fresh throw."""
        at = which * HANDS
        hand = kept[at + hands[i, seat]] + rolled[at + int(rng.random() * HANDS)]
        hands[i, seat] = hand
        scores[i, seat] = table[hand]

    def assign_roles(i):
        """T7: lowest the Fish, highest the Hook (the three scores differ here)."""
        low = high = 0
        for s in range(1, SEATS):
            if scores[i, s] < scores[i, low]:
                low = s
            if scores[i, s] > scores[i, high]:
                high = s
        fish[i], middle[i], hook[i] = low, SEATS - low - high, high
        phase[i] = FISH

    def resolve_ties(i):
        """T6: every seat whose score equals another's rerolls; else roles (T7)."""
        s0, s1, s2 = scores[i, 0], scores[i, 1], scores[i, 2]
        tied[i, 0] = s0 in (s1, s2)
        tied[i, 1] = s1 in (s0, s2)
        tied[i, 2] = s2 in (s0, s1)
        if tied[i, 0] or tied[i, 1] or tied[i, 2]:
            counts[i, TIES_EV] += 1
            phase[i] = TIES
        else:
            assign_roles(i)

    def settled(i, kind, seat, old):
        """A reroll's outcome, kept as the last thing settled."""
        last_kind[i] = kind
        last_seat[i] = seat
        last_before[i] = old
        last_after[i] = scores[i, seat]

    def pay(i, due):
        """T9, T3: the Fish pays the Hook, at most what it has; then T4 or a new round."""
        payer, taker = fish[i], hook[i]
        has = coins[i, payer]
        amount = due if due < has else has
        coins[i, payer] -= amount
        coins[i, taker] += amount
        counts[i, PAY_EV] += 1
        last_kind[i] = PAID
        last_seat[i] = payer
        last_hook[i] = taker
        last_amount[i] = amount
        if amount == has:
            phase[i] = OVER
        else:
            start_round(i)

    def bet(i):
        """T5: all three thumbs (three steps), the outside seats' as committed."""
        steps[i] += SEATS
        thumbs = 0
        for s in range(SEATS):
            if outside[s]:
                thumb = held[i, s] == 1
            else:
                decisions[i] += 1
                thumb = choose(rng, chosen, 2) == 1
            up[i, s] = thumb
            thumbs += thumb
            committed[i, s] = False
        pot[i] = 1 + thumbs
        counts[i, THUMBS_UP] += thumbs
        resolve_ties(i)

    def ties(i):
        """T6 with C3: every tied seat chooses dice, then all of them are thrown."""
        count = 0
        for s in range(SEATS):
            if tied[i, s]:
                count += 1
                if outside[s]:
                    picks[s] = held[i, s]
                else:
                    decisions[i] += 1
                    picks[s] = choose(rng, chosen, REROLLS)
        steps[i] += 2 * count  # a choice and a throw per tied seat
        counts[i, CHOICE] += count
        for s in range(SEATS):
            if tied[i, s]:
                reroll(i, s, picks[s])
            committed[i, s] = False
        resolve_ties(i)

    def fish_step(i):
        """T7, T8: the Fish pays the pot, or rerolls: bust, still the Fish, tie or beat."""
        seat = fish[i]
        choice = choose(rng, chosen, 1 + REROLLS) - 1
        steps[i] += 1
        if choice == PAY:
            pay(i, pot[i])
            return
        steps[i] += 1
        counts[i, REROLL] += 1
        old = scores[i, seat]
        reroll(i, seat, choice)
        new = scores[i, seat]
        in_middle, at_hook = scores[i, middle[i]], scores[i, hook[i]]
        if new <= old:  # a bust's payment is what settles it
            counts[i, BUST_EV] += 1
            pay(i, 2 * pot[i])
        elif new < in_middle:
            counts[i, STILL_EV] += 1
            settled(i, STILL, seat, old)
            pot[i] += 1
        elif new in (in_middle, at_hook):  # passing the middle to tie the Hook: once
            counts[i, TIE_EV] += 1
            settled(i, TIE, seat, old)
            pot[i] *= 2
            forced[i] = middle[i] if new == in_middle else hook[i]
            phase[i] = FORCED
        else:
            counts[i, BEAT_EV] += 1
            settled(i, BEAT, seat, old)
            pot[i] *= 2
            assign_roles(i)

    def forced_step(i):
        """T8: the tied player rerolls; never a bust nor + 1; a new tie doubles again."""
        steps[i] += 2
        counts[i, REROLL] += 1
        seat = forced[i]
        old = scores[i, seat]
        reroll(i, seat, choose(rng, chosen, REROLLS))
        new = scores[i, seat]
        other = -1
        for s in range(SEATS):
            if other < 0 and s != seat and scores[i, s] == new:
                other = s
        if other >= 0:
            settled(i, TIE, seat, old)
            counts[i, TIE_EV] += 1
            pot[i] *= 2
            forced[i] = other
        else:
            settled(i, SETTLED, seat, old)
            counts[i, SETTLED_EV] += 1
            assign_roles(i)

    for k in range(g.size):
        i, chosen[0] = g[k], given[k]
        while phase[i] != OVER:
            p = phase[i]
            if p in (BET, TIES):  # C3: the outside seats' choices kept until all are in
                due = -1  # the first outside seat still to choose, in seat order
                for s in range(SEATS):
                    if due < 0 and outside[s] and not committed[i, s] and (p == BET or tied[i, s]):
                        due = s
                if chosen[0] >= 0:
                    seat = due if due >= 0 else 0
                    committed[i, seat] = True
                    held[i, seat] = chosen[0]
                    chosen[0] = -1
                    decisions[i] += 1
                    continue
                if due >= 0 or (limit >= 0 and decisions[i] >= limit):
                    break
                if p == BET:
                    bet(i)
                else:
                    ties(i)
                continue
            seat = fish[i] if p == FISH else forced[i]
            if chosen[0] < 0 and (outside[seat] or (limit >= 0 and decisions[i] >= limit)):
                break
            decisions[i] += 1
            if p == FISH:
                fish_step(i)
            else:
                forced_step(i)
