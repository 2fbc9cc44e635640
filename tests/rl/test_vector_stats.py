"""Does the vector environment play the single environment's game? Two samples of episodes.

The single Gymnasium environment (`DicehallGymEnv`, the engine underneath) and the vector
environment each play episodes with a uniformly random seat against random opponents. Per
episode: the seat's net, whether it won, how many steps it took, whether the dice decided
it, the mean number of legal ids at its decisions, and its observations coordinate by
coordinate: the first, the mean over its decisions, the last. Every statistic's means are
compared with the two-sample tests of `tests/batch/equivalence.py` (Bonferroni over all
of them, fixed seeds). A deliberately broken rule, and a deliberately broken view, fail.

`test_vector_replay.py` checks the same positions exactly; this checks, with no look at
the implementation, that the episodes come out distributed as the single environment's.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

pytest.importorskip("gymnasium", reason="the rl extra is not installed: pip install '.[rl]'")

import numpy as np
from numpy.typing import NDArray

from dicehall.batch.kariki import KarikiBatch
from dicehall.batch.seated import (
    compiled,
    kariki,
    kariki_kernel,
    tao,
    tao_kernel,
    tepiiku,
    tepiiku_kernel,
    toplshteyner,
    toplshteyner_kernel,
)
from dicehall.batch.seated import toplshteyner_chain as chain
from dicehall.batch.tepiiku import BET, SCORES
from dicehall.rl.gymnasium import DicehallGymEnv
from dicehall.rl.vector import DicehallVectorEnv
from tests.batch.equivalence import Sample, differences

VECTOR_ENVS = 1_000
VECTOR_EPISODES = 6
"""Episodes per environment of the vector sample: every environment plays exactly as many,
so short episodes are not over-represented."""

CONFIGS: dict[str, tuple[int, int, dict[str, object]]] = {
    # game[-what]: (single env episodes, the learning seat, options)
    "kariki": (1_500, 0, {"seats": 2}),
    "kariki-rules": (
        800,
        2,
        {"seats": 5, "high_rollers": True, "pull": "at-least", "after_kariki": "berry"},
    ),
    "toplshteyner": (4_000, 1, {"seats": 3}),
    "tepiiku": (3_000, 1, {"bankroll": 8}),
    "tao": (3_000, 1, {"seats": 3, "length": "round"}),
    "tao-match": (1_500, 0, {"seats": 4, "length": "single"}),
    "toplshteyner-cap": (3_000, 0, {"seats": 4, "max_steps": 5}),
    "tao-cap": (2_000, 2, {"seats": 4, "max_steps": 9, "length": "round"}),
}

Episode = tuple[float, int, bool, float, NDArray[Any], NDArray[Any], NDArray[Any]]
"""Net, steps, decided by the dice, legal ids summed over its decisions, the first, summed
and last observations."""


def sample(episodes: list[Episode]) -> Sample:
    """Each statistic's value in every episode."""
    net, steps, formal, legal, first, total, last = (
        np.array(x) for x in zip(*episodes, strict=True)
    )
    stats: dict[str, NDArray[np.float64]] = {
        "net": net.astype(float),
        "won": (net > 0).astype(float),
        "steps": steps.astype(float),
        "formal": formal.astype(float),
        "legal per decision": legal / steps,
    }
    mean = total / steps[:, None]
    for name, vectors in (("first", first), ("mean", mean), ("last", last)):
        for i in range(vectors.shape[1]):
            stats[f"{name} observation[{i}]"] = vectors[:, i].astype(float)
    return stats


@cache
def single_sample(name: str) -> Sample:
    games, seat, options = CONFIGS[name]
    env = DicehallGymEnv(name.split("-")[0], seat=seat, opponents="random", **options)
    rng = np.random.default_rng(1)
    env.reset(seed=1)
    episodes: list[Episode] = []
    for _ in range(games):
        observation, info = env.reset()
        first, total, legal, steps = observation, np.zeros_like(observation, float), 0, 0
        formal = bool(info.get("decided_by_dice"))
        done = False
        while not done:
            total += observation
            legal += int(info["action_mask"].sum())
            action = rng.choice(np.flatnonzero(info["action_mask"]))
            observation, reward, terminated, truncated, info = env.step(action)
            steps += 1
            done = terminated or truncated
        episodes.append((float(reward), steps, formal, legal, first, total, observation))
    return sample(episodes)


def vector_sample(name: str) -> Sample:
    _, seat, options = CONFIGS[name]
    n = VECTOR_ENVS
    envs = DicehallVectorEnv(
        n, name.split("-")[0], seat=seat, opponents="random", autoreset_mode="SameStep", **options
    )
    rng = np.random.default_rng(2)
    observations, infos = envs.reset(seed=2)
    no = np.zeros(n, dtype=bool)
    first = observations.copy()
    formal = infos.get("decided_by_dice", no).copy()
    total = np.zeros(observations.shape)
    legal, steps, played = np.zeros(n), np.zeros(n, dtype=int), np.zeros(n, dtype=int)
    episodes: list[Episode] = []
    while (played < VECTOR_EPISODES).any():
        masks = infos["action_mask"]
        total += observations
        legal += masks.sum(axis=1)
        steps += 1
        actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
        observations, rewards, terminated, truncated, infos = envs.step(actions)
        ended = np.flatnonzero(terminated | truncated)
        for i in ended[played[ended] < VECTOR_EPISODES]:
            last = infos["final_obs"][i]
            episodes.append(
                (rewards[i], steps[i], formal[i], legal[i], first[i].copy(), total[i].copy(), last)
            )
        played[ended] += 1
        first[ended], total[ended], legal[ended], steps[ended] = observations[ended], 0, 0, 0
        formal[ended] = infos.get("decided_by_dice", no)[ended]
    return sample(episodes)


@pytest.mark.parametrize("name", list(CONFIGS))
def test_the_vector_env_plays_the_single_envs_game(name: str) -> None:
    assert differences(vector_sample(name), single_sample(name)) == []


def test_the_chain_hands_over_at_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Toplshteyner's chain walks a game until it could reach `max_steps` within a pass,
    then the batch's own passes play on: with passes of four throws and a cap of five
    decisions both play, and the episodes (some truncated) are the single environment's.
    (The chain plays where the compiled loop does not: here, with the loops off.)"""
    monkeypatch.setattr(compiled, "plays", lambda batch: False)
    monkeypatch.setattr(toplshteyner, "COLUMNS", 4)
    name = "toplshteyner-cap"
    assert differences(vector_sample(name), single_sample(name)) == []


def test_k6_broken_in_the_passes_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """K6 forgotten by the batch's own seats, pass by pass: an opponent may pass the same
    claim again, and the pass chains the seat sees run longer."""

    def never_passed(self: KarikiBatch, g: Any, seat: Any) -> Any:
        return np.zeros(g.size, dtype=bool)

    monkeypatch.setattr(compiled, "plays", lambda batch: False)
    monkeypatch.setattr(KarikiBatch, "_passed_already", never_passed)
    failed = dict(differences(vector_sample("kariki"), single_sample("kariki")))
    assert failed


def test_k6_broken_in_karikis_loop_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """K6 forgotten whenever the compiled loop played: the passes of the claim in play
    wiped, so the seat sees no pass chain and may pass a claim again. (Broken from
    outside: the compiled functions within cannot be patched.)"""

    def forgets(batch: Any, g: Any, given: Any) -> None:
        advance(batch, g, given)
        batch.passed[g] = 0

    advance = kariki_kernel.advance
    monkeypatch.setattr(kariki_kernel, "advance", forgets)
    failed = dict(differences(vector_sample("kariki"), single_sample("kariki")))
    assert failed


def test_a_broken_view_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The claim it followed shown to the seat that claims as well (only the responder's
    view shows it): nothing of the play changes, the observations do."""
    shows = kariki.SHOWS.copy()
    shows[kariki.CLAIM, 1] = True
    monkeypatch.setattr(kariki, "SHOWS", shows)
    failed = dict(differences(vector_sample("kariki"), single_sample("kariki")))
    assert failed and all("observation" in name for name in failed)


def test_p5_broken_in_the_chain_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Toplshteyner's chain (its tables of throws, which the passes walk: the loops off)
    with Saving Grace (P5) forgotten: a 2-2 no longer ends the turn, and the turns run
    longer."""
    saving_grace = 7  # 2-2, as a number drawn

    def forgets(turn: Any, facts: Any, code: int, for_fun: bool, sixes: bool) -> Any:
        if code == saving_grace and facts is not None and turn[0] == chain.NORMAL:
            return turn, chain.NONE, -1, False, True, False
        return rules(turn, facts, code, for_fun, sixes)

    rules = chain._throw
    monkeypatch.setattr(compiled, "plays", lambda batch: False)
    monkeypatch.setattr(chain, "_throw", forgets)
    chain.turns.cache_clear()
    try:
        failed = dict(differences(vector_sample("toplshteyner"), single_sample("toplshteyner")))
    finally:
        chain.turns.cache_clear()
    assert failed


def test_p8_broken_in_toplshteyners_loop_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """P8 forgotten whenever the compiled loop played: the turn's first 5-5 wiped, so the
    roller elects at no 5-5 seen and a later 5-5 elects again. (Broken from outside: the
    compiled functions within cannot be patched.)"""

    def forgets(batch: Any, g: Any, given: Any) -> None:
        advance(batch, g, given)
        batch.high_fives[g] = False

    advance = toplshteyner_kernel.advance
    monkeypatch.setattr(toplshteyner_kernel, "advance", forgets)
    failed = dict(differences(vector_sample("toplshteyner"), single_sample("toplshteyner")))
    assert failed


@pytest.mark.parametrize(
    "name",
    ["tao", "tao-cap", "kariki", "kariki-rules", "toplshteyner", "toplshteyner-cap", "tepiiku"],
)
def test_the_passes_play_the_same_game(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the compiled loops (Numba not installed), the batch plays its own seats
    pass by pass. (Tao Dice's rounds that the learning seat sits out it then plays a
    round a pass, as it does against heuristic opponents: `test_vector_replay.py`.)"""
    monkeypatch.setattr(compiled, "plays", lambda batch: False)
    assert differences(vector_sample(name), single_sample(name)) == []


def test_with_random_opponents_the_loop_plays_every_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With random opponents the compiled loop plays every move, the learning seat's
    included: the batch's handlers never run."""
    handled = []

    def counts(batch: Any, g: Any) -> None:
        handled.append(g.size)

    monkeypatch.setattr(tao.TaoSeated, "_bet_step", counts)
    monkeypatch.setattr(tao.TaoSeated, "_ante_step", counts)
    envs = DicehallVectorEnv(64, "tao", seats=4, opponents="random")
    rng = np.random.default_rng(3)
    _, infos = envs.reset(seed=3)
    for _ in range(50):
        masks = infos["action_mask"]
        _, _, _, _, infos = envs.step(np.argmax(rng.random(masks.shape) * masks, axis=1))
    assert envs.batch._loop is not None
    assert envs.batch.decisions.sum() > 50 * 64
    assert not handled


def test_d11_broken_in_taos_loop_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """D11 forgotten by the compiled loop: the bid unit stays where it was whenever the
    loop played, and the observations show it. (Broken from outside: the compiled
    functions within cannot be patched.)"""

    def forgets(batch: Any, g: Any, given: Any) -> None:
        m = batch.m.copy()
        advance(batch, g, given)
        batch.m[:] = m

    advance = tao_kernel.advance
    monkeypatch.setattr(tao_kernel, "advance", forgets)
    failed = dict(differences(vector_sample("tao-match"), single_sample("tao-match")))
    assert failed


def test_t9_broken_in_tepiikus_loop_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """T9 forgotten whenever the compiled loop played: the middle player pays the Hook what
    the Fish paid as well (all but a last coin at most), so coins drain faster and the
    games run shorter. (Broken from outside: the compiled functions within cannot be
    patched.)"""

    def middle_pays(batch: Any, g: Any, given: Any) -> None:
        paid = batch.events["pay"][g].copy()
        advance(batch, g, given)
        g = g[batch.events["pay"][g] > paid]
        middle, hook = batch.middle[g], batch.hook[g]
        amount = np.minimum(batch.last_amount[g], batch.coins[g, middle] - 1)
        batch.coins[g, middle] -= amount
        batch.coins[g, hook] += amount

    advance = tepiiku_kernel.advance
    monkeypatch.setattr(tepiiku_kernel, "advance", middle_pays)
    failed = dict(differences(vector_sample("tepiiku"), single_sample("tepiiku")))
    assert failed


@pytest.mark.parametrize(("game", "seats"), [("tao", 4), ("kariki", 3), ("tepiiku", 3)])
def test_c6_the_loops_leave_other_seats_hidden_dice_unseen(game: str, seats: int) -> None:
    """C6 with the compiled loops playing: wherever a step leaves the learning seat, its
    observation is the same whatever the others' hidden dice (Tao Dice's two d6 of every
    other seat; Kariki's dice under the mug when another seat threw them; Tepiiku's other
    hands, and their scores, while the thumbs are due: T5, before the dice are shown)."""
    envs = DicehallVectorEnv(256, game, seats=seats, opponents="random")
    batch = envs.batch
    assert batch._loop is not None
    rng = np.random.default_rng(5)
    observations, infos = envs.reset(seed=5)
    for _ in range(40):
        masks = infos["action_mask"]
        observations, _, _, _, infos = envs.step(np.argmax(rng.random(masks.shape) * masks, 1))
        if game == "tao":
            others = np.arange(seats) != 0
            batch.faces[:, others] = rng.integers(1, 7, batch.faces[:, others].shape)
        elif game == "kariki":
            theirs = batch.roller != 0
            batch.dice[theirs] = rng.integers(1, 7, (int(theirs.sum()), 2))
        else:
            hidden = np.flatnonzero(batch.phase == BET)
            hands = rng.integers(0, SCORES.size, (hidden.size, seats - 1))
            batch.hands[hidden, 1:] = hands
            batch.scores[hidden, 1:] = SCORES[hands]
        assert np.array_equal(batch.observe(batch.every, 0), observations)


@pytest.mark.parametrize("loop", [True, False], ids=["compiled loop", "passes"])
def test_c3_the_learners_thumbs_are_the_ones_played(
    loop: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """C3 in Tepiiku: the learning seat's thumbs, kept until every seat's are in, are the
    ones played (a random agent cannot tell them from the batch's own draws): a seat that
    always shows thumbs up is shown up in every round once the thumbs are in."""
    if not loop:
        monkeypatch.setattr(compiled, "plays", lambda batch: False)
    envs = DicehallVectorEnv(256, "tepiiku", seat=1, opponents="random")
    batch = envs.batch
    assert (batch._loop is not None) == loop
    _, infos = envs.reset(seed=4)
    rounds = 0
    for _ in range(30):
        masks = infos["action_mask"]
        up = masks[:, tepiiku.THUMBS_UP]
        _, _, _, _, infos = envs.step(np.where(up, tepiiku.THUMBS_UP, np.argmax(masks, axis=1)))
        shown = batch.phase != BET
        assert batch.up[shown, 1].all()
        rounds += int(shown.sum())
    assert rounds > 1000


SELF_PLAY: dict[str, dict[str, object]] = {
    "kariki": {"seats": 3, "high_rollers": True},
    "tepiiku": {"bankroll": 6},
    "toplshteyner": {"seats": 3},
    "tao": {"seats": 3, "length": "round"},
}


def self_play_sample(game: str) -> Sample:
    """Self-play (every seat the caller's, each choosing at random): per episode, its
    decisions, each seat's net, and the mean observation at its decisions (each from the
    seat to act)."""
    n = VECTOR_ENVS
    envs = DicehallVectorEnv(n, game, seat=None, autoreset_mode="SameStep", **SELF_PLAY[game])
    rng = np.random.default_rng(2)
    observations, infos = envs.reset(seed=2)
    total = np.zeros(observations.shape)
    steps, played = np.zeros(n, dtype=int), np.zeros(n, dtype=int)
    episodes: list[tuple[int, NDArray[Any], NDArray[Any]]] = []
    while (played < VECTOR_EPISODES).any():
        total += observations
        steps += 1
        masks = infos["action_mask"]
        actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
        observations, _, terminated, truncated, infos = envs.step(actions)
        ended = np.flatnonzero(terminated | truncated)
        nets = infos["final_info"]["net"] if ended.size else None
        for i in ended[played[ended] < VECTOR_EPISODES]:
            episodes.append((steps[i], nets[i].copy(), total[i] / steps[i]))
        played[ended] += 1
        total[ended], steps[ended] = 0, 0
    counts, nets, means = (np.array(x) for x in zip(*episodes, strict=True))
    stats: dict[str, NDArray[np.float64]] = {"steps": counts.astype(float)}
    for s in range(nets.shape[1]):
        stats[f"net[{s}]"] = nets[:, s].astype(float)
    for i in range(means.shape[1]):
        stats[f"mean observation[{i}]"] = means[:, i]
    return stats


@pytest.mark.parametrize("game", list(SELF_PLAY))
def test_in_self_play_the_loop_plays_the_passes_game(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Self-play, where the compiled loop plays only the dice and the caller's choices
    (Tepiiku's simultaneous ones kept until every seat's are in, C3), against the passes
    of the batch, which `test_vector_replay.py` follows against the engine."""
    looped = self_play_sample(game)
    monkeypatch.setattr(compiled, "plays", lambda batch: False)
    assert differences(looped, self_play_sample(game)) == []
