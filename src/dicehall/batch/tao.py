"""Tao Dice in batches: N games advanced in lockstep with NumPy, random or heuristic play.

A second implementation of `dicehall.games.tao.rules` (D1-D12, every game
length and opener; not the research variants `tiebreaks`, `hidden_faces`,
`shown_faces`, `black_stones` and `white_stones`, which it refuses), kept
as close to it as arrays allow, for speed only;
`tests/batch/` checks statistically that it plays the engine's game. Each
pass plays a whole round in every game still running (ante, throw, two
stages of betting with their rerolls, showdown), its steps counted as the
engine counts them (a step per seat that antes, throws or chooses). A stage
of betting is a few array operations because a seat pays at most once in it
(its raise or its call), so what it can pay is known from the start: the
opening round is drawn seat by seat clockwise from the opener up to the
first raise, then the calling round of everyone else in. Only the total of
a seat's two d6 is kept: nothing else of them matters to the bots or the
showdown.

The heuristic bot (`dicehall.games.tao.bots`) is its policy as array
operations: its showdown equities (`dicehall.games.tao.odds.equity`, whole
numbers of outcomes as there, then the same float division) for every
deciding seat at once, and its thresholds on them. Its opening choice does
not depend on the others' (nobody has paid before the first raise), so the
opening stays one pass; after a raise it depends on what the seats before it
did (the pot, who folded, who will reroll the d12), so the calling round goes
seat by seat from the raiser, clockwise, as the engine asks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray

from dicehall.batch.base import Batch, Bools, Handler, Ints
from dicehall.batch.result import BatchResult
from dicehall.core.errors import OptionError
from dicehall.core.game import Game
from dicehall.games.tao.bots import RAISE_MARGIN
from dicehall.games.tao.rules import NO_LIMIT, RESEARCH_DICE, RESEARCH_STONES
from dicehall.games.tao.solver.equity import equity

Floats = NDArray[np.float64]
OPENER, ROUND, OVER = range(3)
"""Before the first player is known, a round to play, the game over."""
START_BLACK = 4
START_WHITE = 2
RESEARCH_DEFAULTS: dict[str, object] = {"tiebreaks": NO_LIMIT, **RESEARCH_DICE, **RESEARCH_STONES}
"""The research variants the batch does not play, at their defaults (it plays length=round).

See docs/researchers/environments.md.
"""

EVENTS = (
    "first",
    "match",
    "round",
    "ante",
    "throw",
    "d12",
    "pass",
    "raise",
    "call",
    "white bet",
    "gratis",
    "fold",
    "showdown",
    "tie",
    "pot",
    "out",
    "match-won",
    "token",
)
"""What the batch counts per game, named after the engine's events ("white bet": a raise or
call with a white stone, D5; "gratis": a call with no stones to pay, D4)."""


class TaoBatch(Batch):
    """`games` games of one configured Tao Dice; seat s played by `bots[s % len(bots)]`."""

    game_id = "tao"
    event_names = EVENTS

    def __init__(
        self,
        game: Game,
        games: int,
        seed: int | np.random.SeedSequence | None = None,
        bots: Sequence[str] = ("random",),
    ) -> None:
        super().__init__(game, games, seed, bots)
        varied = [
            f"{k}={game.options[k]}"
            for k, off in RESEARCH_DEFAULTS.items()
            if game.options[k] != off
        ]
        if varied:
            raise OptionError(
                f"batch play of tao (and the vector environment) plays no research variant but "
                f"length=round; got {', '.join(varied)}: leave out --batch, or use the single "
                "environment"
            )
        n, size = self.n, self.size
        self.length = str(game.options["length"])
        opener = str(game.options["opener"])
        self.black = np.full((size, n), START_BLACK, dtype=np.int64)
        self.white = np.full((size, n), START_WHITE, dtype=np.int64)
        self.pot_black = np.zeros(size, dtype=np.int64)
        self.pot_white = np.zeros(size, dtype=np.int64)
        self.out = np.zeros((size, n), dtype=bool)
        self.m = np.ones(size, dtype=np.int64)
        self.in_round = np.zeros((size, n), dtype=bool)
        self.dice = np.zeros((size, n), dtype=np.int64)  # the total of the two d6
        self.d12 = np.zeros((size, n), dtype=np.int64)
        self.must_reroll = np.zeros((size, n), dtype=bool)
        self.ante_due = np.zeros(size, dtype=bool)  # False in a tie-break round (D9)
        self.first_player = np.full(size, -1, dtype=np.int64)
        self.token_holder = np.full(size, -1, dtype=np.int64)
        self.token_gold = np.zeros(size, dtype=bool)
        self.matches_won = np.zeros((size, n), dtype=np.int64)
        self.winner = np.full(size, -1, dtype=np.int64)
        if opener == "random":
            self.phase[:] = OPENER
        else:
            self.first_player[:] = int(opener)
            self._start_match(np.arange(size))

    def handlers(self) -> dict[int, Handler]:
        return {OPENER: self._opener, ROUND: self._round}

    def run(self) -> BatchResult:
        """Play every game to the end; net: each seat's stones at the end minus its six."""
        self._play(self.handlers())
        net = self.black + self.white - START_BLACK - START_WHITE
        return BatchResult(self.game, self.steps, self.winner, net, "stones", dict(self.events))

    # --- who acts --------------------------------------------------------------------

    def _choose_each(self, count: Ints) -> Ints:
        """A uniform choice among `count[i, j]` legal actions for every seat j of game i."""
        return (self.rng.random(count.shape) * count).astype(np.int64)

    def _find_opener(self, g: Ints) -> Ints:
        """D3: the token holder, else the first player; if not in the round, the next one in."""
        holder = self.token_holder[g]
        start = np.where(holder >= 0, holder, self.first_player[g])
        order = (start[:, None] + np.arange(self.n)) % self.n
        mask = self.in_round.reshape(-1).take(g[:, None] * self.n + order)  # (flat: cheaper)
        opener: Ints = order[np.arange(g.size), np.argmax(mask, axis=1)]
        return opener

    # --- steps -----------------------------------------------------------------------

    def _round(self, g: Ints) -> None:
        """A round, top to bottom; a game whose round ends early (D7) drops out of the rest."""
        self._ante(g[self.ante_due[g]])
        self._throw(g)
        g = self._bet(g, 1)
        self._reroll(g, self._two_d6, "throw")  # D5
        self._throw_d12(g)  # D6
        g = self._bet(g, 2)
        self._reroll(g, self._d12, "d12")
        self._showdown(g)

    def _opener(self, g: Ints) -> None:
        """D3 option random: a die whose faces are the seats names the first player."""
        self.steps[g] += 1
        self.events["first"][g] += 1
        self.first_player[g] = self._choose(np.full(g.size, self.n))
        self._start_match(g)

    def _ante(self, g: Ints) -> None:
        """D2: everyone in antes m (all they have if fewer), colours chosen; a step each."""
        pay, low, high = self._split(
            g, self.in_round.take(g, 0), self.black.take(g, 0), self.white.take(g, 0)
        )
        white = low + self._choose_each(high - low + 1)
        white = np.where(self.heuristic, low, white)  # the heuristic: the fewest white
        self._pay(g, (slice(None),), pay - white, white)
        count = self.in_round.take(g, 0).sum(axis=1)
        self.steps[g] += count
        self.events["ante"][g] += count

    def _throw(self, g: Ints) -> None:
        """D2: everyone in throws two d6, hidden, one step each."""
        count = self.in_round.take(g, 0).sum(axis=1)
        self.steps[g] += count
        self.events["throw"][g] += count
        self.dice[g] = self._two_d6(g.size)

    def _throw_d12(self, g: Ints) -> None:
        """D6: everyone still in throws the d12 for all to see, one step each."""
        count = self.in_round.take(g, 0).sum(axis=1)
        self.steps[g] += count
        self.events["d12"][g] += count
        self.d12[g] = self._d12(g.size)

    def _bet(self, g: Ints, stage: int) -> Ints:
        """D3, D4: a stage of betting. Clockwise from the opener each seat in passes or
        raises, until the first raise; then everyone else in calls or folds. Returns the
        games still in the round (D7: in the others the last one in took the pot)."""
        n = self.n
        rows = np.arange(g.size)[:, None]
        order = (self._find_opener(g)[:, None] + np.arange(n)) % n  # seats, by position
        cells = g[:, None] * n + order  # the per-seat arrays flat: one index array
        playing = self.in_round.reshape(-1)[cells]
        has_black = self.black.reshape(-1)[cells]
        has_white = self.white.reshape(-1)[cells]
        pay, low, high = self._split(g, playing, has_black, has_white)
        colours = high - low + 1
        # The engine's legal lists: (pass, raise low..high), or (pass) with nothing to pay;
        # after the raise (call low..high, fold), or (call with nothing, fold).
        opening = self._choose_each(np.where(pay > 0, colours + 1, 1))
        smart = self.heuristic[order] & playing
        if smart.any():
            opening = self._heuristic_opening(g, stage, order, smart, pay, low, high, opening)
        raising = playing & (opening > 0)
        raised: Bools = np.asarray(raising.any(axis=1))
        first = np.argmax(raising, axis=1)
        position = np.arange(n)
        passes = playing & ((position < first[:, None]) | ~raised[:, None])
        raiser = raising & (position == first[:, None])
        others = playing & raised[:, None] & ~raiser
        reply = self._choose_each(colours + 1)
        if (smart & others).any():
            raise_white = low[rows[:, 0], first] + opening[rows[:, 0], first] - 1
            self._heuristic_replies(
                g, stage, order, others, smart, first, raise_white, pay, low, high, reply
            )
        folds = others & (reply == colours)
        calls = others & ~folds
        white = np.where(raiser, low + opening - 1, np.where(calls, low + reply, 0))
        bets = raiser | calls
        black = np.where(bets, pay - white, 0)
        self._pay(g, order, black, white)
        white_bets = bets & (white > 0)
        # D5: one reroll, however many white stones
        self.must_reroll.reshape(-1)[cells] = white_bets
        self.in_round.reshape(-1)[cells] = playing & ~folds  # D7: the stones stay in the pot
        self.steps[g] += passes.sum(axis=1) + raised + others.sum(axis=1)  # some seats twice
        for name, happened in (
            ("pass", passes),
            ("raise", raiser),
            ("call", calls),
            ("fold", folds),
            ("white bet", white_bets),
            ("gratis", calls & (pay == 0)),
        ):
            self.events[name][g] += happened.sum(axis=1)
        self._betted(g, stage, order, playing & ~bets & ~folds, raiser, calls, folds, black, white)
        alone = raised & (folds.sum(axis=1) == others.sum(axis=1))
        self._take_pot(g[alone], order[rows[alone, 0], first[alone]])
        left: Ints = g[~alone]
        return left

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
        """A stage's betting is done: `order` its seats (games x positions), each seat's
        last bet by position, the stones each paid. Nothing to keep here."""

    # --- the heuristic bot -------------------------------------------------------------

    def _equities(
        self, g: Ints, stage: int, seat: Ints, opponents: Bools, rerolling: Bools
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """`HeuristicBot.choose`'s two equities for `seat` of each game `g`: keeping its
        dice, and rerolling the stage's (two d6 in stage one, its d12 in stage two).
        `opponents` and `rerolling` are masks over the seats (in seat order): the others
        in, and those whose d12 is still to be thrown again (D5)."""
        two = self.dice[g, seat]
        none = np.zeros_like(two)
        if stage == 1:
            unknown = np.zeros_like(opponents, dtype=np.int64)
            return equity(two, none, opponents, unknown), equity(none, none, opponents, unknown)
        their = np.where(rerolling, 0, self.d12.take(g, 0))
        d12 = self.d12[g, seat]
        return equity(two, d12, opponents, their), equity(two, none, opponents, their)

    def _heuristic_opening(
        self,
        g: Ints,
        stage: int,
        order: Ints,
        smart: Bools,
        pay: Ints,
        low: Ints,
        high: Ints,
        opening: Ints,
    ) -> Ints:
        """The heuristic's opening choice (0: pass, k: raise with low + k - 1 white) for
        every seat `smart` of every game (games x positions), all at once."""
        rows, col = np.nonzero(smart)
        seat = order[rows, col]
        playing = self.in_round[g[rows]]
        opponents = playing & (np.arange(self.n) != seat[:, None])
        keep, reroll = self._equities(g[rows], stage, seat, opponents, np.zeros_like(opponents))
        lo, hi = low[rows, col], high[rows, col]
        raises, white = opens(keep, reroll, opponents.sum(axis=1) + 1, pay[rows, col], lo, hi)
        chosen = opening.copy()
        chosen[rows, col] = np.where(raises, 1 + white - lo, 0)
        return chosen

    def _heuristic_replies(
        self,
        g: Ints,
        stage: int,
        order: Ints,
        others: Bools,
        smart: Bools,
        first: Ints,
        raise_white: Ints,
        pay: Ints,
        low: Ints,
        high: Ints,
        reply: Ints,
    ) -> None:
        """The heuristic's calls and folds after a raise, into `reply` (k: call with
        low + k white; colours: fold), seat by seat clockwise from the raiser: each
        decision sees the pot, the folds and the coming d12 rerolls of the seats before."""
        n = self.n
        rows = np.arange(g.size)
        seats_in = self.in_round.take(g, 0)
        rerolling = np.zeros((g.size, n), dtype=bool)
        raiser = order[rows, first]
        rerolling[rows, raiser] = raise_white > 0
        pot = self.pot_black[g] + self.pot_white[g] + pay[rows, first]
        for k in range(1, n):
            col = (first + k) % n
            acts = others[rows, col]
            seat = order[rows, col]
            lo, hi, cost = low[rows, col], high[rows, col], pay[rows, col]
            ask = acts & smart[rows, col]
            if ask.any():
                a = np.flatnonzero(ask)
                opponents = seats_in[a] & (np.arange(n) != seat[a, None])
                keep, reroll = self._equities(g[a], stage, seat[a], opponents, rerolling[a])
                calls, white = replies(keep, reroll, pot[a], cost[a], lo[a], hi[a])
                reply[a, col[a]] = np.where(calls, white - lo[a], hi[a] - lo[a] + 1)
            called = acts & (reply[rows, col] <= hi - lo)
            pot += np.where(called, cost, 0)
            rerolling[rows, seat] |= called & (lo + reply[rows, col] > 0)
            seats_in[rows, seat] &= ~(acts & ~called)

    def _reroll(self, g: Ints, throw: Callable[[int], Ints], event: str) -> None:
        """D5: everyone who paid a white stone throws the stage's dice again, once."""
        again = self.must_reroll.take(g, 0)
        count = again.sum(axis=1)
        self.steps[g] += count
        self.events[event][g] += count
        if event == "throw":
            self.dice[g] = np.where(again, throw(g.size), self.dice.take(g, 0))
        else:
            self.d12[g] = np.where(again, throw(g.size), self.d12.take(g, 0))

    # --- the round ---------------------------------------------------------------------

    def _split(self, g: Ints, playing: Bools, black: Ints, white: Ints) -> tuple[Ints, Ints, Ints]:
        """What each seat playing pays (D2, D4: m, or all it has; nothing if not playing) and
        the fewest and the most of it that may be white."""
        pay = np.where(playing, np.minimum(self.m[g][:, None], black + white), 0)
        return pay, np.maximum(0, pay - black), np.minimum(white, pay)

    def _pay(self, g: Ints, seats: Ints | tuple[slice], black: Ints, white: Ints) -> None:
        """Stones into the pot: `black` and `white` (games x seats) from the `seats` of `g`
        (a permutation of the seats in each game, or all of them in seat order)."""
        if isinstance(seats, np.ndarray):
            cells = g[:, None] * self.n + seats
            self.black.reshape(-1)[cells] -= black
            self.white.reshape(-1)[cells] -= white
        else:
            self.black[(g, *seats)] -= black
            self.white[(g, *seats)] -= white
        self.pot_black[g] += black.sum(axis=1)
        self.pot_white[g] += white.sum(axis=1)

    def _two_d6(self, games: int) -> Ints:
        dice: Ints = self.rng.integers(1, 7, (games, self.n, 2)).sum(axis=2)
        return dice

    def _d12(self, games: int) -> Ints:
        return self.rng.integers(1, 13, (games, self.n))

    def _start_match(self, g: Ints) -> None:
        """D1: four black and two white stones each; everyone is in."""
        if g.size == 0:
            return
        self.events["match"][g] += 1
        self.black[g] = START_BLACK
        self.white[g] = START_WHITE
        self.out[g] = False
        self.m[g] = 1
        self.in_round[g] = True
        self._start_round(g, ante=True)

    def _start_round(self, g: Ints, ante: bool) -> None:
        """A round for the seats in `in_round`; a tie-break round has no ante (D9)."""
        if g.size == 0:
            return
        self.events["round"][g] += 1
        self.phase[g] = ROUND
        self.ante_due[g] = ante

    def _showdown(self, g: Ints) -> None:
        """D8, D9: the highest total takes the pot; those tied for it play a tie-break."""
        if g.size == 0:
            return
        self.events["showdown"][g] += 1
        totals = np.where(self.in_round.take(g, 0), self.dice.take(g, 0) + self.d12.take(g, 0), -1)
        top = totals == totals.max(axis=1, keepdims=True)
        single = top.sum(axis=1) == 1
        gs = g[single]
        self._take_pot(gs, np.argmax(top[single], axis=1))
        gt = g[~single]
        self.events["tie"][gt] += 1
        self.in_round[gt] = top[~single]
        self._mark_out(gt)
        self._start_round(gt, ante=False)

    def _take_pot(self, g: Ints, seat: Ints) -> None:
        """The pot to the winner of the round; D10: out, the end of the match, or a round."""
        if g.size == 0:
            return
        self.events["pot"][g] += 1
        cell = g * self.n + seat
        self.black.reshape(-1)[cell] += self.pot_black[g]
        self.white.reshape(-1)[cell] += self.pot_white[g]
        self.pot_black[g] = self.pot_white[g] = 0
        self.in_round[g] = False
        self._mark_out(g)
        if self.length == "round":  # research variant: the first pot ends the game
            self.winner[g] = seat
            self.phase[g] = OVER
            return
        holders = ~self.out.take(g, 0)
        last = holders.sum(axis=1) == 1
        self._end_match(g[last], seat[last])
        g = g[~last]
        self.in_round[g] = ~self.out.take(g, 0)
        self._start_round(g, ante=True)

    def _mark_out(self, g: Ints) -> None:
        """D10, D11: a seat not in the round with no stones is out; m follows the outs."""
        if g.size == 0:
            return
        stones = self.black.take(g, 0) + self.white.take(g, 0)
        newly = ~self.out.take(g, 0) & ~self.in_round.take(g, 0) & (stones == 0)
        self.events["out"][g] += newly.sum(axis=1)
        self.out[g] |= newly
        if self.n >= 4:
            self.m[g] = 1 + self.out.take(g, 0).sum(axis=1) // 2

    def _end_match(self, g: Ints, seat: Ints) -> None:
        """D12: the token moves to the winner, turns gold, or wins the game."""
        if g.size == 0:
            return
        self.events["match-won"][g] += 1
        won_cell = g * self.n + seat
        self.matches_won.reshape(-1)[won_cell] += 1
        lacks = self.token_holder[g] != seat
        self.token_holder[g[lacks]] = seat[lacks]
        self.token_gold[g[lacks]] = False
        turns = ~lacks & ~self.token_gold[g] if self.n > 2 else np.zeros(g.size, dtype=bool)
        self.token_gold[g[turns]] = True
        self.events["token"][g[lacks | turns]] += 1
        if self.length == "single":
            won = np.ones(g.size, dtype=bool)
        elif self.length == "two":
            won = self.matches_won.reshape(-1).take(won_cell) == 2
        else:
            won = ~lacks & ~turns
        self.winner[g[won]] = seat[won]
        self.phase[g[won]] = OVER
        self._start_match(g[~won])


def opens(
    keep: Floats, reroll: Floats, players: Ints, pay: Ints, low: Ints, high: Ints
) -> tuple[Bools, Ints]:
    """`HeuristicBot`'s opening choice: whether it raises, and with how many white, given
    its equities keeping and rerolling, the players in and what a raise costs."""
    best = np.where(high > 0, np.maximum(keep, reroll), keep)
    raises: Bools = (best * players > RAISE_MARGIN) & (pay > 0)
    return raises, _white(reroll > keep, low, high)


def replies(
    keep: Floats, reroll: Floats, pot: Ints, cost: Ints, low: Ints, high: Ints
) -> tuple[Bools, Ints]:
    """`HeuristicBot`'s reply to a raise: whether it calls (free, or worth its share of
    the pot), and with how many white."""
    best = np.where(high > 0, np.maximum(keep, reroll), keep)
    calls: Bools = (cost == 0) | (best * (pot + cost) >= cost)
    return calls, _white(reroll > keep, low, high)


def _white(reroll: Bools, low: Ints, high: Ints) -> Ints:
    """`bots.pay_with`: one white stone when the bot wants to reroll and may pay one,
    else the fewest white it may pay."""
    one = reroll & (low <= 1) & (high >= 1)
    return np.where(one, 1, low)
