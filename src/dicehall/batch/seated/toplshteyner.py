"""Toplshteyner's seated batch: `ToplshteynerBatch` stopped at the outside seats' decisions.

Decisions are the engine's: whom High Fives elects (P8) and whether to buy a
fourth life (P9), both the roller's. Everything is public (C6). Beyond the
simulator's own state the batch keeps what the view shows and the
simulator needs not: fourth lives bought per seat, this turn's throws (how
many, and the last), and how the last turn ended and whose it was. The
roll-off is never seen, since nobody decides during it.
"""

from __future__ import annotations

import numpy as np

from dicehall.batch.base import Bools, Ints
from dicehall.batch.seated.base import Floats, Seated
from dicehall.batch.seated.tensor import Seen, Tensors
from dicehall.batch.toplshteyner import BUY, ELECT, FIRST, OVER, SECOND, ToplshteynerBatch, Walk
from dicehall.games.toplshteyner.rules import TURN_END_WORDS

ENDS = {why: i for i, why in enumerate(TURN_END_WORDS)}
"""A turn's ends in the order of the view's words, as the encoding numbers them."""
BUY_LIFE, DECLINE_LIFE, ELECT_FIRST = 0, 1, 2
"""The action ids of `dicehall.games.toplshteyner.encoding`: electing seat s is 2 + s."""


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
        roller = self.roller[g]
        paid = self.paid[g, roller]
        super()._buy(g)
        self.bought[g, roller] += self.paid[g, roller] - paid  # a life bought is a stake paid

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
        net: Ints = self.reclaimed[g] - self.paid[g]
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
