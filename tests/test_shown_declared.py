"""A game's declarations of what each step shows (`State.declared_shown`) against the
replay that finds it without them: Kariki's, over many random games of every seat count
up to five and every option, answer exactly what `ShownThrows(game, declared=False)` and
the plain reference (tests/shown_reference.py) answer, step by step and audience by
audience. A declaration that says more than the replay is a leak (an opening given to
a seat the rules never showed the throw); one that says less withholds a proof. And a
game that declares nothing is still replayed."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from dicehall.core import ThrowShown
from dicehall.core.errors import ChanceError, DicehallError
from dicehall.core.game import Game
from dicehall.core.shown import ShownThrows
from dicehall.core.transcript import apply_step
from dicehall.games import game_ids, make_game
from dicehall.games.kariki.rules import CLAIM, RESPOND, THROW
from tests.shown_reference import ReferenceShownThrows
from tests.toy_game import HighDie, HighDieState

GAMES = 150
STEPS = 400


def kariki_options(rng: random.Random, seats: int) -> dict[str, Any]:
    """Options drawn so that every way a throw is shown or kept comes up: pulls of either
    kind, fresh rolls after a Kariki, emergency berries, slashes, capped throws (Double
    Sixes and pulls forced), short games of one round or few berries, a set first roller."""
    return {
        "pull": rng.choice(["exact", "at-least"]),
        "after_kariki": rng.choice(["roller", "berry"]),
        "high_rollers": rng.random() < 0.5,
        "slashes": rng.random() < 0.8,
        "throws": rng.choice([0, 0, 0, 1, 2]),
        "berries": rng.choice([5, 5, 5, 3, 1]),
        "one_round": rng.random() < 0.1,
        "first_roller": rng.choice(["roll-off"] * 3 + [str(rng.randrange(seats))]),
    }


def random_steps(game: Game, rng: random.Random) -> list[dict[str, Any]]:
    """A game of random legal actions, timeouts now and then (a timed-out seat may pull,
    K8), claims of Double Sixes often (only a Kariki beats them, K5), a sealed table's
    entropy records here and there, and fair dice."""
    state = game.new_state(record=True)
    steps: list[dict[str, Any]] = []
    while not state.is_over() and len(steps) < STEPS:
        if rng.random() < 0.05:
            step: dict[str, Any] = {"entropy": {"batch": len(steps)}}
        elif state.is_chance():
            step = {"chance": [rng.choice(d) for d in state.chance_dice()]}
        else:
            seat = rng.choice(state.actors())
            legal = state.legal_actions(seat)
            sixes = [a for a in legal if a.get("rank") == "6-6"]
            if rng.random() < 0.08:
                step = {"seat": seat, "timeout": True}
            elif sixes and rng.random() < 0.3:
                step = {"seat": seat, "action": dict(sixes[0])}
            else:
                step = {"seat": seat, "action": dict(rng.choice(legal))}
        apply_step(state, step)
        steps.append(step)
    return steps


def test_kariki_declares_and_the_others_do_not() -> None:
    for gid in game_ids():
        game = make_game(gid)
        shown = ShownThrows(game)
        state = game.new_state()
        first = {"chance": [d[0] for d in state.chance_dice()]} if state.is_chance() else None
        assert first is not None, gid  # every game here begins with a throw
        shown.step(first)
        assert shown.declared is (gid == "kariki"), gid


def test_kariki_declares_what_the_replay_finds() -> None:
    rng = random.Random("shown-declared")
    throws = shown_to_all = shown_to_seats = sealed = 0
    ways: Counter[str] = Counter()  # the rarer ways a step shows dice, or drops them
    for n in range(GAMES):
        seats = rng.choice([2, 3, 4, 5])
        game = make_game("kariki", seats, kariki_options(rng, seats))
        steps = random_steps(game, rng)
        declared, replayed = ShownThrows(game), ShownThrows(game, declared=False)
        reference = ReferenceShownThrows(game) if n % 3 == 0 else None  # slow: a third
        for i, step in enumerate(steps):
            ways[way(replayed.state, step)] += 1
            found = declared.step(step)
            assert found == replayed.step(step), (n, i, step)
            if reference is not None:
                assert found == reference.step(step), (n, i, step)
            for a in declared.audiences:
                assert declared.sealed(a) == replayed.sealed(a), (n, i, a)
        assert declared.declared is True and replayed.declared is False
        assert declared.shown == replayed.shown, n
        throws += len(declared.shown)
        shown_to_all += sum(None in s for s in declared.shown)
        shown_to_seats += sum(bool(s - {None}) for s in declared.shown)
        sealed += sum(not s for s in declared.shown)
    # both kinds of answer came up many times; every throw is seen by someone, its
    # roller at least (C6 keeps the dice under the mug from the others alone)
    assert shown_to_all > 1000 and shown_to_seats > 1000, (throws, shown_to_all, shown_to_seats)
    assert sealed == 0
    assert min(ways.values()) >= 5 and len(ways) == 6, ways


def way(state: Any, step: Mapping[str, Any]) -> str:
    """How a Kariki step may show dice: a throw that fails to beat Double Sixes (K5), a
    pull, a timed-out seat's pull or a claim dropped by its slash's berry (K8), a
    Kariki (K3); or anything else."""
    if "chance" in step:
        a, b = step["chance"] if len(step["chance"]) == 2 else (0, 0)
        if state.phase == THROW and a + b == 3:
            return "kariki"
        return "over double sixes" if state.phase == THROW and state.claim == 13 else "other"
    if step.get("timeout") and state.phase in (CLAIM, RESPOND):
        after = state.clone()
        after.timeout(step["seat"])
        if after.last_shown is not state.last_shown:
            return "timed-out pull"
        return "dropped" if after.out[step["seat"]] else "other"
    return "pull" if step.get("action", {}).get("type") == "pull" else "other"


def test_the_replay_is_still_what_a_game_declaring_nothing_gets() -> None:
    game = HighDie(3)  # each die hidden from the others until the end: probes follow it
    rng = random.Random("not-declared")
    steps = random_steps(game, rng)
    shown = ShownThrows(game)
    replayed = ShownThrows(game, declared=False)
    probed = False
    for step in steps:
        assert shown.step(step) == replayed.step(step)
        probed |= bool(shown._tracked)  # a throw in doubt, followed by its probes
    assert shown.declared is False and probed
    assert shown.state.log  # the replay compares events: its game keeps them


class Declaring(HighDie):
    """High Die whose states declare what the test sets: each throw to its thrower."""

    answers: Any = None

    def new_state(self, record: bool = False) -> HighDieState:
        return DeclaringState(self, record)


class DeclaringState(HighDieState):
    def declared_shown(self, step: Mapping[str, Any]) -> Sequence[ThrowShown] | None:
        answers = self.game.answers  # type: ignore[attr-defined]
        return answers(self, step) if callable(answers) else answers


def test_a_declaration_is_taken_as_given() -> None:
    game = Declaring(2)
    game.answers = lambda state, step: (
        (ThrowShown(len(state.dice)),) if "chance" in step else (ThrowShown(None, 1),)
    )
    shown = ShownThrows(game)
    assert shown.step({"chance": [3]}) == [(0, 0)]
    assert shown.step({"chance": [5]}) == [(1, 1)]
    assert shown.step({"seat": 0, "action": {"type": "stand"}}) == [(0, None)]
    assert shown.sealed(None) == [1] and shown.sealed(1) == [] and shown.sealed(0) == [1]
    assert shown.state.log is None  # nothing reads the events of a declaring game


def test_a_game_declaring_some_steps_only_is_an_error() -> None:
    game = Declaring(2)
    calls: list[int] = []

    def answers(state: Any, step: Any) -> Any:
        calls.append(1)
        return () if len(calls) == 1 else None

    game.answers = answers
    shown = ShownThrows(game)
    shown.step({"chance": [3]})
    with pytest.raises(RuntimeError, match="declared what its earlier steps showed"):
        shown.step({"chance": [4]})


@pytest.mark.parametrize("wrong", [ThrowShown(None, 1), ThrowShown(2), ThrowShown(None, -1)])
def test_a_declaration_of_a_throw_or_seat_that_is_not_there_is_an_error(
    wrong: ThrowShown,
) -> None:
    game = Declaring(2)
    game.answers = (wrong,)
    with pytest.raises(ValueError, match="declared"):
        ShownThrows(game).step({"chance": [3]})


def test_a_step_the_game_refuses_is_refused_as_without_declarations() -> None:
    game = make_game("kariki", 3, {"first_roller": "0"})
    left = {"seat": 0, "action": {"type": "direction", "way": "left"}}
    for bad in ({"chance": [9, 9]}, {"chance": ["a"]}, {"seat": 5, "timeout": True}):
        shown = ShownThrows(game)
        shown.step(left)
        with pytest.raises(DicehallError):
            shown.step(bad)
    with pytest.raises(ChanceError):
        ShownThrows(game).step({"chance": [1, 2]})  # the direction is due, not a throw
