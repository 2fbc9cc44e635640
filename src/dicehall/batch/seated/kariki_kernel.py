# mypy: disable-error-code="no-untyped-def,no-untyped-call"
# (Numba types the loop and its inner functions from their arguments when it compiles them.)
"""Kariki's seated batch: its own random seats played game by game (`compiled`).

Between two of the learner's decisions the others throw, claim, roll, pull
or pass, and the berries, crowns and emergency berries that follow take
their own passes. The loop plays the handlers of `KarikiBatch` and
`KarikiSeated` (the roll-off, the direction, throws, claims, responses,
berries, going out and K9's queue) for one game at a time.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit
from numpy.typing import NDArray

from dicehall.batch.base import Ints
from dicehall.batch.kariki import (
    BERRIES_OUT,
    BERRIES_POO,
    CLAIM,
    DIRECTION,
    DOUBLE_SIXES,
    EMERGENCY,
    EVENTS,
    KARIKI,
    OVER,
    RANKS,
    RESPOND,
    ROLL_OFF,
    THROW,
)
from dicehall.batch.seated import compiled
from dicehall.batch.seated.draws import choose, roll_off

(
    KARIKI_EV, THIRD_CROWN, NO_KARIKI, CLAIM_EV, ROLL_EV, PASS_EV, PULL_EV, PULL_TRUE, BERRY,
    BERRY_KARIKI, BERRY_THIRD_CROWN, BERRY_NO_KARIKI, BERRY_CAUGHT_LYING,
    BERRY_FALSE_ACCUSATION, POO, OUT, EMERGENCY_EV, ROLL_OFF_TIE,
) = range(len(EVENTS))  # fmt: skip
"""The columns of the batch's event counts (`Seated.counts`), in `EVENTS` order."""
assert EVENTS[BERRY_FALSE_ACCUSATION] == "berry false-accusation"
assert EVENTS[ROLL_OFF_TIE] == "roll-off-tie"


class Arrays(NamedTuple):
    """The seated batch's arrays the loop reads and writes, by their names there."""

    phase: NDArray[Any]
    steps: NDArray[Any]
    contenders: NDArray[Any]
    step: NDArray[Any]
    berries: NDArray[Any]
    crowns: NDArray[Any]
    out: NDArray[Any]
    in_count: NDArray[Any]
    emergency_used: NDArray[Any]
    paid: NDArray[Any]
    pot: NDArray[Any]
    roller: NDArray[Any]
    dice_rank: NDArray[Any]
    claim: NDArray[Any]
    owner: NDArray[Any]
    responder: NDArray[Any]
    passed: NDArray[Any]
    nxt: NDArray[Any]
    pending: NDArray[Any]
    queued: NDArray[Any]
    beginner: NDArray[Any]
    previous: NDArray[Any]
    dice: NDArray[Any]
    shown_pull: NDArray[Any]
    shown: NDArray[Any]
    shown_kariki: NDArray[Any]
    decisions: NDArray[Any]
    counts: NDArray[Any]


def advance(batch: Any, g: Ints, given: Ints | None = None) -> None:
    """Play games `g` on (`compiled`), each first with the outside seat's choice `given`."""
    options = (batch.at_least, batch.after_kariki_roller, batch.high_rollers)
    _advance(*compiled.arguments(batch, g, given, Arrays), options, RANKS)


@njit(cache=True)
def _advance(g, given, outside, limit, rng, arrays, options, ranks):
    at_least, after_kariki_roller, high_rollers = options
    (
        phase, steps, contenders, step, berries, crowns, out, in_count, emergency_used, paid,
        pot, roller, dice_rank, claim, owner, responder, passed, nxt, pending, queued,
        beginner, previous, dice, shown_pull, shown, shown_kariki, decisions, counts,
    ) = arrays  # fmt: skip
    n = out.shape[1]
    faces = np.zeros(n, dtype=np.int64)
    chosen = np.full(1, -1)
    """The outside seat's choice in the game being played, until it is taken (`choose`)."""

    def go_out(i, seat):
        """Out (C2): whoever handed on to the seat hands on to its successor."""
        out[i, seat] = True
        in_count[i] -= 1
        counts[i, OUT] += 1
        after = nxt[i, seat]
        for s in range(n):
            if nxt[i, s] == seat:
                nxt[i, s] = after

    def berry(i, seat, why):
        """One berry (K7); a fifth puts the seat out or in K9's queue."""
        count = berries[i, seat] + 1
        if count > BERRIES_OUT:  # already about to go out: nothing more
            return
        berries[i, seat] = count
        counts[i, why] += 1
        if count == BERRIES_POO:
            counts[i, POO] += 1
        if count == BERRIES_OUT:
            if high_rollers and not emergency_used[i, seat]:
                queued[i] += 1
                pending[i, seat] = queued[i]
            else:
                go_out(i, seat)

    def begin_after_berries(i, first):
        """K9's choices first; then the game ends or `first` (or the next in, C2) throws."""
        if high_rollers:
            for s in range(n):
                if pending[i, s] > 0:
                    beginner[i] = first
                    phase[i] = EMERGENCY
                    return
        dice_rank[i] = claim[i] = previous[i] = -1
        owner[i] = responder[i] = -1
        passed[i] = 0
        if in_count[i] == 1:
            phase[i] = OVER
            roller[i] = -1
            return
        roller[i] = nxt[i, first] if out[i, first] else first
        phase[i] = THROW

    def kariki(i, thrower):
        """K3: a crown, a berry for the next player, and every third crown one for all
        others who were in, in play order; the Kariki is the last dice shown."""
        victim = nxt[i, thrower]
        shown[i, 0], shown[i, 1], shown[i, 2] = 1, 2, thrower
        shown[i, 3] = shown[i, 4] = shown[i, 5] = -1
        shown[i, 6] = victim
        shown_kariki[i] = True
        shown_pull[i] = False
        counts[i, KARIKI_EV] += 1
        was_in = 0
        for s in range(n):
            if not out[i, s]:
                was_in |= 1 << s
        crowns[i, thrower] += 1
        berry(i, victim, BERRY_KARIKI)
        if crowns[i, thrower] % 3 == 0:
            counts[i, THIRD_CROWN] += 1
            for k in range(1, n):
                seat = (thrower + step[i] * k) % n
                if (was_in >> seat) & 1:
                    berry(i, seat, BERRY_THIRD_CROWN)
        begin_after_berries(i, thrower if after_kariki_roller else victim)

    def pull(i, puller):
        """K5: lift the mug; the loser gets the berry, the other begins a fresh roll."""
        shown_kariki[i] = False
        true = dice_rank[i] >= claim[i] if at_least else dice_rank[i] == claim[i]
        counts[i, PULL_EV] += 1
        counts[i, PULL_TRUE] += true
        loser = puller if true else owner[i]
        first = owner[i] if true else puller
        shown_pull[i] = True
        shown[i, 0], shown[i, 1], shown[i, 2] = dice[i, 0], dice[i, 1], roller[i]
        shown[i, 3], shown[i, 4] = claim[i], previous[i]
        shown[i, 5], shown[i, 6] = puller, loser
        berry(i, loser, BERRY_FALSE_ACCUSATION if true else BERRY_CAUGHT_LYING)
        begin_after_berries(i, first)

    for k in range(g.size):
        i, chosen[0] = g[k], given[k]
        while phase[i] != OVER:
            p = phase[i]
            if p == ROLL_OFF:  # C5: one die per contender; those tied for highest again
                roll_off(
                    rng, i, faces, contenders, steps, roller, phase, counts, DIRECTION, ROLL_OFF_TIE
                )
                continue
            if p == THROW:  # K3, K5: a Kariki is shown; over Double Sixes anything else loses
                steps[i] += 1
                d1 = 1 + int(rng.random() * 6)
                d2 = 1 + int(rng.random() * 6)
                rank = ranks[d1 * 7 + d2]
                thrower = roller[i]
                if rank == KARIKI:
                    kariki(i, thrower)
                elif claim[i] == DOUBLE_SIXES:
                    after = nxt[i, thrower]
                    counts[i, NO_KARIKI] += 1
                    berry(i, thrower, BERRY_NO_KARIKI)
                    begin_after_berries(i, after)
                else:
                    dice_rank[i] = rank
                    dice[i, 0] = d1
                    dice[i, 1] = d2
                    phase[i] = CLAIM
                continue
            # the seat to decide: the responder, K9's first in the queue, or the roller
            seat = responder[i] if p == RESPOND else roller[i]
            if p == EMERGENCY:
                seat, place = -1, 0
                for s in range(n):
                    if pending[i, s] > 0 and (seat < 0 or pending[i, s] < place):
                        seat, place = s, pending[i, s]
            if chosen[0] < 0 and (outside[seat] or (limit >= 0 and decisions[i] >= limit)):
                break
            decisions[i] += 1
            steps[i] += 1
            if p == DIRECTION:  # K1: the first roller sends play left or right
                step[i] = 1 if choose(rng, chosen, 2) == 0 else -1
                phase[i] = THROW
                for s in range(n):
                    nxt[i, s] = (s + step[i]) % n
            elif p == CLAIM:  # K4: any rank strictly above the claim it follows, never Kariki
                counts[i, CLAIM_EV] += 1
                previous[i] = claim[i]
                claim[i] += 1 + choose(rng, chosen, DOUBLE_SIXES - claim[i])
                owner[i] = seat
                passed[i] = 0
                responder[i] = nxt[i, seat]
                phase[i] = RESPOND
            elif p == RESPOND:  # K5, K6: roll higher, pull or pass
                thrower = seat == roller[i]
                count = 2 if thrower or (passed[i] >> seat) & 1 else 3
                pick = choose(rng, chosen, count) + (1 if thrower else 0)
                if pick == 0:
                    counts[i, ROLL_EV] += 1
                    roller[i] = seat
                    dice_rank[i] = -1
                    phase[i] = THROW
                elif pick == 2:
                    counts[i, PASS_EV] += 1
                    passed[i] |= 1 << seat
                    owner[i] = seat
                    responder[i] = nxt[i, seat]
                else:
                    pull(i, seat)
            else:  # K9: buy an emergency berry for the pot's sum, or go out
                pending[i, seat] = 0
                if choose(rng, chosen, 2) == 0:
                    counts[i, EMERGENCY_EV] += 1
                    paid[i, seat] += pot[i]
                    pot[i] *= 2
                    berries[i, seat] = BERRIES_POO
                    emergency_used[i, seat] = True
                else:
                    go_out(i, seat)
                waiting = False
                for s in range(n):
                    waiting |= pending[i, s] > 0
                if not waiting:
                    begin_after_berries(i, beginner[i])
