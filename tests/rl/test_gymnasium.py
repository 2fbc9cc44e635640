"""Gymnasium's own checker on every game; masks, illegal moves and vector environments."""

from __future__ import annotations

import pytest

gym = pytest.importorskip("gymnasium", reason="the rl extra is not installed: pip install '.[rl]'")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from dicehall.core.errors import IllegalActionError  # noqa: E402
from dicehall.games import game_ids  # noqa: E402
from dicehall.rl.gymnasium import DicehallGymEnv, env_id  # noqa: E402


@pytest.mark.parametrize("gid", game_ids())
def test_check_env_passes(gid: str) -> None:
    env = gym.make(env_id(gid), opponents="random")
    check_env(env.unwrapped, skip_render_check=False)


@pytest.mark.parametrize("gid", game_ids())
def test_masked_random_play_rewards_the_seats_net(gid: str) -> None:
    env = DicehallGymEnv(gid, opponents="random")
    rng = np.random.default_rng(0)
    for episode in range(3):
        observation, info = env.reset(seed=episode)
        done = False
        while not done:
            assert env.observation_space.contains(observation)
            mask = env.action_masks()
            assert (
                list(np.flatnonzero(mask))
                == info["legal"]
                == list(np.flatnonzero(info["action_mask"]))
            )
            action = rng.choice(np.flatnonzero(mask))
            observation, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        assert "illegal" not in info
        assert reward == env.core.env.state.result().net[env.seat]


@pytest.mark.parametrize("gid", game_ids())
def test_observations_are_exactly_the_views_encoding(gid: str) -> None:
    """Written straight from the state, every observation of many seeded episodes is the
    seat's view encoded (`Encoding.encode`) as float32, entry for entry."""
    env = DicehallGymEnv(gid, opponents="random", seat=1)
    encode = env.game.encoding.encode
    rng = np.random.default_rng(1)
    for episode in range(10):
        observation, info = env.reset(seed=episode)
        done = False
        while True:
            expected = encode(env.core.env.state.view(1))
            assert np.array_equal(observation, np.array(expected, np.float32))
            if done:
                break
            action = rng.choice(np.flatnonzero(info["action_mask"]))
            observation, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated


def test_illegal_actions_play_the_default_or_raise() -> None:
    env = DicehallGymEnv("kariki", seats=2, first_roller="0")
    _, info = env.reset(seed=1)
    assert info["legal"] == [17, 18]  # the first roller picks the direction
    _, _, _, _, info = env.step(15)  # a pull, not legal now
    assert info["illegal"] is True
    assert env.core.env.state.view(0)["direction"] == "left"  # the default move
    strict = DicehallGymEnv("kariki", seats=2, first_roller="0", illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError, match="not legal"):
        strict.step(15)


def test_vector_envs_come_from_make_vec() -> None:
    envs = gym.make_vec(env_id("kariki"), num_envs=4, vectorization_mode="sync")
    observations, infos = envs.reset(seed=0)
    assert observations.shape == (4, *envs.single_observation_space.shape)
    masks = infos["action_mask"]
    actions = np.array([np.flatnonzero(m)[0] for m in masks])
    observations, rewards, _, _, infos = envs.step(actions)
    assert observations.shape[0] == rewards.shape[0] == 4
    envs.close()


@pytest.mark.parametrize("gid", game_ids())
def test_an_image_render_mode_warns_as_gymnasium_does_and_the_env_runs(gid: str) -> None:
    """Stable-Baselines3's make_vec_env asks every environment for render_mode="rgb_array"."""
    with pytest.warns(UserWarning, match="rgb_array"):
        env = gym.make(env_id(gid), render_mode="rgb_array", opponents="random")
    _, info = env.reset(seed=0)
    assert env.render() is None
    action = info["legal"][0]
    env.step(action)
    env.close()


@pytest.mark.parametrize("gid", game_ids())
def test_stable_baselines3_make_vec_env_makes_every_game(gid: str) -> None:
    env_util = pytest.importorskip(
        "stable_baselines3.common.env_util", reason="stable-baselines3 is not installed"
    )
    envs = env_util.make_vec_env(env_id(gid), n_envs=2, seed=0, env_kwargs={"opponents": "random"})
    observations = envs.reset()
    assert observations.shape == (2, *envs.observation_space.shape)
    masks = envs.env_method("action_masks")
    envs.step(np.array([int(np.flatnonzero(m)[0]) for m in masks]))
    envs.close()
