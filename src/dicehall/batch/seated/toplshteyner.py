"""Toplshteyner's seated batch: `ToplshteynerBatch` stopped at the outside seats' decisions.

Decisions are the engine's: whom High Fives elects (P8) and whether to buy a
fourth life (P9), both the roller's. Everything is public (C6). Beyond the
simulator's own state the batch keeps what the view shows and the
simulator needs not: fourth lives bought per seat, this turn's throws (how
many, and the last), and how the last turn ended and whose it was. The
roll-off is never seen, since nobody decides during it.

Up to four seats the throws between two outside decisions are walked on the
tables of `toplshteyner_chain` (`_walk`), a few NumPy operations a throw for
every game at once, instead of the simulator's passes (a few hundred
operations for each throw that is a double or a 7 on a point); the roll-off
is then its winner, drawn uniformly. The chain keeps no `events` and no
`steps`, which only the simulator's own runs report. Above four seats, and
for games that could reach `max_decisions` within a pass, the simulator's
passes play on. When no seat of the batch's own plays the heuristic, none of
this runs: the compiled loop (`toplshteyner_kernel`) plays the rules themselves,
the roll-off included, a game at a time.
"""

from __future__ import annotations

import numpy as np

from dicehall.batch.base import Bools, Ints
from dicehall.batch.seated import toplshteyner_chain as chain_
from dicehall.batch.seated.base import Floats, Seated
from dicehall.batch.seated.tensor import Seen, Tensors
from dicehall.batch.toplshteyner import (
    BUY,
    ELECT,
    FIRST,
    OVER,
    ROLLOFF,
    SECOND,
    TURN,
    ToplshteynerBatch,
    Walk,
)
from dicehall.games.toplshteyner.rules import TURN_END_WORDS

ENDS = {why: i for i, why in enumerate(TURN_END_WORDS)}
"""A turn's ends in the order of the view's words, as the encoding numbers them."""
BUY_LIFE, DECLINE_LIFE, ELECT_FIRST = 0, 1, 2
"""The action ids of `dicehall.games.toplshteyner.encoding`: electing seat s is 2 + s."""
COLUMNS = 16
"""Numbers drawn per game and pass of the chain (`ToplshteynerSeated._walk`); at most 23,
so that a pass's columns (twice over, for its throws) are bits of a float32 exactly."""


class ToplshteynerSeated(Seated, ToplshteynerBatch):
    """Toplshteyner with outside seats; see the module docstring."""

    decision_phases = frozenset({ELECT, BUY})
    over_phase = OVER

    def _more_state(self) -> None:
        size, n = self.size, self.n
        self.bought = np.zeros((size, n), dtype=np.int64)
        self.throws = np.zeros(size, dtype=np.int64)
        self.last_throw = np.zeros((size, 2), dtype=np.int64)
        self.last_seat = np.full(size, -1, dtype=np.int64)
        self.last_end = np.full(size, -1, dtype=np.int64)
        self._chain: chain_.Chain | None = None

    def chain(self) -> chain_.Chain | None:
        """The tables of this batch's seats and options (built when first used); None above
        `chain_.MAX_SEATS` seats."""
        if self._chain is None and self.n <= chain_.MAX_SEATS:
            policies = [
                chain_.OUTSIDE if out else chain_.HEURISTIC if smart else chain_.RANDOM
                for out, smart in zip(self.outside.tolist(), self.heuristic.tolist(), strict=True)
            ]
            self._chain = chain_.Chain(
                self.n, self.for_fun, self.sixes_end_turn, policies, self._heuristic_targets
            )
        return self._chain

    def advance(self, g: Ints) -> None:
        """As `Seated.advance`, the roll-offs (C5) settled first, so that every game throwing
        is walked in the same pass (`_walk`). With the chain a roll-off is its winner, drawn
        uniformly: the contenders throw alike and the tied throw again, so each seat wins
        it as often, and nothing of it but the winner is seen or counted after."""
        if self._loop is None and self.chain() is not None:
            rolling = g[self.phase.take(g) == ROLLOFF]
            if rolling.size:
                self.roller[rolling] = self.rng.integers(0, self.n, rolling.size)
                self.phase[rolling] = TURN
        super().advance(g)

    def _throw(self, g: Ints) -> None:
        """P3: throws walked on the chain's tables (`_walk`), up to `COLUMNS` a game and
        pass; the batch's own passes above `chain_.MAX_SEATS` seats and for games that
        could reach `max_decisions` within a pass."""
        chain = self.chain()
        if chain is None:
            super()._throw(g)
            return
        if self.max_decisions is not None:
            near = self.decisions.take(g) + COLUMNS >= self.max_decisions
            if near.any():
                super()._throw(g[near])
                g = g[~near]
        if g.size:
            self._walk(g, chain)

    def _walk(self, g: Ints, chain: chain_.Chain) -> None:
        """Games `g` walked on the chain's tables until each is over, waits for an outside
        seat or could reach `max_decisions`: passes of `COLUMNS` numbers drawn per game,
        read in order as throws (or a batch seat's choice), the games still walking kept
        after each; what the views show is read from a pass's columns at once, and the
        state written back once at the end."""
        turns = chain.turns
        m0, n, k = g.size, self.n, COLUMNS
        flags = (
            self.point.take(g) * 8
            + self.snake_eyes.take(g) * 4
            + self.threes.take(g) * 2
            + self.high_fives.take(g)
        )
        tk = turns.normal.take(flags)
        if tk.min() < 0:
            raise AssertionError("a turn state the rules never reach")
        lk = chain.key(
            self.lives.take(g, 0), self.roller.take(g), self.bought.take(g, 0).sum(axis=1)
        )
        throws = self.throws.take(g)
        last_code = np.full(m0, -1, dtype=np.int64)
        last_end = self.last_end.take(g)
        last_seat = self.last_seat.take(g)
        decisions = self.decisions.take(g)
        final_tk = np.empty(m0, dtype=np.int64)
        final_lk = np.empty(m0, dtype=np.int64)
        at = np.arange(m0)  # the games still walking, by their place in g
        weights = np.exp2(np.arange(k, dtype=np.float32))
        bought_cells: list[Ints] = []
        back_cells: list[Ints] = []
        limit = self.max_decisions
        start, walked = int(decisions.max(initial=0)), 0  # at most one decision a column
        shift, mask = chain_.SHIFT, chain_.MASK
        while at.size:
            m = at.size
            codes = self.rng.integers(0, 36, (k, m), dtype=np.uint16)  # (twice as fast)
            keys = np.empty((k, m), dtype=np.int64)
            states = np.empty((k + 1, m), dtype=np.int64)
            states[0] = lk
            packed = np.empty(m, dtype=np.int64)
            moved = np.empty(m, dtype=np.int64)
            tk = tk.copy()
            for c in range(k):
                key = keys[c]
                chain.klass.take(lk, out=key, mode="wrap")
                key += tk
                key += codes[c]
                turns.packed.take(key, out=packed, mode="wrap")
                np.right_shift(packed, shift, out=tk)
                np.bitwise_and(packed, mask, out=moved)
                moved += lk
                lk = states[c + 1]
                chain.after.take(moved, out=lk, mode="wrap")
            rows = np.arange(m)
            info = turns.info.take(keys)
            # this turn's throws, the last one, how the last turn ended: a game's throws and
            # the turns' ends as bit masks of the columns (exact in float32: k <= 23)
            ends = (weights @ (info & chain_.ENDED).astype(np.float32)).astype(np.int64)
            throw_bits = weights @ (info & chain_.THROWN).astype(np.float32)
            read = (throw_bits * 0.5).astype(np.int64)
            since = np.frexp(ends.astype(np.float32))[1] - 1  # -1: no turn ended
            count = np.bitwise_count(read >> (since + 1))
            turned = since >= 0
            throws[at] = np.where(turned, count, throws.take(at) + count)
            has = read > 0
            lc = np.frexp(throw_bits)[1] - 2  # the last column thrown
            # (cells read flat, by column * m + row: far cheaper than [column, row])
            last_code[at[has]] = codes.reshape(-1).take(lc[has] * m + rows[has])
            if turned.any():
                at_end = since[turned] * m + rows[turned]
                end = info.reshape(-1).take(at_end) >> 3 & 7
                last_end[at[turned]] = end.astype(np.int64) - 1
                last_seat[at[turned]] = chain.key_roller.take(states.reshape(-1).take(at_end))
            rare = info & chain_.RARE
            hot = rare != 0  # (booleans: far cheaper to search than bytes)
            if hot.any():  # a batch seat decided, a life bought or won back
                cell = np.flatnonzero(hot)
                row = cell % m
                bits = rare.reshape(-1).take(cell)
                np.add.at(decisions, at[row[(bits & chain_.DECIDED) != 0]], 1)
                gained = bits >= chain_.BOUGHT
                if gained.any():
                    which = bits[gained]
                    before = states.reshape(-1).take(cell[gained])  # the state before it
                    seat = g[at[row[gained]]] * n + chain.key_roller.take(before)
                    bought_cells.append(seat[(which & chain_.BOUGHT) != 0])
                    back_cells.append(seat[(which & chain_.WON_BACK) != 0])
            stop = chain.key_over.take(lk) | turns.stops.take(tk)
            walked += k
            if limit is not None and start + walked + k >= limit:  # else none can reach it
                stop |= decisions.take(at) + k >= limit
            if stop.any():
                done = at[stop]
                final_tk[done] = tk[stop]
                final_lk[done] = lk[stop]
                keep = ~stop
                at, tk, lk = at[keep], tk[keep], lk[keep]
        for cells, counts in ((bought_cells, self.bought), (back_cells, self.reclaimed)):
            if cells:
                np.add.at(counts.reshape(-1), np.concatenate(cells), 1)
        self._walked_back(
            g, chain, final_tk, final_lk, throws, last_code, last_end, last_seat, decisions
        )

    def _walked_back(
        self,
        g: Ints,
        chain: chain_.Chain,
        final_tk: Ints,
        final_lk: Ints,
        throws: Ints,
        last_code: Ints,
        last_end: Ints,
        last_seat: Ints,
        decisions: Ints,
    ) -> None:
        """The state after the walk of games `g`, written back: the turn and lives keys it
        stopped at, and what the views show, each by place in `g`."""
        n, turns = self.n, chain.turns
        self.throws[g] = throws
        played = last_code >= 0
        gp = g[played]
        self.last_throw[gp, 0] = FIRST.take(last_code[played])
        self.last_throw[gp, 1] = SECOND.take(last_code[played])
        self.decisions[g] = decisions
        final = final_lk >> chain_.SHIFT  # the lives states
        lives = chain.lives.take(final, axis=0)
        bought = self.bought.take(g, 0)
        self.lives[g] = lives
        self.paid[g] = chain_.START + 2 * bought - lives + self.reclaimed.take(g, 0)
        self.pot[g] = 3 * n + 2 * bought.sum(axis=1) - lives.sum(axis=1)
        self.alive[g] = np.count_nonzero(lives, axis=1)
        self.nxt[g] = chain.following.take(final, axis=0)
        turn = final_tk // turns.stride
        self.point[g] = turns.point.take(turn)
        seen = turns.flags.take(turn, axis=0)
        self.snake_eyes[g] = seen[:, 0]
        self.threes[g] = seen[:, 1]
        self.high_fives[g] = seen[:, 2]
        mode = turns.mode.take(turn)
        over = chain.over.take(final)
        roller = chain.roller.take(final)
        phase = np.where(
            (mode == chain_.STOP_ELECT) | (mode == chain_.PEND_ELECT),
            ELECT,
            np.where((mode == chain_.STOP_BUY) | (mode == chain_.PEND_BUY), BUY, TURN),
        )
        if over.any():
            phase[over] = OVER
            go = g[over]
            self.winner[go] = chain.winner.take(final[over])
            last_seat[over] = roller[over]
            last_end[over] = ENDS["over"]
            roller[over] = -1
        self.last_end[g] = last_end
        self.last_seat[g] = last_seat
        self.phase[g] = phase
        self.roller[g] = roller

    def _thrown(self, g: Ints, a: Ints, b: Ints) -> None:
        self.throws[g] += 1
        self.last_throw[g, 0] = a
        self.last_throw[g, 1] = b
        super()._thrown(g, a, b)

    def _walked(self, g: Ints, walk: Walk) -> None:
        """The plain throws of a pass: this turn's throws, the last one, the turn that ended."""
        played = walk.used > 0
        gp, last = g[played], walk.last[played]
        self.last_throw[gp, 0] = FIRST.take(last)
        self.last_throw[gp, 1] = SECOND.take(last)
        ended = walk.made > 0
        self.throws[g] = np.where(ended, walk.since, self.throws.take(g) + walk.since)
        ge = g[ended]
        self.last_seat[ge] = walk.ender[ended]
        self.last_end[ge] = ENDS["point"]

    def _buy(self, g: Ints) -> None:
        paid, cell = self.paid.reshape(-1), g * self.n + self.roller[g]
        before = paid.take(cell)
        super()._buy(g)
        self.bought.reshape(-1)[cell] += paid.take(cell) - before  # a stake paid: a life bought

    def _end_turn(self, g: Ints, why: str) -> None:
        if g.size:
            self.last_seat[g] = self.roller[g]
            self.last_end[g] = ENDS[why]
            self.throws[g] = 0
        super()._end_turn(g, why)

    def _over(self, g: Ints) -> None:
        """A game ends in the roller's turn (the view's end "over")."""
        self.last_seat[g] = self.roller[g]
        self.last_end[g] = ENDS["over"]

    # --- decisions -------------------------------------------------------------------

    def actor(self, g: Ints) -> Ints:
        return self.at(self.roller, g)

    def legal(self, g: Ints) -> Bools:
        phase = self.at(self.phase, g)
        legal = np.zeros((g.size, ELECT_FIRST + self.n), dtype=bool)
        buy = phase == BUY
        legal[:, BUY_LIFE] = buy
        legal[:, DECLINE_LIFE] = buy
        others = self.at(self.lives, g) > 0
        others[np.arange(g.size), self.at(self.roller, g)] = False
        legal[:, ELECT_FIRST:] = others & (phase == ELECT)[:, None]
        return legal

    def default(self, g: Ints) -> Ints:
        """Keep three lives; elect the next player in play order (`legal_actions(seat)[0]`)."""
        following = self.nxt.reshape(-1).take(g * self.n + self.roller.take(g))
        default: Ints = np.where(self.phase.take(g) == BUY, DECLINE_LIFE, ELECT_FIRST + following)
        return default

    def net(self, g: Ints) -> Ints:
        net: Ints = self.reclaimed.take(g, 0) - self.paid.take(g, 0)
        net[np.arange(g.size), self.winner[g]] += self.pot[g]
        return net

    # --- what a seat sees --------------------------------------------------------------

    def observe(self, g: Ints, me: Ints | int) -> Floats:
        """`dicehall.games.toplshteyner.encoding` of the view of seat `me`, game by game."""
        seen = Seen(g, me, self.n, self.every)
        t = Tensors(self.game.encoding.layout, g.size)
        t.one_hot("phase", seen.rows(self.phase))
        options = np.array([self.for_fun, self.sixes_end_turn], dtype=bool)
        t.flags("options", np.broadcast_to(options, (g.size, 2)))
        t.number("lives", seen.seats(self.lives))
        t.number("pot", seen.rows(self.pot))
        t.number("bought", seen.seats(self.bought))
        t.number("paid_in", seen.seats(self.paid) - seen.seats(self.reclaimed))
        t.one_hot("roller", seen.relative(seen.rows(self.roller)))
        point = seen.rows(self.point)
        t.one_hot("point", np.where(point > 0, point - 2, -1))
        doubles = [seen.rows(x) for x in (self.snake_eyes, self.threes, self.high_fives)]
        t.flags("thrown", np.column_stack(doubles))
        throws = seen.rows(self.throws)
        t.number("throws", throws)
        last = seen.rows(self.last_throw)
        thrown = throws > 0
        t.one_hot("last_throw", last[:, 0] - 1, thrown, 0, 6)
        t.one_hot("last_throw", last[:, 1] - 1, thrown, 6, 6)
        end = seen.rows(self.last_end)
        t.one_hot(
            "last_turn_seat", np.where(end >= 0, seen.relative(seen.rows(self.last_seat)), -1)
        )
        t.one_hot("last_turn_end", end)
        t.one_hot("winner", seen.relative(seen.rows(self.winner)))
        return t.done()
