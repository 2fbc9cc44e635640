"""The vector environment against the engine, decision by decision: the same dice, the same
moves, and then the same observation tensor, action mask, default move, seat to act and
result, exactly.

One environment's generator is wrapped so that every draw is kept; the engine is given
the same dice in its own order (`feed_*`, one per game: the batch draws a throw for every
seat at once, the engine asks seat by seat), the same choices for the caller's seats, and
for the others its own heuristic bot, which the batch plays as array operations (its
bots draw nothing). Random play of the caller's seats explores the positions.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection
from typing import Any

import pytest

pytest.importorskip("gymnasium", reason="the rl extra is not installed: pip install '.[rl]'")

import numpy as np
from numpy.typing import NDArray

from dicehall.batch.seated import compiled
from dicehall.batch.toplshteyner import HARD
from dicehall.core import State, make_bots
from dicehall.games.tepiiku.rules import RUNE
from dicehall.rl.vector import DicehallVectorEnv

Log = list[NDArray[Any]]


class Recorder:
    """A NumPy generator that keeps what it draws."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng, self.log = rng, []  # type: ignore[var-annotated]

    def integers(self, *args: Any, **kwargs: Any) -> Any:
        drawn = self.rng.integers(*args, **kwargs)
        self.log.append(np.array(drawn))
        return drawn

    def random(self, *args: Any, **kwargs: Any) -> Any:
        drawn = self.rng.random(*args, **kwargs)
        self.log.append(np.array(drawn))
        return drawn


@pytest.fixture(autouse=True)
def passes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The replays follow the draws of the batch's passes: the compiled loops, which play
    self-play too, draw otherwise."""
    monkeypatch.setattr(compiled, "plays", lambda batch: False)


def draw(log: Log) -> NDArray[Any]:
    """The next draw of dice, whole (a choice's random number, or an empty draw, is skipped)."""
    while True:
        drawn = log.pop(0)
        if drawn.dtype.kind in "iu" and drawn.size:
            return drawn


def dice(log: Log) -> NDArray[Any]:
    """The next draw of dice: the one environment's row."""
    return draw(log)[0]


def feed_kariki(state: State, log: Log, bots: Collection[int] = ()) -> None:
    while state.is_chance():
        view = state.view(None)
        if view["phase"] == "roll-off":  # a die for every seat, the contenders' count
            faces = dice(log)
            for seat in list(view["roll_off"]["contenders"]):
                state.apply_chance((int(faces[seat]),))
        else:
            state.apply_chance((int(dice(log)), int(dice(log))))


def feed_toplshteyner(state: State, log: Log, bots: Collection[int] = ()) -> None:
    """Toplshteyner: a draw of `LOOKAHEAD` throws (each one number, 0 to 35; a row each)
    read in order up to the first `HARD` one at the point before it; the rest go unused."""
    throws: list[int] = []
    while state.is_chance():
        view = state.view(None)
        if view["phase"] == "rolloff":
            faces = dice(log)
            for seat in list(view["rolloff"]["contenders"]):
                state.apply_chance((int(faces[seat]),))
            continue
        if not throws:
            throws = draw(log)[:, 0].tolist()  # throws by column
        code = throws.pop(0)
        if HARD[36 * (view["point"] or 0) + code]:
            throws = []
        state.apply_chance((code // 6 + 1, code % 6 + 1))


class ToplshteynerChain:
    """Toplshteyner at up to four seats, on the chain's tables: the roll-off's winner drawn
    (the engine is given a 6 for it, 1 for the others), then a draw of `COLUMNS` throws
    (a row each) read in order as far as the batch walked: to the end of the game or the
    decision of a seat played from outside (the rest go unused), past the batch's own
    seats' decisions, and on into the next draw."""

    def __init__(self) -> None:
        self.throws: list[int] = []

    def __call__(self, state: State, log: Log, bots: Collection[int]) -> None:
        while state.is_chance():
            view = state.view(None)
            if view["phase"] == "rolloff":  # the batch draws the winner: a 6 against 1s
                winner = int(dice(log))
                for seat in list(view["rolloff"]["contenders"]):
                    state.apply_chance((6 if seat == winner else 1,))
                continue
            if not self.throws:
                self.throws = draw(log)[:, 0].tolist()
            code = self.throws.pop(0)
            state.apply_chance((code // 6 + 1, code % 6 + 1))
        if state.is_over() or min(state.actors()) not in bots:
            self.throws = []


def feed_tepiiku(state: State, log: Log, bots: Collection[int] = ()) -> None:
    while state.is_chance():
        view = state.view(None)
        if view["phase"] == "throw":  # every seat's hand as one number, runes as digits
            for hand in dice(log).tolist():
                state.apply_chance((RUNE[hand // 36], RUNE[hand // 6 % 6], RUNE[hand % 6]))
        else:  # fresh runes for all three dice, the rerolled ones taken
            chosen = view["rerolling"][0]["dice"]
            runes = dice(log)
            state.apply_chance(tuple(RUNE[int(runes[d])] for d in chosen))


def feed_tao(state: State, log: Log, bots: Collection[int] = ()) -> None:
    """Tao: one draw per throw of everyone (two d6 or a d12 each), taken seat by seat."""
    drawn: NDArray[Any] | None = None
    step: object = None
    while state.is_chance():
        phase, stage = state.phase, state.stage  # type: ignore[attr-defined]
        seat = state.queue[state.pos]  # type: ignore[attr-defined]
        if step != (phase, stage, id(state.queue)) or drawn is None:  # type: ignore[attr-defined]
            step = (phase, stage, id(state.queue))  # type: ignore[attr-defined]
            two_d6 = phase == "throw" or (phase == "reroll" and stage == 1)
            drawn = dice(log)
            while (drawn.ndim == 2) != two_d6:  # a whole round's reroll draw nobody used
                drawn = dice(log)
        if drawn.ndim == 2:
            state.apply_chance((int(drawn[seat, 0]), int(drawn[seat, 1])))
        else:
            state.apply_chance((int(drawn[seat]),))


def replay(
    gid: str,
    feed: Callable[[State, Log, Collection[int]], None],
    games: int,
    seat: int | None = None,
    seed: int = 0,
    **options: object,
) -> int:
    """`games` episodes of one environment beside the engine; returns the decisions seen."""
    envs = DicehallVectorEnv(1, gid, seat=seat, opponents="heuristic", **options)
    game = envs.game
    bot_seats = [s for s in range(game.seats) if s != seat] if seat is not None else []
    envs.batch.rng = recorder = Recorder(np.random.default_rng(seed))  # type: ignore[assignment]
    choices = random.Random(seed)
    observations, infos = envs.reset()
    decisions = 0
    for _ in range(games):
        state = game.new_state()
        bots = make_bots(game, ["heuristic"], random.Random(0), bot_seats)

        def settle(state: State = state, bots: dict[int, Any] = bots) -> None:
            feed(state, recorder.log, bots)
            while not state.is_over() and min(state.actors()) in bots:
                bot = min(state.actors())
                state.apply(bot, bots[bot].choose(state.view(bot), state.legal_actions(bot)))
                feed(state, recorder.log, bots)

        settle()
        while True:
            me = int(infos["seat"][0]) if seat is None else seat
            if state.is_over():  # decided before the caller's first decision
                assert infos["decided_by_dice"][0] and me == (seat or 0)
            else:
                assert me == min(state.actors())
                assert list(infos["action_mask"][0]) == state.legal_action_mask(me)
                default = int(envs.batch.default(envs.batch.every)[0])
                assert default == game.action_id(state.default_action(me))
            same(observations[0], state, me)
            decisions += 1
            action = choices.choice(np.flatnonzero(infos["action_mask"][0]).tolist())
            observations, rewards, terminated, truncated, infos = envs.step(np.array([action]))
            if not state.is_over():
                state.apply(me, action)
                settle()
            if terminated[0] or truncated[0]:
                assert terminated[0] and state.is_over()
                assert infos["net"][0].tolist() == list(state.result().net)
                assert rewards[0] == state.result().net[me]
                same(observations[0], state, me)
                observations, _, _, _, infos = envs.step(np.array([0]))  # the next episode
                break
    return decisions


def same(observation: NDArray[np.float32], state: State, seat: int) -> None:
    """The tensor is the engine's, entry by entry; a difference is named by its segment."""
    want = np.array(state.observation_tensor(seat), dtype=np.float32)
    differ = np.flatnonzero(observation != want)
    if differ.size:
        segments = [s.name for s in state.game.encoding.layout.segments for _ in range(s.size)]
        named = [(segments[i], int(i), float(observation[i]), float(want[i])) for i in differ]
        raise AssertionError(f"seat {seat} sees {named} (name, index, vector, engine)")


CASES = [
    ("kariki", feed_kariki, 40, None, {"seats": 2}),
    ("kariki", feed_kariki, 25, 1, {"seats": 3, "pull": "at-least"}),
    ("kariki", feed_kariki, 10, 2, {"seats": 5, "high_rollers": True, "after_kariki": "berry"}),
    ("toplshteyner", ToplshteynerChain(), 120, None, {"seats": 4}),
    ("toplshteyner", feed_toplshteyner, 60, 2, {"seats": 5, "sixes_end_turn": True}),
    ("toplshteyner", ToplshteynerChain(), 60, 0, {"seats": 3, "for_fun": True}),
    ("toplshteyner", ToplshteynerChain(), 60, 1, {"seats": 4}),
    ("toplshteyner", ToplshteynerChain(), 80, 0, {"seats": 2, "sixes_end_turn": True}),
    ("tepiiku", feed_tepiiku, 30, None, {}),
    ("tepiiku", feed_tepiiku, 30, 1, {"bankroll": 10}),
    ("tao", feed_tao, 8, None, {"seats": 3, "opener": "1", "length": "single"}),
    ("tao", feed_tao, 20, 0, {"seats": 4, "opener": "2", "length": "single"}),
    ("tao", feed_tao, 40, 2, {"seats": 5, "opener": "0", "length": "round"}),
    ("tao", feed_tao, 3, 1, {"seats": 2, "opener": "0"}),
]


@pytest.mark.parametrize(
    ("gid", "feed", "games", "seat", "options"),
    CASES,
    ids=[f"{c[0]}-{'all' if c[3] is None else c[3]}-{c[4]}" for c in CASES],
)
def test_the_vector_env_shows_what_the_engine_shows(
    gid: str,
    feed: Callable[[State, Log, Collection[int]], None],
    games: int,
    seat: int | None,
    options: dict[str, object],
) -> None:
    assert replay(gid, feed, games, seat, **options) > 50
