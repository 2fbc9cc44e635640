"""The two-seat Tao Dice solver against brute force: the engine's own tree of a small match.

The solver works in vector form on a model of the betting round
(`games/tao/solver/model.py`). Here the same rounds are built the slow way, by
`strategy.tree.build_tree` walking the real rules (`rules.py`) through the
core API, with perfect recall (each seat remembers every sum it threw), for
a two-stone match (one black and one white stone each) played with small
dice (two d2 hidden, a d3 shown) so that every history fits in memory. The
values, and both exact best responses, of the solver's passes must equal
the engine's on every round, for the uniform policy and a random one.
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from dicehall.core import Faces, State
from dicehall.core.chance import Throw
from dicehall.games.tao.rules import ANTE, ONE_D12, OVER, THROW, TWO_D6, TaoDice, TaoState
from dicehall.games.tao.solver import solve as solve_module
from dicehall.games.tao.solver.model import (
    Dice,
    Positions,
    betting_start,
    locate,
    slot_of,
)
from dicehall.games.tao.solver.solve import (
    CFRState,
    Model,
    Policy,
    exploitability,
    round_pass,
    solve,
)
from dicehall.strategy.passes import Passes
from dicehall.strategy.tree import Tree, build_tree

SMALL: dict[Throw, Throw] = {TWO_D6: ((1, 2), (1, 2)), ONE_D12: ((1, 2, 3),)}
DICE = Dice(six=2, twelve=3, black=1, white=1)


class SmallState(TaoState):
    """The real rules with small dice, remembering each seat's sums (perfect recall)."""

    sums: tuple[tuple[int, int], ...] = ()

    def chance_dice(self) -> Throw:
        dice = super().chance_dice()
        return SMALL.get(dice, dice)

    def _apply_chance(self, faces: Faces) -> None:
        if len(faces) == 2:
            self.sums = (*self.sums, (self.queue[self.pos], int(faces[0]) + int(faces[1])))
        super()._apply_chance(faces)


class SmallTao(TaoDice):
    def new_state(self, record: bool = False) -> SmallState:
        state = SmallState(self, record)
        state.black, state.white = [1, 1], [1, 1]
        return state


@cache
def model() -> Model:
    return Model(DICE)


@cache
def engine_tree(stones: tuple[int, int, int, int]) -> Tree:
    """The betting round from a position, every history, cut where the round ends."""
    pos = model().positions

    def leaf(state: State) -> Hashable | None:
        assert isinstance(state, SmallState)
        if state.phase == OVER:
            return pos.win if state.winner == 0 else pos.lose
        if state.phase == ANTE:  # the pot is taken: the next round's antes
            return int(pos.pre_table[state.black[0], state.white[0]])
        if state.tiebreak > 0 and state.phase == THROW and state.pos == 0:
            b, w = state.black, state.white
            return int(pos.post_table[b[0], w[0], b[1], w[1]])
        return None

    def infoset(state: State, seat: int) -> Hashable:
        assert isinstance(state, SmallState)
        view = {k: v for k, v in state.view(seat).items() if k != "actors"}
        own = tuple(s for who, s in state.sums if who == seat)
        return seat, own, json.dumps(view, sort_keys=True)

    def merge(state: State) -> Hashable:
        assert isinstance(state, SmallState)
        return tuple(a + b for a, b in state.dice), tuple(state.d12), state.sums, leaf(state)

    game = SmallTao(2, {"opener": "0", "length": "single"})
    root = betting_start(game, stones)
    return build_tree(root, leaf, infoset, merge, keep_states=True)  # type: ignore[arg-type]


def engine_policy(tree: Tree, policy1: np.ndarray, policy2: np.ndarray) -> np.ndarray:
    """The model's policy (node-major, one position) at every infoset of the engine's tree."""
    pos = model().positions
    out = np.zeros((1, tree.n_sa))
    reps = Passes(tree).infoset_rep
    for i in range(tree.n_infosets):
        state = tree.states[int(reps[i])]
        seat = int(tree.infoset_player[i])
        where = locate(state.view(seat), pos)
        assert where is not None
        if where.stage == 1:
            chances = policy1[where.node, :, 0, where.hand]
        else:
            chances = policy2[where.node, :, 0, where.end, where.pair, where.hand]
        first = int(tree.infoset_sa[i])
        for a, action in enumerate(tree.infoset_actions[i]):
            out[0, first + a] = chances[slot_of(action)]
    return out


def random_policy(rng: np.random.Generator, shape: tuple[int, ...], mask: np.ndarray) -> np.ndarray:
    raw = rng.random(shape) * mask
    return np.asarray(raw / raw.sum(axis=1, keepdims=True))


CASES = [(0, 1, 0, 1), (0, 0, 0, 2), (1, 1, 0, 0), (1, 0, 1, 0)]


@pytest.mark.parametrize("stones", CASES)
def test_round_values_and_best_responses_match_the_engines_tree(stones: Any) -> None:
    m = model()
    pos = m.positions
    i = pos.index[stones]
    rng = np.random.default_rng(i)
    ext = rng.random(pos.n_ext)
    ext[pos.lose], ext[pos.win] = 0.0, 1.0
    tree = engine_tree(stones)
    passes = Passes(tree)
    leaves = np.array([[ext[label] for label in tree.leaf_labels]])  # type: ignore[index]
    m1, m2 = m.masks(i, i + 1)
    uniform = m.uniform(i, i + 1)
    shape1, shape2 = m.shapes(i, i + 1)
    mixed = random_policy(rng, shape1, m1), random_policy(rng, shape2, m2)
    for s1, s2 in (uniform, mixed):
        policy = engine_policy(tree, s1, s2)
        mine = m.leaf_values(ext, i, i + 1)
        value = round_pass(m, i, i + 1, s1, s2, mine, 0, best=False).value[0]
        assert value == pytest.approx(passes.values(policy, leaves)[0, 0], abs=1e-6)
        for seat in (0, 1):
            br = round_pass(m, i, i + 1, s1, s2, mine, seat, best=True).value[0]
            engine = passes.best_response(policy, leaves, seat)[0][0, 0]
            assert br == pytest.approx(engine, abs=1e-6)


def test_the_two_stone_match_solves_to_an_equilibrium() -> None:
    """Iterated to a fixed point of the values, and nothing exploitable is left."""
    m = model()
    solved = solve(m, iterations=80, per_sweep=10, max_sweeps=12)
    assert solved.change < 1e-5
    e = exploitability(m, solved.policy)
    assert 0 <= e.match < 1e-3 and 0 <= e.token < 2e-3
    uniform = m.uniform(0, len(m))

    ante = m.ante_legal
    ante_o = ante.any(-1) / ante.any(-1).sum(-1, keepdims=True)
    ante_x = ante / np.maximum(ante.sum(-1, keepdims=True), 1)
    e_uniform = exploitability(m, Policy(uniform[0], uniform[1], ante_o, ante_x))
    assert e_uniform.match > 10 * e.match


def test_predictive_cfr_plus_goes_further_in_the_same_iterations() -> None:
    """Predictive CFR+ (`chunk_iterations`) against CFR+, both carried, 190 iterations."""
    m = model()
    plain, predictive = (
        solve(m, iterations=40, per_sweep=10, max_sweeps=6, tolerance=0, carry=True, predictive=p)
        for p in (False, True)
    )
    assert predictive.iterations == plain.iterations == 190
    e_plain, e_predictive = exploitability(m, plain.policy), exploitability(m, predictive.policy)
    assert -1e-9 < e_predictive.match < min(1e-6, e_plain.match / 10)  # -1e-9: rounding
    assert -1e-9 < e_predictive.token < min(2e-6, e_plain.token / 10)
    assert predictive.change < plain.change / 5


@pytest.mark.parametrize("carry", [False, True])
def test_a_solve_resumed_from_its_kept_state_goes_on_exactly(tmp_path: Path, carry: bool) -> None:
    """Stopped after two sweeps and resumed from the file, it ends where one run ends
    (with a carried average too: its weights are kept with the regrets)."""
    m = model()
    straight = solve(m, iterations=20, per_sweep=5, max_sweeps=4, carry=carry)
    where = tmp_path / "state.npz"
    solve(m, iterations=20, per_sweep=5, max_sweeps=2, carry=carry, keep=lambda k: k.save(where))
    resumed = solve(
        m, iterations=20, per_sweep=5, max_sweeps=4, carry=carry, resume=CFRState.load(where)
    )
    assert (resumed.sweeps, resumed.iterations) == (4, straight.iterations)
    assert np.array_equal(resumed.values, straight.values)
    assert np.array_equal(resumed.policy.stage2, straight.policy.stage2)
    assert [c for _, c in resumed.history] == [c for _, c in straight.history]


@pytest.mark.parametrize("predictive", [False, True])
def test_cfr_passes_in_worker_processes_give_the_same_numbers(
    monkeypatch: pytest.MonkeyPatch, predictive: bool
) -> None:
    """The chunks shared out among two processes: the very numbers of one process."""
    m = model()
    monkeypatch.setattr(solve_module, "CHUNK", max(1, len(m) // 3))
    assert len(list(m.chunks())) >= 3
    one, two = (
        solve(
            m,
            iterations=10,
            per_sweep=5,
            max_sweeps=2,
            carry=True,
            predictive=predictive,
            workers=workers,
        )
        for workers in (1, 2)
    )
    assert np.array_equal(two.values, one.values)
    assert np.array_equal(two.policy.stage1, one.policy.stage1)
    assert np.array_equal(two.policy.stage2, one.policy.stage2)
    assert two.history == one.history


def test_positions_hold_every_stone_split_with_a_pot_of_two_or_more() -> None:
    pos = Positions(Dice())
    assert len(pos) == 554 and len(pos.pre) == 43
    assert all(12 - sum(p) >= 2 for p in pos.all)
    assert pos.pre[pos.start - len(pos)] == (4, 2)  # a match starts at four black, two white each


def test_the_heuristics_policy_is_what_it_chooses_on_the_engines_views() -> None:
    """`bot_policy` asks the heuristic through stand-in views; the real views agree."""
    import random

    from dicehall.games.tao.bots import HeuristicBot
    from dicehall.games.tao.solver.bot_policies import bot_policy

    m = model()
    game = SmallTao(2, {"opener": "0", "length": "single"})
    policy = bot_policy(m, "heuristic", game)
    bot = HeuristicBot(game, 0, random.Random(0))
    for stones in CASES:
        i = m.positions.index[stones]
        tree = engine_tree(stones)
        mine = engine_policy(tree, policy.stage1[:, :, i : i + 1], policy.stage2[:, :, i : i + 1])
        reps = Passes(tree).infoset_rep
        for k in range(tree.n_infosets):
            seat = int(tree.infoset_player[k])
            bot.seat = seat
            legal = tree.infoset_actions[k]
            chosen = bot.choose(tree.states[int(reps[k])].view(seat), legal)
            first = int(tree.infoset_sa[k])
            assert mine[0, first + legal.index(chosen)] == 1.0
