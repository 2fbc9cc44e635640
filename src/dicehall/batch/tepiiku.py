"""Tepiiku in batches: N games advanced in lockstep with NumPy, random or heuristic play.

A second implementation of `dicehall.games.tepiiku.rules` (T1-T10), kept as
close to it as arrays allow, for speed only; `tests/batch/` checks
statistically that it plays the engine's game. Runes are numbered 0-5 in the
engine's order (ingot, gem, fire, water, skull, person). Each pass takes one
step of the round in every game still running, counted as the engine counts
it: a throw is one step per seat that throws, a choice one step per seat
that chooses (all three thumbs, every tied seat's reroll).

Seats play at random (uniform among the legal actions, as `RandomBot`) or as
the heuristic bot (`dicehall.games.tepiiku.bots`). The heuristic's thumbs are
a table by score; its rerolls and the Fish's choice are the bot's own
functions, evaluated once per distinct position and looked up from then on,
so it is the bot's policy exactly, not a copy of it. A position is what the
bot's arithmetic sees: the runes as a multiset (each reroll's value depends on
the runes it keeps, not on their places, so the values are computed for the
sorted hand and read for the hand's order through KEPT_AS), the others'
scores, the pot, and the coins up to the most any loss in the bot's model
can take (four times the pot after every "still" the middle leaves room for).
The values are kept for the whole process, and in the table cache
(`dicehall.core.diskcache`, keyed by the bot's and the rules' sources) for
the next run: a long run, or the next one, meets few new positions.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from dicehall.batch.base import Batch, Bools, Handler, Ints
from dicehall.batch.result import BatchResult
from dicehall.core import diskcache
from dicehall.core.game import Game
from dicehall.games.tepiiku.rules import RUNE, SCORE, SUBSETS

BET, TIES, FISH, FORCED, OVER = range(5)
SEATS = DICE = 3
PAY = -1
"""The Fish's choice to pay; a reroll is its index in SUBSETS."""

SCORES = np.array([SCORE[faces] for faces in itertools.product(RUNE, repeat=DICE)], dtype=np.int64)
"""SCORES[hand]: the score (T2) of a hand coded as 36 * die 0 + 6 * die 1 + die 2."""
REROLLED = np.array([[i in sub for i in range(DICE)] for sub in SUBSETS], dtype=bool)
"""REROLLED[k, i]: whether the k-th set of dice (the engine's order) rerolls die i."""
PLACE = np.array([1, 6, 36])
"""Die i's weight in a hand's code."""

OUTCOMES = ("bust", "still", "tie", "beat", "settled")
EVENTS = ("round", "thumbs up", "ties", "choice", "reroll", *(f"outcome {k}" for k in OUTCOMES))
EVENTS = (*EVENTS, "pay")
"""What the batch counts per game, named after the engine's events (an outcome by kind)."""


class TepiikuBatch(Batch):
    """`games` games of one configured Tepiiku; seat s played by `bots[s]`."""

    game_id = "tepiiku"
    event_names = EVENTS

    def __init__(
        self,
        game: Game,
        games: int,
        seed: int | np.random.SeedSequence | None = None,
        bots: Sequence[str] = ("random",),
    ) -> None:
        super().__init__(game, games, seed, bots)
        self.bankroll = int(str(game.options["bankroll"]))
        size = self.size
        self.coins = np.full((size, SEATS), self.bankroll, dtype=np.int64)
        self.hands = np.zeros((size, SEATS), dtype=np.int64)  # each seat's hand, coded
        self.scores = np.zeros((size, SEATS), dtype=np.int64)
        self.pot = np.zeros(size, dtype=np.int64)
        self.tied = np.zeros((size, SEATS), dtype=bool)
        self.fish = np.zeros(size, dtype=np.int64)
        self.middle = np.zeros(size, dtype=np.int64)
        self.hook = np.zeros(size, dtype=np.int64)
        self.forced = np.zeros(size, dtype=np.int64)
        self._start_round(np.arange(size))

    def handlers(self) -> dict[int, Handler]:
        return {BET: self._bet, TIES: self._ties, FISH: self._fish_step, FORCED: self._forced}

    def run(self) -> BatchResult:
        """Play every game to the end; T4: of the two with coins, more coins wins."""
        smart = bool(self.heuristic.any())
        known = _load_tables() if smart else 0
        self._play(self.handlers())
        if smart and len(PLACES) + len(FISH_COSTS) > known:
            _save_tables()
        best = self.coins == self.coins.max(axis=1, keepdims=True)
        shares = best / best.sum(axis=1, keepdims=True)
        return BatchResult(
            self.game,
            self.steps,
            np.argmax(best, axis=1),
            self.coins - self.bankroll,
            "coins",
            dict(self.events),
            shares,
        )

    # --- the round -----------------------------------------------------------------

    def _start_round(self, g: Ints) -> None:
        """T10: every seat throws in secret, one step each."""
        if g.size == 0:
            return
        self.events["round"][g] += 1
        hands = self.rng.integers(0, 6**DICE, (g.size, SEATS))
        self.hands[g] = hands
        self.scores[g] = SCORES.take(hands)
        self.steps[g] += SEATS
        self.phase[g] = BET

    def _bet(self, g: Ints) -> None:
        """T5: all three commit thumbs (three steps); the pot is 1 + thumbs up."""
        self.steps[g] += SEATS
        up = self._thumbs(g)
        self.pot[g] = 1 + up.sum(axis=1)
        self.events["thumbs up"][g] += up.sum(axis=1)
        self._resolve_ties(g)

    def _thumbs(self, g: Ints) -> Bools:
        """Every seat's thumbs in games `g`: up at random, or as the heuristic."""
        up = self.rng.random((g.size, SEATS)) < 0.5
        chosen: Bools = np.where(self.heuristic, THUMBS_UP[self.scores.take(g, 0) - LOWEST], up)
        return chosen

    def _resolve_ties(self, g: Ints) -> None:
        """T6: every seat whose score equals another's rerolls; else roles (T7)."""
        s0, s1, s2 = self.scores.take(g, 0).T
        one_two, two_three, one_three = s0 == s1, s1 == s2, s0 == s2
        tied = np.empty((g.size, SEATS), dtype=bool)
        np.logical_or(one_two, one_three, out=tied[:, 0])
        np.logical_or(one_two, two_three, out=tied[:, 1])
        np.logical_or(one_three, two_three, out=tied[:, 2])
        self.tied[g] = tied
        any_tied = tied.any(axis=1)
        self.events["ties"][g[any_tied]] += 1
        self.phase[g[any_tied]] = TIES
        self._assign_roles(g[~any_tied])

    def _ties(self, g: Ints) -> None:
        """T6 with C3: every tied seat chooses dice, then all of them are thrown."""
        tied = self.tied.take(g, 0)
        count = tied.sum(axis=1)
        self.steps[g] += 2 * count  # a choice and a throw per tied seat
        self.events["choice"][g] += count
        chosen = [
            self._reroll_choice(g[tied[:, s]], np.full(count.size, s)[tied[:, s]])
            for s in range(SEATS)
        ]  # every choice before any throw (C3)
        for seat, which in enumerate(chosen):
            rerolls = g[tied[:, seat]]
            if rerolls.size:
                self._reroll(rerolls, np.full(rerolls.size, seat), which)
        self._resolve_ties(g)

    def _assign_roles(self, g: Ints) -> None:
        """T7: lowest is the Fish, highest the Hook (all three scores differ here), read from
        a table by the three seats' comparisons (far cheaper than sorting each row)."""
        if g.size == 0:
            return
        s0, s1, s2 = self.scores.take(g, 0).T
        order = ROLES.take((s0 < s1) * 4 + (s1 < s2) * 2 + (s0 < s2), 0)
        self.fish[g], self.middle[g], self.hook[g] = order.T
        self.phase[g] = FISH

    def _fish_step(self, g: Ints) -> None:
        """T7: the Fish pays the pot, or rerolls (two steps: the choice, the throw)."""
        fish = self.fish[g]
        choice = self._fish_choice(g, fish)
        pays = choice == PAY
        self.steps[g] += 1
        if pays.any():
            self._pay(g[pays], self.pot[g[pays]])
        g, fish, choice = g[~pays], fish[~pays], choice[~pays]
        self.steps[g] += 1
        self.events["reroll"][g] += 1
        old = self.scores.reshape(-1).take(g * SEATS + fish)
        self._reroll(g, fish, choice)
        self._fish_outcome(g, fish, old)

    def _fish_outcome(self, g: Ints, fish: Ints, old: Ints) -> None:
        """T8: bust, still the Fish, tie, or beat."""
        scores, base = self.scores.reshape(-1), g * SEATS
        middle, hook = self.middle.take(g), self.hook.take(g)
        new = scores.take(base + fish)
        middle_score, hook_score = scores.take(base + middle), scores.take(base + hook)
        bust = new <= old
        still = ~bust & (new < middle_score)
        tie = ~bust & ~still & ((new == middle_score) | (new == hook_score))
        beat = ~bust & ~still & ~tie
        gb, gs, gt, gw = g[bust], g[still], g[tie], g[beat]
        self.events["outcome bust"][gb] += 1
        self.events["outcome still"][gs] += 1
        self.events["outcome tie"][gt] += 1
        self.events["outcome beat"][gw] += 1
        kind = still + 2 * tie + 3 * beat  # the index in OUTCOMES (bust is 0)
        kept = ~bust  # a bust's payment is what settles it
        self._settled(g[kept], kind[kept], fish[kept], old[kept])
        self._pay(gb, 2 * self.pot[gb])
        self.pot[gs] += 1
        self.pot[gt] *= 2
        self.forced[gt] = np.where(new == middle_score, middle, hook)[tie]
        self.phase[gt] = FORCED
        self.pot[gw] *= 2
        self._assign_roles(gw)

    def _forced(self, g: Ints) -> None:
        """T8: the tied player rerolls; never a bust nor + 1; a new tie doubles again."""
        self.steps[g] += 2
        self.events["reroll"][g] += 1
        seat = self.forced[g]
        cell = g * SEATS + seat
        old = self.scores.reshape(-1).take(cell)
        self._reroll(g, seat, self._reroll_choice(g, seat))
        scores = self.scores.take(g, 0)
        new = self.scores.reshape(-1).take(cell)
        others = (scores == new[:, None]) & (np.arange(SEATS) != seat[:, None])
        tie = others.any(axis=1)
        self._settled(g, np.where(tie, OUTCOMES.index("tie"), OUTCOMES.index("settled")), seat, old)
        self.events["outcome tie"][g[tie]] += 1
        self.pot[g[tie]] *= 2
        self.forced[g[tie]] = np.argmax(others[tie], axis=1)
        self.events["outcome settled"][g[~tie]] += 1
        self._assign_roles(g[~tie])

    def _settled(self, g: Ints, kind: Ints, seat: Ints, old: Ints) -> None:
        """A reroll's outcome (T8) in games `g`: `kind` indexes OUTCOMES, `old` is the score
        before it. The batch keeps nothing of it; a seated batch shows it."""

    def _pay(self, g: Ints, due: Ints) -> None:
        """T9, T3: the Fish pays the Hook, at most what it has; then T4 or a new round."""
        if g.size == 0:
            return
        coins, base = self.coins.reshape(-1), g * SEATS
        fish_cell, hook_cell = base + self.fish.take(g), base + self.hook.take(g)
        has = coins.take(fish_cell)
        amount = np.minimum(due, has)
        coins[fish_cell] -= amount
        coins[hook_cell] += amount
        self.events["pay"][g] += 1
        broke = amount == has
        self.phase[g[broke]] = OVER
        self._start_round(g[~broke])

    # --- dice and choices ----------------------------------------------------------

    def _reroll(self, g: Ints, seat: Ints, which: Ints) -> None:
        """Throw again the dice `which` (indices into SUBSETS) of `seat` in each game: the
        old hand's kept part and a fresh throw's rerolled part, read from tables (KEPT,
        ROLLED): a few flat lookups, no digits."""
        cell = g * SEATS + seat
        fresh = self.rng.integers(0, 6, (g.size, DICE)) @ PLACE[::-1]
        at = which * 6**DICE
        hand = KEPT.take(at + self.hands.reshape(-1).take(cell)) + ROLLED.take(at + fresh)
        self.hands.reshape(-1)[cell] = hand
        self.scores.reshape(-1)[cell] = SCORES.take(hand)

    def _reroll_choice(self, g: Ints, seat: Ints) -> Ints:
        """A tie or forced reroll (T6, T8): uniform, or the heuristic's best expected place
        (the first of the best in SUBSETS' order, as the bot's `max`)."""
        choice = self._choose(np.full(g.size, len(SUBSETS)))
        smart = self.heuristic[seat]
        if smart.any():
            gs, ss = g[smart], seat[smart]
            scores = self.scores.take(gs, 0)
            others = np.sort(np.where(np.arange(SEATS) == ss[:, None], HIGHEST + 1, scores), 1)
            hand = self.hands[gs, ss]
            keys = np.stack([SORTED[hand], others[:, 0], others[:, 1]], axis=1)
            places = self._lookup(keys, PLACES, _places)
            choice[smart] = np.argmax(_in_hand_order(places, hand), axis=1)
        return choice

    def _fish_choice(self, g: Ints, fish: Ints) -> Ints:
        """T7: PAY or a reroll, uniform among the eight, or the heuristic's cheapest."""
        choice = self._choose(np.full(g.size, 1 + len(SUBSETS))) - 1
        smart = self.heuristic[fish]
        if smart.any():
            gs, fs = g[smart], fish[smart]
            hand, pot, coins = self.hands[gs, fs], self.pot[gs], self.coins[gs, fs]
            middle = self.scores[gs, self.middle[gs]]
            room = np.maximum(0, middle - SCORES[hand])  # the "still" rerolls left at most
            capped = np.minimum(coins, 4 * (pot + room))
            keys = np.stack(
                [SORTED[hand], pot, middle, self.scores[gs, self.hook[gs]], capped], axis=1
            )
            costs = _in_hand_order(self._lookup(keys, FISH_COSTS, _fish_costs), hand)
            dice = np.argmin(costs, axis=1)  # the first of the cheapest, as the bot's `min`
            pays = np.minimum(pot, coins) <= costs[np.arange(gs.size), dice]
            choice[smart] = np.where(pays, PAY, dice)
        return choice


LOWEST = int(SCORES.min())
HIGHEST = int(SCORES.max())


def _thumbs_up_table() -> Bools:
    from dicehall.games.tepiiku.bots import percentile

    return np.array([percentile(s) > 0.5 for s in range(LOWEST, HIGHEST + 1)], dtype=bool)


THUMBS_UP = _thumbs_up_table()
"""The heuristic's thumbs (T5) by its own score, from LOWEST: up above the median throw."""


def _runes(hand: int) -> list[str]:
    return [str(RUNE[hand // 36]), str(RUNE[hand // 6 % 6]), str(RUNE[hand % 6])]


def _digits(hand: int) -> tuple[int, int, int]:
    return hand // 36, hand // 6 % 6, hand % 6


def _part(rerolled: bool) -> Ints:
    """[k * 216 + hand]: `hand`'s code with only the dice that the k-th set of SUBSETS
    rerolls (`rerolled`) or keeps, the others zero."""
    return np.array(
        [
            sum(d * w for d, w, r in zip(digits, PLACE[::-1], dice, strict=True) if r == rerolled)
            for dice in REROLLED.tolist()
            for digits in itertools.product(range(6), repeat=DICE)
        ],
        dtype=np.int64,
    )


KEPT, ROLLED = _part(False), _part(True)
"""A reroll's hand is the kept part of the old one plus the rerolled part of a fresh throw."""
ROLES = np.zeros((8, SEATS), dtype=np.int64)
"""By three distinct scores' comparisons (4 * (s0 < s1) + 2 * (s1 < s2) + (s0 < s2)), the
seats from the lowest score to the highest."""
for _scores in itertools.permutations(range(SEATS)):
    _a, _b, _c = _scores
    ROLES[4 * (_a < _b) + 2 * (_b < _c) + (_a < _c)] = np.argsort(_scores)

SORTED = np.array([np.dot(sorted(_digits(h)), PLACE[::-1]) for h in range(6**DICE)])
"""SORTED[hand]: the code of the same runes in sorted order."""


def _kept_as(hand: int) -> list[int]:
    """For each set of dice of `hand` (SUBSETS' order), the set of the sorted hand that
    keeps the same runes."""
    digits, ordered = _digits(hand), sorted(_digits(hand))

    def kept(faces: Sequence[int], dice: Sequence[int]) -> list[int]:
        return sorted(f for i, f in enumerate(faces) if i not in dice)

    return [
        next(
            k
            for k, other in enumerate(SUBSETS)
            if len(other) == len(dice) and kept(ordered, other) == kept(digits, dice)
        )
        for dice in SUBSETS
    ]


KEPT_AS = np.array([_kept_as(h) for h in range(6**DICE)])
"""KEPT_AS[hand, k]: the set of dice of SORTED[hand] that keeps what the k-th set keeps."""


def _in_hand_order(values: NDArray[np.float64], hand: Ints) -> NDArray[np.float64]:
    """Values of the sorted hands' sets of dice, rearranged for each hand's own order."""
    ordered: NDArray[np.float64] = np.take_along_axis(values, KEPT_AS[hand], axis=1)
    return ordered


PLACES: dict[tuple[int, ...], list[float]] = {}
"""The heuristic's expected place for each set of dice, by (sorted hand, the others' scores)."""
FISH_COSTS: dict[tuple[int, ...], list[float]] = {}
"""The heuristic's expected cost of each reroll, by (sorted hand, pot, middle, Hook, coins)."""


TABLES = "tepiiku-batch-heuristic"
_loaded = False


def _tables_key() -> str:
    from dicehall.games.tepiiku import bots, odds, rules

    return diskcache.source_key(bots.__file__, odds.__file__, rules.__file__, __file__)


def _load_tables() -> int:
    """PLACES and FISH_COSTS from the table cache, the first time in a process; how many
    values are known now."""
    global _loaded
    if not _loaded:
        _loaded = True
        stored = diskcache.load(TABLES, _tables_key())
        if isinstance(stored, dict):
            for name, values in (("places", PLACES), ("fish", FISH_COSTS)):
                for key, row in stored.get(name, []):
                    values.setdefault(tuple(key), row)
    return len(PLACES) + len(FISH_COSTS)


def _save_tables() -> None:
    diskcache.save(
        TABLES,
        _tables_key(),
        {
            name: [[list(key), row] for key, row in values.items()]
            for name, values in (("places", PLACES), ("fish", FISH_COSTS))
        },
    )


def _places(hand: int, low: int, high: int) -> list[float]:
    """The heuristic's tie or forced reroll values, as in `HeuristicBot.choose`."""
    from dicehall.games.tepiiku.bots import place_value

    runes = _runes(hand)
    return [place_value(runes, dice, [low, high]) for dice in SUBSETS]


def _fish_costs(hand: int, pot: int, middle: int, hook: int, coins: int) -> list[float]:
    """The costs the heuristic weighs as the Fish, as in `HeuristicBot.choose`."""
    from dicehall.games.tepiiku.bots import fish_costs

    costs = fish_costs(_runes(hand), pot, middle, hook, coins)
    return [costs[dice] for dice in SUBSETS]
