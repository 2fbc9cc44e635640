"""The vector environment's Gymnasium API: make_vec, spaces, seeding, autoreset, masks."""

from __future__ import annotations

from typing import Any

import pytest

gym = pytest.importorskip("gymnasium", reason="the rl extra is not installed: pip install '.[rl]'")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import data_equivalence  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402
from gymnasium.wrappers.vector import RecordEpisodeStatistics  # noqa: E402

from dicehall.batch.seated import compiled  # noqa: E402
from dicehall.core.errors import IllegalActionError, OptionError  # noqa: E402
from dicehall.games import game_ids, make_game  # noqa: E402
from dicehall.rl.gymnasium import env_id  # noqa: E402
from dicehall.rl.vector import DicehallVectorEnv  # noqa: E402

CONFIGS = {
    "kariki": {"seats": 2},
    "toplshteyner": {"seats": 3},
    "tepiiku": {"bankroll": 8},
    "tao": {"seats": 2, "length": "single"},
}


def random_actions(masks: np.ndarray[Any, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    """A uniform legal id per environment (0 where none is legal)."""
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


def test_make_vec_builds_it_from_the_vector_entry_point() -> None:
    envs = gym.make_vec(
        env_id("kariki"),
        num_envs=8,
        vectorization_mode="vector_entry_point",
        seats=2,
        opponents="random",
    )
    assert isinstance(envs.unwrapped, DicehallVectorEnv)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert envs.num_envs == 8
    game = make_game("kariki", 2)
    assert envs.single_observation_space.shape == game.observation_shape
    assert envs.observation_space.shape == (8, *game.observation_shape)
    assert envs.single_action_space == gym.spaces.Discrete(game.num_actions)
    envs.close()
    # Gymnasium prefers a registered vector entry point when no mode is named
    assert isinstance(gym.make_vec(env_id("tao"), num_envs=2).unwrapped, DicehallVectorEnv)


@pytest.mark.parametrize("gid", game_ids())
def test_steps_stay_in_the_spaces_and_masks_are_legal(gid: str) -> None:
    envs = DicehallVectorEnv(16, gid, opponents="random", **CONFIGS[gid])
    rng = np.random.default_rng(0)
    observations, infos = envs.reset(seed=1)
    for _ in range(60):
        assert observations.dtype == np.float32 and observations.flags.c_contiguous
        assert envs.observation_space.contains(observations)
        masks = infos["action_mask"]
        assert masks.dtype == np.int8 and masks.shape == (16, envs.num_actions)
        assert (envs.action_masks() == masks.astype(bool)).all()
        assert infos["_action_mask"].all()
        observations, rewards, terminated, truncated, infos = envs.step(random_actions(masks, rng))
        assert rewards.dtype == np.float64 and terminated.dtype == truncated.dtype == bool
        assert "illegal" not in infos
        # an episode's last observation offers nothing; the next step starts the next one
        assert not masks_of(infos)[terminated | truncated].any()
        assert masks_of(infos)[~(terminated | truncated)].any(axis=1).all()


def masks_of(infos: dict[str, Any]) -> np.ndarray[Any, Any]:
    return np.asarray(infos["action_mask"], dtype=bool)


@pytest.mark.parametrize("gid", game_ids())
def test_a_seed_and_the_same_actions_give_the_same_run(gid: str) -> None:
    def run(envs: DicehallVectorEnv, seed: int) -> list[Any]:
        rng = np.random.default_rng(3)
        out: list[Any] = [envs.reset(seed=seed)]
        for _ in range(30):
            out.append(envs.step(random_actions(out[-1][-1]["action_mask"], rng)))
        return out

    envs = DicehallVectorEnv(8, gid, **CONFIGS[gid])
    first = run(envs, 7)
    assert data_equivalence(run(DicehallVectorEnv(8, gid, **CONFIGS[gid]), 7), first)
    assert data_equivalence(run(envs, 7), first)  # reset(seed=...) starts the dice afresh
    assert not data_equivalence(run(envs, 8), first)


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_autoreset_modes_and_the_episode_statistics_wrapper(mode: AutoresetMode) -> None:
    """Gymnasium's own RecordEpisodeStatistics follows the declared mode: its returns and
    lengths are the rewards and steps of each episode as the environment gave them."""
    envs = RecordEpisodeStatistics(
        DicehallVectorEnv(8, "kariki", seats=2, opponents="random", autoreset_mode=mode)
    )
    assert envs.metadata["autoreset_mode"] == mode
    rng = np.random.default_rng(0)
    _, infos = envs.reset(seed=0)
    returns, lengths = np.zeros(8), np.zeros(8, dtype=int)
    restarting = np.zeros(8, dtype=bool)
    episodes = 0
    for _ in range(200):
        masks = envs.unwrapped.action_masks()
        _, rewards, terminated, truncated, infos = envs.step(random_actions(masks, rng))
        done = terminated | truncated
        if mode == AutoresetMode.NEXT_STEP:
            assert (rewards[restarting] == 0).all() and not done[restarting].any()
            counted = ~restarting
        else:
            counted = np.ones(8, dtype=bool)
            assert (infos.get("_final_obs", np.zeros(8, dtype=bool)) == done).all()
            for i in np.flatnonzero(done):
                assert envs.single_observation_space.contains(infos["final_obs"][i])
                assert infos["final_info"]["net"][i, 0] == rewards[i]
            assert envs.unwrapped.action_masks()[done].any(axis=1).all()  # the next episode
        returns[counted] += rewards[counted]
        lengths[counted] += 1
        if done.any():
            assert np.allclose(infos["episode"]["r"][done], returns[done])
            assert (infos["episode"]["l"][done] == lengths[done]).all()
            episodes += int(done.sum())
            returns[done], lengths[done] = 0, 0
        restarting = done
    assert episodes > 50


def test_disabled_autoreset_restarts_by_reset_mask() -> None:
    envs = DicehallVectorEnv(4, "kariki", seats=2, opponents="random", autoreset_mode="Disabled")
    rng = np.random.default_rng(1)
    envs.reset(seed=1)
    done = np.zeros(4, dtype=bool)
    while not done.any():
        _, _, terminated, truncated, _ = envs.step(random_actions(envs.action_masks(), rng))
        done = terminated | truncated
    with pytest.raises(RuntimeError, match="reset_mask"):
        envs.step(random_actions(envs.action_masks(), rng))
    envs.reset(options={"reset_mask": done})
    assert envs.action_masks().any(axis=1).all()
    envs.step(random_actions(envs.action_masks(), rng))


def test_illegal_actions_play_the_default_or_raise() -> None:
    envs = DicehallVectorEnv(4, "kariki", seats=2, opponents="random")
    _, infos = envs.reset(seed=2)
    masks = infos["action_mask"].astype(bool)
    illegal = np.array([np.flatnonzero(~m)[0] for m in masks])
    legal = random_actions(masks, np.random.default_rng(0))
    defaults = envs.batch.default(envs.batch.every)
    twin = DicehallVectorEnv(4, "kariki", seats=2, opponents="random")
    twin.reset(seed=2)
    flagged = envs.step(illegal)
    assert flagged[4]["illegal"].all() and flagged[4]["_illegal"].all()
    assert data_equivalence(twin.step(defaults)[:4], flagged[:4])  # the table's default moves

    strict = DicehallVectorEnv(4, "kariki", seats=2, opponents="random", illegal="raise")
    strict.reset(seed=2)
    mixed = legal.copy()
    mixed[2] = illegal[2]
    with pytest.raises(IllegalActionError, match="not legal in environment 2"):
        strict.step(mixed)
    with pytest.raises(IllegalActionError, match="whole numbers"):
        strict.step(np.full(4, 0.5))
    assert data_equivalence(strict.step(legal)[0], envs_after(legal))  # nothing had changed


def envs_after(actions: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    envs = DicehallVectorEnv(4, "kariki", seats=2, opponents="random")
    envs.reset(seed=2)
    return envs.step(actions)[0]


def test_self_play_gives_every_seat_to_the_caller() -> None:
    envs = DicehallVectorEnv(32, "tepiiku", seat=None, bankroll=4)
    rng = np.random.default_rng(0)
    _, infos = envs.reset(seed=0)
    seen = set()
    ended = 0
    for _ in range(100):
        seats = infos["seat"]
        seen |= set(seats.tolist())
        _, rewards, terminated, _, infos = envs.step(random_actions(infos["action_mask"], rng))
        for i in np.flatnonzero(terminated):
            net = infos["net"][i]
            assert net.sum() == 0 and rewards[i] == net[seats[i]]
            ended += 1
    assert seen == {0, 1, 2} and ended > 10


def test_short_episodes_truncate_at_max_steps() -> None:
    """Five decisions of all seats end each episode as a truncation (a game of Tao takes
    more), with a reward of 0 and the seat's observation then."""
    envs = DicehallVectorEnv(8, "tao", seats=2, opponents="random", max_steps=5)
    rng = np.random.default_rng(0)
    _, infos = envs.reset(seed=0)
    ended = np.zeros(8, dtype=bool)
    for _ in range(6):
        observations, rewards, terminated, truncated, infos = envs.step(
            random_actions(infos["action_mask"], rng)
        )
        assert not terminated.any() and (rewards == 0).all()
        now = truncated & ~ended
        assert (envs.batch.decisions[now] >= 5).all()
        assert envs.observation_space.contains(observations)
        ended |= truncated
    assert ended.all()


@pytest.mark.parametrize("envs_count", [16, 1024])
@pytest.mark.parametrize("loop", [True, False])
def test_toplshteyners_own_seats_stop_at_max_steps(
    envs_count: int, loop: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The throws between two decisions (the batch's own seats decide in them), in the
    compiled loop or walked on the chain's tables, never take an episode past its
    decisions: it ends as a truncation at the limit."""
    if not loop:
        monkeypatch.setattr(compiled, "plays", lambda batch: False)
    envs = DicehallVectorEnv(envs_count, "toplshteyner", seats=4, opponents="random", max_steps=3)
    rng = np.random.default_rng(1)
    _, infos = envs.reset(seed=1)
    truncations = 0
    for _ in range(40):
        _, _, _, truncated, infos = envs.step(random_actions(infos["action_mask"], rng))
        assert (envs.batch.decisions <= 3).all()
        truncations += int(truncated.sum())
    assert truncations > 0


def test_what_the_batch_cannot_play_is_refused() -> None:
    with pytest.raises(OptionError, match="random and heuristic; not solver"):
        DicehallVectorEnv(2, "kariki", opponents="solver")
    with pytest.raises(OptionError, match="research variant"):
        DicehallVectorEnv(2, "kariki", seats=2, one_round=True)
    with pytest.raises(ValueError, match="seats are 0 to 1"):
        DicehallVectorEnv(2, "kariki", seats=2, seat=2)
    with pytest.raises(RuntimeError, match="reset"):
        DicehallVectorEnv(2, "kariki", seats=2).step(np.zeros(2, dtype=int))
