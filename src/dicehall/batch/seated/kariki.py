"""Kariki's seated batch: `KarikiBatch` stopped at the outside seats' decisions.

Decisions are the engine's: the direction (K1), a claim (K4), roll, pull or
pass (K5, K6) and the emergency berry (K9). What a seat sees is the engine's
view of it written as `dicehall.games.kariki.encoding` writes it: the
batch keeps the last dice shown by a Kariki as well as by a pull (the
engine's `last_shown`), and nothing else beyond the simulator's own state.
Turn timers do not run here, so every seat's slashes are 0, as at a table
without them; the roll-off is never seen, since nobody decides during it.
"""

from __future__ import annotations

import numpy as np

from dicehall.batch.base import Bools, Ints
from dicehall.batch.kariki import (
    CLAIM,
    DIRECTION,
    DOUBLE_SIXES,
    EMERGENCY,
    OVER,
    RANKS,
    RESPOND,
    ROLL_OFF,
    THROW,
    KarikiBatch,
)
from dicehall.batch.seated.base import Floats, Seated
from dicehall.batch.seated.tensor import Seen, Tensors

ROLL, PULL, PASS, LEFT, RIGHT, BUY, DECLINE = range(14, 21)
"""The action ids of `dicehall.games.kariki.encoding` after the 14 claims."""
ACTIONS = 21
CLAIMS = DOUBLE_SIXES + 1
RESPONSES = CLAIMS + 1
"""Rows of LEGAL: claims above each claim (claim + 1), then four kinds of response."""
DIRECTION_ROW, EMERGENCY_ROW, NONE_ROW = RESPONSES + 4, RESPONSES + 5, RESPONSES + 6


def _tables() -> tuple[Bools, Ints]:
    """LEGAL[row]: the legal ids of each kind of decision; DEFAULT[row]: the table's move
    for an absent seat (`KarikiState.default_action`). Responses: row RESPONSES +
    2 * (the responder threw the dice) + (it already passed this claim), K6."""
    legal = np.zeros((NONE_ROW + 1, ACTIONS), dtype=bool)
    default = np.zeros(NONE_ROW + 1, dtype=np.int64)
    for above in range(CLAIMS):  # claim + 1: the lowest claim allowed
        legal[above, above:CLAIMS] = True
        default[above] = above
    for thrower in (0, 1):
        for passed in (0, 1):
            row = RESPONSES + 2 * thrower + passed
            may_pass = thrower or not passed
            legal[row, [PULL, *([ROLL] if not thrower else []), *([PASS] if may_pass else [])]] = (
                True
            )
            default[row] = PASS if may_pass else PULL
    legal[DIRECTION_ROW, [LEFT, RIGHT]] = True
    default[DIRECTION_ROW] = LEFT
    legal[EMERGENCY_ROW, [BUY, DECLINE]] = True
    default[EMERGENCY_ROW] = DECLINE
    return legal, default


LEGAL, DEFAULT = _tables()


class KarikiSeated(Seated, KarikiBatch):
    """Kariki with outside seats; see the module docstring."""

    decision_phases = frozenset({DIRECTION, CLAIM, RESPOND, EMERGENCY})
    over_phase = OVER

    def _more_state(self) -> None:
        self.shown_kariki = np.zeros(self.size, dtype=bool)
        """The last dice shown were a Kariki's (`shown` holds them then, as a pull's)."""

    def _kariki(self, g: Ints) -> None:
        """Also keep the Kariki as the last dice shown: 1-2 (its rank is all a view tells
        of them), the roller, and the victim of its berry."""
        roller = self.roller[g]
        one, two, none = (np.full(g.size, k) for k in (1, 2, -1))
        victim = self._next_in(g, roller)
        self.shown[g] = np.column_stack([one, two, roller, none, none, none, victim])
        self.shown_kariki[g] = True
        super()._kariki(g)

    def _pull(self, g: Ints, puller: Ints) -> None:
        self.shown_kariki[g] = False
        super()._pull(g, puller)

    # --- decisions -------------------------------------------------------------------

    def _row(self, g: Ints) -> Ints:
        """Each game's row of LEGAL and DEFAULT."""
        phase = self.at(self.phase, g)
        seat = self.at(self.responder, g)
        thrower = seat == self.at(self.roller, g)
        passed = (self.at(self.passed, g) >> np.maximum(seat, 0)) & 1
        row = np.where(phase == CLAIM, self.at(self.claim, g) + 1, NONE_ROW)
        row = np.where(phase == RESPOND, RESPONSES + 2 * thrower + passed, row)
        row = np.where(phase == DIRECTION, DIRECTION_ROW, row)
        chosen: Ints = np.where(phase == EMERGENCY, EMERGENCY_ROW, row)
        return chosen

    def _deciding(self, g: Ints) -> Ints:
        """K9: the first in the queue of those deciding on an emergency berry."""
        pending = self.pending.take(g, 0)
        queue = np.where(pending > 0, pending, np.iinfo(np.int64).max)
        seat: Ints = np.argmin(queue, axis=1)
        return seat

    def actor(self, g: Ints) -> Ints:
        phase = self.at(self.phase, g)
        seat = np.where(phase == RESPOND, self.at(self.responder, g), self.at(self.roller, g))
        emergency = phase == EMERGENCY
        if emergency.any():
            seat[emergency] = self._deciding(g[emergency])
        return seat

    def actor_in(self, phase: int, g: Ints) -> Ints:
        if phase == RESPOND:
            return self.responder.take(g)
        if phase == EMERGENCY:
            return self._deciding(g)
        return self.roller.take(g)

    def legal(self, g: Ints) -> Bools:
        legal: Bools = LEGAL[self._row(g)]
        return legal

    def default(self, g: Ints) -> Ints:
        default: Ints = DEFAULT[self._row(g)]
        return default

    def net(self, g: Ints) -> Ints:
        winner = np.argmin(self.out.take(g, 0), axis=1)
        net = -self.paid.take(g, 0)
        net[np.arange(g.size), winner] += self.pot[g]
        return net

    # --- what a seat sees --------------------------------------------------------------

    def observe(self, g: Ints, me: Ints | int) -> Floats:
        """`dicehall.games.kariki.encoding` of the view of seat `me`, game by game."""
        seen = Seen(g, me, self.n, self.every)
        buy_in = int(self.game.options["buy_in"])
        t = Tensors(self.game.encoding.layout, g.size)
        phase = seen.rows(self.phase)
        roller, claim = seen.rows(self.roller), seen.rows(self.claim)
        responder = seen.rows(self.responder)
        shows = SHOWS.take(phase, 0)
        in_play, respond, under_mug, chosen = shows.T
        t.one_hot("phase", phase)
        t.number("pot", seen.rows(self.pot) / buy_in)
        t.number("berries", seen.seats(self.berries))
        t.number("crowns", seen.seats(self.crowns) % 3)
        t.flags("out", seen.seats(self.out))
        t.flags("emergency_used", seen.seats(self.emergency_used))
        t.number("paid", seen.seats(self.paid) / buy_in)
        t.one_hot("direction", (seen.rows(self.step) < 0).astype(np.int64), chosen)
        t.one_hot("roller", seen.relative(roller))
        t.one_hot("claim", claim, in_play)
        t.one_hot("previous_claim", seen.rows(self.previous), respond)
        owner = seen.relative(seen.rows(self.owner))
        t.one_hot("claim_owner", owner, in_play & (claim >= 0))
        t.one_hot("responder", seen.relative(responder), respond)
        passed = seen.rows(self.passed)
        t.flags("pass_chain", ((passed[:, None] >> seen.seat_order()) & 1 == 1) & respond[:, None])
        dice = seen.rows(self.dice)
        mine = under_mug & seen.mine(roller)
        t.one_hot("your_die_1", dice[:, 0] - 1, mine)
        t.one_hot("your_die_2", dice[:, 1] - 1, mine)
        t.one_hot("your_rank", _rank(dice[:, 0], dice[:, 1]), mine)
        thrower = responder == roller
        passed_it = (passed >> np.maximum(responder, 0)) & 1 == 1
        t.flags("may", np.column_stack([respond & ~thrower, respond & (thrower | ~passed_it)]))
        self._observe_shown(t, seen)
        emergency = phase == EMERGENCY
        if emergency.any():
            deciding = np.full(g.size, -1)
            deciding[emergency] = self._deciding(g[emergency])
            t.one_hot("deciding", seen.relative(deciding))
            t.number("emergency_price", np.where(emergency, seen.rows(self.pot) / buy_in, 0))
        winner = seen.relative(np.argmin(seen.rows(self.out), axis=1))
        t.one_hot("winners", winner, phase == OVER)
        return t.done()

    def _observe_shown(self, t: Tensors, seen: Seen) -> None:
        """The last dice shown to all: by a Kariki or a pull, their rank, the claim pulled
        on, who threw them, who pulled, who got the berry."""
        pull = seen.rows(self.shown_pull)
        shown = pull | seen.rows(self.shown_kariki)
        key = seen.rows(self.shown)
        t.one_hot("last_shown_how", pull.astype(np.int64), shown)
        t.one_hot("last_shown_rank", _rank(key[:, 0], key[:, 1]), shown)
        t.one_hot("last_shown_claim", key[:, 3], shown)
        for column, name in ((2, "thrower"), (5, "puller"), (6, "berry_to")):
            t.one_hot(f"last_shown_{name}", seen.relative(key[:, column]), shown)


SHOWS = np.zeros((OVER + 1, 4), dtype=bool)
"""By phase, what the view shows: the claim (in play), the responder's choice (responding),
the dice to their thrower (under the mug), the direction (chosen)."""
SHOWS[[THROW, CLAIM, RESPOND], 0] = True
SHOWS[RESPOND, 1] = True
SHOWS[[CLAIM, RESPOND], 2] = True
SHOWS[:, 3] = True
SHOWS[[ROLL_OFF, DIRECTION], 3] = False


def _rank(a: Ints, b: Ints) -> Ints:
    """The rank (K2, `RANKS`) of arrays of faces, -1 where there are none."""
    rank: Ints = RANKS.take(a * 7 + b)
    return rank
