"""Equilibria of small simultaneous-move games, many at once (Tepiiku's T6 tie rerolls).

A batch of games is an array `payoff[..., a0, a1, (a2,) seat]`: the value to each
seat of every joint action of the two (or three) players who choose. A pure
equilibrium is found for all games at once with NumPy; where a game has none,
its mixed equilibrium is found by support enumeration (two players) or
approximated by fictitious play (three players), and the most a player could
gain by deviating from the returned strategies (epsilon) is reported.

Among several pure equilibria the one with the largest total payoff to the
choosing players is taken (the first such in action order): the selection is a
deterministic function of the game, so every seat that solves the same game
plays its part of the same equilibrium.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

Array = NDArray[np.float64]
TOL = 1e-9
"""Payoffs closer than this are equal (the games' values are coins, of order 1-100)."""
KEEP = 1e-9
"""A previous equilibrium is kept while nobody gains more than this by deviating."""
FICTITIOUS_ROUNDS = 4000


def solve_batch(
    payoff: Array,
    players: Sequence[int],
    previous: Sequence[Array] | None = None,
    hold: NDArray[np.bool_] | None = None,
    mixed_first: NDArray[np.bool_] | None = None,
    loop: Loop | None = None,
) -> tuple[list[Array], Array, float]:
    """Equilibrium strategies of every game in the batch, their values and epsilon.

    `payoff` has shape (G, A, A, [A,] seats); `players[i]` is the seat whose payoff
    player i (action axis i + 1) maximises. Returns the per-player strategies (each
    (G, A)), the values (G, seats) and the largest deviation gain of any game.

    For the stationary games of an iteration (the tie rerolls, whose payoffs move a
    little each sweep) there is more, so that the iteration settles on one
    equilibrium per game instead of jumping between several:

    - `loop` gives each joint action's chance of coming back to the same game and
      the game's present value (which `payoff` includes): then a pure profile is an
      equilibrium if it is one at the value it leads to itself (`Loop`), and the
      values returned are the strategies' own;
    - with `previous` strategies (each (G, A)), a game whose previous strategies are
      still an equilibrium (nobody gains more than `KEEP`) keeps them, and so does
      every game of the mask `hold` (the caller's asynchronous update: games that all
      switch at once can switch back and forth for ever);
    - a mixed equilibrium is looked for on the previous supports first, and for the
      games of `mixed_first` on the union of the previous supports and the new pure
      equilibrium's; with `loop`, such a game (one whose strategies keep changing)
      gets a mixed equilibrium at its own value (`stationary_game`) first: one at
      the present value moves the value it leads to, and the game then switches
      back, for ever where no pure profile is an equilibrium at its own value.
    """
    n = len(players)
    games, actions = payoff.shape[0], payoff.shape[1]
    rest = payoff if loop is None else loop.rest(payoff)
    mine = [rest[..., seat] for seat in players]  # each (G, A, A[, A])
    if loop is None:
        equilibrium = np.ones(mine[0].shape, dtype=bool)
        for i in range(n):
            best = mine[i].max(axis=i + 1, keepdims=True)
            equilibrium &= mine[i] >= best - TOL
        total = sum(mine)
    else:
        equilibrium, total = loop.pure(mine)
    score = np.where(equilibrium, total, -np.inf).reshape(games, -1)
    pick = score.argmax(axis=1)
    has_pure = np.isfinite(score[np.arange(games), pick])
    strategies = [np.zeros((games, actions)) for _ in range(n)]
    joint = np.unravel_index(pick, (actions,) * n)
    for i in range(n):
        strategies[i][np.arange(games), joint[i]] = 1.0
    kept = np.zeros(games, dtype=bool)
    mix = ~has_pure
    if previous is not None:
        kept = _gains(payoff, players, previous, loop) <= KEEP
        if hold is not None:
            kept |= hold
        if mixed_first is not None:
            mix |= mixed_first
        union = [(p > 0) | (s > 0) for p, s in zip(previous, strategies, strict=True)]
        for i in range(n):
            strategies[i][kept] = previous[i][kept]
    for g in np.flatnonzero(mix & ~kept):
        prefer = None
        flipping = False
        if previous is not None:
            flipping = mixed_first is not None and bool(mixed_first[g]) and bool(has_pure[g])
            chosen = union if flipping else previous
            prefer = [p[g] > 0 for p in chosen]
        if loop is not None and mixed_first is not None and mixed_first[g]:
            own = stationary_game(rest[g], loop.chance[g], players, prefer)
            if own is not None:
                for i in range(n):
                    strategies[i][g] = own[i]
                continue
        mixed = _mixed(payoff[g], players, prefer, fallback=not has_pure[g])
        if mixed is not None:
            for i in range(n):
                strategies[i][g] = mixed[i]
    values = _expected(payoff, strategies) if loop is None else loop.values(rest, strategies)
    found = _gains(payoff, players, strategies, loop)
    return strategies, values, float(found.max()) if games else 0.0


@dataclass
class Loop:
    """How the games of a batch lead back to themselves: `chance[g, a, b(, c)]` of
    coming back to game g after that joint action, and `own[g]`, the values of game g
    that its payoff holds for that return.

    A stationary strategy is played again on every return, so a pure profile leads
    to the value V = rest / (1 - chance) (rest: the payoff without the return) and is
    an equilibrium only if no player gains by a different action at that value: at
    the present value a profile can look like an equilibrium and not be one at the
    value it leads to, and the iteration then never settles.
    """

    chance: Array
    own: Array

    def rest(self, payoff: Array) -> Array:
        """The payoff without the return to the game at its present value."""
        return self.at(payoff, -self.own)

    def at(self, rest: Array, values: Array) -> Array:
        """The payoff with the return to the game at `values` (G, seats)."""
        shape = (len(values),) + (1,) * (rest.ndim - 2) + (values.shape[1],)
        payoff: Array = rest + self.chance[..., None] * values.reshape(shape)
        return payoff

    def pure(self, mine: list[Array]) -> tuple[NDArray[np.bool_], Array]:
        """Which pure profiles are equilibria at their own value; their totals."""
        n = len(mine)
        equilibrium = np.ones(mine[0].shape, dtype=bool)
        total = np.zeros(mine[0].shape)
        for i in range(n):
            value = mine[i] / (1.0 - self.chance)  # each profile's value to player i
            total += value
            # replies[g, a', ...profile]: player i plays a' instead, at the profile's value
            replies = np.expand_dims(mine[i], i + 2) + np.expand_dims(self.chance, i + 2) * (
                np.expand_dims(value, i + 1)
            )
            best = replies.max(axis=i + 1)
            equilibrium &= value >= best - TOL
        return equilibrium, total

    def values(self, rest: Array, strategies: Sequence[Array]) -> Array:
        """The strategies' own values: rest / (1 - chance), both under the strategies."""
        back = _expected(self.chance[..., None], list(strategies))
        values: Array = _expected(rest, list(strategies)) / (1.0 - back)
        return values


def evaluate(
    payoff: Array, players: Sequence[int], strategies: Sequence[Array]
) -> tuple[Array, float]:
    """The values (G, seats) of every game of the batch under given strategies (each
    (G, A)), and the most any player of any game gains by deviating from them alone."""
    values = _expected(payoff, list(strategies))
    found = gains(payoff, players, strategies)
    return values, float(found.max()) if len(found) else 0.0


def _gains(
    payoff: Array, players: Sequence[int], strategies: Sequence[Array], loop: Loop | None
) -> Array:
    """`gains`, with the returns of `loop` at the strategies' own values."""
    if loop is None:
        return gains(payoff, players, strategies)
    rest = loop.rest(payoff)
    return gains(loop.at(rest, loop.values(rest, strategies)), players, strategies)


def gains(payoff: Array, players: Sequence[int], strategies: Sequence[Array]) -> Array:
    """(G,): the most any one player of each game gains by deviating alone."""
    n = len(players)
    letters = "abc"[:n]
    gain = np.zeros(payoff.shape[0])
    for i, seat in enumerate(players):
        others = [j for j in range(n) if j != i]
        spec = f"g{letters}," + ",".join(f"g{letters[j]}" for j in others) + f"->g{letters[i]}"
        replies = np.einsum(spec, payoff[..., seat], *(strategies[j] for j in others))
        played = np.einsum("ga,ga->g", replies, strategies[i])
        gain = np.maximum(gain, replies.max(axis=1) - played)
    return gain


def _played(payoff: Array, strategies: Sequence[Array]) -> Array:
    """The expected payoff (per seat) of one game under one profile."""
    played: Array = _expected(payoff[None], [st[None] for st in strategies])[0]
    return played


def _expected(payoff: Array, strategies: list[Array]) -> Array:
    spec = "gabs,ga,gb->gs" if len(strategies) == 2 else "gabcs,ga,gb,gc->gs"
    values: Array = np.einsum(spec, payoff, *strategies)
    return values


def deviation_gain(payoff: Array, players: Sequence[int], strategies: Sequence[Array]) -> float:
    """The most any player of one game gains by changing its strategy alone."""
    return float(gains(payoff[None], players, [s[None] for s in strategies])[0])


def _mixed(
    payoff: Array,
    players: Sequence[int],
    prefer: Sequence[NDArray[np.bool_]] | None = None,
    fallback: bool = True,
) -> list[Array] | None:
    """A mixed equilibrium, on the supports `prefer` if there is one there; without
    `fallback` only there (None if not), else anywhere (two players: support
    enumeration; three: supports of up to two actions each, exactly, else
    fictitious play, approximate)."""
    if len(players) == 2:
        a, b = payoff[..., players[0]], payoff[..., players[1]]
        found = _support_enumeration(a, b, prefer, anywhere=fallback)
    else:
        found = _three_small_supports(payoff, players, prefer, anywhere=fallback)
    if found is not None or not fallback:
        return found
    return _fictitious_play(payoff, players)


def _three_small_supports(
    payoff: Array,
    players: Sequence[int],
    prefer: Sequence[NDArray[np.bool_]] | None = None,
    anywhere: bool = True,
) -> list[Array] | None:
    """An exact mixed equilibrium of a three-player game in which every player uses at
    most two actions (support enumeration, as for two players): with two players
    mixing, each one's indifference is linear in the other's mix; with three, the
    three bilinear indifferences reduce to a quadratic in one mix. The supports
    `prefer` are tried first, and only they unless `anywhere`. None if there is no
    such equilibrium (the caller falls back to fictitious play)."""
    small = []
    for i in range(3):  # a player's actions, duplicates (the same runes rerolled) once
        kept: list[int] = []
        for a in range(payoff.shape[i]):
            here = np.take(payoff, a, axis=i)
            if not any(np.allclose(here, np.take(payoff, b, axis=i), atol=TOL) for b in kept):
                kept.append(a)
        small.append([(a,) for a in kept] + list(itertools.combinations(kept, 2)))
    first = []
    if prefer is not None:
        chosen = tuple(tuple(int(a) for a in np.flatnonzero(p)) for p in prefer)
        if all(1 <= len(c) <= 2 for c in chosen):
            first.append(chosen)
    every = itertools.product(*small) if anywhere else iter(())
    for supports in itertools.chain(first, every):
        if sum(len(x) == 2 for x in supports) < 2:
            continue  # pure profiles are found elsewhere; one mixer alone is degenerate
        for mixes in _indifferent_three(payoff, players, supports):
            if deviation_gain(payoff, players, mixes) <= TOL:
                return mixes
    return None


def _indifferent_three(
    payoff: Array, players: Sequence[int], supports: Sequence[tuple[int, ...]]
) -> list[list[Array]]:
    """Mixes on `supports` (one or two actions each) that leave every two-action player
    indifferent between its two actions; t[i] is player i's chance of its first."""

    def gap(i: int) -> Array:
        # player i's first action less its second, against the others' supports
        u = payoff[..., players[i]]
        first = np.take(u, [supports[i][0]], axis=i)
        second = np.take(u, [supports[i][1]], axis=i)
        d = first - second
        for j in range(3):
            if j != i:
                d = np.take(d, list(supports[j]), axis=j)
        return d.squeeze(axis=i)  # axes: the other two players, in order

    def mixes(t: Sequence[float]) -> list[Array]:
        out = []
        for i, sup in enumerate(supports):
            w = np.zeros(actions)
            if len(sup) == 1:
                w[sup[0]] = 1.0
            else:
                w[sup[0]], w[sup[1]] = t[i], 1.0 - t[i]
            out.append(w)
        return out

    actions = payoff.shape[0]
    mixing = [i for i in range(3) if len(supports[i]) == 2]
    found: list[list[Array]] = []
    if len(mixing) == 2:
        i, j = mixing
        t = [0.0, 0.0, 0.0]
        for me, other in ((i, j), (j, i)):
            d = gap(me).ravel()  # the pure player's axis has length one: d over `other`'s two
            if abs(d[0] - d[1]) < TOL:
                return found
            t[other] = d[1] / (d[1] - d[0])
        if all(-TOL <= t[k] <= 1 + TOL for k in mixing):
            found.append(mixes([min(max(x, 0.0), 1.0) for x in t]))
        return found
    # all three mix: player i's indifference is D_i = a + b x + c y + e x y in the
    # others' chances x, y of their first actions (in player order)
    coef = []
    for i in range(3):
        d = gap(i)
        terms = (
            d[1, 1],
            d[0, 1] - d[1, 1],
            d[1, 0] - d[1, 1],
            d[0, 0] - d[0, 1] - d[1, 0] + d[1, 1],
        )
        coef.append(tuple(float(x) for x in terms))
    for t in _bilinear_roots(coef):
        found.append(mixes([min(max(x, 0.0), 1.0) for x in t]))
    return found


def _support_enumeration(
    a: Array,
    b: Array,
    prefer: Sequence[NDArray[np.bool_]] | None = None,
    anywhere: bool = True,
) -> list[Array] | None:
    """A mixed equilibrium of the bimatrix game (a, b) with supports of equal size,
    after removing duplicate actions (which make the game degenerate); the supports
    `prefer` (the two players' actions in use) are tried first, and only they
    unless `anywhere`."""
    rows = _distinct(a, b, axis=0)
    cols = _distinct(a, b, axis=1)
    sub_a, sub_b = a[np.ix_(rows, cols)], b[np.ix_(rows, cols)]
    m, k = len(rows), len(cols)
    first: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    if prefer is not None:
        r = tuple(i for i in range(m) if prefer[0][rows[i]])
        c = tuple(j for j in range(k) if prefer[1][cols[j]])
        if len(r) == len(c) > 0:
            first.append((r, c))
    every = (
        pair
        for size in range(1, min(m, k) + 1)
        for pair in itertools.product(
            itertools.combinations(range(m), size), itertools.combinations(range(k), size)
        )
    )
    for r, c in itertools.chain(first, every) if anywhere else first:
        found = _indifferent(sub_a, sub_b, list(r), list(c))
        if found is not None:
            x = np.zeros(a.shape[0])
            y = np.zeros(a.shape[1])
            x[rows] = found[0]
            y[cols] = found[1]
            return [x, y]
    return None


def _distinct(a: Array, b: Array, axis: int) -> list[int]:
    kept: list[int] = []
    for i in range(a.shape[axis]):
        row = (np.take(a, i, axis=axis), np.take(b, i, axis=axis))
        if not any(
            np.allclose(row[0], np.take(a, j, axis=axis), atol=TOL)
            and np.allclose(row[1], np.take(b, j, axis=axis), atol=TOL)
            for j in kept
        ):
            kept.append(i)
    return kept


def _indifferent(a: Array, b: Array, r: list[int], c: list[int]) -> tuple[Array, Array] | None:
    """Strategies on supports r, c that make the opponent indifferent, if they are an
    equilibrium (no action outside the support does better)."""
    size = len(r)
    y = _indifference(a[np.ix_(r, c)])  # column mix that equalises the row player
    x = _indifference(b[np.ix_(r, c)].T)
    if x is None or y is None:
        return None
    full_x = np.zeros(a.shape[0])
    full_y = np.zeros(a.shape[1])
    full_x[r], full_y[c] = x, y
    row_values = a @ full_y
    col_values = full_x @ b
    if row_values.max() > row_values[r].max() + TOL or col_values.max() > col_values[c].max() + TOL:
        return None
    if size > 1 and (np.ptp(row_values[r]) > TOL or np.ptp(col_values[c]) > TOL):
        return None
    return full_x, full_y


def _indifference(m: Array) -> Array | None:
    """A probability vector y with m @ y constant, or None."""
    size = m.shape[0]
    system = np.zeros((size + 1, size + 1))
    system[:size, :size] = m
    system[:size, size] = -1.0
    system[size, :size] = 1.0
    rhs = np.zeros(size + 1)
    rhs[size] = 1.0
    try:
        solution = np.linalg.solve(system, rhs)
    except np.linalg.LinAlgError:
        return None
    y = solution[:size]
    if (y < -TOL).any():
        return None
    y = np.clip(y, 0.0, None)
    mix: Array = y / y.sum()
    return mix


def _bilinear_roots(coef: Sequence[tuple[float, ...]]) -> list[list[float]]:
    """The solutions in [0, 1]^3 of D_i = 0 (i = 0, 1, 2), each D_i = a + b x + c y + e x y
    in the other two chances (x before y in player order). Taking t_k as the unknown,
    D_u and D_w give the other two as ratios of linear polynomials in t_k and D_k
    times both denominators is a quadratic in t_k; where that elimination is
    degenerate for every k, Newton's method from the centre."""
    others = ((1, 2), (0, 2), (0, 1))

    def express(i: int, v: int, k: int) -> tuple[np.poly1d, np.poly1d]:
        a, b, c, e = coef[i]
        if others[i][0] == v:  # D_i = (a + c t_k) + (b + e t_k) t_v
            return np.poly1d([-c, -a]), np.poly1d([e, b])
        return np.poly1d([-b, -a]), np.poly1d([e, c])  # D_i = (a + b t_k) + (c + e t_k) t_v

    roots: list[list[float]] = []
    for k in (2, 0, 1):
        u, w = others[k]
        nu, du = express(w, u, k)
        nw, dw = express(u, w, k)
        if not du.coeffs.any() or not dw.coeffs.any():
            continue
        a, b, c, e = coef[k]
        poly = a * du * dw + b * nu * dw + c * nw * du + e * nu * nw
        if not np.poly1d(poly).coeffs.any():
            continue
        for root in np.atleast_1d(np.poly1d(poly).roots):
            if abs(root.imag) > 1e-12:
                continue
            tk = float(root.real)
            if abs(du(tk)) < TOL or abs(dw(tk)) < TOL:
                continue
            found = [0.0, 0.0, 0.0]
            found[k], found[u], found[w] = tk, float(nu(tk) / du(tk)), float(nw(tk) / dw(tk))
            if all(-TOL <= x <= 1 + TOL for x in found):
                roots.append(found)
        return roots
    t: Array = np.full(3, 0.5)
    for _ in range(60):
        f, jac = np.empty(3), np.zeros((3, 3))
        for i, ((a, b, c, e), (j, m)) in enumerate(zip(coef, others, strict=True)):
            f[i] = a + b * t[j] + c * t[m] + e * t[j] * t[m]
            jac[i, j], jac[i, m] = b + e * t[m], c + e * t[j]
        if np.abs(f).max() < 1e-13:
            break
        try:
            t = t - np.linalg.solve(jac, f)
        except np.linalg.LinAlgError:
            return roots
    if np.abs(f).max() < 1e-11 and ((t >= -TOL) & (t <= 1 + TOL)).all():
        roots.append([float(x) for x in t])
    return roots


def _fictitious_play(payoff: Array, players: Sequence[int]) -> list[Array]:
    """Approximate mixed equilibrium by fictitious play (empirical mixes of best replies)."""
    n = len(players)
    actions = payoff.shape[0]
    counts = [np.ones(actions) / actions for _ in range(n)]
    for _ in range(FICTITIOUS_ROUNDS):
        mixes = [c / c.sum() for c in counts]
        for i, seat in enumerate(players):
            table = payoff[..., seat]
            for j in reversed(range(n)):
                if j != i:
                    table = np.tensordot(table, mixes[j], axes=([j], [0]))
            counts[i][int(table.argmax())] += 1.0
    return [c / c.sum() for c in counts]


# --- several games that lead into one another, solved together --------------------


@dataclass
class Link:
    """Game `source`'s payoff holds game `target`'s value: `chance[a, b(, c)]` of each
    joint action of reaching it, where seat s of the source reads the target's seat
    `seats[s]` (the same hands can sit in other seats there)."""

    source: int
    target: int
    seats: tuple[int, ...]
    chance: Array


@dataclass
class Coupled:
    """Tie games that lead into one another (and themselves): `rest[g]`, each joint
    action's payoff to every seat without the values of the games of the set, and
    the `links` that add them. A stationary profile (one strategy per game, played
    at every visit) has values V solving V = rest + links(V) under it, and is an
    equilibrium if no player of any game gains by another action at those values
    (one-shot deviations, which is enough where every game ends with certainty)."""

    rest: list[Array]
    links: list[Link]
    players: tuple[int, ...]

    def values(self, strategies: Sequence[Sequence[Array]]) -> Array:
        """(games, seats): the profile's own values, by one linear solve."""
        m, seats = len(self.rest), self.rest[0].shape[-1]
        matrix = np.eye(m * seats)
        rhs = np.concatenate([_played(r, st) for r, st in zip(self.rest, strategies, strict=True)])
        for link in self.links:
            chance = float(_played(link.chance[..., None], strategies[link.source])[0])
            for s in range(seats):
                matrix[link.source * seats + s, link.target * seats + link.seats[s]] -= chance
        solved: Array = np.linalg.solve(matrix, rhs).reshape(m, seats)
        return solved

    def payoffs(self, values: Array) -> list[Array]:
        """Every game's payoff with the games of the set at `values`."""
        out = [r.copy() for r in self.rest]
        for link in self.links:
            out[link.source] += link.chance[..., None] * values[link.target][list(link.seats)]
        return out

    def distinct(self, game: int, player: int, actions: Sequence[int]) -> list[int]:
        """`actions` of a player of a game without duplicates (actions with the same
        payoffs and links, as rerolling either of two equal runes)."""
        tables = [self.rest[game]] + [
            link.chance[..., None] for link in self.links if link.source == game
        ]
        kept: list[int] = []
        for a in actions:
            if not any(
                all(
                    np.allclose(np.take(t, a, axis=player), np.take(t, b, axis=player), atol=TOL)
                    for t in tables
                )
                for b in kept
            ):
                kept.append(a)
        return kept

    def gain(self, strategies: Sequence[Sequence[Array]]) -> float:
        """The most any player of any game gains by deviating at the profile's values."""
        payoffs = self.payoffs(self.values(strategies))
        return max(
            deviation_gain(p, self.players, list(st))
            for p, st in zip(payoffs, strategies, strict=True)
        )


def stationary(
    coupled: Coupled,
    candidates: Sequence[Sequence[tuple[int, ...]]],
    tolerance: float = TOL,
) -> tuple[list[list[Array]], float]:
    """A stationary equilibrium of coupled games, searched among profiles built from
    `candidates` (per game, the joint actions worth trying; the actions they use make
    the supports of the mixed profiles).

    First every combination of the candidates played purely: one is an equilibrium
    if it is one at its own values. Then mixed profiles: per game, a support of one
    or two actions per player from its candidates' actions (duplicate actions, the
    same runes rerolled, once), the mixing chances solved by Newton's method so that
    every mixing player is indifferent at the profile's own values: a mixed
    equilibrium of each game at the present values is not one at the values it leads
    to when it comes back to itself. Returns the profile with the smallest deviation
    gain found (the first within `tolerance`) and that gain."""
    actions = coupled.rest[0].shape[1]
    n = len(coupled.players)
    best: tuple[float, list[list[Array]]] = (np.inf, [])
    for combo in itertools.product(*candidates):
        profile = [[np.eye(actions)[a] for a in joint] for joint in combo]
        gain = coupled.gain(profile)
        if gain < best[0]:
            best = (gain, profile)
        if gain <= tolerance:
            return profile, gain
    options = []
    for g, cands in enumerate(candidates):
        used = [coupled.distinct(g, i, sorted({joint[i] for joint in cands})) for i in range(n)]
        per_player = [[(a,) for a in u] + list(itertools.combinations(u, 2)) for u in used]
        options.append(list(itertools.product(*per_player)))
    for supports in itertools.product(*options):
        found = _indifferent_at_own_values(coupled, supports)
        if found is None:
            continue
        gain = coupled.gain(found)
        if gain < best[0]:
            best = (gain, found)
        if gain <= tolerance:
            break
    return best[1], best[0]


def stationary_game(
    rest: Array,
    chance: Array,
    players: Sequence[int],
    prefer: Sequence[NDArray[np.bool_]] | None = None,
) -> list[Array] | None:
    """An equilibrium of one game that comes back to itself (`chance` of each joint
    action) at its own value (`rest`: the payoff without the return), by `stationary`:
    on the supports `prefer` first, then (two players) on any supports; None if
    there is none within `TOL`."""
    seats = rest.shape[-1]
    coupled = Coupled([rest], [Link(0, 0, tuple(range(seats)), chance)], tuple(players))
    tries: list[list[tuple[int, ...]]] = []
    if prefer is not None:
        used = [[int(a) for a in np.flatnonzero(p)] for p in prefer]
        tries.append(list(itertools.product(*used)))
    if len(players) == 2:
        tries.append(list(itertools.product(range(rest.shape[0]), repeat=2)))
    for joints in tries:
        profile, gain = stationary(coupled, [joints])
        if gain <= TOL:
            return profile[0]
    return None


NEWTON_STARTS = (0.5, 0.1, 0.9, 0.3, 0.7)


def _indifferent_at_own_values(
    coupled: Coupled, supports: Sequence[Sequence[tuple[int, ...]]]
) -> list[list[Array]] | None:
    """Mixes on `supports` (per game and player, one or two actions) that leave every
    player with two indifferent between them at the profile's own values, by Newton's
    method (numeric Jacobian) from several starts; None if none is found in [0, 1]."""
    n = len(coupled.players)
    actions = coupled.rest[0].shape[1]
    slots = [(g, i) for g, sup in enumerate(supports) for i in range(n) if len(sup[i]) == 2]
    if not slots:
        return None

    def profile_of(t: Array) -> list[list[Array]]:
        out = []
        for g, sup in enumerate(supports):
            game = []
            for i in range(n):
                w = np.zeros(actions)
                if len(sup[i]) == 1:
                    w[sup[i][0]] = 1.0
                else:
                    x = float(t[slots.index((g, i))])
                    w[sup[i][0]], w[sup[i][1]] = x, 1.0 - x
                game.append(w)
            out.append(game)
        return out

    def gaps(t: Array) -> Array:
        profile = profile_of(t)
        payoffs = coupled.payoffs(coupled.values(profile))
        out = np.empty(len(slots))
        for k, (g, i) in enumerate(slots):
            table = np.moveaxis(payoffs[g][..., coupled.players[i]], i, 0)
            for j in range(n):
                if j != i:
                    table = np.tensordot(table, profile[g][j], axes=([1], [0]))
            a, b = supports[g][i]
            out[k] = table[a] - table[b]
        return out

    size, step = len(slots), 1e-7
    for start in NEWTON_STARTS:
        t = np.full(size, start)
        for _ in range(50):
            f = gaps(t)
            if np.abs(f).max() < 1e-13:
                break
            jac = np.empty((size, size))
            for k in range(size):
                jac[:, k] = (gaps(t + step * np.eye(size)[k]) - f) / step
            try:
                t = t - np.linalg.solve(jac, f)
            except np.linalg.LinAlgError:
                break
            if not np.isfinite(t).all() or np.abs(t).max() > 10:
                break
        if np.isfinite(t).all() and (t >= -TOL).all() and (t <= 1 + TOL).all():
            return profile_of(np.clip(t, 0.0, 1.0))
    return None
