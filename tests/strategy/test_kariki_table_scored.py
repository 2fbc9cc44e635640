"""The scored table policy's solver (three seats in, per score): its batched passes agree with
the round game's one policy at a time, and a round's end is valued by the game's stakes."""

from __future__ import annotations

import numpy as np

from dicehall.games import make_game
from dicehall.games.kariki.solver.best_response import build_subgame
from dicehall.games.kariki.solver.table_scored import (
    BatchPasses,
    ScoredSolution,
    _leaf_cost,
    scored_values,
)
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


def _lower(berries: tuple[int, ...]) -> np.ndarray:
    """A made-up value of the game one seat smaller: fewer berries, better chances, and the
    beginner a little ahead."""
    weights = np.array([6.0 - b for b in berries])
    weights[0] += 0.5
    return weights / weights.sum()


def test_a_fifth_berry_leaves_two_seats_valued_by_the_two_seat_game() -> None:
    """Seat 1 takes its fifth berry; seat 2 begins (the beginner is never the berry's
    taker): seat 1 has lost, seats 2 and 0 share the rest as the smaller game's value
    says, read from seat 2."""
    cost = _leaf_cost(("end", "berry", 1, 2), (3, 4, 1), {}, _lower)
    win_2, win_0 = _lower((1, 3))
    assert np.allclose(cost, [1.0 - win_0, 1.0, 1.0 - win_2])


def test_a_fifth_berry_at_four_seats_leaves_three_valued_from_the_next_beginner() -> None:
    """Four seats in; seat 2 takes its fifth berry as the round's beginner would be: the
    next round begins at seat 3 (the seat after the one out) and the three left are valued
    from there, in the direction of play: 3, 0, 1."""
    cost = _leaf_cost(("end", "berry", 2, 2), (0, 1, 4, 3), {}, _lower)
    win_3, win_0, win_1 = _lower((3, 0, 1))
    assert np.allclose(cost, [1.0 - win_0, 1.0 - win_1, 1.0, 1.0 - win_3])


def test_the_scored_policy_of_four_seats_values_a_seat_out_by_the_three_seat_solution() -> None:
    """The values the four-seat solve starts from: a seat's fifth berry is worth what the
    three-seat scored solution says of the three left."""
    values = {s: np.array([0.5, 0.3, 0.2]) * (1 + sum(s)) for s in np.ndindex(5, 5, 5)}
    lower = scored_values(ScoredSolution(3, [], [0], np.zeros((125, 0)), values))
    assert np.allclose(lower((1, 2, 3)), [3.5, 2.1, 1.4])


def test_a_berry_below_five_leads_to_the_next_score_seen_from_its_beginner() -> None:
    cost_table = {((1, 0, 2), -1): np.array([0.5, 0.3, 0.2])}
    # Seat 0 takes a berry at (0, 0, 2): the score (1, 0, 2), and seat 0 begins again.
    got = _leaf_cost(("end", "berry", 0, 0), (0, 0, 2), cost_table, _lower)
    assert np.allclose(got, [0.5, 0.3, 0.2])
    # Seat 1 takes a berry at (1, 0, 1): the score (1, 1, 1) from seat 2, who begins.
    cost_table[(1, 1, 1), -1] = np.array([0.1, 0.2, 0.7])
    got = _leaf_cost(("end", "berry", 1, 2), (1, 0, 1), cost_table, _lower)
    assert np.allclose(got, [0.2, 0.7, 0.1])


def test_the_scored_policy_plays_only_the_game_it_was_solved_for() -> None:
    """Solved for the default options (five berries, crowns, slashes, the buy-in): any
    other option leaves the table bot on the round policy, which reads no score."""
    for seats in (3, 4):
        assert scored_for(make_game("kariki", seats), seats) is not None
        for options in ({"berries": 3}, {"pull": "at-least"}, {"one_round": True}):
            assert scored_for(make_game("kariki", seats, options), seats) is None, options
    assert scored_for(make_game("kariki", 5), 5) is None
