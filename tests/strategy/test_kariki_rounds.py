"""Kariki's exact decomposition against plain enumeration and against the engine's own play.

The decomposition's claim is that a decision needs only the claim to beat,
the claim, the passes and the thrower's rank, and that subgames compose. A
best responder that remembers the whole history (below, a brute force over
every history of a truncated round, through the core API) must then do no
better than the decomposition says.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Hashable

import numpy as np
import pytest

from dicehall.core import RandomDice, State, Table
from dicehall.core.bots import RandomBot
from dicehall.games import make_game
from dicehall.games.kariki.solver.bot import SolverBot
from dicehall.games.kariki.solver.model import RoundModel, Score, infoset_key, subgame_of
from dicehall.games.kariki.solver.solve import Backward, Policies, start_value
from dicehall.games.kariki.solver.stored import strategy_for
from dicehall.strategy.passes import Passes

POO = Score((4, 4), (0, 0), (False, False))
"""Both in the poo: the round's first berry ends the game."""


@pytest.fixture(scope="module")
def model() -> RoundModel:
    return RoundModel(make_game("kariki", 2))


@pytest.fixture(scope="module")
def policies(model: RoundModel) -> Policies:
    """A lopsided random policy at every infoset of every score (seeded)."""
    rng = np.random.default_rng(7)
    out = {}
    for key, tree in model.trees.items():
        weights = rng.random((len(model.scores), tree.n_sa)) ** 3
        out[key] = Passes(tree).normalise(weights)
    return out


def chances(model: RoundModel, policies: Policies, state: State, seat: int) -> np.ndarray:
    """The policy at a real state, looked up by the decomposition's keys."""
    view = state.view(seat)
    subgame = subgame_of(view)
    tree = model.trees[subgame]
    i = tree.infoset_index()[infoset_key(view)]
    first = tree.infoset_sa[i]
    score = model.scores.of_view(view)
    return policies[subgame][score, first : first + len(tree.infoset_actions[i])]


def brute_best_response(model: RoundModel, policies: Policies, root: State, seat: int) -> float:
    """Seat 0's chance of winning when `seat` best-responds with full memory of the history.

    Plain enumeration: every history through the core API, the responder's
    information state being its own private dice seen so far and every public
    action, grouped and maximised infoset by infoset from the leaves up.
    """
    histories: dict[Hashable, list[tuple[State, float, tuple[Hashable, ...]]]] = defaultdict(list)

    def key_of(state: State, history: tuple[Hashable, ...]) -> Hashable:
        return (history, tuple(state.view(seat)["your_dice"] or ()))

    def walk(
        state: State, reach: float, history: tuple[Hashable, ...], mine: tuple[int, ...]
    ) -> None:
        if state.is_over():
            return
        if state.is_chance():
            for faces, p in state.chance_outcomes():
                child = state.clone()
                child.apply_chance(faces)
                dice = tuple(child.view(seat)["your_dice"] or ())
                seen = mine + dice if dice else mine
                walk(child, reach * float(p), (*history, ("throw", seen)), seen)
            return
        actor = state.actors()[0]
        legal = state.legal_actions(actor)
        if actor == seat:
            histories[(history, mine)].append((state, reach, history))
            for action in legal:
                child = state.clone()
                child.apply(actor, action)
                walk(child, reach, (*history, action["type"], action.get("rank")), mine)
        else:
            for action, p in zip(legal, chances(model, policies, state, actor), strict=True):
                child = state.clone()
                child.apply(actor, action)
                walk(child, reach * p, (*history, action["type"], action.get("rank")), mine)

    walk(root.clone(), 1.0, (), ())
    best: dict[Hashable, int] = {}
    memo: dict[Hashable, float] = {}

    def value(state: State, history: tuple[Hashable, ...], mine: tuple[int, ...]) -> float:
        if state.is_over():  # the dice are off the table: the view no longer tells them
            return 1.0 if state.result().winners == (0,) else 0.0
        node = (history, *(tuple(state.view(s)["your_dice"] or ()) for s in (0, 1)))
        if node not in memo:
            memo[node] = node_value(state, history, mine)
        return memo[node]

    def node_value(state: State, history: tuple[Hashable, ...], mine: tuple[int, ...]) -> float:
        if state.is_chance():
            total = 0.0
            for faces, p in state.chance_outcomes():
                child = state.clone()
                child.apply_chance(faces)
                dice = tuple(child.view(seat)["your_dice"] or ())
                seen = mine + dice if dice else mine
                total += float(p) * value(child, (*history, ("throw", seen)), seen)
            return total
        actor = state.actors()[0]
        legal = state.legal_actions(actor)
        children = []
        for action in legal:
            child = state.clone()
            child.apply(actor, action)
            children.append((child, (*history, action["type"], action.get("rank"))))
        if actor != seat:
            probs = chances(model, policies, state, actor)
            return sum(p * value(c, h, mine) for p, (c, h) in zip(probs, children, strict=True))
        key = (history, mine)
        if key not in best:
            sign = 1.0 if seat == 0 else -1.0
            totals = [0.0] * len(legal)
            for s, reach, h in histories[key]:
                for a, action in enumerate(legal):
                    c = s.clone()
                    c.apply(seat, action)
                    totals[a] += (
                        sign * reach * value(c, (*h, action["type"], action.get("rank")), mine)
                    )
            best[key] = max(range(len(legal)), key=totals.__getitem__)
        c, h = children[best[key]]
        return value(c, h, mine)

    return value(root.clone(), (), ())


def decomposed_best_response(model: RoundModel, policies: Policies, seat: int) -> np.ndarray:
    backward = Backward(model)

    def step(key: tuple[int, int], level: np.ndarray, leaf: np.ndarray) -> np.ndarray:
        br = backward.passes[key].best_response(policies[key][level], leaf, seat)[0]
        return br[:, 0]

    return backward.run(step, lambda state, who: None)


@pytest.mark.parametrize(
    "p",
    [
        12,  # to beat Double Fives: a claim of 6-6, answered, maybe rolled over
        pytest.param(11, marks=pytest.mark.slow),  # two claims above it, two rolls deep
    ],
)
def test_best_responses_agree_with_brute_force_on_a_truncated_round(
    model: RoundModel, policies: Policies, p: int
) -> None:
    root = model.root(POO, 0, p)
    score = model.scores.index[POO]
    brute = [brute_best_response(model, policies, root, seat) for seat in (0, 1)]
    composed = [decomposed_best_response(model, policies, seat)[score, 0, p + 1] for seat in (0, 1)]
    assert composed == pytest.approx(brute, abs=1e-12)
    assert brute[0] > brute[1]  # the policy is far from an equilibrium: both can exploit it
    exploitability = (brute[0] - brute[1]) / 2
    assert (composed[0] - composed[1]) / 2 == pytest.approx(exploitability, abs=1e-12)


def test_the_round_model_predicts_the_engines_games(model: RoundModel) -> None:
    """The solver against the random bot: predicted by composing the subgames, then played."""
    solver_policy = strategy_for(model.game).policies  # what SolverBot plays at two seats
    backward = Backward(model)

    def step(key: tuple[int, int], level: np.ndarray, leaf: np.ndarray) -> np.ndarray:
        passes = backward.passes[key]
        uniform = passes.tree.uniform_policy(len(level))
        mixed = np.where(passes.sa_player == 0, solver_policy[key][level], uniform)
        return passes.values(mixed, leaf)[:, 0]

    predicted = start_value(backward.run(step, lambda state, who: True), 0)
    game = make_game("kariki", 2)
    games = 1500
    wins = 0
    for i in range(games):
        table = Table(game, RandomDice(i), record=False)
        rng = random.Random(i)
        table.play({0: SolverBot(game, 0, rng), 1: RandomBot(game, 1, rng)})
        wins += table.state.result().winners == (0,)
    rate = wins / games
    spread = (predicted * (1 - predicted) / games) ** 0.5
    assert abs(rate - predicted) < 4 * spread + 1e-9, (rate, predicted)


def test_round_ends_lead_where_the_engine_goes(model: RoundModel) -> None:
    """Every round-end label names a berry and who begins next, checked at score zero."""
    assert model.end_labels == [
        ("berry", 0, 1),
        ("berry", 1, 0),
        ("kariki", 0, 0),
        ("kariki", 1, 1),
    ]
    state = model.ends["kariki", 0, 0][model.scores.index[POO]]
    assert state.is_over() and state.result().winners == (0,)  # the poo's berry ends it


@pytest.mark.parametrize(
    "options", [{"pull": "at-least"}, {"after_kariki": "berry"}, {"high_rollers": True}]
)
def test_round_ends_under_every_round_changing_option(options: dict[str, object]) -> None:
    model = RoundModel(make_game("kariki", 2, options))
    beginner = 1 if options.get("after_kariki") == "berry" else 0
    assert ("kariki", 0, beginner) in model.end_labels
    for label, states in model.ends.items():
        assert len(states) == len(model.scores)
        how, seat, _ = label
        loser = 1 - seat if how == "kariki" else seat
        start = model.scores.all[0]
        assert states[0].berries[loser] == start.berries[loser] + 1
