"""Toplshteyner in batches: N games advanced in lockstep with NumPy, random or heuristic play.

A second implementation of `dicehall.games.toplshteyner.rules` (P1-P10, C2,
C5), kept as close to it as arrays allow, for speed only; `tests/batch/`
checks statistically that it plays the engine's game. Each pass takes one
step in every game still running; a round of the roll-off (one die per
contender) is taken at once and counted as that many steps, and a turn's
throws several at a time: up to `LOOKAHEAD` plain throws (neither a double
nor a 7 on a point: they only move the point and pass the dice) walked on a
table of points, then the first other throw in full (`_throw`).

The heuristic bot (`dicehall.games.toplshteyner.bots`) always buys the
fourth life; whom it elects is the bot's own `elect`, asked once per
distinct position and looked up from then on, so it is the bot's policy
exactly. A position is the lives of the players still in, in play order from
the roller: all the bot's arithmetic sees (`odds.chance_after` takes the
players in play order, and the bot the first of the best in play order), so
positions that differ by where the table starts or by empty seats are asked
once, and the answers are kept for the whole process.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from dicehall.batch.base import Batch, Handler, Ints
from dicehall.batch.result import BatchResult
from dicehall.core.game import Game

ROLLOFF, TURN, ELECT, BUY, OVER = range(5)
"""The engine's phases, numbered as there."""
LOOKAHEAD = 6
"""Throws drawn per game and pass (`_throw`): a pass plays up to that many plain throws."""
FIRST = np.arange(36, dtype=np.int64) // 6 + 1
SECOND = np.arange(36, dtype=np.int64) % 6 + 1
"""The two dice of a throw drawn as one number (0 to 35)."""
TOTAL = FIRST + SECOND
STOPPED = 13
"""Past the points (0 to 12): a game whose walk of plain throws a hard throw stopped."""
IDLE, SET, MADE, HARD_THROW, AFTER_HARD = range(5)
"""What a throw does to a point (`KIND`): nothing, sets it, makes it (the turn ends), a
double or a 7 on a point (lives and decisions, `_thrown`), or comes after such a throw."""
_POINT = np.arange(2 * STOPPED)[:, None] % STOPPED
_OVER = (np.arange(2 * STOPPED) >= STOPPED)[:, None]
_HARD = ~_OVER & ((FIRST == SECOND)[None, :] | ((_POINT != 0) & (TOTAL == 7)[None, :]))
_SETS = ~_OVER & ~_HARD & (_POINT == 0) & (TOTAL != 7)[None, :]
_MADE = ~_OVER & ~_HARD & (_POINT != 0) & (TOTAL == _POINT)
KIND = np.select([_OVER, _HARD, _MADE, _SETS], [AFTER_HARD, HARD_THROW, MADE, SET], IDLE)
KIND = KIND.astype(np.int8).reshape(-1)
"""KIND[36 * state + throw]: what a throw (0 to 35) does in a state (a point, or STOPPED
+ the point). Every throw but a double or a 7 on a point only moves the point
(`ToplshteynerBatch._throw`); AFTER[36 * state + throw] is 36 times the state after it."""
AFTER = 36 * np.select(
    [_OVER, _HARD, _SETS, _MADE], [_POINT + STOPPED, _POINT + STOPPED, TOTAL[None, :], 0], _POINT
).reshape(-1)
HARD = KIND == HARD_THROW
"""HARD[36 * point + throw]: a double, or a 7 on a point: the throws `_thrown` plays."""

START_LIVES = 3
MAX_LIVES = 4
TURN_ENDS = ("point", "saving_grace", "second_snake_eyes", "seven", "trick_sixes", "out")
EVENTS = (
    *(f"double {face}" for face in range(1, 7)),
    *(f"turn {why}" for why in TURN_ENDS),
    "point",
    "life_lost",
    "out",
    "elect",
    *(f"elect {seat}" for seat in range(8)),
    "buy",
    "decline",
    "life_back",
    "empty_pot",
    "rolloff_tie",
)
"""What the batch counts per game, named after the engine's events (a double by its face,
a turn's end by its reason, an election also by the seat elected)."""


class Walk:
    """What `ToplshteynerBatch._throw`'s plain throws did in each of its games: the throws
    played (`used`), points set and made, the last throw played (a number 0 to 35), the
    throws since the last turn that ended among them (all of them if none did) and the
    roller of that turn (-1 if none)."""

    def __init__(self, size: int) -> None:
        self.used = np.zeros(size, dtype=np.int64)
        self.sets = np.zeros(size, dtype=np.int64)
        self.made = np.zeros(size, dtype=np.int64)
        self.last = np.zeros(size, dtype=np.int64)
        self.since = np.zeros(size, dtype=np.int64)
        self.ender = np.full(size, -1, dtype=np.int64)


class ToplshteynerBatch(Batch):
    """`games` games of one configured Toplshteyner; seat s played by `bots[s % len(bots)]`."""

    game_id = "toplshteyner"
    event_names = EVENTS
    roll_off_tie = "rolloff_tie"

    def __init__(
        self,
        game: Game,
        games: int,
        seed: int | np.random.SeedSequence | None = None,
        bots: Sequence[str] = ("random",),
    ) -> None:
        super().__init__(game, games, seed, bots)
        self.for_fun = bool(game.options["for_fun"])
        self.sixes_end_turn = bool(game.options["sixes_end_turn"])
        self._elect_cache = ELECTIONS.setdefault((self.for_fun, self.sixes_end_turn), {})
        n, size = self.n, self.size
        self.lives = np.full((size, n), START_LIVES, dtype=np.int64)
        self.paid = np.zeros((size, n), dtype=np.int64)
        self.reclaimed = np.zeros((size, n), dtype=np.int64)
        self.pot = np.zeros(size, dtype=np.int64)
        self.alive = np.full(size, n, dtype=np.int64)
        self.phase[:] = ROLLOFF
        self.roller = np.full(size, -1, dtype=np.int64)
        self.winner = np.full(size, -1, dtype=np.int64)
        self.point = np.zeros(size, dtype=np.int64)
        self.snake_eyes = np.zeros(size, dtype=bool)
        self.threes = np.zeros(size, dtype=bool)
        self.high_fives = np.zeros(size, dtype=bool)
        # nxt[g, s]: the next seat clockwise after s with lives (C2), kept up to date
        self.nxt = np.tile((np.arange(n) + 1) % n, (size, 1))

    def handlers(self) -> dict[int, Handler]:
        return {ROLLOFF: self._rolloff, TURN: self._throw, ELECT: self._elect, BUY: self._buy}

    def run(self) -> BatchResult:
        """Play every game to the end."""
        self._play(self.handlers())
        net = self.reclaimed - self.paid
        net[np.arange(self.size), self.winner] += self.pot
        return BatchResult(self.game, self.steps, self.winner, net, "stakes", dict(self.events))

    # --- steps -------------------------------------------------------------------

    def _rolloff(self, g: Ints) -> None:
        """C5: the winner of the roll-off throws first."""
        done, first = self._roll_off_round(g)
        self.roller[done] = first
        self.phase[done] = TURN

    def _throw(self, g: Ints) -> None:
        """P3: throws of two dice in each game, up to `LOOKAHEAD` of them in one pass.

        A throw that is neither a double nor a 7 on a point only moves the point (sets
        it, makes it and passes the dice, or leaves it as it is), so a pass draws
        `LOOKAHEAD` throws per game at once and walks such plain throws column by
        column on the games' points and rollers alone, written back once; a game's
        first other throw (a double, or a 7 on a point: lives and decisions) is then
        played in full (`_thrown`), and the throws drawn after it are never used. A
        game reads its throws in order up to a point fixed by the throws read so far,
        so they are independent throws of two dice, as the engine's."""
        size = g.size
        codes = self.rng.integers(0, 36, (LOOKAHEAD, size))
        walk = Walk(size)
        # a game's state: its point, or STOPPED + its point once a hard throw stopped it
        state = self.point.take(g) * 36
        kinds = np.empty((LOOKAHEAD, size), dtype=np.int8)
        for column in range(LOOKAHEAD):
            key = state + codes[column]
            KIND.take(key, out=kinds[column])
            state = AFTER.take(key)
        made = kinds == MADE
        walk.made = made.sum(axis=0)
        walk.sets = np.count_nonzero(kinds == SET, axis=0)
        walk.used = np.count_nonzero(kinds < HARD_THROW, axis=0)
        last_made = LOOKAHEAD - 1 - np.argmax(made[::-1], axis=0)
        stopped = state >= STOPPED * 36
        rows = np.arange(size)
        used = walk.used
        walk.last = codes[np.maximum(used - 1, 0), rows]
        walk.since = np.where(walk.made > 0, used - last_made - 1, used)
        roller = self.roller.take(g)
        cells = g * self.n
        nxt = self.nxt.reshape(-1)
        for turns in range(int(walk.made.max(initial=0))):
            passes = walk.made > turns
            walk.ender = np.where(passes, roller, walk.ender)
            roller = np.where(passes, nxt.take(cells + roller), roller)
        self.steps[g] += used
        self.point[g] = state // 36 % STOPPED
        self.roller[g] = roller
        self.events["point"][g] += walk.sets
        self.events["turn point"][g] += walk.made
        ended = g[walk.made > 0]
        self.snake_eyes[ended] = self.threes[ended] = self.high_fives[ended] = False
        self._walked(g, walk)
        if stopped.any():
            gh = g[stopped]
            code = codes[used[stopped], rows[stopped]]
            self.steps[gh] += 1
            self._thrown(gh, FIRST.take(code), SECOND.take(code))

    def _walked(self, g: Ints, walk: Walk) -> None:
        """After `_throw`'s plain throws in games `g`: what else a subclass keeps of them."""

    def _thrown(self, g: Ints, a: Ints, b: Ints) -> None:
        """P3-P9: what a throw of `a` and `b` does in each game: a `HARD` throw, a double or
        a 7 on a point (`_throw` plays the others)."""
        double = a == b
        seven = g[~double]
        if seven.size:
            roller = self.roller.take(seven)
            self._lose(seven, roller, 1)
            still = self.lives.reshape(-1).take(seven * self.n + roller) > 0
            self._end_turn(seven[still], "seven")  # else P10 has ended the turn already
            if seven.size == g.size:
                return
        face = a[double]
        doubles = g[double]
        thrown = np.bincount(face, minlength=7)
        consequences = (
            self._snake_eyes,
            self._saving_grace,
            self._threes,
            self._crazy_eight,
            self._high_fives,
            self._trick_sixes,
        )
        for f, handler in enumerate(consequences, start=1):
            if thrown[f]:
                games = doubles if thrown[f] == doubles.size else doubles[face == f]
                self.events[f"double {f}"][games] += 1
                handler(games)

    def _snake_eyes(self, g: Ints) -> None:
        """P4: makes a point of 2; a second ends the turn; else a life, and point 2 if none."""
        point = self.point[g]
        self._end_turn(g[point == 2], "point")
        second = (point != 2) & self.snake_eyes[g]
        self._end_turn(g[second], "second_snake_eyes")
        first = g[(point != 2) & ~second]
        roller = self.roller[first]
        self.snake_eyes[first] = True
        self._lose(first, roller, 1)
        # the life first, then the point: a roller who went out has ended the turn
        self._set_point(first[(self.point[first] == 0) & (self.roller[first] == roller)], 2)

    def _saving_grace(self, g: Ints) -> None:
        """P5: the turn ends, safe."""
        self._end_turn(g, "saving_grace")

    def _threes(self, g: Ints) -> None:
        """P6: the point becomes 6; a second 3-3 on a point of 6 costs every life."""
        doom = (self.point[g] == 6) & self.threes[g]
        gd = g[doom]
        roller = self.roller[gd]
        self._lose(gd, roller, self.lives.reshape(-1).take(gd * self.n + roller))
        self.threes[g[~doom]] = True
        self._set_point(g[~doom], 6)

    def _crazy_eight(self, g: Ints) -> None:
        """P7: the point becomes 2."""
        self._set_point(g, 2)

    def _high_fives(self, g: Ints) -> None:
        """P8: the first 5-5 elects another player to lose a life; a later one is a plain 10."""
        later = self.high_fives[g]
        gl = g[later]
        self._end_turn(gl[self.point[gl] == 10], "point")
        g = g[~later]
        self.high_fives[g] = True
        self._set_point(g[self.point[g] == 0], 10)
        alone = self.alive[g] == 2  # one other player: no choice to ask
        ga = g[alone]
        others = self.lives.take(ga, 0) > 0
        others[np.arange(ga.size), self.roller[ga]] = False
        self._elected(ga, np.argmax(others, axis=1))
        self.phase[g[~alone]] = ELECT

    def _trick_sixes(self, g: Ints) -> None:
        """P9: a life back from the pot below three lives; at three, buy a fourth (or for fun)."""
        roller = self.roller[g]
        lives = self.lives.reshape(-1).take(g * self.n + roller)
        back = (lives < MAX_LIVES) & ((lives < START_LIVES) | self.for_fun)
        has_pot = self.pot[g] > 0
        gb, rb = g[back & has_pot], roller[back & has_pot]
        cell = gb * self.n + rb
        self.lives.reshape(-1)[cell] += 1
        self.pot[gb] -= 1
        self.reclaimed.reshape(-1)[cell] += 1
        self.events["life_back"][gb] += 1
        self.events["empty_pot"][g[back & ~has_pot]] += 1
        offer = (lives == START_LIVES) & (not self.for_fun)
        self.phase[g[offer]] = BUY
        if self.sixes_end_turn:
            self._end_turn(g[~offer], "trick_sixes")

    def _elect(self, g: Ints) -> None:
        """P8: the roller elects one of the others still in: uniformly at random (the
        `pick`-th of them in seat order: the order does not matter), or as the heuristic."""
        self.steps[g] += 1
        self.phase[g] = TURN
        roller = self.roller[g]
        others = self.lives.take(g, 0) > 0
        others[np.arange(g.size), roller] = False
        pick = self._choose(self.alive[g] - 1)
        target = np.argmax(np.cumsum(others, axis=1) > pick[:, None], axis=1)
        smart = self.heuristic[roller]
        if smart.any():
            target[smart] = self._heuristic_elect(g[smart], roller[smart])
        self._elected(g, target)

    def _elected(self, g: Ints, target: Ints) -> None:
        if g.size == 0:
            return
        self.events["elect"][g] += 1
        for seat in range(self.n):
            self.events[f"elect {seat}"][g] += target == seat
        self._lose(g, target, 1)

    def _heuristic_elect(self, g: Ints, roller: Ints) -> Ints:
        """The heuristic's choice for High Fives: the seat its own `elect` names, asked once
        per position (the lives of those in, in play order from the roller)."""
        return self._heuristic_targets(self.lives.take(g, 0), roller)

    def _heuristic_targets(self, lives: Ints, roller: Ints) -> Ints:
        """The heuristic's elections at `lives` (games x seats), each by its `roller`."""
        rows = np.arange(roller.size)[:, None]
        seats = (roller[:, None] + np.arange(self.n)) % self.n  # play order from the roller
        lives = lives[rows, seats]
        order = np.argsort(lives == 0, axis=1, kind="stable")  # the players in, first
        position = lives[rows, order]
        decide = functools.partial(_elect, self.game, self.for_fun, self.sixes_end_turn)
        elected = self._lookup(position, self._elect_cache, decide)
        chosen: Ints = seats[rows[:, 0], order[rows[:, 0], elected]]
        return chosen

    def _buy(self, g: Ints) -> None:
        """P9: at three lives, buy a fourth for one stake paid into the pot, or decline
        (the heuristic always buys)."""
        self.steps[g] += 1
        self.phase[g] = TURN
        buy = (self._choose(np.full(g.size, 2)) == 0) | self.heuristic[self.roller[g]]
        gb = g[buy]
        cell = gb * self.n + self.roller[gb]
        self.lives.reshape(-1)[cell] += 1
        self.paid.reshape(-1)[cell] += 1
        self.pot[gb] += 1
        self.events["buy"][gb] += 1
        self.events["decline"][g[~buy]] += 1
        if self.sixes_end_turn:
            self._end_turn(g, "trick_sixes")

    # --- lives, the point, the next turn -------------------------------------------

    def _set_point(self, g: Ints, point: Ints | int) -> None:
        self.point[g] = point
        self.events["point"][g] += 1

    def _lose(self, g: Ints, seat: Ints, count: Ints | int) -> None:
        """P1, P10: lives into the pot; out at none, and the last one in wins."""
        if g.size == 0:
            return
        cell = g * self.n + seat
        lives = self.lives.reshape(-1)
        left = lives.take(cell) - count
        lives[cell] = left
        self.paid.reshape(-1)[cell] += count
        self.pot[g] += count
        self.events["life_lost"][g] += 1
        out = left == 0
        if not out.any():
            return
        go = g[out]
        self.alive[go] -= 1
        self.events["out"][go] += 1
        self._successor_left(self.nxt, go, seat[out])
        over = self.alive[go] == 1
        gw = go[over]
        self.winner[gw] = np.argmax(self.lives.take(gw, 0) > 0, axis=1)
        self.phase[gw] = OVER
        self._over(gw)
        self.roller[gw] = -1
        gone = go[~over]
        self._end_turn(gone[seat[out][~over] == self.roller[gone]], "out")

    def _over(self, g: Ints) -> None:
        """Games `g` just ended in their roller's turn: what else a subclass keeps of it."""

    def _end_turn(self, g: Ints, why: str) -> None:
        """P2, C2: the dice pass to the next player still in, clockwise."""
        if g.size == 0:
            return
        self.events[f"turn {why}"][g] += 1
        self.point[g] = 0
        self.snake_eyes[g] = self.threes[g] = self.high_fives[g] = False
        self.roller[g] = self.nxt.reshape(-1)[g * self.n + self.roller[g]]


ELECTIONS: dict[tuple[bool, bool], dict[Any, int]] = {}
"""The heuristic's elections by table options (for_fun, sixes_end_turn) and position."""


def _elect(game: Game, for_fun: bool, sixes_end_turn: bool, *lives: int) -> int:
    """The bot's own `elect` at a position (lives in play order from the roller, then 0 for
    the seats out): the place in that order of the player it elects."""
    from dicehall.games.toplshteyner.bots import HeuristicBot
    from dicehall.games.toplshteyner.rules import ELECT_SEAT

    view = {
        "phase": "elect",
        "roller": 0,
        "lives": list(lives),
        "for_fun": for_fun,
        "sixes_end_turn": sixes_end_turn,
    }
    others = [ELECT_SEAT[place] for place in range(1, len(lives)) if lives[place] > 0]
    return int(HeuristicBot(game, 0, random.Random(0)).elect(view, others)["seat"])
