"""OpenSpiel's own checkers on every game, and its solvers on a small Kariki variant."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="the openspiel extra is not installed: pip install '.[openspiel]'"
)

from open_spiel.python.algorithms import cfr, exploitability  # noqa: E402

from dicehall.games import game_class, game_ids  # noqa: E402
from dicehall.rl.openspiel import short_name  # noqa: E402
from tests.games.tao_script import SMALL, SMALL_HISTORIES  # noqa: E402

SMALL_KARIKI = {"players": 2, "one_round": True, "first_roller": 0, "throws": 1}
"""Two seats, one round, seat 0 rolls first, one throw: 5,787 histories."""


SHORT = {"tepiiku": {"bankroll": 3}, "tao": {"length": "round"}, "kariki": {"berries": 1}}
"""Options that shorten a game, so that OpenSpiel's checks of every state stay quick."""


def configurations() -> list[tuple[str, int]]:
    out = []
    for gid in game_ids():
        cls = game_class(gid)
        out += [(gid, n) for n in sorted({cls.min_seats, cls.max_seats})]
    return out


@pytest.mark.parametrize(("gid", "seats"), configurations())
def test_random_sim_test_passes_with_serialization(gid: str, seats: int) -> None:
    game = pyspiel.load_game(short_name(gid), {"players": seats, **SHORT.get(gid, {})})
    assert game.num_players() == seats
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_random_sim_test_passes_on_the_research_variants() -> None:
    for name, params in [
        ("kariki", SMALL_KARIKI),
        ("kariki", {"players": 3, "berries": 2, "first_roller": 2}),
        ("tao", {"players": 3, "length": "round", "opener": 1}),
    ]:
        game = pyspiel.load_game(short_name(name), params)
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_chance_outcomes_are_the_throws_with_exact_probabilities() -> None:
    game = pyspiel.load_game(short_name("kariki"), SMALL_KARIKI)
    state = game.new_initial_state()
    state.apply_action(17)  # left
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 36 and sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 1) == "throw 1-2"


def test_information_states_have_perfect_recall_and_resampling_keeps_them() -> None:
    game = pyspiel.load_game(short_name("kariki"), {"players": 3})
    rng = random.Random(0)
    state = game.new_initial_state()
    while not state.is_terminal() and state.move_number() < 60:
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        player = state.current_player()
        before = state.information_state_string(player)
        other = state.resample_from_infostate(player, rng.random)
        assert other.information_state_string(player) == before
        assert other.observation_string(player) == state.observation_string(player)
        assert other.legal_actions() == state.legal_actions()
        state.apply_action(rng.choice(state.legal_actions()))
        assert state.information_state_string(player).startswith(before)


@pytest.mark.slow  # about a CPU minute of OpenSpiel's Python tree walks: `make soak`
def test_openspiel_and_the_strategy_engine_agree_on_exploitability() -> None:
    """OpenSpiel's CFR+ and exploitability against dicehall's engine on the small Kariki.

    Both measure the same policies alike, to 1e-6 stakes: the uniform policy, the
    engine's CFR+ solution and OpenSpiel's CFR+ average policy.
    """
    from open_spiel.python import policy

    from dicehall.games import make_game
    from dicehall.strategy.cfr import solve
    from dicehall.strategy.passes import Passes
    from dicehall.strategy.passes import exploitability as engine_exploitability
    from dicehall.strategy.tree import build_tree, view_key

    game = pyspiel.load_game(short_name("kariki"), SMALL_KARIKI)
    core = make_game("kariki", 2, {"one_round": True, "first_roller": "0", "throws": 1})
    tree = build_tree(
        core.new_state(), lambda s: s.result().net[0] if s.is_over() else None, view_key
    )
    values = tree.leaf_values(float)
    passes = Passes(tree)

    # Every OpenSpiel information state is exactly one of the engine's (the views have
    # perfect recall in this variant), so a policy carries over either way.
    keys: dict[str, set[object]] = {}
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if not state.is_chance_node():
            seat = state.current_player()
            key = view_key(state.recall.state, seat)
            keys.setdefault(state.information_state_string(seat), set()).add(key)
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else None
        stack += [state.child(a) for a in (actions or state.legal_actions())]
    assert all(len(k) == 1 for k in keys.values())
    key_of = {text: next(iter(k)) for text, k in keys.items()}
    index_of = tree.infoset_index()
    assert len(set(key_of.values())) == len(key_of) == tree.n_infosets

    def to_openspiel(row: object) -> policy.TabularPolicy:
        tabular = policy.TabularPolicy(game)
        tabular.action_probability_array[:] = 0.0
        for text, index in tabular.state_lookup.items():
            i = index_of[key_of[text]]
            start = tree.infoset_sa[i]
            for k, action in enumerate(tree.infoset_actions[i]):
                tabular.action_probability_array[index, core.action_id(action)] = row[start + k]  # type: ignore[index]
        return tabular

    def to_engine(tabular: policy.TabularPolicy) -> object:
        row = tree.uniform_policy()
        for text, index in tabular.state_lookup.items():
            i = index_of[key_of[text]]
            start = tree.infoset_sa[i]
            for k, action in enumerate(tree.infoset_actions[i]):
                row[0, start + k] = tabular.action_probability_array[index, core.action_id(action)]
        return row

    uniform = tree.uniform_policy()
    ours = engine_exploitability(passes, uniform, values)[0][0]
    theirs = exploitability.exploitability(game, policy.UniformRandomPolicy(game))
    assert ours == pytest.approx(theirs, abs=1e-6)

    solution = solve(tree, values, iterations=200)
    theirs = exploitability.exploitability(game, to_openspiel(solution.policy[0]))
    assert solution.exploitability[0] == pytest.approx(theirs, abs=1e-6)

    solver = cfr.CFRPlusSolver(game)
    for _ in range(2):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    theirs = exploitability.exploitability(game, average)
    ours = engine_exploitability(passes, to_engine(average), values)[0][0]
    assert ours == pytest.approx(theirs, abs=1e-6)
    assert solution.exploitability[0] < 1e-3 < theirs < 0.877  # both on the way down


@pytest.mark.parametrize(("gid", "seats"), configurations())
def test_rl_environment_runs_every_episode_even_one_the_dice_decide_in_reset(
    gid: str, seats: int
) -> None:
    """OpenSpiel's rl_environment throws the opening dice in reset(): a game over by then
    (most Toplshteyner games at four seats) gets one formal decision of player 0."""
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(
        pyspiel.load_game(short_name(gid), {"players": seats, **SHORT.get(gid, {})})
    )
    env.seed(seats)
    rng = random.Random(seats)
    formal = 0
    for _ in range(40 if seats <= 4 else 10):  # ten-seat Kariki's episodes are long
        step = env.reset()
        decisions = 0
        while not step.last():
            player = step.observations["current_player"]
            legal = step.observations["legal_actions"][player]
            assert legal, "somebody is to act after every reset and step"
            if env.get_state.recall.state.is_over():  # the formal decision
                assert (player, legal, decisions) == (0, [0], 0)
                formal += 1
            step = env.step([rng.choice(legal)])
            decisions += 1
        state = env.get_state
        assert state.is_terminal() and decisions >= 1
        if state.recall.state.is_over():
            assert step.rewards == [float(x) for x in state.recall.state.result().net]
    if (gid, seats) == ("toplshteyner", 4):
        assert formal > 10  # over half the games


SMALL_TAO = {"players": 2, **SMALL, "opener": 0}
"""The small Tao variant (tests/games/tao_script.py) as OpenSpiel parameters."""


def test_get_all_states_walks_the_small_tao_variant() -> None:
    """With its tie-breaks bounded (`tiebreaks=0`: a tie goes to the lot) one round of Tao
    is a finite tree, and with small dice and stones a small one: every history once."""
    from open_spiel.python.algorithms import get_all_states

    game = pyspiel.load_game(short_name("tao"), SMALL_TAO)
    states = get_all_states.get_all_states(
        game,
        depth_limit=-1,
        include_terminals=True,
        include_chance_states=True,
        to_string=lambda s: s.history_str(),
    )
    assert len(states) == SMALL_HISTORIES
    assert max(len(s.history()) for s in states.values()) <= game.max_game_length()
    assert all(sum(s.returns()) == 0 for s in states.values() if s.is_terminal())


@pytest.mark.slow  # about a CPU minute of OpenSpiel's Python tree walks: `make soak`
def test_cfr_plus_solves_the_small_tao_variant_on_the_way_down() -> None:
    game = pyspiel.load_game(short_name("tao"), SMALL_TAO)
    solver = cfr.CFRPlusSolver(game)
    uniform = exploitability.exploitability(game, solver.average_policy())
    for _ in range(5):
        solver.evaluate_and_update_policy()
    after = exploitability.exploitability(game, solver.average_policy())
    assert after < uniform / 3  # measured: 0.426 stones, then 0.090 after five iterations


def test_sampling_cfr_runs_on_one_round_of_tao() -> None:
    """One round of the real Tao is too large for tree walks (`get_all_states`, tabular
    CFR+): at two seats about 2.5e11 histories before any tie-break, and tied showdowns
    replay without bound (D9), so a depth-first walk follows ties for ever (the small
    variant above bounds them). OpenSpiel's sampling CFR (external and outcome sampling
    MCCFR) runs on it."""
    from open_spiel.python.algorithms import external_sampling_mccfr, outcome_sampling_mccfr

    game = pyspiel.load_game(short_name("tao"), {"players": 2, "length": "round", "opener": 0})
    external = external_sampling_mccfr.ExternalSamplingSolver(game)
    for _ in range(5):
        external.iteration()
    outcome = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(50):
        outcome.iteration()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    for solver in (external, outcome):
        policy = solver.average_policy().action_probabilities(state)
        assert sum(policy.values()) == pytest.approx(1.0)
        assert set(policy) == set(state.legal_actions())
