"""Tao Dice's seated batch: the batch's rounds played decision by decision.

`TaoBatch` plays a whole round per pass: a stage of betting is a few array
operations, because everything its bots do in it is known from the start.
A seat played from outside may decide anywhere in a stage, and twice in one
(a pass, then a call or a fold after a later raise), so here the round goes
as the engine's does: antes clockwise from the opener, the throws, then
each stage's betting seat by seat clockwise (until the first raise, then
everyone else in from the raiser), its rerolls, the d12, the showdown.
Each pass takes one decision in every game waiting for one of the batch's
own seats. All else is the batch's: stakes and bid units, openers, the
showdown, pots, outs, matches and the token, and its heuristic (`opens`,
`replies`, the equities), asked for one seat at a time.

Beyond the simulator's state the batch keeps what the view shows: the dice
themselves (the batch keeps their total), each seat's bet and stones paid
in this stage, who folded, the betting order and who is next, the match's
round and tie-break numbers, and the last showdown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from dicehall.batch.base import Bools, Handler, Ints
from dicehall.batch.seated.base import Floats, Seated
from dicehall.batch.seated.tensor import Seen, Tensors
from dicehall.batch.tao import OPENER, OVER, ROUND, TaoBatch, opens, replies
from dicehall.core.game import Game

ANTE, BET = OVER + 1, OVER + 2
"""The phases a seat decides in, after the batch's own (the opener's throw, a round, over)."""
PASS, RAISE, CALL, FOLD = range(4)
"""A seat's bet in this stage, numbered as the encoding numbers them."""
ANTES, PASS_ID, RAISES, CALLS, FOLD_ID = 0, 4, 5, 9, 13
"""The action ids of `dicehall.games.tao.encoding`: ante, raise and call k white is the
first id of its kind + k."""
ACTIONS = 14
PHASE_INDEX = {ANTE: 1, BET: 3, OVER: 6}
"""The encoding's phase of each phase a seat is seen in: deciding, or at the end."""
STATUS_IN, STATUS_FOLDED, STATUS_SITTING_OUT, STATUS_OUT = range(4)


class TaoSeated(Seated, TaoBatch):
    """Tao Dice with outside seats; see the module docstring."""

    decision_phases = frozenset({ANTE, BET})
    over_phase = OVER

    def __init__(
        self,
        game: Game,
        games: int,
        seed: int | np.random.SeedSequence | np.random.Generator | None = None,
        bots: Sequence[str] = ("random",),
        outside: Sequence[int] = (),
        max_decisions: int | None = None,
    ) -> None:
        # the batch starts its first match on construction (a fixed opener): these first
        self._more_arrays(games, game.seats)
        super().__init__(game, games, seed, bots, outside, max_decisions)

    def _more_arrays(self, size: int, n: int) -> None:
        self.faces = np.zeros((size, n, 2), dtype=np.int64)
        self.folded = np.zeros((size, n), dtype=bool)
        self.bet = np.full((size, n), -1, dtype=np.int64)
        self.paid_black = np.zeros((size, n), dtype=np.int64)
        self.paid_white = np.zeros((size, n), dtype=np.int64)
        self.stage = np.ones(size, dtype=np.int64)
        self.first = np.zeros(size, dtype=np.int64)
        """The seat at the head of the betting (or ante) order, which goes clockwise from
        the opener or the raiser."""
        self.queue = np.zeros(size, dtype=np.int64)
        """Bit k: the order's place k is in it (its seat was in the round when it began)."""
        self.pos = np.zeros(size, dtype=np.int64)
        """The place in the order of the seat to act."""
        self.raiser = np.full(size, -1, dtype=np.int64)
        self.opener = np.full(size, -1, dtype=np.int64)
        self.round_no = np.zeros(size, dtype=np.int64)
        self.tiebreak = np.zeros(size, dtype=np.int64)
        self.shown = np.zeros((size, n), dtype=bool)
        self.shown_total = np.zeros((size, n), dtype=np.int64)
        self.top = np.zeros((size, n), dtype=bool)

    def handlers(self) -> dict[int, Handler]:
        return {
            OPENER: self._opener,
            ROUND: self._rounds,
            ANTE: self._ante_step,
            BET: self._bet_step,
        }

    # --- rounds begun: set up, and without outside seats played whole -------------

    def _rounds(self, g: Ints) -> None:
        """A round begins in each of games `g`: set up (`_set_up_rounds`) and, in games
        without an outside seat in it, played a round a pass."""
        theirs = self._set_up_rounds(g)
        if theirs.size:
            self._round(theirs)

    def _ante(self, g: Ints) -> None:
        self.decisions[g] += self.in_round.take(g, 0).sum(axis=1)
        super()._ante(g)

    def _betted(
        self,
        g: Ints,
        stage: int,
        order: Ints,
        passes: Bools,
        raiser: Bools,
        calls: Bools,
        folds: Bools,
        black: Ints,
        white: Ints,
    ) -> None:
        cells = g[:, None] * self.n + order  # the per-seat arrays flat
        bet = np.full(order.shape, -1, dtype=np.int64)
        for kind, happened in ((PASS, passes), (RAISE, raiser), (CALL, calls), (FOLD, folds)):
            bet[happened] = kind
        self.bet.reshape(-1)[cells] = bet
        self.paid_black.reshape(-1)[cells] = black
        self.paid_white.reshape(-1)[cells] = white
        raised = raiser.any(axis=1)
        self.raiser[g] = np.where(raised, order[np.arange(g.size), np.argmax(raiser, axis=1)], -1)
        self.opener[g] = order[:, 0]
        self.stage[g] = stage
        self.folded.reshape(-1)[cells] |= folds
        # the opening round up to the raise (if any), then everyone else's reply to it
        playing = passes | raiser | calls | folds
        first = np.where(raised, np.argmax(raiser, axis=1), self.n)
        opening = (playing & (np.arange(self.n) <= first[:, None])).sum(axis=1)
        self.decisions[g] += opening + np.where(raised, playing.sum(axis=1) - 1, 0)

    def _throw_d12(self, g: Ints) -> None:
        """D6: only the seats in the round throw a d12."""
        super()._throw_d12(g)
        self.d12[g] *= self.in_round.take(g, 0)
        self.stage[g] = 2

    def _reroll(self, g: Ints, throw: Callable[[int], Ints], event: str) -> None:
        super()._reroll(g, throw, event)
        self.must_reroll[g] = False  # thrown again: nothing left to reroll

    # --- the round, as the engine plays it -------------------------------------------

    def _start_match(self, g: Ints) -> None:
        self.round_no[g] = 0
        super()._start_match(g)

    def _start_round(self, g: Ints, ante: bool) -> None:
        """A round (or a tie-break round, without an ante), counted; it is set up in the
        next pass (`ROUND`), together with every other round begun in this one."""
        if g.size == 0:
            return
        super()._start_round(g, ante)
        if ante:
            self.round_no[g] += 1
            self.tiebreak[g] = 0
        else:
            self.tiebreak[g] += 1

    def _set_up_rounds(self, g: Ints) -> Ints:
        """The rounds begun in games `g`: the view's last round cleared, the opener found;
        with an outside seat in, their antes or (a tie-break) their throws. Returns the
        other games, whose round the batch plays its own way."""
        if g.size == 0:
            return g
        self.folded[g] = False
        self.faces[g] = 0
        self.dice[g] = 0
        self.d12[g] = 0
        self.stage[g] = 1
        self._reset_bets(g)
        self.opener[g] = self._find_opener(g)
        ours = (self.in_round.take(g, 0) & self.outside).any(axis=1)
        seated = g[ours]
        ante = self.ante_due[seated]
        antes = seated[ante]
        self.phase[antes] = ANTE
        self._line_up(antes, self.opener[antes], skip_first=False)
        self._throw_two_d6(seated[~ante])
        theirs: Ints = g[~ours]
        return theirs

    def _reset_bets(self, g: Ints) -> None:
        if g.size == 0:
            return
        self.bet[g] = -1
        self.paid_black[g] = 0
        self.paid_white[g] = 0
        self.must_reroll[g] = False
        self.raiser[g] = -1

    def _line_up(self, g: Ints, first: Ints, skip_first: bool) -> None:
        """The seats in the round clockwise from `first` (without it, after a raise)."""
        if g.size == 0:
            return
        self.first[g] = first
        seats = (first[:, None] + np.arange(self.n)) % self.n
        playing = self.in_round.reshape(-1).take(g[:, None] * self.n + seats)
        queue = np.packbits(playing, axis=1, bitorder="little")[:, 0] & (254 if skip_first else 255)
        self.queue[g] = queue
        self.pos[g] = LOWEST_BIT.take(queue)

    def _throw_two_d6(self, g: Ints) -> None:
        """D2: everyone in throws two d6, hidden; then stage one's betting."""
        if g.size == 0:
            return
        playing = self.in_round.take(g, 0)
        self.faces[g] = np.where(playing[..., None], self._faces(g.size), 0)
        self.dice[g] = self.faces.take(g, 0).sum(axis=2)
        self._start_betting(g)

    def _faces(self, games: int) -> Ints:
        faces: Ints = self.rng.integers(1, 7, (games, self.n, 2))
        return faces

    def _start_betting(self, g: Ints) -> None:
        """D3: a stage's betting, clockwise from the opener."""
        if g.size == 0:
            return
        self._reset_bets(g)
        self.opener[g] = self._find_opener(g)
        self.phase[g] = BET
        self._line_up(g, self.opener[g], skip_first=False)

    def _next(self, g: Ints) -> Ints:
        """The next place in each game's order still to act; returns the games whose order
        is done."""
        pos = self.pos.take(g) + 1
        later = self.queue.take(g) >> pos
        more = later != 0
        self.pos[g[more]] = pos[more] + LOWEST_BIT.take(later[more])
        done: Ints = g[~more]
        return done

    def _seat(self, g: Ints) -> Ints:
        seat: Ints = (self.first.take(g) + self.pos.take(g)) % self.n
        return seat

    # A step acts for one seat per game: its cells, `g * n + seat`, index the per-seat
    # arrays flattened (one index array: cheaper than fancy indexing by game and seat).

    def _stake(self, g: Ints, cell: Ints, black: Ints, white: Ints) -> None:
        """Stones into the pot from one seat per game, counted as paid in this stage."""
        self.black.reshape(-1)[cell] -= black
        self.white.reshape(-1)[cell] -= white
        self.paid_black.reshape(-1)[cell] += black
        self.paid_white.reshape(-1)[cell] += white
        self.pot_black[g] += black
        self.pot_white[g] += white

    def _terms(self, g: Ints, cell: Ints) -> tuple[Ints, Ints, Ints]:
        """What a seat pays (D2, D4: m or all it has) and the fewest and most white in it."""
        black, white = self.black.reshape(-1).take(cell), self.white.reshape(-1).take(cell)
        pay = np.minimum(self.m.take(g), black + white)
        return pay, np.maximum(0, pay - black), np.minimum(white, pay)

    def _ante_step(self, g: Ints) -> None:
        """D2: the seat at the head of the order antes (the heuristic: the fewest white)."""
        seat = self._seat(g)
        cell = g * self.n + seat
        pay, low, high = self._terms(g, cell)
        white = low + self._choose(high - low + 1)
        smart = self.heuristic[seat]
        white[smart] = low[smart]
        self._stake(g, cell, pay - white, white)
        self._throw_two_d6(self._next(g))

    def _bet_step(self, g: Ints) -> None:
        """D3, D4, D7: the seat at the head of the order passes or raises, or after the
        raise calls or folds."""
        seat = self._seat(g)
        cell = g * self.n + seat
        pay, low, high = self._terms(g, cell)
        colours = high - low + 1
        reply = self.raiser.take(g) >= 0
        pick = self._choose(np.where(reply | (pay > 0), colours + 1, 1))
        # opening: 0 passes, k raises with low + k - 1 white; reply: k < colours calls with
        # low + k white, colours folds
        white = np.where(reply, low + pick, low + pick - 1)
        bet = np.where(reply, np.where(pick < colours, CALL, FOLD), np.where(pick > 0, RAISE, PASS))
        smart = self.heuristic[seat]
        if smart.any():
            bet[smart], white[smart] = self._heuristic(g[smart], seat[smart], reply[smart])
        self.bet.reshape(-1)[cell] = bet
        paying = (bet == RAISE) | (bet == CALL)
        gp, cp, wp = g[paying], cell[paying], white[paying]
        self._stake(gp, cp, pay[paying] - wp, wp)
        self.must_reroll.reshape(-1)[cp] = wp > 0  # D5: one reroll, however many white
        raising = bet == RAISE
        gr = g[raising]
        self.raiser[gr] = seat[raising]
        self._line_up(gr, seat[raising], skip_first=True)
        folds = bet == FOLD
        gf, cf = g[folds], cell[folds]
        self.in_round.reshape(-1)[cf] = False
        self.folded.reshape(-1)[cf] = True
        self.must_reroll.reshape(-1)[cf] = False
        alone = self.in_round.take(gf, 0).sum(axis=1) == 1
        self._take_pot(gf[alone], np.argmax(self.in_round[gf[alone]], axis=1))
        on = ~raising
        on[np.flatnonzero(folds)[alone]] = False
        self._end_stage(self._next(g[on]))

    def _heuristic(self, g: Ints, seat: Ints, reply: Bools) -> tuple[Ints, Ints]:
        """`HeuristicBot`'s bet for `seat` in each game, from what it sees now."""
        bet = np.zeros(g.size, dtype=np.int64)
        white = np.zeros(g.size, dtype=np.int64)
        pay, low, high = self._terms(g, g * self.n + seat)
        opponents = self.in_round.take(g, 0) & (np.arange(self.n) != seat[:, None])
        for stage in (1, 2):
            s = np.flatnonzero(self.stage[g] == stage)
            if s.size == 0:
                continue
            rerolling = self.must_reroll[g[s]]
            keep, reroll = self._equities(g[s], stage, seat[s], opponents[s], rerolling)
            players = opponents[s].sum(axis=1) + 1
            raises, raise_white = opens(keep, reroll, players, pay[s], low[s], high[s])
            pot = self.pot_black[g[s]] + self.pot_white[g[s]]
            calls, call_white = replies(keep, reroll, pot, pay[s], low[s], high[s])
            answer = reply[s]
            bet[s] = np.where(answer, np.where(calls, CALL, FOLD), np.where(raises, RAISE, PASS))
            white[s] = np.where(answer, call_white, raise_white)
        return bet, white

    def _end_stage(self, g: Ints) -> None:
        """D5, D6: after a stage's betting, its rerolls; then the d12 and stage two's
        betting, or the showdown (D8)."""
        if g.size == 0:
            return
        again = self.must_reroll.take(g, 0) & self.in_round.take(g, 0)
        rerolls = again.any(axis=1)
        one = self.stage[g] == 1
        first = one & rerolls
        gr, again1 = g[first], again[first]
        self.faces[gr] = np.where(again1[..., None], self._faces(gr.size), self.faces.take(gr, 0))
        self.dice[gr] = self.faces.take(gr, 0).sum(axis=2)
        second = ~one & rerolls
        gr, again2 = g[second], again[second]
        self.d12[gr] = np.where(again2, self._d12(gr.size), self.d12.take(gr, 0))
        self.must_reroll[g] = False
        g1, g2 = g[one], g[~one]
        self.stage[g1] = 2
        self.d12[g1] = np.where(self.in_round.take(g1, 0), self._d12(g1.size), 0)
        self._start_betting(g1)
        self._showdown(g2)

    def _showdown(self, g: Ints) -> None:
        """D8: the last showdown is kept for the view, then the batch's showdown."""
        if g.size:
            playing = self.in_round.take(g, 0)
            totals = np.where(playing, self.dice.take(g, 0) + self.d12.take(g, 0), -1)
            self.shown[g] = playing
            self.shown_total[g] = np.maximum(totals, 0)
            self.top[g] = playing & (totals == totals.max(axis=1, keepdims=True))
        super()._showdown(g)

    # --- decisions -------------------------------------------------------------------

    def actor(self, g: Ints) -> Ints:
        return self._seat(g)

    def actor_in(self, phase: int, g: Ints) -> Ints:
        return self._seat(g)

    def _options(self, g: Ints) -> tuple[Ints, Bools, Bools, Ints, Ints, Ints]:
        """Of the seat to act in each game: its phase, whether it opens or replies, what it
        pays and the fewest and most white in it."""
        phase = self.at(self.phase, g)
        seat = self._seat(g)
        pay, low, high = self._terms(g, g * self.n + seat)
        betting = phase == BET
        reply = betting & (self.at(self.raiser, g) >= 0)
        return phase, betting & ~reply, reply, pay, low, high

    def legal(self, g: Ints) -> Bools:
        phase, opening, reply, pay, low, high = self._options(g)
        ids = np.arange(ACTIONS)
        low, high = low[:, None], high[:, None]
        white = ids - np.where(opening, RAISES, np.where(reply, CALLS, ANTES))[:, None]
        within = (white >= low) & (white <= high)
        legal: Bools = (phase == ANTE)[:, None] & within & (ids < PASS_ID)
        legal |= opening[:, None] & ((ids == PASS_ID) | (within & (pay > 0)[:, None]))
        legal |= reply[:, None] & ((ids == FOLD_ID) | (within & (ids >= CALLS)))
        return legal

    def default(self, g: Ints) -> Ints:
        """Ante the fewest white; pass; fold to a raise unless staying in is free (D4)."""
        phase, opening, _, pay, low, _ = self._options(g)
        default: Ints = np.where(
            phase == ANTE,
            ANTES + low,
            np.where(opening, PASS_ID, np.where(pay > 0, FOLD_ID, CALLS)),
        )
        return default

    def net(self, g: Ints) -> Ints:
        net: Ints = self.black.take(g, 0) + self.white.take(g, 0) - 6
        return net

    # --- what a seat sees --------------------------------------------------------------

    def observe(self, g: Ints, me: Ints | int) -> Floats:
        """`dicehall.games.tao.encoding` of the view of seat `me`, game by game."""
        n = self.n
        seen = Seen(g, me, n, self.every)
        t = Tensors(self.game.encoding.layout, g.size)
        phase = seen.rows(self.phase)
        t.one_hot("phase", PHASES.take(phase))
        t.one_hot("stage", seen.rows(self.stage) - 1)
        t.number("tiebreak", seen.rows(self.tiebreak))
        t.number("m", seen.rows(self.m))
        t.number("match", seen.rows(self.events["match"]))
        t.number("round", seen.rows(self.round_no))
        t.one_hot("first_player", seen.relative(seen.rows(self.first_player)))
        t.one_hot("opener", seen.relative(seen.rows(self.opener)))
        t.one_hot("raiser", seen.relative(seen.rows(self.raiser)))
        holder = seen.rows(self.token_holder)
        t.one_hot("token_holder", seen.relative(holder))
        gold = seen.rows(self.token_gold) & (holder >= 0) & (n > 2)
        t.flags("token_gold", gold[:, None])
        t.number("matches_won", seen.seats(self.matches_won))
        t.number("pot_black", seen.rows(self.pot_black))
        t.number("pot_white", seen.rows(self.pot_white))
        t.number("black", seen.seats(self.black))
        t.number("white", seen.seats(self.white))
        winner = seen.rows(self.winner)
        order = seen.seat_order()
        playing = seen.seats(self.in_round) | (order == winner[:, None])
        status = np.where(
            seen.seats(self.out),
            STATUS_OUT,
            np.where(playing, STATUS_IN, np.where(seen.seats(self.folded), STATUS_FOLDED, 2)),
        )
        bets = seen.seats(self.bet)
        for i in range(n):
            t.one_hot("status", status[:, i], None, 4 * i, 4)
            t.one_hot("bet", bets[:, i], None, 4 * i, 4)
        d12 = seen.seats(self.d12)
        t.number("d12", d12)
        paid = np.empty((g.size, 2 * n), dtype=np.int64)
        paid[:, 0::2] = seen.seats(self.paid_black)
        paid[:, 1::2] = seen.seats(self.paid_white)
        t.number("paid", paid)
        t.flags("must_reroll", seen.seats(self.must_reroll))
        faces = seen.seats(self.faces[:, :, 0])[:, 0], seen.seats(self.faces[:, :, 1])[:, 0]
        thrown = faces[0] > 0
        t.one_hot("your_dice", faces[0] - 1, thrown, 0, 6)
        t.one_hot("your_dice", faces[1] - 1, thrown, 6, 6)
        t.number("your_total", np.where(thrown, faces[0] + faces[1] + d12[:, 0], 0))
        t.flags("showdown_shown", seen.seats(self.shown))
        t.number("showdown_total", seen.seats(self.shown_total))
        t.flags("showdown_top", seen.seats(self.top))
        t.one_hot("winner", seen.relative(winner))
        return t.done()


LOWEST_BIT = np.array([(b & -b).bit_length() - 1 if b else 0 for b in range(256)], dtype=np.int64)
"""By a set of at most eight places as bits, the lowest place in it (0 in none)."""
PHASES = np.zeros(BET + 1, dtype=np.int64)
"""By phase, the encoding's phase (`PHASE_INDEX`)."""
for _phase, _index in PHASE_INDEX.items():
    PHASES[_phase] = _index
