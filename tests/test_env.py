"""The training environments: whole episodes of every game, seen only through the core's views."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from dicehall.core.errors import IllegalActionError, OptionError, UnknownGameError
from dicehall.core.transcript import replay
from dicehall.env import MultiAgentEnv, SingleAgentEnv
from dicehall.games import game_ids, make_game

GAMES = game_ids()


def seat_counts(gid: str) -> list[int]:
    game = make_game(gid)
    return sorted({game.min_seats, game.default_seats})


def play_randomly(env: MultiAgentEnv, rng: random.Random) -> list[int]:
    """Random agents to the end of the episode; returns who took each decision."""
    seats = []
    while env.agents:
        seat = env.agent_selection
        seats.append(seat)
        env.step(int(rng.random() * len(env.legal_actions(seat))))
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
                assert info["legal"] == [env.game.action_label(a) for a in legal]
                assert all(env.legal_actions(s) == [] for s in env.possible_agents if s != seat)
                env.step(int(rng.random() * len(legal)))
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
                env.step(int(rng.random() * len(env.legal_actions(env.agent_selection))))


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
            assert info["labels"] == [env.env.game.action_label(a) for a in info["legal"]]
            obs, reward, terminated, truncated, info = env.step(
                int(rng.random() * len(info["legal"]))
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
            _, _, _, _, info = env.step(0)
        return env.transcript()

    assert single(4) == single(4)


@pytest.mark.parametrize("gid", GAMES)
def test_transcripts_replay_to_the_same_position(gid: str) -> None:
    env = MultiAgentEnv(gid, seed=2)
    env.reset()
    rng = random.Random(2)
    for _ in range(5):
        if env.agents:
            env.step(int(rng.random() * len(env.legal_actions(env.agent_selection))))
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
    n = len(env.legal_actions(seat))
    before = (env.transcript(), env.observe(seat), env.last()[1:])
    for bad in (-1, n, True, "0", None, {"type": "no such action"}):
        with pytest.raises(IllegalActionError) as raised:
            env.step(bad)  # type: ignore[arg-type]
        if isinstance(bad, int) and not isinstance(bad, bool):
            assert f"0 to {n - 1}" in str(raised.value)
        assert (env.transcript(), env.observe(seat), env.last()[1:]) == before
        assert env.agent_selection == seat

    single = SingleAgentEnv(gid, opponents="random", seed=8)
    obs, info = single.reset()
    with pytest.raises(IllegalActionError):
        single.step(len(info["legal"]))
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
        env.step(0)

    single = SingleAgentEnv(gid, opponents="random", seed=1, max_steps=3)
    single.reset()
    truncated = terminated = False
    while not (terminated or truncated):
        _, reward, terminated, truncated, info = single.step(0)
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
                env.step(int(rng.random() * len(env.legal_actions(seat))))
        else:
            env.step(int(rng.random() * len(env.legal_actions(env.agent_selection))))
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


def test_the_examples_in_docs_agents_md_run() -> None:
    """The tour's snippets are real; the adapters need libraries we do not install, and the
    speed measurement takes seconds per game."""
    doc = Path(__file__).parent.parent / "docs" / "agents.md"
    snippets = re.findall(r"```python\n(.*?)```", doc.read_text(), re.S)
    runnable = [s for s in snippets if not re.search(r"gymnasium|pettingzoo|perf_counter", s)]
    assert len(runnable) >= 4
    for snippet in runnable:
        exec(compile(snippet, str(doc), "exec"), {})
