"""Kariki in batches: N games advanced in lockstep with NumPy, random or heuristic play.

A second implementation of the rules in `dicehall.games.kariki.rules`, kept
as close to it as arrays allow: the same phases, the same order of berries,
the same choices for a random player (uniform among the legal actions). It
exists for speed only, and `tests/batch/` checks statistically that it plays
the game the engine plays, seat count by seat count.

Each pass of the loop takes one step in every game still running, whatever
its phase, except the roll-off: a round of it (one die per contender, C5) is
taken at once and counted as that many steps. Turn timers (K8) do not exist
here: nobody times out in a simulation.

The heuristic bot (`dicehall.games.kariki.bots`) is its policy as array
operations, with its own tables (TRUST, FAIL_TO_BEAT) and the same float
arithmetic, so it decides as the bot does to the last bit. It remembers what
the bot remembers: each heuristic seat keeps, per thrower, the unforced
claims it saw pulled and how many were lies, learnt from the last dice shown
(`last_shown`) whenever it is asked to choose, as the bot learns them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from dicehall.batch.base import Batch, Bools, Handler, Ints
from dicehall.batch.result import BatchResult
from dicehall.core.errors import OptionError
from dicehall.core.game import Game
from dicehall.games.kariki import bots as heuristic

ROLL_OFF, THROW, DIRECTION, CLAIM, RESPOND, EMERGENCY, OVER = range(7)
"""The engine's phases, numbered as there."""
KARIKI = 14
DOUBLE_SIXES = 13
BERRIES_OUT = 5
BERRIES_POO = 4

RANK = np.full((7, 7), -1, dtype=np.int8)
"""RANK[a, b]: the rank of faces a and b (K2), as in the engine."""
for _a in range(1, 7):
    for _b in range(1, 7):
        RANK[_a, _b] = KARIKI if _a + _b == 3 else (7 + _a if _a == _b else _a + _b - 4)
RANKS = RANK.astype(np.int64).reshape(-1)
"""RANK flat, by 7 * a + b: arrays of faces are ranked with one `take`."""

BERRY_REASONS = {
    "kariki": "Kariki",
    "third-crown": "third crown",
    "no-kariki": "failed to beat Double Sixes",
    "caught-lying": "caught lying",
    "false-accusation": "false accusation",
}
"""Why a berry is given (K3, K5), by the batch's name: the engine's words in its berry events."""

EVENTS = (
    "kariki",
    "third-crown",
    "no-kariki",
    "claim",
    "roll",
    "pass",
    "pull",
    "pull-true",
    "berry",
    *(f"berry {why}" for why in BERRY_REASONS),
    "poo",
    "out",
    "emergency",
    "roll-off-tie",
)
"""What the batch counts per game, each named after the engine's event (see `event_counts`)."""

TRUST = np.array(heuristic.TRUST)
"""The heuristic's TRUST[honesty step, previous claim + 1, claim]: the chance a claim is true."""
FAIL_TO_BEAT = np.array(heuristic.FAIL_TO_BEAT)
RESEARCH_DEFAULTS: dict[str, object] = {
    "berries": BERRIES_OUT,
    "one_round": False,
    "first_roller": "roll-off",
    "throws": 0,
}
"""The research variants, which the batch does not play, at their defaults.

See docs/researchers/environments.md.
"""
KEY = 7
"""A pull as the heuristic tells pulls apart: dice, thrower, claim, previous claim, puller,
the berry's receiver (the engine's `last_shown`, whose values the bot compares)."""


class KarikiBatch(Batch):
    """`games` games of one configured Kariki; seat s played by `bots[s % len(bots)]`."""

    game_id = "kariki"
    event_names = EVENTS
    roll_off_tie = "roll-off-tie"

    def __init__(
        self,
        game: Game,
        games: int,
        seed: int | np.random.SeedSequence | None = None,
        bots: Sequence[str] = ("random",),
    ) -> None:
        super().__init__(game, games, seed, bots)
        options = game.options
        varied = [name for name, off in RESEARCH_DEFAULTS.items() if options[name] != off]
        if varied:
            raise OptionError(
                f"batch play of kariki plays no research variant ({', '.join(varied)}); "
                "leave out --batch"
            )
        self.at_least = options["pull"] == "at-least"
        self.after_kariki_roller = options["after_kariki"] == "roller"
        self.high_rollers = bool(options["high_rollers"])
        buy_in = int(options["buy_in"])
        n, size = self.n, self.size
        self.phase[:] = ROLL_OFF
        self.step = np.ones(size, dtype=np.int64)
        self.berries = np.zeros((size, n), dtype=np.int64)
        self.crowns = np.zeros((size, n), dtype=np.int64)
        self.out = np.zeros((size, n), dtype=bool)
        self.in_count = np.full(size, n, dtype=np.int64)
        self.emergency_used = np.zeros((size, n), dtype=bool)
        self.paid = np.full((size, n), buy_in, dtype=np.int64)
        self.pot = np.full(size, buy_in * n, dtype=np.int64)
        self.roller = np.full(size, -1, dtype=np.int64)
        self.dice_rank = np.full(size, -1, dtype=np.int64)
        self.claim = np.full(size, -1, dtype=np.int64)
        self.owner = np.full(size, -1, dtype=np.int64)
        self.responder = np.full(size, -1, dtype=np.int64)
        self.passed = np.zeros(size, dtype=np.int64)  # bit s: seat s passed this claim (K6)
        # nxt[g, s]: the next seat after s in the direction of play that is still in (C2),
        # kept up to date when the direction is chosen and when a seat goes out.
        self.nxt = np.zeros((size, n), dtype=np.int64)
        # K9's queue: pending[g, s] is s's place in the queue (0: not waiting).
        self.pending = np.zeros((size, n), dtype=np.int64)
        self.queued = np.zeros(size, dtype=np.int64)
        self.beginner = np.full(size, -1, dtype=np.int64)
        self.previous = np.full(size, -1, dtype=np.int64)  # the claim the claim followed
        self.dice = np.zeros((size, 2), dtype=np.int64)  # under the mug, as thrown
        # The heuristic's memory: the last pull shown (KEY), and for each heuristic seat
        # the last pull it learnt from and, by thrower, unforced claims pulled and lies.
        self.shown_pull = np.zeros(size, dtype=bool)
        self.shown = np.full((size, KEY), -1, dtype=np.int64)
        if self.heuristic.any():
            self.seen = np.full((size, n, KEY), -2, dtype=np.int64)
            self.unforced = np.zeros((size, n, n), dtype=np.int64)
            self.lies = np.zeros((size, n, n), dtype=np.int64)

    # --- playing -----------------------------------------------------------------

    def handlers(self) -> dict[int, Handler]:
        return {
            ROLL_OFF: self._roll_off,
            DIRECTION: self._direction,
            THROW: self._throw,
            CLAIM: self._claim,
            RESPOND: self._respond,
            EMERGENCY: self._emergency,
        }

    def run(self) -> BatchResult:
        """Play every game to the end."""
        self._play(self.handlers())
        self.events["berry"] = np.sum(
            [self.events[f"berry {why}"] for why in BERRY_REASONS], axis=0
        )
        winner = np.argmin(self.out, axis=1)
        net = -self.paid
        net[np.arange(self.size), winner] += self.pot
        return BatchResult(self.game, self.steps, winner, net, "stakes", dict(self.events))

    def _roll_off(self, g: Ints) -> None:
        """C5: the winner of the roll-off rolls first."""
        done, first = self._roll_off_round(g)
        self.roller[done] = first
        self.phase[done] = DIRECTION

    def _direction(self, g: Ints) -> None:
        """K1: the first roller sends play left or right."""
        self.steps[g] += 1
        left = self._choose(np.full(g.size, 2)) == 0
        left |= self._asks_heuristic(g, self.roller[g])  # the heuristic sends play left
        self.step[g] = np.where(left, 1, -1)
        self.phase[g] = THROW
        self.nxt[g] = (np.arange(self.n) + self.step[g][:, None]) % self.n

    def _throw(self, g: Ints) -> None:
        """K3, K5: a Kariki is shown; over Double Sixes anything else is a berry."""
        self.steps[g] += 1
        a = self.rng.integers(1, 7, g.size)
        b = self.rng.integers(1, 7, g.size)
        rank = RANKS.take(a * 7 + b)
        kariki = rank == KARIKI
        if kariki.any():
            self._kariki(g[kariki])
        failed = ~kariki & (self.claim[g] == DOUBLE_SIXES)
        if failed.any():
            gf = g[failed]
            roller = self.roller[gf]
            after = self._next_in(gf, roller)
            self.events["no-kariki"][gf] += 1
            self._berry(gf, roller, "no-kariki")
            self._begin_after_berries(gf, after)
        hidden = ~kariki & ~failed
        gh = g[hidden]
        self.dice_rank[gh] = rank[hidden]
        cell = gh * 2
        self.dice.reshape(-1)[cell] = a[hidden]
        self.dice.reshape(-1)[cell + 1] = b[hidden]
        self.phase[gh] = CLAIM

    def _kariki(self, g: Ints) -> None:
        """K3: a crown, a berry for the next player, and every third crown one for all others."""
        roller = self.roller[g]
        self.events["kariki"][g] += 1
        self.shown_pull[g] = False  # the Kariki is the last dice shown now
        victim = self._next_in(g, roller)
        in_before = ~self.out.take(g, 0)
        crowns, cell = self.crowns.reshape(-1), g * self.n + roller
        crowns[cell] += 1
        self._berry(g, victim, "kariki")
        third = crowns.take(cell) % 3 == 0
        if third.any():
            self.events["third-crown"][g[third]] += 1
            self._third_crown(g[third], roller[third], in_before[third])
        self._begin_after_berries(g, roller if self.after_kariki_roller else victim)

    def _third_crown(self, g: Ints, roller: Ints, in_before: NDArray[np.bool_]) -> None:
        """K3: a berry for every other player who was in, from the victim round, in play order."""
        step = self.step[g]
        for k in range(1, self.n):
            seat = (roller + step * k) % self.n
            was_in = in_before[np.arange(g.size), seat]
            self._berry(g[was_in], seat[was_in], "third-crown")

    def _claim(self, g: Ints) -> None:
        """K4: any rank strictly above the claim it follows, never Kariki."""
        self.steps[g] += 1
        self.events["claim"][g] += 1
        claim = self.claim[g]
        new = claim + 1 + self._choose(DOUBLE_SIXES - claim)
        roller = self.roller[g]
        smart = self._asks_heuristic(g, roller)
        if smart.any():  # the truth when it is high enough, else the lowest legal claim
            rank = self.dice_rank[g[smart]]
            new[smart] = np.maximum(rank, claim[smart] + 1)
        self.previous[g] = claim
        self.claim[g] = new
        self.owner[g] = roller
        self.passed[g] = 0
        self.responder[g] = self._next_in(g, roller)
        self.phase[g] = RESPOND

    def _respond(self, g: Ints) -> None:
        """K5, K6: roll higher, pull or pass; the thrower may not roll, nobody passes twice."""
        self.steps[g] += 1
        seat = self.responder[g]
        thrower = seat == self.roller[g]
        passed = self._passed_already(g, seat)
        # The legal actions, in the engine's order: roll, pull, pass (K6 drops one).
        count = np.where(thrower | passed, 2, 3)
        pick = self._choose(count) + thrower  # the thrower's list starts at pull
        smart = self._asks_heuristic(g, seat)
        if smart.any():
            pick[smart] = self._heuristic_response(g[smart], seat[smart], thrower[smart],
                                                   passed[smart])  # fmt: skip
        rolls, pulls, passes = pick == 0, pick == 1, pick == 2
        gr = g[rolls]
        self.events["roll"][gr] += 1
        self.roller[gr] = seat[rolls]
        self.dice_rank[gr] = -1
        self.phase[gr] = THROW
        gp, sp = g[passes], seat[passes]
        self.events["pass"][gp] += 1
        self.passed[gp] |= 1 << sp
        self.owner[gp] = sp
        self.responder[gp] = self._next_in(gp, sp)
        if pulls.any():
            self._pull(g[pulls], seat[pulls])

    def _passed_already(self, g: Ints, seat: Ints) -> NDArray[np.bool_]:
        """K6: a player passes a claim at most once."""
        passed: NDArray[np.bool_] = (self.passed[g] >> seat) & 1 == 1
        return passed

    def _pull(self, g: Ints, puller: Ints) -> None:
        """K5: lift the mug; the loser gets the berry, the other begins a fresh roll."""
        owner = self.owner[g]
        true = self._claim_is_true(self.dice_rank[g], self.claim[g])
        self.events["pull"][g] += 1
        self.events["pull-true"][g] += true
        loser = np.where(true, puller, owner)
        beginner = np.where(true, owner, puller)
        self.shown_pull[g] = True
        self.shown[g] = np.column_stack(
            [self.dice.take(g, 0), self.roller[g], self.claim[g], self.previous[g], puller, loser]
        )
        self._berry(g[true], loser[true], "false-accusation")
        self._berry(g[~true], loser[~true], "caught-lying")
        self._begin_after_berries(g, beginner)

    def _claim_is_true(self, rank: Ints, claim: Ints) -> NDArray[np.bool_]:
        """K5's option pull: exact, or at least the claim."""
        return rank >= claim if self.at_least else rank == claim

    def _emergency(self, g: Ints) -> None:
        """K9: the first in the queue buys an emergency berry for the pot's sum, or goes out."""
        self.steps[g] += 1
        pending = self.pending.take(g, 0)
        queue = np.where(pending > 0, pending, np.iinfo(np.int64).max)
        seat = np.argmin(queue, axis=1)
        self.pending[g, seat] = 0
        buy = self._choose(np.full(g.size, 2)) == 0
        smart = self._asks_heuristic(g, seat)
        if smart.any():  # worth it with an even chance or better: 1 / (1 + others) >= 0.5
            gs = g[smart]
            left = np.where(self.out.take(gs, 0), 0, BERRIES_OUT - self.berries.take(gs, 0))
            others = left.sum(axis=1) - left[np.arange(gs.size), seat[smart]]
            buy[smart] = others <= 1
        gb, sb = g[buy], seat[buy]
        self.events["emergency"][gb] += 1
        self.paid[gb, sb] += self.pot[gb]
        self.pot[gb] *= 2
        self.berries[gb, sb] = BERRIES_POO
        self.emergency_used[gb, sb] = True
        self._go_out(g[~buy], seat[~buy])
        done = ~self.pending.take(g, 0).any(axis=1)
        gd = g[done]
        self._begin_after_berries(gd, self.beginner[gd])

    # --- the heuristic bot -------------------------------------------------------------

    def _asks_heuristic(self, g: Ints, seat: Ints) -> Bools:
        """Which of the seats choosing now are heuristic; each first learns from the last
        pull shown, as `HeuristicBot.observe` does before every choice."""
        smart: Bools = self.heuristic[seat]
        if smart.any():
            self._observe(g[smart], seat[smart])
        return smart

    def _observe(self, g: Ints, seat: Ints) -> None:
        """A pull not yet learnt from: an unforced claim (not one rank above the claim it
        followed) counts for its thrower, a lie if the dice were not the claim."""
        key = self.shown.take(g, 0)
        new = self.shown_pull[g] & (key != self.seen[g, seat]).any(axis=1)
        g, seat, key = g[new], seat[new], key[new]
        self.seen[g, seat] = key
        claim, previous = key[:, 3], key[:, 4]
        unforced = (previous < 0) | (claim != previous + 1)
        g, seat, key = g[unforced], seat[unforced], key[unforced]
        thrower = key[:, 2]
        self.unforced[g, seat, thrower] += 1
        self.lies[g, seat, thrower] += RANK[key[:, 0], key[:, 1]] != key[:, 3]

    def _heuristic_response(self, g: Ints, seat: Ints, thrower: Bools, passed: Bools) -> Ints:
        """`HeuristicBot._respond`: the engine's index (0 roll, 1 pull, 2 pass) of the
        cheapest of its three risks in expected berries, the first of them on a tie."""
        claim, rank = self.claim[g], self.dice_rank[g]
        roller = self.roller[g]
        claims = self.unforced[g, seat, roller]
        honest = claims - self.lies[g, seat, roller]
        honesty = (heuristic.HONESTY_PRIOR * heuristic.PRIOR_WEIGHT + honest) / (
            heuristic.PRIOR_WEIGHT + claims
        )
        step = np.rint(honesty * heuristic.TRUST_STEPS).astype(np.int64)
        true = TRUST[step, self.previous[g] + 1, claim]
        fail = FAIL_TO_BEAT[claim] - 2 / 36  # a Kariki never costs the roller
        roll = np.where(claim == DOUBLE_SIXES, fail, fail * heuristic.PULL_RATE)
        nxt = self._next_in(g, seat)
        rate = np.where(nxt == roller, heuristic.THROWER_PULL_RATE, heuristic.PULL_RATE)
        pass_ = np.where(passed, np.inf, (1.0 - true) * rate)
        costs = np.column_stack([true, roll, pass_])  # the bot's order: pull, roll, pass
        pick = np.array([1, 0, 2])[np.argmin(costs, axis=1)]
        holds = self._claim_is_true(rank, claim)  # its own throw came back: it knows
        return np.where(thrower, np.where(holds, 2, 1), pick)

    # --- berries, going out, the next roll -----------------------------------------

    def _berry(self, g: Ints, seat: Ints, why: str) -> None:
        """One berry for one seat in each game (K7); a fifth puts it out or in K9's queue."""
        if g.size == 0:
            return
        flat = self.berries.reshape(-1)
        cell = g * self.n + seat
        berries = flat[cell] + 1
        keep = berries <= BERRIES_OUT  # already about to go out: nothing more
        g, seat, berries = g[keep], seat[keep], berries[keep]
        flat[cell[keep]] = berries
        self.events[f"berry {why}"][g] += 1  # "berry", their sum, is added up at the end
        self.events["poo"][g] += berries == BERRIES_POO
        five = berries == BERRIES_OUT
        if self.high_rollers:
            offer = five & ~self.emergency_used[g, seat]
            go, so = g[offer], seat[offer]
            self.queued[go] += 1
            self.pending[go, so] = self.queued[go]
            five &= ~offer
        self._go_out(g[five], seat[five])

    def _go_out(self, g: Ints, seat: Ints) -> None:
        if g.size == 0:
            return
        self.out.reshape(-1)[g * self.n + seat] = True
        self.in_count[g] -= 1
        self.events["out"][g] += 1
        self._successor_left(self.nxt, g, seat)

    def _begin_after_berries(self, g: Ints, beginner: Ints) -> None:
        """K9's choices first; then the game ends or the beginner (or the next in, C2) throws."""
        if self.high_rollers:
            waiting = self.pending.take(g, 0).any(axis=1)
            gw = g[waiting]
            self.beginner[gw] = beginner[waiting]
            self.phase[gw] = EMERGENCY
            g, beginner = g[~waiting], beginner[~waiting]
        self.dice_rank[g] = -1
        self.claim[g] = -1
        self.previous[g] = -1
        self.owner[g] = -1
        self.responder[g] = -1
        self.passed[g] = 0
        over = self.in_count[g] == 1
        self.phase[g[over]] = OVER
        self.roller[g[over]] = -1
        g, beginner = g[~over], beginner[~over]
        is_out = self.out.reshape(-1)[g * self.n + beginner]
        beginner = np.where(is_out, self._next_in(g, beginner), beginner)
        self.roller[g] = beginner
        self.phase[g] = THROW

    def _next_in(self, g: Ints, seat: Ints) -> Ints:
        """The next seat after `seat` in the direction of play that is still in (C2)."""
        following: Ints = self.nxt.reshape(-1)[g * self.n + seat]
        return following
