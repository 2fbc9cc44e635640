"""The training environments: whole episodes of every game, seen only through the core's views."""

from __future__ import annotations

import importlib.util
import random
import re
from pathlib import Path

import pytest

from dicehall.core.errors import IllegalActionError, OptionError, UnknownGameError
from dicehall.core.transcript import replay
from dicehall.games import game_ids, make_game
from dicehall.rl.env import MultiAgentEnv, SingleAgentEnv

GAMES = game_ids()


def numpy_like(action_id: int) -> object:
    """An action id as RL libraries send it: numpy.int64 when NumPy is installed."""
    try:
        import numpy
    except ImportError:
        return action_id
    return numpy.int64(action_id)


def seat_counts(gid: str) -> list[int]:
    game = make_game(gid)
    return sorted({game.min_seats, game.default_seats})


def play_randomly(env: MultiAgentEnv, rng: random.Random) -> list[int]:
    """Random agents to the end of the episode; returns who took each decision."""
    seats = []
    while env.agents:
        seat = env.agent_selection
        seats.append(seat)
        legal = env.legal_action_ids(seat)
        env.step(legal[int(rng.random() * len(legal))])
    return seats


@pytest.mark.parametrize("gid", GAMES)
def test_multi_agent_episodes_end_with_each_seats_net_as_reward(gid: str) -> None:
    rng = random.Random(7)
    for seats in seat_counts(gid):
        env = MultiAgentEnv(gid, seats=seats, seed=seats)
        for _ in range(3):
            env.reset()
            assert env.possible_agents == list(range(seats))
            assert env.agents == ([] if env.state.is_over() else env.possible_agents)
            while env.agents:
                seat = env.agent_selection
                obs, reward, terminated, truncated, info = env.last()
                legal = env.legal_actions(seat)
                assert obs == env.state.view(seat)
                assert seat in obs["actors"] and not obs["over"]
                assert (reward, terminated, truncated) == (0, False, False)
                ids = env.legal_action_ids(seat)
                assert ids == sorted(env.game.action_id(a) for a in legal) == info["legal"]
                assert info["labels"] == [env.game.action_label(env.game.action_of(i)) for i in ids]
                assert all(env.legal_actions(s) == [] for s in env.possible_agents if s != seat)
                env.step(numpy_like(ids[int(rng.random() * len(ids))]))
            net = env.state.result().net
            assert env.rewards == dict(enumerate(net))
            assert sum(env.rewards.values()) == 0
            assert all(env.terminations.values()) and not any(env.truncations.values())
            assert env.observe(env.agent_selection)["over"]


@pytest.mark.parametrize("gid", GAMES)
def test_observations_are_the_seats_view_and_hide_what_it_may_not_see(gid: str) -> None:
    rng = random.Random(3)
    for seats in seat_counts(gid):
        env = MultiAgentEnv(gid, seats=seats, seed=11)
        for _ in range(2):
            env.reset()
            while True:
                for seat in env.possible_agents:
                    obs = env.observe(seat)
                    assert obs == env.state.view(seat)
                    assert obs == env.state.resample_hidden(seat, rng).view(seat)
                if not env.agents:
                    break
                ids = env.legal_action_ids(env.agent_selection)
                env.step(ids[int(rng.random() * len(ids))])


@pytest.mark.parametrize("gid", GAMES)
@pytest.mark.parametrize("opponents", ["heuristic", ["random", "heuristic"]])
def test_single_agent_episodes_reward_only_the_final_net(gid: str, opponents: object) -> None:
    rng = random.Random(5)
    seat = make_game(gid).default_seats - 1
    env = SingleAgentEnv(gid, seat=seat, opponents=opponents, seed=21)  # type: ignore[arg-type]
    for _ in range(2):
        obs, info = env.reset()
        terminated, truncated = obs["over"], False
        if terminated:  # throws alone ended the game before this seat had a decision
            assert info == {"legal": [], "labels": []}
        reward = obs["result"]["net"][seat] if terminated else 0
        while not (terminated or truncated):
            assert obs == env.env.state.view(seat)
            assert seat in obs["actors"]
            game = env.env.game
            assert info["labels"] == [game.action_label(game.action_of(i)) for i in info["legal"]]
            obs, reward, terminated, truncated, info = env.step(
                info["legal"][int(rng.random() * len(info["legal"]))]
            )
            if not terminated:
                assert reward == 0
        assert not truncated and obs["over"]
        assert reward == env.env.state.result().net[seat]
        assert info == {"legal": [], "labels": []}


@pytest.mark.parametrize("gid", GAMES)
def test_the_same_seed_gives_the_same_episode(gid: str) -> None:
    def multi(seed_at_start: bool) -> list[dict[str, object]]:
        env = MultiAgentEnv(gid, seed=99 if seed_at_start else None)
        episodes = []
        for i in range(2):
            env.reset(seed=None if seed_at_start or i else 99)
            play_randomly(env, random.Random(i))
            episodes.append(env.transcript())
        return episodes

    first = multi(True)
    assert first == multi(True) == multi(False)
    assert first[0]["steps"] != first[1]["steps"]  # the next episode of the sequence differs

    def single(seed: int) -> dict[str, object]:
        env = SingleAgentEnv(gid, opponents="heuristic")
        _, info = env.reset(seed=seed)
        while info["legal"]:
            _, _, _, _, info = env.step(info["legal"][0])
        return env.transcript()

    assert single(4) == single(4)


@pytest.mark.parametrize("gid", GAMES)
def test_transcripts_replay_to_the_same_position(gid: str) -> None:
    env = MultiAgentEnv(gid, seed=2)
    env.reset()
    rng = random.Random(2)
    for _ in range(5):
        if env.agents:
            ids = env.legal_action_ids(env.agent_selection)
            env.step(ids[int(rng.random() * len(ids))])
    assert replay(env.transcript()).view(None) == env.state.view(None)
    play_randomly(env, rng)
    data = env.transcript()
    assert data["result"] == env.state.result().to_json()
    assert replay(data).view(None) == env.state.view(None)


@pytest.mark.parametrize("gid", GAMES)
def test_bad_choices_raise_and_change_nothing(gid: str) -> None:
    env = MultiAgentEnv(gid, seed=8)
    env.reset()
    seat = env.agent_selection
    n = env.game.num_actions
    illegal = [i for i in range(n) if i not in env.legal_action_ids(seat)]
    before = (env.transcript(), env.observe(seat), env.last()[1:])
    for bad in (-1, n, True, "0", None, {"type": "no such action"}, *illegal[:2]):
        with pytest.raises(IllegalActionError) as raised:
            env.step(bad)  # type: ignore[arg-type]
        if bad in (-1, n):
            assert f"0 to {n - 1}" in str(raised.value)
        assert (env.transcript(), env.observe(seat), env.last()[1:]) == before
        assert env.agent_selection == seat

    single = SingleAgentEnv(gid, opponents="random", seed=8)
    obs, _ = single.reset()
    with pytest.raises(IllegalActionError):
        single.step(single.env.game.num_actions)
    assert single.env.observe(single.seat) == obs


def test_max_steps_truncates_with_no_reward() -> None:
    gid = GAMES[0]
    env = MultiAgentEnv(gid, seed=1, max_steps=3)
    env.reset()
    assert len(play_randomly(env, random.Random(1))) == 3
    assert env.agents == [] and not env.state.is_over()
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert set(env.rewards.values()) == {0}
    with pytest.raises(IllegalActionError, match="over"):
        env.step({"type": "anything"})

    single = SingleAgentEnv(gid, opponents="random", seed=1, max_steps=3)
    _, info = single.reset()
    truncated = terminated = False
    while not (terminated or truncated):
        _, reward, terminated, truncated, info = single.step(info["legal"][0])
    assert truncated and not terminated and reward == 0 and info["legal"] == []


@pytest.mark.skipif("tepiiku" not in GAMES, reason="tepiiku is not installed")
def test_simultaneous_choices_give_every_committed_seat_its_turn() -> None:
    env = MultiAgentEnv("tepiiku", seed=4)
    env.reset()
    rng = random.Random(4)
    simultaneous = 0
    while env.agents:
        actors = env.state.actors()
        if len(actors) > 1 and env.agent_selection == actors[0]:
            simultaneous += 1
            for seat in actors:  # each in seat order, none seeing the others' choices
                assert env.agent_selection == seat
                assert env.state.actors() == tuple(s for s in actors if s >= seat)
                for other in env.possible_agents:
                    assert env.observe(other) == env.state.resample_hidden(other, rng).view(other)
                ids = env.legal_action_ids(seat)
                env.step(ids[int(rng.random() * len(ids))])
        else:
            ids = env.legal_action_ids(env.agent_selection)
            env.step(ids[int(rng.random() * len(ids))])
    assert simultaneous > 0


def test_render_is_plain_text_of_the_seats_view() -> None:
    for gid in GAMES:
        env = SingleAgentEnv(gid, seed=1)
        env.reset()
        text = env.render()
        assert text.strip() and "\x1b[" not in text


def test_misuse_is_named() -> None:
    gid = GAMES[0]
    with pytest.raises(RuntimeError, match="reset"):
        MultiAgentEnv(gid).step(0)
    with pytest.raises(OptionError, match="no-such-bot"):
        SingleAgentEnv(gid, opponents="no-such-bot")
    with pytest.raises(ValueError, match="no seat 99"):
        SingleAgentEnv(gid, seat=99)
    with pytest.raises(UnknownGameError):
        MultiAgentEnv("no-such-game")


def test_the_examples_of_the_environments_page_run() -> None:
    """The tour's snippets are real; a snippet for a library that is not installed is skipped."""
    doc = Path(__file__).parent.parent / "docs" / "researchers" / "environments.md"
    snippets = re.findall(r"```python\n(.*?)```", doc.read_text(), re.S)
    assert len(snippets) >= 5
    libraries = {"gymnasium": "gymnasium", "pettingzoo": "pettingzoo", "pyspiel": "pyspiel"}
    for snippet in snippets:
        needs = [m for word, m in libraries.items() if word in snippet]
        if any(importlib.util.find_spec(m) is None for m in needs):
            continue
        exec(compile(snippet, str(doc), "exec"), {})
