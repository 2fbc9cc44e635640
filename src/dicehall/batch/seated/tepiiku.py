"""Tepiiku's seated batch: `TepiikuBatch` stopped at the outside seats' decisions.

Decisions are the engine's: thumbs (T5) and a tie's reroll (T6), both
simultaneous (C3), then the Fish's pay or reroll (T7) and a forced reroll
(T8). The single environments take a simultaneous choice one seat at a time
in seat order, hidden from the others until all are in; so here an outside
seat's thumbs or tie reroll is kept (`committed`, `chosen`) until every
outside seat of that choice has made it, and the batch's step then takes
everyone's at once with the outside seats' choices in place of its own
draws. A seat sees the seats before it in seat order as committed, as it
would in the engine.

Beyond the simulator's state the batch keeps what the view shows: the
round's thumbs, and the last thing that settled (a reroll's outcome, or a
payment).
"""

from __future__ import annotations

import numpy as np

from dicehall.batch.base import Bools, Handler, Ints
from dicehall.batch.seated.base import Floats, Seated
from dicehall.batch.seated.tensor import Seen, Tensors
from dicehall.batch.tepiiku import (
    BET,
    DICE,
    FISH,
    FORCED,
    OVER,
    PLACE,
    SEATS,
    TIES,
    TepiikuBatch,
    _load_tables,
)

THUMBS_DOWN, THUMBS_UP, PAY, REROLL = 0, 1, 2, 3
"""The action ids of `dicehall.games.tepiiku.encoding`: reroll k (SUBSETS' order) is 3 + k."""
ACTIONS = 10
KINDS = ("bust", "still", "tie", "beat", "settled", "pay")
"""What settled last, in the encoding's order."""
PAID = KINDS.index("pay")

LEGAL = np.zeros((OVER + 1, ACTIONS), dtype=bool)
"""By phase, the legal ids of the seat to decide."""
LEGAL[BET, [THUMBS_DOWN, THUMBS_UP]] = True
LEGAL[FISH, PAY:] = True
LEGAL[[TIES, FORCED], REROLL:] = True
DEFAULT = np.zeros(OVER + 1, dtype=np.int64)
"""By phase, `TepiikuState.default_action`: thumbs down, pay, reroll every die."""
DEFAULT[BET], DEFAULT[FISH], DEFAULT[[TIES, FORCED]] = THUMBS_DOWN, PAY, ACTIONS - 1
SIMULTANEOUS = (BET, TIES)


class TepiikuSeated(Seated, TepiikuBatch):
    """Tepiiku with outside seats; see the module docstring."""

    decision_phases = frozenset({BET, TIES, FISH, FORCED})
    over_phase = OVER

    def _more_state(self) -> None:
        size = self.size
        self.committed = np.zeros((size, SEATS), dtype=bool)
        """Outside seats that made the simultaneous choice now due."""
        self.chosen = np.zeros((size, SEATS), dtype=np.int64)
        """Their choice: thumbs up (1) or down (0), or a tie reroll (its index in SUBSETS)."""
        self.up = np.zeros((size, SEATS), dtype=bool)
        """The round's thumbs, once all are in."""
        self.last_kind = np.full(size, -1, dtype=np.int64)
        self.last_seat = np.full(size, -1, dtype=np.int64)
        self.last_before = np.zeros(size, dtype=np.int64)
        self.last_after = np.zeros(size, dtype=np.int64)
        self.last_hook = np.full(size, -1, dtype=np.int64)
        self.last_amount = np.zeros(size, dtype=np.int64)
        self._ties_step = False
        if self.heuristic.any():
            _load_tables()

    def _begin(self, g: Ints) -> None:
        """T10: a game begins with its first round's throws."""
        self.events["round"][g] = 0
        self.steps[g] = 0
        self._start_round(g)

    # --- the batch's steps, with the outside seats' choices ---------------------------

    def _thumbs(self, g: Ints) -> Bools:
        up = super()._thumbs(g)
        mine = self.outside
        if mine.any():
            up[:, mine] = self.chosen.take(g, 0)[:, mine] == 1
        self.up[g] = up
        return up

    def _bet(self, g: Ints) -> None:
        super()._bet(g)
        self.committed[g] = False

    def _ties(self, g: Ints) -> None:
        self._ties_step = True
        try:
            super()._ties(g)
        finally:
            self._ties_step = False
        self.committed[g] = False

    def _reroll_choice(self, g: Ints, seat: Ints) -> Ints:
        choice = super()._reroll_choice(g, seat)
        if self._ties_step:
            mine = self.outside[seat]
            choice[mine] = self.chosen[g[mine], seat[mine]]
        return choice

    def _settled(self, g: Ints, kind: Ints, seat: Ints, old: Ints) -> None:
        """Kept as the last thing settled (a bust's payment follows it)."""
        self.last_kind[g] = kind
        self.last_seat[g] = seat
        self.last_before[g] = old
        self.last_after[g] = self.scores.reshape(-1).take(g * SEATS + seat)

    def _pay(self, g: Ints, due: Ints) -> None:
        fish, hook = self.fish.take(g), self.hook.take(g)
        cell = g * SEATS + fish
        coins = self.coins.reshape(-1).take(cell)
        super()._pay(g, due)
        self.last_kind[g] = PAID
        self.last_seat[g] = fish
        self.last_hook[g] = hook
        self.last_amount[g] = coins - self.coins.reshape(-1).take(cell)

    # --- decisions -------------------------------------------------------------------

    def _due(self, phase: int, g: Ints) -> Bools:
        """The outside seats yet to make the simultaneous choice due in games `g`."""
        due = self.outside & ~self.committed.take(g, 0)
        if phase == TIES:
            due &= self.tied.take(g, 0)
        return due

    def _waits(self, phase: int, g: Ints) -> Bools:
        if phase in SIMULTANEOUS:
            return np.asarray(self._due(phase, g).any(axis=1))
        return super()._waits(phase, g)

    def actor_in(self, phase: int, g: Ints) -> Ints:
        if phase in SIMULTANEOUS:
            seat: Ints = np.argmax(self._due(phase, g), axis=1)
            return seat
        return self.fish.take(g) if phase == FISH else self.forced.take(g)

    def actor(self, g: Ints) -> Ints:
        phase = self.at(self.phase, g)
        seat = np.where(phase == FISH, self.at(self.fish, g), self.at(self.forced, g))
        for p in SIMULTANEOUS:
            now = phase == p
            if now.any():
                seat[now] = self.actor_in(p, g[now])
        return seat

    def _decide(self, phase: int, handler: Handler, g: Ints, index: Ints) -> None:
        """A simultaneous choice is kept until every outside seat has made its own."""
        if phase not in SIMULTANEOUS:
            super()._decide(phase, handler, g, index)
            return
        seat = self.actor_in(phase, g)
        self.committed[g, seat] = True
        self.chosen[g, seat] = index
        self.decisions[g] += 1

    def _count_decisions(self, phase: int, g: Ints) -> None:
        if phase == BET:
            self.decisions[g] += SEATS - int(self.outside.sum())
        elif phase == TIES:
            self.decisions[g] += (self.tied.take(g, 0) & ~self.outside).sum(axis=1)
        else:
            self.decisions[g] += 1

    def legal(self, g: Ints) -> Bools:
        legal: Bools = LEGAL.take(self.at(self.phase, g), 0)
        return legal

    def default(self, g: Ints) -> Ints:
        default: Ints = DEFAULT.take(self.at(self.phase, g))
        return default

    def net(self, g: Ints) -> Ints:
        net: Ints = self.coins.take(g, 0) - self.bankroll
        return net

    # --- what a seat sees --------------------------------------------------------------

    def observe(self, g: Ints, me: Ints | int) -> Floats:
        """`dicehall.games.tepiiku.encoding` of the view of seat `me`, game by game."""
        seen = Seen(g, me, SEATS, self.every)
        t = Tensors(self.game.encoding.layout, g.size)
        phase = seen.rows(self.phase)
        t.one_hot("phase", phase + 1)  # the encoding's phases begin with the throws
        t.number("round", seen.rows(self.events["round"]))
        t.number("coins", seen.seats(self.coins))
        revealed = phase != BET  # decisions and the end come after the throws
        t.number("pot", np.where(revealed, seen.rows(self.pot), 0))
        order = seen.seat_order()
        visible = revealed[:, None] | (order == seen.me[:, None])
        hands = seen.seats(self.hands)
        for i in range(SEATS):
            for d in range(DICE):
                rune = hands[:, i] // PLACE[DICE - 1 - d] % 6
                t.one_hot("dice", rune, visible[:, i], (i * DICE + d) * 6, 6)
        t.flags("score_known", visible)
        t.number("scores", np.where(visible, seen.seats(self.scores), 0))
        t.flags("revealed", revealed[:, None])
        up = seen.seats(self.up)
        for i in range(SEATS):
            t.one_hot("thumbs", (~up[:, i]).astype(np.int64), revealed, 2 * i, 2)
        before = order < seen.me[:, None]
        ties = phase == TIES
        tied = seen.seats(self.tied) & ties[:, None]
        t.flags("committed", before & ((phase == BET)[:, None] | tied))
        t.flags("tied", tied)
        roles = (phase == FISH) | (phase == FORCED)
        for r, seats in enumerate((self.fish, self.middle, self.hook)):
            t.one_hot("roles", seen.relative(seen.rows(seats)), roles, r * SEATS, SEATS)
        t.one_hot("forced", seen.relative(seen.rows(self.forced)), phase == FORCED)
        kind = seen.rows(self.last_kind)
        t.one_hot("last_kind", kind)
        t.one_hot("last_seat", seen.relative(seen.rows(self.last_seat)), kind >= 0)
        paid = kind == PAID
        settled = (kind >= 0) & ~paid
        t.number("last_scores", np.where(settled, seen.rows(self.last_before), 0), 0)
        t.number("last_scores", np.where(settled, seen.rows(self.last_after), 0), 1)
        t.number("last_amount", np.where(paid, seen.rows(self.last_amount), 0))
        t.one_hot("last_hook", seen.relative(seen.rows(self.last_hook)), paid)
        return t.done()
