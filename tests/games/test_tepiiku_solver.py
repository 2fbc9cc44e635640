"""The Tepiiku solver against the rules engine, outcome by outcome, and its equilibria.

The dynamic programme's every equation (a Fish's choice, a forced reroll) is
checked against brute force through the engine itself: each reroll of each
position is played with every face the dice can show (`apply_chance`), and
the position reached (or the payment made, T8/T9/T3) is valued from the
solver's value tables; the result must be the solver's own value of that
choice. The equations hold whatever the values of the positions reached, so
the tables are random (a full solve is a benchmark); the Fish's choice is
then made by the solver's own step and must be the best of the brute force's.
The bankroll is the cap, so the engine's payments are the model's (T3).
"""

from __future__ import annotations

import itertools
import random
from functools import cache

import numpy as np
import pytest

from dicehall.games import make_game
from dicehall.games.tepiiku.rules import FISH, FORCED, RUNE, SUBSETS, TIES, TepiikuState
from dicehall.games.tepiiku.solver import solve, ties
from dicehall.games.tepiiku.solver.model import (
    COUNT,
    HANDS,
    SCORES,
    TRANSITION,
    action_of,
    dice_in_view,
    hand_index,
)

CAP = 3


@cache
def solved() -> solve.RoundSolver:
    """A solver whose tables hold random values: the positions reached, to check the steps."""
    model = solve.RoundSolver(CAP)
    rng = np.random.default_rng(5)
    model.fish_value[:] = rng.normal(0, CAP, model.fish_value.shape)
    model.forced_value[:] = rng.normal(0, CAP, model.forced_value.shape)
    return model


def dealt(hands: tuple[tuple[str, ...], ...], ups: int) -> TepiikuState:
    """A round thrown with these hands (seats 0-2) and `ups` thumbs up: dice shown."""
    state = make_game("tepiiku", 3, {"bankroll": CAP}).new_state()
    assert isinstance(state, TepiikuState)
    for faces in hands:
        state.apply_chance(list(faces))
    for seat in range(3):
        state.apply(seat, {"type": "thumbs", "up": seat < ups})
    return state


def engine_value(state: TepiikuState, before: list[int]) -> np.ndarray:
    """Each seat's value of an engine position: a payment made, or the solver's value."""
    model = solved()
    lay = model.layout
    if state.phase not in (FISH, FORCED) or state.coins != before:
        return np.array(state.coins, dtype=float) - before
    level = model.level(state.pot)
    hands = [hand_index(d) for d in state.dice]
    if state.phase == FISH:
        seats = (state.fish, state.middle, state.hook)
        index = lay.fish_at[hands[seats[0]], hands[seats[1]], hands[seats[2]]]
        slots = model.fish_value[level, index]
    else:
        x = state.forced
        y = next(s for s in range(3) if s != x and state.scores[s] == state.scores[x])
        seats = (x, y, 3 - x - y)
        index = lay.forced_at[hands[seats[0]], hands[seats[1]], hands[seats[2]]]
        slots = model.forced_value[level, index]
    assert index >= 0
    value = np.zeros(3)
    value[list(seats)] = slots
    return value


def brute_force(state: TepiikuState, seat: int, dice: tuple[int, ...]) -> np.ndarray:
    """The expected value of a reroll, every face outcome played by the engine."""
    total = np.zeros(3)
    before = list(state.coins)
    for faces in itertools.product(RUNE, repeat=len(dice)):
        after = state.clone()
        after.apply(seat, {"type": "reroll", "dice": list(dice)})
        after.apply_chance(list(faces))
        total += engine_value(after, before)
    return total / 6 ** len(dice)


def fish_positions(count: int, seed: int) -> list[TepiikuState]:
    rng = random.Random(seed)
    found: list[TepiikuState] = []
    while len(found) < count:
        hands = tuple(tuple(rng.choice(RUNE) for _ in range(3)) for _ in range(3))
        if len({SCORES[hand_index(h)] for h in hands}) == 3:
            # pots 1 and 2: below the cap, so a step reads only the levels above
            found.append(dealt(hands, rng.randrange(2)))  # type: ignore[arg-type]
    return found


def test_T8_every_fish_choice_matches_the_engine_outcome_by_outcome() -> None:
    model = solved()
    lay = model.layout
    best: dict[tuple[int, int], float] = {}
    for state in sorted(fish_positions(12, 1), key=lambda s: s.pot):
        fish = state.fish
        hands = [hand_index(d) for d in state.dice]
        index = int(lay.fish_at[hands[fish], hands[state.middle], hands[state.hook]])
        after = solve.fish_after(model.fish_value, model.forced_value, CAP, state.pot)
        after = after[lay.fish_gather[index]]
        seats = [fish, state.middle, state.hook]
        best[(state.pot, index)] = -min(state.pot, CAP)
        for dice in SUBSETS:
            k = action_of(state.dice[fish], dice)
            model_value = TRANSITION[hands[fish], k] @ after  # slots F, M, H
            engine = brute_force(state, fish, dice)[seats]
            np.testing.assert_allclose(engine, model_value, atol=1e-9)
            best[(state.pot, index)] = max(best[(state.pot, index)], engine[0])
    # The solver's own step chooses the best of them (pot 1 first: pot 2's step
    # rewrites what pot 1 reads).
    for pot in sorted({pot for pot, _ in best}):
        model.fish_level(pot)
        for (p, index), value in best.items():
            if p == pot:
                assert model.fish_value[model.level(pot), index, 0] == pytest.approx(value)


def test_T8_a_fish_with_one_die_to_reroll_against_brute_force() -> None:
    """Skull, skull, gem (-2) below 3 and 9 at pot 1: rerolling one skull, exactly."""
    state = dealt((("skull", "skull", "gem"), ("fire", "ingot", "skull"), ("person",) * 3), 0)
    assert (state.fish, state.middle, state.hook) == (0, 1, 2)
    engine = brute_force(state, 0, (0,))
    model = solved()
    lay = model.layout
    hands = [hand_index(d) for d in state.dice]
    index = lay.fish_at[hands[0], hands[1], hands[2]]
    after = solve.fish_after(model.fish_value, model.forced_value, CAP, 1)[lay.fish_gather[index]]
    k = action_of(state.dice[0], (0,))
    np.testing.assert_allclose(engine, TRANSITION[hands[0], k] @ after, atol=1e-9)


def test_T8_every_forced_reroll_matches_the_engine() -> None:
    model = solved()
    lay = model.layout
    checked = 0
    for state in fish_positions(40, 2):
        for dice in SUBSETS:
            for faces in itertools.product(RUNE, repeat=len(dice)):
                tied = state.clone()
                tied.apply(state.fish, {"type": "reroll", "dice": list(dice)})
                tied.apply_chance(list(faces))
                if tied.phase != FORCED or checked >= 10:
                    continue
                checked += 1
                x = tied.forced
                y = next(s for s in range(3) if s != x and tied.scores[s] == tied.scores[x])
                seats = [x, y, 3 - x - y]
                hands = [hand_index(tied.dice[s]) for s in seats]
                index = lay.forced_at[hands[0], hands[1], hands[2]]
                after = solve.forced_after(model.fish_value, model.forced_value, CAP, tied.pot)
                after = after[lay.forced_gather[index]]
                for forced_dice in SUBSETS:
                    k = action_of(tied.dice[x], forced_dice)
                    engine = brute_force(tied, x, forced_dice)[seats]
                    np.testing.assert_allclose(engine, TRANSITION[hands[0], k] @ after, atol=1e-9)
    assert checked == 10


@pytest.mark.slow
def test_T3_a_solved_cap_never_pays_more_than_the_cap_and_only_moves_coins() -> None:
    model = solve.RoundSolver(2)
    model.solve_pots()
    assert model.fish_value[..., 0].min() >= -2 - 1e-9
    assert np.allclose(model.fish_value.sum(axis=2), 0.0)  # T9: coins only move
    assert model.top_epsilon < 0.05


def test_hands_and_transitions_are_the_rune_dice() -> None:
    assert COUNT == 56 and len(HANDS) == 56
    np.testing.assert_allclose(TRANSITION.sum(axis=2), 1.0)
    assert SCORES.min() == -6 and SCORES.max() == 12


# --- equilibria of small games (T6) and the thumbs (T5) ---------------------------------


def test_matching_pennies_has_its_mixed_equilibrium_with_no_gain_from_deviating() -> None:
    payoff = np.zeros((1, 2, 2, 3))
    payoff[0, :, :, 0] = [[1, -1], [-1, 1]]
    payoff[0, :, :, 1] = -payoff[0, :, :, 0]
    (x, y), values, epsilon = ties.solve_batch(payoff, (0, 1))
    np.testing.assert_allclose(x[0], [0.5, 0.5])
    np.testing.assert_allclose(y[0], [0.5, 0.5])
    assert epsilon == pytest.approx(0.0, abs=1e-12)
    assert ties.deviation_gain(payoff[0], (0, 1), [x[0], y[0]]) == pytest.approx(0.0)
    np.testing.assert_allclose(values[0, :2], 0.0, atol=1e-12)


def test_three_players_without_a_pure_equilibrium_get_their_exact_mixed_one() -> None:
    """Jordan's game: the first matches the second, the second the third, the third
    avoids the first. No pure equilibrium; the only one is everybody at one half."""
    a, b, c = np.meshgrid(range(2), range(2), range(2), indexing="ij")
    payoff = np.stack([a == b, b == c, c != a], axis=-1).astype(float)[None]
    chosen, values, epsilon = ties.solve_batch(payoff, (0, 1, 2))
    for mix in chosen:
        np.testing.assert_allclose(mix[0], [0.5, 0.5], atol=1e-12)
    assert epsilon < 1e-12
    np.testing.assert_allclose(values[0], [0.5, 0.5, 0.5])


def test_pure_equilibria_of_a_batch_take_the_best_total() -> None:
    payoff = np.zeros((1, 2, 2, 3))
    payoff[0, :, :, 0] = [[2, 0], [0, 1]]  # a coordination game: two pure equilibria
    payoff[0, :, :, 1] = [[2, 0], [0, 1]]
    (x, y), _, epsilon = ties.solve_batch(payoff, (0, 1))
    assert list(x[0]) == [1.0, 0.0] and list(y[0]) == [1.0, 0.0] and epsilon == 0.0


# --- ties that lead back into themselves (T6) -------------------------------------------


class Recorder(solve.Ties):
    """Keeps the tie games a sweep builds instead of solving them."""

    def solve(
        self,
        payoff: np.ndarray,
        players: tuple[int, ...],
        rows: np.ndarray,
        rng: object,
        loop: ties.Loop,
    ) -> tuple[np.ndarray, float]:
        self.games = getattr(self, "games", {})
        for i, row in enumerate(rows):
            self.games[int(row)] = (payoff[i], loop.chance[i], loop.own[i])
        return np.zeros((len(rows), 3)), 0.0


def outcomes(state: TepiikuState) -> list[tuple[TepiikuState, float]]:
    """Every way the pending rerolls can land, each with its chance (T1)."""
    if not state.is_chance():
        return [(state, 1.0)]
    found = []
    dice = len(state.chance_dice())
    for faces in itertools.product(RUNE, repeat=dice):
        after = state.clone()
        after.apply_chance(list(faces))
        found += [(s, p / 6**dice) for s, p in outcomes(after)]
    return found


def test_T6_a_tie_game_and_its_return_to_itself_match_the_engine() -> None:
    """Seats 0 and 1 tied on fire, skull, skull (-1), seat 2 on 3: every joint reroll
    played by the engine with every face, against the solver's tie game over a random
    table of values; and the chance of the same two hands again is the game's return."""
    hands = (("skull", "fire", "skull"), ("skull", "skull", "fire"), ("gem", "skull", "fire"))
    state = dealt(hands, 0)
    assert sorted(state.tied) == [0, 1]
    values = np.random.default_rng(3).normal(0, 2, (COUNT, COUNT, COUNT, 3))
    recorder = Recorder(len(solve.layout().forced), 2)
    solve.RoundSolver(CAP)._pair_ties(values, recorder, np.random.default_rng(0))
    x, y, z = (hand_index(h) for h in hands)
    payoff, back, own = recorder.games[int(solve.layout().forced_at[x, y, z])]
    np.testing.assert_allclose(own, values[x, y, z])
    for a, b in itertools.product(range(len(SUBSETS)), repeat=2):
        if len(SUBSETS[a]) + len(SUBSETS[b]) > 3:
            continue  # keeps the engine's outcomes few; the rest are the same sums
        tie = state.clone()
        tie.apply(0, {"type": "reroll", "dice": list(dice_in_view(hands[0], a))})
        tie.apply(1, {"type": "reroll", "dice": list(dice_in_view(hands[1], b))})
        total, same = np.zeros(3), 0.0
        for after, chance in outcomes(tie):
            assert after.phase in (TIES, FISH)  # T6: the pot never changes here
            assert after.pot == state.pot
            reached = tuple(hand_index(d) for d in after.dice)
            total += chance * values[reached]
            same += chance * (reached == (x, y, z))
        np.testing.assert_allclose(payoff[a, b], total, atol=1e-12)
        assert back[a, b] == pytest.approx(same, abs=1e-15)
    assert back.max() > 0  # this tie can come back to itself


def test_T6_a_tie_that_comes_back_to_itself_settles_on_its_brute_forced_equilibrium() -> None:
    """Two tie games that lead into each other and back into themselves (a toy of the
    tie rerolls' stochastic game: 3 x 3, each joint action ending with a payoff or
    going on to one of the games). Re-solving each game at the present values goes
    round for ever; `ties.stationary` (both games at once) and `Ties` with the
    returns (`ties.Loop`) find the one stationary equilibrium that brute force
    finds over all 3**4 pure profiles, with its exact values (a linear system) and
    nothing to gain by deviating."""
    rng = np.random.default_rng(72)
    rest = rng.normal(size=(2, 3, 3, 3))
    rest[..., 2] = -rest[..., 0] - rest[..., 1]  # the third seat: what the tied seats lose
    move = rng.random((2, 3, 3, 2))  # move[g, a, b, h]: the chance to go on to game h
    move *= rng.uniform(0.2, 0.8, (2, 3, 3, 1)) / move.sum(axis=-1, keepdims=True)

    def payoffs(values: np.ndarray) -> np.ndarray:
        return rest + np.einsum("gabh,hs->gabs", move, values)

    stationary = []
    for profile in itertools.product(itertools.product(range(3), repeat=2), repeat=2):
        chosen = tuple(zip(*profile, strict=True))
        values = np.linalg.solve(np.eye(2) - move[(0, 1), *chosen], rest[(0, 1), *chosen])
        games = payoffs(values)
        if all(
            games[g, :, b, 0].max() <= games[g, a, b, 0] + 1e-12
            and games[g, a, :, 1].max() <= games[g, a, b, 1] + 1e-12
            for g, (a, b) in enumerate(profile)
        ):
            stationary.append((profile, values))
    assert len(stationary) == 1
    profile, exact = stationary[0]
    # the two games solved together as one stochastic game (`ties.Coupled`)
    links = [ties.Link(g, h, (0, 1, 2), move[g, :, :, h]) for g in range(2) for h in range(2)]
    coupled = ties.Coupled([rest[0], rest[1]], links, (0, 1))
    joints = list(itertools.product(range(3), repeat=2))
    together, gain = ties.stationary(coupled, [joints, joints])
    assert gain < 1e-12
    assert [tuple(int(np.argmax(m)) for m in game) for game in together] == list(profile)
    np.testing.assert_allclose(coupled.values(together), exact, atol=1e-12)

    values = np.zeros((2, 3))
    for _ in range(300):  # at the present values alone: no fixed point
        _, after, _ = ties.solve_batch(payoffs(values), (0, 1))
        settled = np.abs(after - values).max() < 1e-12
        values = after
    assert not settled

    tie_solver, values, sweep_rng = (
        solve.Ties(2, 2, actions=3),
        np.zeros((2, 3)),
        np.random.default_rng(0),
    )
    for _ in range(300):
        loop = ties.Loop(move[(0, 1), :, :, (0, 1)], values)
        after, epsilon = tie_solver.solve(payoffs(values), (0, 1), np.arange(2), sweep_rng, loop)
        tie_solver.sweeps += 1
        settled = np.abs(after - values).max() < 1e-12 and epsilon < 1e-12
        values = after
        if settled:
            break
    assert settled
    assert [tuple(int(i) for i in np.argmax(s, axis=1)) for s in tie_solver.strategy] == list(
        profile
    )
    assert tie_solver.strategy.max(axis=2).min() == 1.0  # pure, as brute force found it
    np.testing.assert_allclose(values, exact, atol=1e-9)


def test_T6_a_tie_with_no_pure_equilibrium_at_its_own_value_settles_on_its_mixed_one() -> None:
    """A tie that comes back to itself (2 x 2, the tied seats' payoffs like matching
    pennies, each joint action returning with its own chance). No pure profile is an
    equilibrium at the value it leads to, and the mixed equilibrium of the game at a
    present value is not one at its own value: re-solving at the present values went
    round. `ties.stationary_game` finds the equilibrium at its own value that
    brute force over a grid of mixes finds (values by value iteration), and the
    sweeps of `Ties` settle on it."""
    rest = np.zeros((1, 2, 2, 3))
    rest[0, :, :, 0] = [[2.0, -1.0], [-1.0, 1.0]]
    rest[0, :, :, 1] = [[-1.0, 1.0], [2.0, -1.5]]
    rest[0, :, :, 2] = -rest[0, :, :, 0] - rest[0, :, :, 1]
    back = np.array([[[0.7, 0.1], [0.2, 0.4]]])
    grid = np.linspace(0.0, 1.0, 101)

    def own(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Values of mixes x, y (chances of the first actions; arrays of any shape) at
        themselves, by value iteration, and the most a tied seat gains by deviating."""
        mx, my = np.stack([x, 1 - x], axis=-1), np.stack([y, 1 - y], axis=-1)
        value = np.zeros((*x.shape, 3))
        for _ in range(300):
            game = rest[0] + back[0, ..., None] * value[..., None, None, :]
            value = np.einsum("...abs,...a,...b->...s", game, mx, my)
        game = rest[0] + back[0, ..., None] * value[..., None, None, :]
        rows = np.einsum("...ab,...b->...a", game[..., 0], my)
        cols = np.einsum("...ab,...a->...b", game[..., 1], mx)
        gain_x = rows.max(axis=-1) - np.einsum("...a,...a->...", rows, mx)
        gain_y = cols.max(axis=-1) - np.einsum("...b,...b->...", cols, my)
        return value, np.maximum(gain_x, gain_y)

    corners = np.array([0.0, 1.0])
    assert own(*np.meshgrid(corners, corners))[1].min() > 0.1  # no pure equilibrium
    gains = own(*np.meshgrid(grid, grid, indexing="ij"))[1]
    i, j = np.unravel_index(gains.argmin(), gains.shape)
    present = ties.solve_batch(rest, (0, 1))[0]  # the stage game at the value 0
    assert own(present[0][:, 0], present[1][:, 0])[1][0] > 1e-3
    mixes = ties.stationary_game(rest[0], back[0], (0, 1))
    assert mixes is not None
    x, y = np.array([mixes[0][0]]), np.array([mixes[1][0]])
    assert own(x, y)[1][0] < 1e-9
    assert abs(x[0] - grid[i]) <= 0.01 and abs(y[0] - grid[j]) <= 0.01
    value, gain, tie_solver = np.zeros((1, 3)), np.inf, solve.Ties(1, 2, actions=2)
    for _ in range(200):  # and the sweeps of the ties settle on it
        loop = ties.Loop(back, value)
        payoff = rest + back[..., None] * value[:, None, None]
        after, gain = tie_solver.solve(payoff, (0, 1), np.arange(1), None, loop)
        tie_solver.sweeps += 1
        settled, value = np.abs(after - value).max() < 1e-12, after
        if settled and gain < 1e-9:
            break
    assert gain < 1e-9
    np.testing.assert_allclose(tie_solver.strategy[0, :, 0], [x[0], y[0]], atol=1e-6)
    np.testing.assert_allclose(value, own(x, y)[0], atol=1e-9)


def toy_reveal() -> np.ndarray:
    """A round in which a seat's value of each thumbs count is its score times the pot,
    less the others': thumbs up pays exactly when one's own score is positive."""
    reveal = np.zeros((4, COUNT, COUNT, COUNT, 3))
    s = SCORES.astype(float)
    for p in range(4):
        pot = p + 1
        reveal[p, ..., 0] = pot * s[:, None, None]
        reveal[p, ..., 1] = pot * s[None, :, None]
        reveal[p, ..., 2] = pot * s[None, None, :]
    return reveal


def test_nash_conv_of_an_exact_thumbs_equilibrium_is_zero() -> None:
    reveal = toy_reveal()
    exact = np.stack([(SCORES > 0).astype(float)] * 3)
    assert solve.nash_conv(reveal, exact)[0] == pytest.approx(0.0, abs=1e-12)
    assert solve.nash_conv(reveal, 1 - exact)[0] > 1.0  # the reverse is far from it
    found = solve.thumbs_equilibrium(reveal, iterations=100)
    assert found.nash_conv < 1e-3
