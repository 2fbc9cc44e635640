"""The scored table policy's solver (three seats in, per score): its batched passes agree with
the round game's one policy at a time, and a round's end is valued by the game's stakes."""

from __future__ import annotations

import numpy as np

from dicehall.games import make_game
from dicehall.games.kariki.solver.best_response import build_subgame
from dicehall.games.kariki.solver.table_scored import BatchPasses, _leaf_cost
from dicehall.games.kariki.solver.table_solve import RoundPasses, _normalise
from dicehall.games.kariki.solver.table_stored import scored_for


def test_batched_passes_agree_with_one_policy_at_a_time() -> None:
    game = make_game("kariki", 3)
    tree = build_subgame(game, (True,) * 3, (0, 5, -1)).tree
    one, batch = RoundPasses(tree, 3), BatchPasses(tree, 3)
    rng = np.random.default_rng(0)
    policies = np.stack([_normalise(tree, rng.random(tree.n_sa)) for _ in range(3)])
    leaves = rng.random((3, 3, len(tree.leaf_labels)))
    root = batch.run(policies, leaves)
    cf, own = batch.regrets(policies, leaves)
    for b in range(3):
        cost, cf_one, own_one = one.run(policies[b], leaves[b])
        assert np.allclose(cost[:, 0], root[b])
        assert np.allclose(cf_one, cf[b])
        assert np.allclose(own_one, own[b])


def test_a_fifth_berry_leaves_two_seats_valued_by_the_two_seat_game() -> None:
    """Seat 1 takes its fifth berry; seat 2 begins (the beginner is never the berry's
    taker): seat 1 has lost, seats 0 and 2 share the rest as the two-seat value says."""

    def two(mine: int, other: int, begin: bool) -> float:
        return 0.5 + 0.1 * (other - mine) + (0.05 if begin else -0.05)

    cost = _leaf_cost(("end", "berry", 1, 2), (3, 4, 1), {}, two)
    assert cost[1] == 1.0
    win_2 = two(1, 3, True)
    assert np.allclose(cost, [win_2, 1.0, 1.0 - win_2])


def test_a_berry_below_five_leads_to_the_next_score_seen_from_its_beginner() -> None:
    cost_table = {((1, 0, 2), -1): np.array([0.5, 0.3, 0.2])}
    # Seat 0 takes a berry at (0, 0, 2): the score (1, 0, 2), and seat 0 begins again.
    got = _leaf_cost(("end", "berry", 0, 0), (0, 0, 2), cost_table, lambda *a: 0.0)
    assert np.allclose(got, [0.5, 0.3, 0.2])
    # Seat 1 takes a berry at (1, 0, 1): the score (1, 1, 1) from seat 2, who begins.
    cost_table[(1, 1, 1), -1] = np.array([0.1, 0.2, 0.7])
    got = _leaf_cost(("end", "berry", 1, 2), (1, 0, 1), cost_table, lambda *a: 0.0)
    assert np.allclose(got, [0.2, 0.7, 0.1])


def test_the_scored_policy_plays_only_the_game_it_was_solved_for() -> None:
    """Solved for the default options (five berries, crowns, slashes, the buy-in): any
    other option leaves the table bot on the round policy, which reads no score."""
    assert scored_for(make_game("kariki", 3)) is not None
    for options in ({"berries": 3}, {"pull": "at-least"}, {"one_round": True}):
        assert scored_for(make_game("kariki", 3, options)) is None, options
