"""Toplshteyner's throws as a chain on tables: what its seated batch walks between decisions.

Between two decisions of the outside seats, only the dice and the batch's own
seats act, and a throw's consequence depends on little: the turn (the point,
which of Snake Eyes, Threes and High Fives it has seen) and a few facts of the
table (the roller's lives, whether the pot holds a stake, how many others are
in, who plays the roller). So a throw is one lookup in a table of such
states, and what it does to the lives (a life lost, back from the pot, bought,
an election, the dice passed on) a second lookup in a table of the lives of
every seat (`Chain`). The seated batch (`ToplshteynerSeated._walk`) walks
`COLUMNS` throws per game in one pass, eight NumPy operations a throw for
all its games at once, and reads everything else the views show (this turn's
throws, the last one, how the last turn ended, the lives bought and won back)
from the pass's columns at once after. (Where no seat of the batch's own plays
the heuristic, its compiled loop, `toplshteyner_kernel`, plays instead: the
chain serves heuristic seats, and installs without Numba.)

The tables are the rules of `dicehall.batch.toplshteyner` (P1-P10), which
`tests/batch/` checks against the engine, written per state instead of per
array: the same throws, the same consequences in the same order.

A batch's own random seat choosing whom to elect, or whether to buy, takes the
next number drawn as its choice (one of 36, uniform, modulo the number of
choices: 2 or 3 at up to four seats, both dividing 36), so its choice is
uniform and independent of the throws, as the batch's own. The heuristic
seat's election is the bot's own `elect`, looked up per position
(`ToplshteynerBatch._heuristic_targets`); it always buys.

Only tables of up to `MAX_SEATS` seats are built (5 ** seats lives a state);
larger tables play the batch's own passes.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from functools import cache

import numpy as np
from numpy.typing import NDArray

from dicehall.games.toplshteyner.rules import TURN_END_WORDS

Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]

MAX_SEATS = 4
START, MAX_LIVES = 3, 4
ENDS = {why: i for i, why in enumerate(TURN_END_WORDS)}
NORMAL, PEND_ELECT, PEND_BUY, STOP_ELECT, STOP_BUY = range(5)
"""A turn state's mode: throwing; a batch seat's choice (whom to elect, whether to buy)
taken from the next number drawn; stopped for an outside seat's election or purchase."""
OUTSIDE, RANDOM, HEURISTIC = range(3)
"""Who plays the roller."""
NONE, END, LOSE1, LOSE1_END, LOSE_ALL, BACK, BACK_END, BUY, BUY_END, ELECT_H = range(10)
ELECT_J = 10
"""What a throw does to the lives and the roller (`ELECT_J + j`: the roller elects the
j-th other player still in, in seat order). An END passes the dice on, and a roller
with no life left is out: the dice pass on, or the last one in wins."""
EVENTS = ELECT_J + MAX_SEATS - 1
SHIFT = 4
MASK = (1 << SHIFT) - 1
"""A lives state's key is its index << SHIFT: plus an event (below 1 << SHIFT), the key
of the next one's table entry."""
ENDED, THROWN, DECIDED, BOUGHT, WON_BACK = 1, 2, 4, 64, 128
RARE = DECIDED | BOUGHT | WON_BACK

Turn = tuple[int, int, bool, bool, bool]
"""(mode, point, snake eyes seen, threes seen, high fives seen)."""
CLEAN: Turn = (NORMAL, 0, False, False, False)
Outcome = tuple[Turn, int, int, bool, bool, bool]
"""What a number drawn does: the turn after, the lives' event, the end of the turn the views
show (-1: none), whether the turn ended, whether it was a throw, whether a batch seat
decided."""


def classes(n: int) -> int:
    """How many table classes a throw's table tells apart at `n` seats (0: over)."""
    return 1 + MAX_LIVES * 2 * (n - 1) * 3


def class_of(lives: int, pot: bool, others: int, policy: int, n: int) -> int:
    return 1 + ((lives - 1) * 2 + int(pot)) * (n - 1) * 3 + (others - 1) * 3 + policy


def _throw(
    turn: Turn, facts: tuple[int, bool, int, int] | None, code: int, for_fun: bool, sixes: bool
) -> Outcome:
    """One number drawn in one state (`Outcome`); `facts` are the roller's lives, whether
    the pot holds a stake, how many others are in and who plays the roller (None: over)."""
    mode, point, snake, threes, fives = turn
    if facts is None or mode in (STOP_ELECT, STOP_BUY):
        return turn, NONE, -1, False, False, False
    lives, pot, others, policy = facts
    plain: Turn = (NORMAL, point, snake, threes, fives)
    if mode == PEND_ELECT:
        return plain, ELECT_J + code % others, -1, False, False, True
    if mode == PEND_BUY:
        bought = code % 2 == 0
        if sixes:
            return CLEAN, BUY_END if bought else END, ENDS["trick_sixes"], True, False, True
        return plain, BUY if bought else NONE, -1, False, False, True

    def end(why: str, event: int = END) -> Outcome:
        return CLEAN, event, ENDS[why], True, True, False

    def lose(
        count: int, after: Turn, why: str, event: int
    ) -> tuple[Turn, int, int, bool, bool, bool]:
        """The roller loses `count` lives (P1, P10); `why` ends the turn if still in."""
        if lives - count <= 0:
            if others == 1:  # the last one in wins: the turn stays as it was
                return after, event, ENDS["over"], False, True, False
            return CLEAN, event, ENDS["out"], True, True, False
        if why:
            return CLEAN, event, ENDS[why], True, True, False
        return after, event, -1, False, True, False

    a, b = code // 6 + 1, code % 6 + 1
    if a != b:
        total = a + b
        if point and total == 7:
            return lose(1, plain, "seven", LOSE1_END)
        if not point:
            if total != 7:
                return (NORMAL, total, snake, threes, fives), NONE, -1, False, True, False
        elif total == point:
            return end("point")
        return plain, NONE, -1, False, True, False
    if a == 1:  # P4
        if point == 2:
            return end("point")
        if snake:
            return end("second_snake_eyes")
        seen: Turn = (NORMAL, point, True, threes, fives)
        if lives > 1:
            seen = (NORMAL, point or 2, True, threes, fives)
        return lose(1, seen, "", LOSE1)
    if a == 2:  # P5
        return end("saving_grace")
    if a == 3:  # P6
        if point == 6 and threes:
            return lose(lives, plain, "", LOSE_ALL)
        return (NORMAL, 6, snake, True, fives), NONE, -1, False, True, False
    if a == 4:  # P7
        return (NORMAL, 2, snake, threes, fives), NONE, -1, False, True, False
    if a == 5:  # P8
        if fives:
            if point == 10:
                return end("point")
            return plain, NONE, -1, False, True, False
        elected: Turn = (NORMAL, point or 10, snake, threes, True)
        if others == 1:
            return elected, ELECT_J, -1, False, True, False
        if policy == OUTSIDE:
            return (STOP_ELECT, *elected[1:]), NONE, -1, False, True, False
        if policy == RANDOM:
            return (PEND_ELECT, *elected[1:]), NONE, -1, False, True, False
        return elected, ELECT_H, -1, False, True, True
    # P9
    back = lives < MAX_LIVES and (lives < START or for_fun)
    if lives == START and not for_fun:
        if policy == OUTSIDE:
            return (STOP_BUY, *plain[1:]), NONE, -1, False, True, False
        if policy == RANDOM:
            return (PEND_BUY, *plain[1:]), NONE, -1, False, True, False
        if sixes:
            return CLEAN, BUY_END, ENDS["trick_sixes"], True, True, True
        return plain, BUY, -1, False, True, True
    event = BACK if back and pot else NONE
    if sixes:
        return CLEAN, BACK_END if event == BACK else END, ENDS["trick_sixes"], True, True, False
    return plain, event, -1, False, True, False


class Turns:
    """The throws' table at `n` seats and the table's options: every turn state reached from
    a normal one, each class of table facts, each number drawn (0 to 35)."""

    def __init__(self, n: int, for_fun: bool, sixes: bool) -> None:
        self.n = n
        nc = self.classes = classes(n)
        facts: list[tuple[int, bool, int, int] | None] = [None] * nc
        lives = range(1, MAX_LIVES + 1)
        for fact in itertools.product(lives, (False, True), range(1, n), range(3)):
            facts[class_of(*fact, n)] = fact
        turns: list[Turn] = [CLEAN]
        index = {CLEAN: 0}
        rows: list[Outcome] = []
        i = 0
        while i < len(turns):  # every turn state reached from a turn's start
            for facts_of in facts:
                for code in range(36):
                    out = _throw(turns[i], facts_of, code, for_fun, sixes)
                    if out[0] not in index:
                        index[out[0]] = len(turns)
                        turns.append(out[0])
                    rows.append(out)
            i += 1
        self.turns = turns
        self.stride = nc * 36
        """A turn state's index times `stride`, plus a class times 36, plus the number drawn,
        is a key of the tables."""
        after = np.array([index[out[0]] for out in rows], dtype=np.int64) * self.stride
        event = np.array([out[1] for out in rows], dtype=np.int64)
        self.packed = after << SHIFT | event
        """The key of the turn state after (`>> SHIFT`) and the lives' event (`& MASK`)."""
        end = (np.array([out[2] for out in rows], dtype=np.int64) + 1).astype(np.uint8)
        bits = [np.array([out[j] for out in rows], dtype=np.uint8) for j in (3, 4, 5)]
        self.info = bits[0] * ENDED | bits[1] * THROWN | bits[2] * DECIDED | end << 3
        self.info |= np.where(np.isin(event, (BUY, BUY_END)), BOUGHT, 0).astype(np.uint8)
        self.info |= np.where(np.isin(event, (BACK, BACK_END)), WON_BACK, 0).astype(np.uint8)
        """A number's facts as bits: `ENDED`, `THROWN`, `DECIDED`, the end the views show + 1
        (0: none) in bits 3 to 5, `BOUGHT` and `WON_BACK` (a life)."""
        self.mode = np.array([t[0] for t in turns], dtype=np.int64)
        self.stops = np.repeat((self.mode == STOP_ELECT) | (self.mode == STOP_BUY), self.stride)
        """By a turn state's key: an outside seat decides (the walk stops)."""
        self.point = np.array([t[1] for t in turns], dtype=np.int64)
        self.flags = np.array([t[2:] for t in turns], dtype=bool)
        self.normal = np.array(
            [
                index.get((NORMAL, p, s, t, f), -1) * self.stride
                for p in range(13)
                for s in (False, True)
                for t in (False, True)
                for f in (False, True)
            ],
            dtype=np.int64,
        )
        """Key of the normal turn state of point p and flags s, t, f: normal[p*8+s*4+t*2+f]
        (negative for a state no turn reaches)."""


@cache
def turns(n: int, for_fun: bool, sixes: bool) -> Turns:
    return Turns(n, for_fun, sixes)


class Chain:
    """A seated batch's tables: the throws' (`Turns`) and its lives'. A lives state is every
    seat's lives, the roller, the stakes bought (0 to 3, 3 for 3 or more) and whether the
    game is over; its key is its index << `SHIFT`, plus an event for the next one.

    `policies[s]` plays seat s (OUTSIDE, RANDOM, HEURISTIC); `heuristic(lives, roller)` is
    the heuristic's election at lives (k, n) with rollers (k,): the seats it elects."""

    def __init__(
        self,
        n: int,
        for_fun: bool,
        sixes: bool,
        policies: Sequence[int],
        heuristic: Callable[[Ints, Ints], Ints],
    ) -> None:
        self.turns = turns(n, for_fun, sixes)
        self.n = n
        count = 5**n * n * 4 * 2
        index = np.arange(count)
        over = index % 2 == 1
        bought = index // 2 % 4
        roller = index // 8 % n
        code = index // (8 * n)
        lives = code[:, None] // 5 ** np.arange(n) % 5
        self.lives, self.roller, self.over = lives, roller, over
        rows = np.arange(count)
        own = lives[rows, roller]
        alive = np.count_nonzero(lives, axis=1)
        pot = (3 * n + 2 * bought - lives.sum(axis=1) > 0) | (bought == 3)
        policy = np.asarray(policies, dtype=np.int64)[roller]
        valid = ~over & (own > 0) & (alive >= 2)
        klass = np.zeros(count, dtype=np.int64)
        v = valid
        klass[v] = 1 + ((own[v] - 1) * 2 + pot[v]) * (n - 1) * 3 + (alive[v] - 2) * 3 + policy[v]
        self.klass = np.repeat(klass * 36, 1 << SHIFT)
        """The class (times 36) of a lives state, by its key."""
        following = np.empty((count, n), dtype=np.int64)
        for s in range(n):
            nxt = np.full(count, s, dtype=np.int64)
            for step in range(n - 1, 0, -1):
                seat = (s + step) % n
                nxt = np.where(lives[:, seat] > 0, seat, nxt)
            following[:, s] = nxt
        self.following = following
        """following[state, s]: the next seat after s still in (C2)."""
        winner = np.argmax(lives > 0, axis=1)
        self.winner = winner

        def key(lv: Ints, r: Ints, b: Ints, o: Bools) -> Ints:
            c = (lv * 5 ** np.arange(n)).sum(axis=1)
            made: Ints = (((c * n + r) * 4 + b) * 2 + o) << SHIFT
            return made

        after = np.empty((count, 1 << SHIFT), dtype=np.int64)
        after[:] = (index << SHIFT)[:, None]
        for event in range(EVENTS):
            lv = lives.copy()
            r = roller.copy()
            b = bought.copy()
            passes = np.zeros(count, dtype=bool)
            if event in (END, BACK_END, BUY_END, LOSE1_END):
                passes[:] = True
            if event in (LOSE1, LOSE1_END):
                lv[rows, r] -= 1
            if event == LOSE_ALL:
                lv[rows, r] = 0
            if event in (BACK, BACK_END, BUY, BUY_END):
                lv[rows, r] += 1
            if event in (BUY, BUY_END):
                b = np.minimum(b + 1, 3)
            if event >= ELECT_H:
                if event == ELECT_H:
                    target = np.zeros(count, dtype=np.int64)
                    asks = valid & (alive >= 3) & (policy == HEURISTIC)
                    if asks.any():
                        target[asks] = heuristic(lives[asks], roller[asks])
                else:  # the j-th other still in, in seat order
                    others = (lives > 0) & (np.arange(n) != roller[:, None])
                    j = event - ELECT_J
                    ranks = np.cumsum(others, axis=1) - 1
                    found = others & (ranks == j)
                    target = np.where(found.any(axis=1), np.argmax(found, axis=1), roller)
                lv[rows, target] = np.maximum(lv[rows, target] - 1, 0)
            left = np.count_nonzero(lv, axis=1)
            out = lv[rows, r] == 0
            ends = left <= 1
            nxt = following[rows, r]
            moved = (passes | out) & ~ends
            if moved.any():  # the next in after the roller, by the lives after the event
                for step in range(n - 1, 0, -1):
                    seats = (r + step) % n
                    nxt = np.where(lv[rows, seats] > 0, seats, nxt)
            r = np.where(moved, nxt, r)
            new = key(lv.clip(0, MAX_LIVES), r, b, ends)
            after[:, event] = np.where(valid, new, index << SHIFT)
        self.after = after.reshape(-1)
        """The key of the lives state after an event, by the key plus the event."""
        # decoding tables by key
        self.key_roller = np.repeat(roller.astype(np.int8), 1 << SHIFT)
        self.key_over = np.repeat(over, 1 << SHIFT)
        """The roller and whether the game is over, by a lives state's key (what a pass
        reads); the other facts by the state itself (`key >> SHIFT`)."""

    def key(self, lives: Ints, roller: Ints, bought: Ints) -> Ints:
        """Keys of games in play: lives (k, n), rollers (k,), stakes bought (k,)."""
        code = (lives * 5 ** np.arange(self.n)).sum(axis=1)
        key: Ints = ((code * self.n + roller) * 4 + np.minimum(bought, 3)) * 2 << SHIFT
        return key
