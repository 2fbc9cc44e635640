"""The engine on Kuhn poker, a game with a known equilibrium (value -1/18 for seat 0)."""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np
import pytest

from dicehall.core import State
from dicehall.strategy.cfr import solve
from dicehall.strategy.passes import Passes, exploitability
from dicehall.strategy.tree import Tree, TreeError, build_tree
from tests.strategy.kuhn import Kuhn


def leaf(state: State) -> Hashable | None:
    return state.result().net[0] if state.is_over() else None


def infoset(state: State, seat: int) -> Hashable:
    view = state.view(seat)
    return (seat, view["card"], tuple(view["history"]))


@pytest.fixture(scope="module")
def tree() -> Tree:
    return build_tree(Kuhn().new_state(), leaf, infoset)


def test_tree_has_kuhns_twelve_infosets(tree: Tree) -> None:
    assert tree.n_infosets == 12
    assert tree.n_sa == 24
    assert sorted(tree.leaf_labels) == [-2, -1, 1, 2]  # type: ignore[type-var]


def test_uniform_policy_exploitability_is_the_known_figure(tree: Tree) -> None:
    values = tree.leaf_values(float)
    eps, br0, br1 = exploitability(Passes(tree), tree.uniform_policy(), values)
    # NashConv of the uniform policy in Kuhn poker is 11/12 (OpenSpiel's figure too).
    assert eps[0] == pytest.approx(11 / 24, abs=1e-12)
    assert br0[0] == pytest.approx(1 / 2, abs=1e-12)
    assert br1[0] == pytest.approx(-5 / 12, abs=1e-12)


def equilibrium(tree: Tree, alpha: float) -> np.ndarray:
    """Kuhn's equilibrium family: seat 0 bets a Jack with chance alpha (0..1/3)."""
    bet = {  # the chance of the aggressive action (bet or call) at each infoset
        (0, 1, ()): alpha,
        (0, 2, ()): 0.0,
        (0, 3, ()): 3 * alpha,
        (0, 1, ("check", "bet")): 0.0,
        (0, 2, ("check", "bet")): alpha + 1 / 3,
        (0, 3, ("check", "bet")): 1.0,
        (1, 1, ("check",)): 1 / 3,
        (1, 2, ("check",)): 0.0,
        (1, 3, ("check",)): 1.0,
        (1, 1, ("bet",)): 0.0,
        (1, 2, ("bet",)): 1 / 3,
        (1, 3, ("bet",)): 1.0,
    }
    policy = np.zeros((1, tree.n_sa))
    for i, key in enumerate(tree.infoset_keys):
        start = tree.infoset_sa[i]
        policy[0, start] = 1 - bet[key]  # type: ignore[index]
        policy[0, start + 1] = bet[key]  # type: ignore[index]
    return policy


@pytest.mark.parametrize("alpha", [0.0, 0.2, 1 / 3])
def test_an_exact_equilibrium_has_exploitability_zero(tree: Tree, alpha: float) -> None:
    passes = Passes(tree)
    values = tree.leaf_values(float)
    policy = equilibrium(tree, alpha)
    eps, _br0, _br1 = exploitability(passes, policy, values)
    assert abs(eps[0]) < 1e-15
    assert passes.values(policy, values)[0, 0] == pytest.approx(-1 / 18, abs=1e-15)


def test_cfr_converges_to_the_value_minus_one_eighteenth(tree: Tree) -> None:
    solution = solve(tree, tree.leaf_values(float), iterations=1000, check_every=250)
    assert solution.value[0] == pytest.approx(-1 / 18, abs=1e-3)
    assert solution.exploitability[0] < 2e-4
    eps = [e for _, e in solution.history]
    assert eps == sorted(eps, reverse=True)  # it only gets better here
    # The target stops early, below the target.
    early = solve(tree, tree.leaf_values(float), target=1e-3, check_every=10)
    assert early.exploitability[0] <= 1e-3 and early.iterations < 1000


def test_a_batch_solves_each_instance_with_its_own_values(tree: Tree) -> None:
    base = tree.leaf_values(float)
    values = np.vstack([base, 2 * base, base + 1])  # scaled and shifted: same game
    solution = solve(tree, values, iterations=400, check_every=400)
    assert solution.value == pytest.approx([-1 / 18, -2 / 18, 1 - 1 / 18], abs=3e-3)
    assert np.allclose(solution.policy[0], solution.policy[2])


def test_infosets_must_offer_the_same_actions() -> None:
    with pytest.raises(TreeError, match="different actions"):
        build_tree(Kuhn().new_state(), leaf, lambda state, seat: seat)
