"""Tepiiku solved after the thumbs: exact dynamic programming of T6-T8, and the thumbs.

Once the thumbs are in, every die is shown (T6): the rest of the round is a
three-player stochastic game of perfect information (with simultaneous tie
rerolls). Each seat maximises its own expected coins; the model is a *cap*
c, the coins every seat is taken to hold (T3: a Fish pays at most c), so the
game is symmetric between seats and its values are indexed by role.

Positions (hands are the 56 sorted hands of `model.py`):

    fish     (Fish's hand, middle's, Hook's, pot): scores increasing; the Fish
             pays (T7) or rerolls one of seven sets of dice (T8)
    forced   (forced hand X, hand Y it tied with, third hand Z, pot): X must
             reroll (T8); a new tie passes the reroll on at twice the pot
    reveal   (hands of seats 0, 1, 2, starting pot): straight into the Fish's
             choice when the scores differ, else the tie rerolls (T6)

Every reroll that does not end the round raises the pot (still + 1, tie and
beat x 2) or settles a forced reroll at the same pot into a fish position, so
pots are solved from the top down, fish before forced at each pot. A pot of
c or more makes every payment c (the cap), so pots are held at c; at that
top level the positions refer to each other and are solved by value
iteration (a Fish pays c either way there, so it always rerolls; every
reroll busts with a chance of at least 1/216, so the round ends).

The tie rerolls (T6) at the reveal are simultaneous: every tie is a small
game between the tied seats, solved exactly (`ties.py`: a pure
equilibrium where there is one, else a mixed one), with values that include
further ties, iterated to a fixed point.

The thumbs (T5) are the one place of private information: each seat sees
its own hand. `thumbs_equilibrium` finds an approximate equilibrium of that
three-player game over the reveal values by regret matching and measures its
NashConv exactly.

`solve_tables` puts the two together into a cap's tables, as `stored.py`
keeps them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

import numpy as np
from numpy.typing import NDArray

from dicehall.games.tepiiku.solver.model import ACTIONS, COUNT, FRESH, SCORES, TRANSITION
from dicehall.games.tepiiku.solver.stored import Tables
from dicehall.games.tepiiku.solver.ties import Loop, solve_batch

Array = NDArray[np.float64]
Index = NDArray[np.int64]
Values = NDArray[np.float64] | NDArray[np.float32]
"""Values as solved (float64) or as stored (float32)."""
PAY = 0
"""Fish policy code of paying; code k + 1 is rerolling `SUBSETS[k]` of the sorted hand."""
START_POTS = (1, 2, 3, 4)
"""T5: the pot after the thumbs, 1 + thumbs up."""
TOLERANCE = 1e-9
"""The top pot's value iteration stops below this change (coins)."""
TIE_TOLERANCE = 1e-8
"""The ties' fixed point stops when the values move by less than this (coins) ..."""
TIE_EPSILON = 1e-6
"""... and no tied seat gains more than this by deviating, in two sweeps running, the
second with no game held."""
MAX_SWEEPS = 5_000
TIE_SWEEPS = 200
"""At most this many sweeps of the ties' fixed point (a few dozen are needed)."""
HOLD_SHARE = 0.5
"""Each sweep, this share of the tie games (drawn afresh, seeded) keeps its strategies
even where they stopped being an equilibrium: updating every game at once let a set of
games switch back and forth between equilibria for ever."""
MIXED_AFTER = 4
"""A tie game whose strategies changed in this many sweeps looks for a mixed
equilibrium between its old and new strategies first (`ties.solve_batch`)."""
FREEZE_AFTER = 100
"""Top-pot sweeps after which choices are held, where best replies go round in a cycle."""
THUMBS_ITERATIONS = 400
"""Regret-matching iterations of the thumbs equilibrium of a cap's tables."""


# --- the positions, as flat index arrays ---------------------------------------------


def _triples(condition: Callable[[Index, Index, Index], NDArray[np.bool_]]) -> Index:
    a, b, c = np.meshgrid(np.arange(COUNT), np.arange(COUNT), np.arange(COUNT), indexing="ij")
    mask = condition(SCORES[a], SCORES[b], SCORES[c])
    return np.stack([a[mask], b[mask], c[mask]], axis=1)


def _lookup(triples: Index) -> Index:
    table = np.full((COUNT, COUNT, COUNT), -1, dtype=np.int64)
    table[triples[:, 0], triples[:, 1], triples[:, 2]] = np.arange(len(triples))
    return table


def _fill(
    gather: NDArray[np.int32], mask: NDArray[np.bool_], base: int, index: Index, slots: Index
) -> None:
    """Point the (position, new hand) entries of `mask` at position `index` of the table
    starting at `base`: old slot o reads the reached position's slot `slots[..., o]`."""
    slots = np.broadcast_to(np.asarray(slots), (*mask.shape, 3))
    gather[mask] = base + 3 * index[mask][:, None] + slots[mask]


def _table(*parts: Values | tuple[float, ...]) -> Array:
    """The values successors are gathered from: the parts' slots end to end."""
    return np.concatenate([np.ravel(part) for part in parts])


@dataclass
class Layout:
    """The positions and their transitions; the same for every cap."""

    fish: Index = field(default_factory=lambda: _triples(lambda f, m, h: (f < m) & (m < h)))
    forced: Index = field(default_factory=lambda: _triples(lambda x, y, z: (x == y) & (y != z)))

    def __post_init__(self) -> None:
        self.fish_at = _lookup(self.fish)
        self.forced_at = _lookup(self.forced)
        self._fish_successors()
        self._forced_successors()
        self._reveal()

    def _fish_successors(self) -> None:
        """`fish_gather[n, h]`: where the values after the Fish of position n rerolls into
        hand h are read, in the table (still level, doubled level, forced at the doubled
        pot, the bust's payment) of `RoundSolver.fish_level`."""
        f, m, h = (self.fish[:, i : i + 1] for i in range(3))
        shape = (len(self.fish), COUNT)
        new = np.broadcast_to(np.arange(COUNT)[None, :], shape)
        f, m, h = (np.broadcast_to(x, shape) for x in (f, m, h))
        s, sf, sm, sh = SCORES[new], SCORES[f], SCORES[m], SCORES[h]
        fish, forced = 3 * len(self.fish), 3 * len(self.forced)
        still, doubled, tied, bust = 0, fish, 2 * fish, 2 * fish + forced
        gather = np.full((*shape, 3), -1, dtype=np.int32)
        gather[s <= sf] = bust + np.arange(3)  # T8: bust
        # still the Fish: slots unchanged
        _fill(gather, (s > sf) & (s < sm), still, self.fish_at[new, m, h], np.arange(3))
        # a tie: the forced position (X the tied player, Y the Fish, Z the third)
        _fill(gather, s == sm, tied, self.forced_at[m, new, h], np.array([1, 0, 2]))
        _fill(gather, s == sh, tied, self.forced_at[h, new, m], np.array([1, 2, 0]))
        # beat the middle, or the middle and the Hook: the middle is the new Fish
        beat_middle = (s > sm) & (s < sh)
        _fill(gather, beat_middle, doubled, self.fish_at[m, new, h], np.array([1, 0, 2]))
        _fill(gather, s > sh, doubled, self.fish_at[m, h, new], np.array([2, 0, 1]))
        assert (gather >= 0).all()
        self.fish_gather = gather
        self.fish_moves = TRANSITION[self.fish[:, 0]]

    def _forced_successors(self) -> None:
        """`forced_gather[n, h]`, likewise, in the table (fish positions at the pot, forced
        at twice the pot) of `RoundSolver.forced_level`."""
        y, z = (self.forced[:, i : i + 1] for i in (1, 2))
        shape = (len(self.forced), COUNT)
        new = np.broadcast_to(np.arange(COUNT)[None, :], shape)
        y, z = np.broadcast_to(y, shape), np.broadcast_to(z, shape)
        s, sy, sz = SCORES[new], SCORES[y], SCORES[z]
        settled, tied = 0, 3 * len(self.fish)
        gather = np.full((*shape, 3), -1, dtype=np.int32)
        # T8: a forced reroll tying someone passes the reroll on (pot x 2) ...
        _fill(gather, s == sy, tied, self.forced_at[y, new, z], np.array([1, 0, 2]))
        _fill(gather, s == sz, tied, self.forced_at[z, new, y], np.array([1, 2, 0]))
        # ... else the roles are assigned again by score at the same pot.
        hands = np.stack([new, y, z], axis=-1)
        order = np.argsort(SCORES[hands], axis=-1)  # order[r]: the old slot taking role r
        by_role = np.take_along_axis(hands, order, axis=-1)
        index = self.fish_at[by_role[..., 0], by_role[..., 1], by_role[..., 2]]
        _fill(gather, (s != sy) & (s != sz), settled, index, np.argsort(order, axis=-1))
        assert (gather >= 0).all()
        self.forced_gather = gather
        self.forced_moves = TRANSITION[self.forced[:, 0]]

    def _reveal(self) -> None:
        """Each dealt triple (seats 0-2) with distinct scores: its fish position and the
        role of each seat; with a tie, which kind of tie."""
        everything = _triples(lambda a, b, c: np.ones(a.shape, dtype=bool))
        scores = SCORES[everything]
        distinct = (
            (scores[:, 0] != scores[:, 1])
            & (scores[:, 1] != scores[:, 2])
            & (scores[:, 0] != scores[:, 2])
        )
        order = np.argsort(scores, axis=1)
        by_role = np.take_along_axis(everything, order, axis=1)
        self.reveal_flat = np.flatnonzero(distinct)
        self.reveal_fish = self.fish_at[
            by_role[distinct, 0], by_role[distinct, 1], by_role[distinct, 2]
        ]
        self.reveal_roles = np.argsort(order, axis=1)[distinct]
        self.score_hands = {int(s): np.flatnonzero(np.equal(SCORES, s)) for s in np.unique(SCORES)}


@cache
def layout() -> Layout:
    return Layout()


# --- solving one cap ----------------------------------------------------------------


def fish_after(fish: Values, forced: Values, cap: int, pot: int) -> Array:
    """What `Layout.fish_gather` reads for a Fish at `pot`: the fish values at pot + 1
    and twice the pot, the forced ones at twice the pot, and the bust's payment."""
    bust = min(2 * pot, cap)
    up, doubled = min(pot + 1, cap) - 1, min(2 * pot, cap) - 1
    return _table(fish[up], fish[doubled], forced[doubled], (-bust, 0.0, bust))


def forced_after(fish: Values, forced: Values, cap: int, pot: int) -> Array:
    """What `Layout.forced_gather` reads for a forced reroll at `pot`."""
    return _table(fish[min(pot, cap) - 1], forced[min(2 * pot, cap) - 1])


@dataclass
class Solution:
    """Everything solved for one cap c: per pot 1..c the fish and forced values
    (per slot) and policies; per starting pot the reveal values and tie strategies."""

    cap: int
    fish_value: Array  # (c, fish positions, 3): pot p at [p - 1]
    fish_policy: NDArray[np.int8]  # (c, fish positions): PAY or reroll k + 1
    forced_value: Array
    forced_policy: NDArray[np.int8]
    reveal_value: Array  # (4, 56, 56, 56, 3): starting pot p at [p - 1], per seat
    pair_strategy: Array  # (4, forced positions, 2, 7): ties of the first two seats
    triple_strategy: dict[int, Array]  # score -> (4, n, n, n, 3, 7)
    tie_epsilon: float
    top_sweeps: int
    top_epsilon: float

    def pot(self, pot: int) -> int:
        """The level a pot is solved at: pots of c or more are all the same (T3)."""
        return min(pot, self.cap) - 1


class Ties:
    """The tie games (T6) of one kind at one pot, followed from sweep to sweep: each
    game's strategies (games, players, 7) and in how many sweeps their supports
    changed."""

    def __init__(self, games: int, players: int, actions: int = ACTIONS) -> None:
        self.strategy = np.zeros((games, players, actions))
        self.changes = np.zeros(games, dtype=np.int64)
        self.sweeps = 0

    def solve(
        self,
        payoff: Array,
        players: tuple[int, ...],
        rows: Index,
        rng: np.random.Generator | None,
        loop: Loop,
    ) -> tuple[Array, float]:
        """Solve the games `rows` (payoffs (rows, 7, 7[, 7], seats), returns to
        themselves `loop`) from their last strategies, holding a share of them drawn
        from `rng` (none without); their values and the largest deviation gain."""
        n = len(players)
        if self.sweeps == 0:
            chosen, value, eps = solve_batch(payoff, players, loop=loop)
        else:
            before = [self.strategy[rows, i] for i in range(n)]
            chosen, value, eps = solve_batch(
                payoff,
                players,
                before,
                hold=None if rng is None else rng.random(len(rows)) < HOLD_SHARE,
                mixed_first=self.changes[rows] >= MIXED_AFTER,
                loop=loop,
            )
            changed = np.zeros(len(rows), dtype=bool)
            for i in range(n):
                changed |= ((chosen[i] > 0) != (before[i] > 0)).any(axis=1)
            self.changes[rows] += changed
        for i in range(n):
            self.strategy[rows, i] = chosen[i]
        return value, eps


class RoundSolver:
    """Solves the round after the thumbs for a cap c (every seat holds c coins)."""

    def __init__(self, cap: int) -> None:
        if cap < 1:
            raise ValueError(f"the cap is at least one coin; got {cap}")
        self.cap = cap
        self.layout = layout()
        lay = self.layout
        self.fish_value = np.zeros((cap, len(lay.fish), 3))
        self.fish_policy = np.zeros((cap, len(lay.fish)), dtype=np.int8)
        self.forced_value = np.zeros((cap, len(lay.forced), 3))
        self.forced_policy = np.zeros((cap, len(lay.forced)), dtype=np.int8)
        self.top_sweeps = 0
        self.top_epsilon = 0.0

    def level(self, pot: int) -> int:
        return min(pot, self.cap) - 1

    def fish_level(self, pot: int, frozen: bool = False) -> float:
        """The Fish's best choice at `pot`, given the levels above (and itself at the top)."""
        lay, cap = self.layout, self.cap
        pay = min(pot, cap)
        after = fish_after(self.fish_value, self.forced_value, cap, pot)[lay.fish_gather]
        choices = np.empty((len(lay.fish), ACTIONS + 1, 3))
        choices[:, PAY] = (-pay, 0.0, pay)
        np.matmul(lay.fish_moves, after, out=choices[:, 1:])
        return self._choose(self.fish_policy, self.fish_value, pot, choices, frozen)

    def forced_level(self, pot: int, frozen: bool = False) -> float:
        """The forced player's best reroll at `pot` (T8), given the fish positions there."""
        lay = self.layout
        after = forced_after(self.fish_value, self.forced_value, self.cap, pot)[lay.forced_gather]
        choices = np.matmul(lay.forced_moves, after)
        return self._choose(self.forced_policy, self.forced_value, pot, choices, frozen)

    def _choose(
        self,
        policy: NDArray[np.int8],
        value: Array,
        pot: int,
        choices: Array,
        frozen: bool,
    ) -> float:
        """Each mover takes its best choice (slot 0 is the mover), or keeps its choice if
        `frozen`; returns the most any mover could gain by choosing otherwise."""
        level = self.level(pot)
        rows = np.arange(len(choices))
        best = choices[:, :, 0].argmax(axis=1)
        if not frozen:
            policy[level] = best
        chosen = policy[level].astype(np.int64)
        value[level] = choices[rows, chosen]
        return float((choices[rows, best, 0] - choices[rows, chosen, 0]).max())

    def solve_pots(self, advance: Callable[[], None] = lambda: None) -> None:
        """Every pot from the cap down: the top by value iteration, then one pass each."""
        cap = self.cap
        for sweep in range(1, MAX_SWEEPS + 1):
            before = (self.fish_value[cap - 1].copy(), self.forced_value[cap - 1].copy())
            frozen = sweep > FREEZE_AFTER
            gain = max(self.fish_level(cap, frozen), self.forced_level(cap, frozen))
            change = max(
                float(np.abs(self.fish_value[cap - 1] - before[0]).max()),
                float(np.abs(self.forced_value[cap - 1] - before[1]).max()),
            )
            if change < TOLERANCE:
                break
        self.top_sweeps = sweep
        self.top_epsilon = gain
        advance()
        for pot in range(cap - 1, 0, -1):
            self.fish_level(pot)
            self.forced_level(pot)
            advance()

    # --- the reveal and the tie rerolls (T6) ----------------------------------------

    def reveal(self, pot: int) -> tuple[Array, Array, dict[int, Array], float]:
        """Values of every dealt triple at a starting pot, and the tie strategies.

        The ties at one pot form a stochastic game (a tie can lead into another, or
        back into itself): value iteration with every tie game solved exactly at
        each sweep, following one equilibrium per game (`Ties`), until the values
        move by less than `TIE_TOLERANCE`. Returns the largest deviation gain of any
        tied seat under the final values (`tie_epsilon`)."""
        lay = self.layout
        fish = self.fish_value[self.level(pot)]
        flat = np.zeros((COUNT**3, 3))
        flat[lay.reveal_flat] = np.take_along_axis(fish[lay.reveal_fish], lay.reveal_roles, axis=1)
        values: Array = flat.reshape(COUNT, COUNT, COUNT, 3)
        rng = np.random.default_rng(pot)
        pair = Ties(len(lay.forced), 2)
        triple = {score: Ties(len(h) ** 3, 3) for score, h in lay.score_hands.items()}
        epsilon = 0.0
        confirming = False  # a settled sweep is confirmed by one with no game held
        for _ in range(TIE_SWEEPS):
            before = values.copy()
            draw = None if confirming else rng
            pair_values, eps_pair = self._pair_ties(values, pair, draw)
            triple_values, eps_triple = self._triple_ties(values, triple, draw)
            epsilon = max(eps_pair, eps_triple)
            self._write_ties(values, pair_values, triple_values)
            settled = float(np.abs(values - before).max()) < TIE_TOLERANCE
            settled = settled and epsilon < TIE_EPSILON
            if settled and confirming:
                break
            confirming = settled
        strategies = {
            score: ties.strategy.reshape(len(h), len(h), len(h), 3, ACTIONS)
            for (score, ties), h in zip(triple.items(), lay.score_hands.values(), strict=True)
        }
        return values, pair.strategy, strategies, epsilon

    def _pair_ties(
        self, values: Array, ties: Ties, rng: np.random.Generator | None
    ) -> tuple[Array, float]:
        """Seats 0 and 1 tied, seat 2 not: the 7 x 7 game of every such triple, solved."""
        lay = self.layout
        x, y, z = lay.forced.T
        result = np.zeros((len(lay.forced), 3))
        epsilon = 0.0
        for score, hands in lay.score_hands.items():
            rows = np.flatnonzero(SCORES[x] == score)
            if not len(rows):
                continue
            moves = TRANSITION[hands].reshape(len(hands) * ACTIONS, COUNT)
            thirds = np.unique(z[rows])
            # payoff[(x, a), (y, b), third, seat] = sum moves[x, a, x'] moves[y, b, y'] v[x', y', z]
            half = np.tensordot(moves, values[:, :, thirds], axes=([1], [0]))
            full = np.tensordot(moves, half, axes=([1], [1]))  # ((y,b), (x,a), third, seat)
            n = len(hands)
            full = full.reshape(n, ACTIONS, n, ACTIONS, len(thirds), 3)
            pos = {int(h): i for i, h in enumerate(hands)}
            third_pos = {int(t): i for i, t in enumerate(thirds)}
            xi = np.array([pos[int(v)] for v in x[rows]])
            yi = np.array([pos[int(v)] for v in y[rows]])
            zi = np.array([third_pos[int(v)] for v in z[rows]])
            games = full[yi, :, xi, :, zi].transpose(0, 2, 1, 3)  # (game, a, b, seat)
            back = (
                TRANSITION[x[rows], :, x[rows]][:, :, None]
                * TRANSITION[y[rows], :, y[rows]][:, None]
            )
            loop = Loop(back, values[x[rows], y[rows], z[rows]])
            result[rows], eps = ties.solve(games, (0, 1), rows, rng, loop)
            epsilon = max(epsilon, eps)
        ties.sweeps += 1
        return result, epsilon

    def _triple_ties(
        self, values: Array, ties: dict[int, Ties], rng: np.random.Generator | None
    ) -> tuple[dict[int, Array], float]:
        """All three seats on one score: the 7 x 7 x 7 game of every such triple, solved."""
        lay = self.layout
        results: dict[int, Array] = {}
        epsilon = 0.0
        for score, hands in lay.score_hands.items():
            n = len(hands)
            moves = TRANSITION[hands]  # (n, 7, 56)
            t = np.tensordot(moves, values, axes=([2], [0]))  # (x, a, y', z', s)
            t = np.tensordot(moves, t, axes=([2], [2]))  # (y, b, x, a, z', s)
            t = np.tensordot(moves, t, axes=([2], [4]))  # (z, c, y, b, x, a, s)
            games = t.transpose(4, 2, 0, 5, 3, 1, 6).reshape(n**3, ACTIONS, ACTIONS, ACTIONS, 3)
            stay = TRANSITION[hands, :, hands]  # (n, 7): a reroll giving the same hand
            back = np.einsum("xa,yb,zc->xyzabc", stay, stay, stay).reshape(n**3, *(ACTIONS,) * 3)
            own = values[np.ix_(hands, hands, hands)].reshape(n**3, 3)
            loop = Loop(back, own)
            value, eps = ties[score].solve(games, (0, 1, 2), np.arange(n**3), rng, loop)
            ties[score].sweeps += 1
            results[score] = value.reshape(n, n, n, 3)
            epsilon = max(epsilon, eps)
        return results, epsilon

    def _write_ties(self, values: Array, pair: Array, triple: dict[int, Array]) -> None:
        """Fill every tied triple from the games of seats 0 and 1 (the seats are alike)."""
        x, y, z = self.layout.forced.T
        values[x, y, z] = pair  # seats 0, 1 tied; seat 2 third
        values[x, z, y] = pair[:, [0, 2, 1]]  # seats 0, 2 tied (hands x, y); seat 1 has z
        values[z, x, y] = pair[:, [2, 0, 1]]  # seats 1, 2 tied; seat 0 has z
        for score, hands in self.layout.score_hands.items():
            values[np.ix_(hands, hands, hands)] = triple[score]

    def solve(self, advance: Callable[[], None] = lambda: None) -> Solution:
        self.solve_pots(advance)
        reveal = np.zeros((len(START_POTS), COUNT, COUNT, COUNT, 3))
        pair = np.zeros((len(START_POTS), len(self.layout.forced), 2, ACTIONS))
        triples: dict[int, list[Array]] = {}
        epsilon = 0.0
        for i, pot in enumerate(START_POTS):
            if pot > self.cap:  # the same as the cap's (T3)
                reveal[i], pair[i] = reveal[i - 1], pair[i - 1]
                triple = {score: strat[-1] for score, strat in triples.items()}
            else:
                reveal[i], pair[i], triple, eps = self.reveal(pot)
                epsilon = max(epsilon, eps)
            for score, strat in triple.items():
                triples.setdefault(score, []).append(strat)
            advance()
        return Solution(
            cap=self.cap,
            fish_value=self.fish_value,
            fish_policy=self.fish_policy,
            forced_value=self.forced_value,
            forced_policy=self.forced_policy,
            reveal_value=reveal,
            pair_strategy=pair,
            triple_strategy={s: np.stack(v) for s, v in triples.items()},
            tie_epsilon=epsilon,
            top_sweeps=self.top_sweeps,
            top_epsilon=self.top_epsilon,
        )


def steps(cap: int) -> int:
    """Progress steps of one solve (pots, then starting pots)."""
    return cap + len(START_POTS)


# --- the thumbs (T5) ------------------------------------------------------------------


def thumbs_values(reveal: Array, policy: Array, seat: int) -> Array:
    """(56, 2): the seat's expected round value for each hand and thumbs down/up, the
    others playing `policy` ((3, 56): each seat's chance of thumbs up per hand)."""
    others = [s for s in range(3) if s != seat]
    out = np.zeros((COUNT, 2))
    for mine in (0, 1):
        for a in (0, 1):
            for b in (0, 1):
                pot = 1 + mine + a + b
                wa = FRESH * (policy[others[0]] if a else 1 - policy[others[0]])
                wb = FRESH * (policy[others[1]] if b else 1 - policy[others[1]])
                v = np.moveaxis(reveal[pot - 1][..., seat], seat, 0)
                # v axes: (mine, first other, second other) in seat order of the others
                out[:, mine] += np.einsum("xyz,y,z->x", v, wa, wb)
    return out


def nash_conv(reveal: Array, policy: Array) -> tuple[float, list[float]]:
    """Sum over seats of what a best-responding seat gains, and each seat's gain."""
    gains = []
    for seat in range(3):
        q = thumbs_values(reveal, policy, seat)
        played = q[:, 0] * (1 - policy[seat]) + q[:, 1] * policy[seat]
        gains.append(float(FRESH @ (q.max(axis=1) - played)))
    return sum(gains), gains


@dataclass
class Thumbs:
    policy: Array  # (3, 56): chance of thumbs up per seat and hand
    nash_conv: float
    iterations: int


def thumbs_equilibrium(reveal: Array, iterations: int = 2_000, target: float = 1e-4) -> Thumbs:
    """Regret matching+ with linear averaging on the thumbs game; NashConv of the average."""
    regrets = np.zeros((3, COUNT, 2))
    average = np.zeros((3, COUNT, 2))
    policy = np.full((3, COUNT), 0.5)
    best = Thumbs(policy.copy(), nash_conv(reveal, policy)[0], 0)
    for t in range(1, iterations + 1):
        for seat in range(3):
            q = thumbs_values(reveal, policy, seat)
            played = q[:, 0] * (1 - policy[seat]) + q[:, 1] * policy[seat]
            regrets[seat] = np.maximum(regrets[seat] + q - played[:, None], 0.0)
            positive = regrets[seat].sum(axis=1)
            mix = np.where(
                positive > 0, regrets[seat][:, 1] / np.where(positive > 0, positive, 1), 0.5
            )
            policy[seat] = mix
            average[seat, :, 1] += t * mix
            average[seat, :, 0] += t * (1 - mix)
        if t % 50 == 0 or t == iterations:
            mean = average[:, :, 1] / average.sum(axis=2)
            conv = nash_conv(reveal, mean)[0]
            if conv < best.nash_conv:
                best = Thumbs(mean.copy(), conv, t)
            if conv < target:
                break
    return best


def heuristic_thumbs() -> Array:
    """The heuristic bot's thumbs as a policy: up above the median throw (bots.py)."""
    from dicehall.games.tepiiku.bots import percentile

    up = np.array([1.0 if percentile(int(s)) > 0.5 else 0.0 for s in SCORES])
    return np.stack([up, up, up])


# --- a cap's tables, as stored ---------------------------------------------------------


def solve_tables(
    cap: int, advance: Callable[[], None] = lambda: None, thumbs_iterations: int = THUMBS_ITERATIONS
) -> Tables:
    """Solve one cap from scratch (a minute or more)."""
    solution = RoundSolver(cap).solve(advance)
    thumbs = thumbs_equilibrium(solution.reveal_value, thumbs_iterations)
    advance()
    heuristic = nash_conv(solution.reveal_value, heuristic_thumbs())[0]
    random_thumbs = nash_conv(solution.reveal_value, np.full((3, COUNT), 0.5))[0]
    values = np.stack([thumbs_values(solution.reveal_value, thumbs.policy, s) for s in range(3)])
    return Tables(
        cap=cap,
        fish_policy=solution.fish_policy,
        fish_value=solution.fish_value.astype(np.float32),
        forced_policy=solution.forced_policy,
        forced_value=solution.forced_value.astype(np.float32),
        pair_strategy=solution.pair_strategy.astype(np.float32),
        triple_strategy={s: v.astype(np.float32) for s, v in solution.triple_strategy.items()},
        thumbs=thumbs.policy,
        thumbs_value=values,
        thumbs_nash_conv=thumbs.nash_conv,
        heuristic_nash_conv=heuristic,
        random_nash_conv=random_thumbs,
        tie_epsilon=solution.tie_epsilon,
    )


def tables_steps(cap: int) -> int:
    """Progress steps of `solve_tables`."""
    return steps(cap) + 1
