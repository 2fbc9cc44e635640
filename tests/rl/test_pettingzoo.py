"""PettingZoo's own checkers on every game at its smallest, default and largest seat counts."""

from __future__ import annotations

import functools
import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the rl extra is not installed: pip install '.[rl]'")

from pettingzoo.test import api_test, render_test, seed_test

from dicehall.games import game_class, game_ids, make_game
from dicehall.rl.pettingzoo import env


def configurations() -> list[tuple[str, int]]:
    out = []
    for gid in game_ids():
        cls = game_class(gid)
        out += [(gid, n) for n in sorted({cls.min_seats, cls.default_seats, cls.max_seats})]
    return out


CONFIGS = configurations()
IDS = [f"{gid}-{n}" for gid, n in CONFIGS]


@pytest.mark.parametrize(("gid", "seats"), CONFIGS, ids=IDS)
def test_api_test_passes(gid: str, seats: int) -> None:
    api_test(env(gid, seats), num_cycles=30)


@pytest.mark.parametrize(("gid", "seats"), CONFIGS, ids=IDS)
def test_seed_test_passes(gid: str, seats: int) -> None:
    seed_test(functools.partial(env, gid, seats), num_cycles=30)


@pytest.mark.parametrize(("gid", "seats"), CONFIGS, ids=IDS)
def test_render_test_passes(gid: str, seats: int) -> None:
    render_test(functools.partial(env, gid, seats))


@pytest.mark.parametrize("gid", game_ids())
def test_episodes_end_with_each_seats_net_and_every_agent_stepped_out(gid: str) -> None:
    rng = random.Random(1)
    aec = env(gid, seed=3)
    for episode in range(3):
        aec.reset(seed=episode)
        totals = dict.fromkeys(aec.possible_agents, 0.0)
        for agent in aec.agent_iter():
            observation, reward, termination, truncation, _ = aec.last()
            totals[agent] += reward
            if termination or truncation:
                aec.step(None)
                continue
            legal = [i for i, m in enumerate(observation["action_mask"]) if m]
            aec.step(rng.choice(legal))
        assert aec.agents == []
        net = aec.unwrapped.core.state.result().net
        assert [totals[a] for a in aec.possible_agents] == [float(x) for x in net]


@pytest.mark.parametrize(("gid", "seats"), CONFIGS, ids=IDS)
def test_observations_masks_and_rewards_are_exactly_the_straightforward_ones(
    gid: str, seats: int
) -> None:
    """The tensors written straight from the state and kept per position are, for every
    agent at every turn of many seeded games, the view's encoding as float32; the masks
    mark the state's legal ids; each copy handed out is the caller's own."""
    rng = random.Random(seats)
    aec = env(gid, seats, seed=7)
    raw = aec.unwrapped
    encode = raw.game.encoding.encode
    for episode in range(6):
        aec.reset(seed=episode)
        totals = dict.fromkeys(aec.possible_agents, 0.0)
        for agent in aec.agent_iter():
            state = raw.core.state
            for other, seat in raw._seat.items():
                expected = np.array(encode(state.view(seat)), np.float32)
                observed = aec.observe(other)
                assert observed["observation"].dtype == np.float32
                assert np.array_equal(observed["observation"], expected)
                observed["observation"][:] = -1.0  # the caller's own copy
                assert np.array_equal(aec.observe(other)["observation"], expected)
            observation, reward, termination, truncation, info = aec.last()
            totals[agent] += reward
            if termination or truncation:
                aec.step(None)
                continue
            legal = list(np.flatnonzero(observation["action_mask"]))
            seat = raw._seat[agent]
            if not info.get("decided_by_dice"):
                assert legal == state.legal_action_ids(seat)
            aec.step(rng.choice(legal))
        net = raw.core.state.result().net
        assert [totals[a] for a in aec.possible_agents] == [float(x) for x in net]


def test_a_game_decided_by_the_dice_is_kept_with_one_formal_decision() -> None:
    """Toplshteyner at four seats: over half the games end before anyone decides."""
    aec = env("toplshteyner", 4)
    for seed in range(40):
        aec.reset(seed=seed)
        if aec.infos["seat_0"].get("decided_by_dice"):
            break
    else:
        pytest.fail("no game decided by the dice in 40 seeds")
    observation, reward, termination, _, _ = aec.last()
    assert aec.agent_selection == "seat_0" and not termination and reward == 0
    assert list(observation["action_mask"]) == [1] + [0] * (
        make_game("toplshteyner", 4).num_actions - 1
    )
    aec.step(0)
    net = aec.unwrapped.core.state.result().net
    assert all(aec.terminations.values())
    assert [aec._cumulative_rewards[a] for a in aec.possible_agents] == [float(x) for x in net]
