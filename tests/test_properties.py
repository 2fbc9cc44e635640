"""Properties every game must have, checked over every installed game and seat count.

Random legal play terminates; what the rules conserve is conserved after
every step (C4); a seat's view does not change when only facts hidden from it
change (C6); a saved game replays to the same end; an illegal step raises and
changes nothing.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicehall.core import ChanceError, Game, IllegalActionError, RandomDice, State, Table, make_bots
from dicehall.core.game import field_names
from dicehall.core.transcript import replay
from dicehall.games import game_class, game_ids, make_game
from tests.games.tao_script import SMALL as SMALL_TAO
from tests.toy_game import Duel, HighDie

MAX_STEPS = 200_000


def configurations() -> Iterator[tuple[type[Game], int]]:
    yield HighDie, 2
    yield HighDie, 4
    yield Duel, 3
    for gid in game_ids():
        cls = game_class(gid)
        for n in range(cls.min_seats, cls.max_seats + 1):
            yield cls, n


CONFIGS = list(configurations())
IDS = [f"{cls.id}-{n}" for cls, n in CONFIGS]
PLAYOUT_EXAMPLES = 60
GAMES_PER_GAME = 1200
"""Random games played per game id by the conservation test, spread over its seat counts."""


def games_per_example(cls: type[Game]) -> int:
    configs = sum(1 for c, _ in CONFIGS if c is cls)
    return -(-GAMES_PER_GAME // (PLAYOUT_EXAMPLES * configs))


def maker(gid: object, seats: object, options: object) -> Game:
    for toy in (HighDie, Duel):
        if gid == toy.id:
            return toy(seats, options)  # type: ignore[arg-type]
    return make_game(gid, seats, options)  # type: ignore[arg-type]


def random_step(state: State, dice: RandomDice, rng: random.Random) -> None:
    if state.is_chance():
        state.apply_chance(dice.throw(state.chance_dice()))
        return
    actors = state.actors()
    seat = actors[int(rng.random() * len(actors))]
    legal = state.legal_actions(seat)
    assert legal, f"seat {seat} must act but has no legal action"
    state.apply(seat, legal[int(rng.random() * len(legal))])


def viewers(state: State) -> list[int | None]:
    return [None, *range(state.game.seats)]


@pytest.mark.parametrize(("cls", "seats"), CONFIGS, ids=IDS)
@settings(max_examples=PLAYOUT_EXAMPLES)
@given(seed=st.integers(0, 2**32))
def test_C4_random_play_terminates_and_conserves(cls: type[Game], seats: int, seed: int) -> None:
    game = cls(seats)
    for k in range(games_per_example(cls)):
        play_and_check_conservation(game, seed * 1000 + k)


def play_and_check_conservation(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    state = game.new_state()
    dice = RandomDice(seed)
    before = dict(state.conserved())
    for _ in range(MAX_STEPS):
        if state.is_over():
            break
        random_step(state, dice, rng)
        assert state.conserved() == before
    else:
        pytest.fail(f"no end after {MAX_STEPS} steps")
    result = state.result()
    assert result.winners, "a finished game has a winner"
    assert len(result.net) == game.seats
    assert sum(result.net) == 0, f"net gains must sum to zero: {result.net}"


C6_EVERY_STEP_UNTIL = 300


@pytest.mark.parametrize(("cls", "seats"), CONFIGS, ids=IDS)
@settings(max_examples=8)
@given(seed=st.integers(0, 2**32))
def test_C6_views_ignore_hidden_facts_of_others(cls: type[Game], seats: int, seed: int) -> None:
    check_views_ignore_hidden_facts(cls(seats), seed)


RESEARCH_VARIANTS = [
    ("tao", 2, SMALL_TAO),
    ("tao", 3, {"length": "round", "tiebreaks": 1, "hidden_faces": 3, "shown_faces": 4}),
    ("tao", 4, {"tiebreaks": 0, "black_stones": 2, "white_stones": 1}),
    ("kariki", 2, {"one_round": True, "first_roller": "0", "throws": 1}),
]


@pytest.mark.parametrize(
    ("gid", "seats", "options"),
    RESEARCH_VARIANTS,
    ids=[f"{g}-{n}" for g, n, _ in RESEARCH_VARIANTS],
)
@settings(max_examples=8)
@given(seed=st.integers(0, 2**32))
def test_C6_holds_on_the_research_variants(
    gid: str, seats: int, options: dict[str, object], seed: int
) -> None:
    check_views_ignore_hidden_facts(make_game(gid, seats, options), seed)


def check_views_ignore_hidden_facts(game: Game, seed: int) -> None:
    """C6: a seat's view and tensor stay the same when only others' hidden facts change."""
    rng = random.Random(seed)
    state = game.new_state()
    dice = RandomDice(seed)
    tensors = type(game).make_encoding is not Game.make_encoding  # the toy games have none
    sample = random.Random(seed + 1)
    for step in range(MAX_STEPS):
        # Every step of a game's opening, then one in ten: long games (Tao at six
        # seats runs thousands of steps) stay checked throughout at a tenth of the cost.
        if step < C6_EVERY_STEP_UNTIL or sample.random() < 0.1:
            for seat in viewers(state):
                view = state.view(seat)
                json.dumps(view)
                other = state.resample_hidden(seat, rng)
                assert other.view(seat) == view, f"seat {seat}'s view depends on hidden facts"
                if tensors and seat is not None:
                    assert other.observation_tensor(seat) == state.observation_tensor(seat)
        if state.is_over():
            break
        random_step(state, dice, rng)


@pytest.mark.parametrize(("cls", "seats"), CONFIGS, ids=IDS)
@settings(max_examples=8)
@given(seed=st.integers(0, 2**32))
def test_transcript_replays_exactly(cls: type[Game], seats: int, seed: int) -> None:
    game = cls(seats)
    table = Table(game, RandomDice(seed))
    rng = random.Random(seed)
    while not table.state.is_over():
        if table.state.is_chance():
            table.roll()
        else:
            actors = table.state.actors()
            seat = actors[int(rng.random() * len(actors))]
            legal = table.state.legal_actions(seat)
            table.act(seat, legal[int(rng.random() * len(legal))])
    data = json.loads(json.dumps(table.transcript()))
    again = replay(data, make=maker)
    assert again.is_over()
    for seat in viewers(again):
        assert again.view(seat) == table.state.view(seat)
    assert again.result() == table.state.result()
    assert again.events_for(None) == table.state.events_for(None)


@pytest.mark.parametrize(("cls", "seats"), CONFIGS, ids=IDS)
@settings(max_examples=6)
@given(seed=st.integers(0, 2**32))
def test_illegal_steps_raise_and_change_nothing(cls: type[Game], seats: int, seed: int) -> None:
    rng = random.Random(seed)
    state = cls(seats).new_state()
    dice = RandomDice(seed)
    for _ in range(MAX_STEPS):
        views = [state.view(s) for s in viewers(state)]
        conserved = dict(state.conserved())
        actors = state.actors()
        bad_moves: list[tuple[int, object]] = [(0, {"type": "no-such-action"}), (0, "pull")]
        bad_moves += [(s, {"type": "pass"}) for s in range(seats) if s not in actors]
        bad_moves.append((seats, {"type": "pass"}))
        for seat, action in bad_moves:
            if seat in actors and action in state.legal_actions(seat):
                continue
            with pytest.raises(IllegalActionError):
                state.apply(seat, action)  # type: ignore[arg-type]
        with pytest.raises(ChanceError):
            state.apply_chance(["not a face"] * 3 if state.is_chance() else [1])
        assert [state.view(s) for s in viewers(state)] == views
        assert state.conserved() == conserved
        if state.is_over():
            break
        random_step(state, dice, rng)


@pytest.mark.parametrize(("cls", "seats"), CONFIGS, ids=IDS)
def test_clone_is_independent(cls: type[Game], seats: int) -> None:
    rng = random.Random(7)
    state = cls(seats).new_state()
    dice = RandomDice(7)
    for _ in range(40):
        if state.is_over():
            break
        random_step(state, dice, rng)
    before = [state.view(s) for s in viewers(state)]
    copy = state.clone()
    for _ in range(40):
        if copy.is_over():
            break
        random_step(copy, dice, rng)
    assert [state.view(s) for s in viewers(state)] == before


def fields_of(state: State) -> dict[str, object]:
    """Every field of a state, wherever its layout keeps it (dict, slots, compiled)."""
    names = [*field_names(type(state)), *getattr(state, "__dict__", {})]
    return {name: getattr(state, name) for name in names}


@pytest.mark.parametrize(("cls", "seats"), CONFIGS, ids=IDS)
def test_shallow_copy_shares_every_field_and_runs_no_init(cls: type[Game], seats: int) -> None:
    rng = random.Random(3)
    state = cls(seats).new_state(record=True)
    dice = RandomDice(3)
    for _ in range(25):
        if state.is_over():
            break
        random_step(state, dice, rng)
    copy = state.shallow_copy()
    assert type(copy) is type(state)
    fields = fields_of(state)
    assert "game" in fields and "log" in fields
    assert fields_of(copy).keys() == fields.keys()
    for name, value in fields.items():  # the same objects (a compiled int is boxed anew)
        shared = getattr(copy, name)
        assert shared is value if isinstance(value, (list, dict)) else shared == value, name


SOAK_GAMES = 20_000


@pytest.mark.slow
@pytest.mark.parametrize("gid", game_ids())
def test_soak_thousands_of_games_per_game(gid: str) -> None:
    """`make soak`: random play over every seat count, and bots that reach deeper positions.

    Every game checks conservation after every step; every fiftieth also
    checks each seat's view against a redraw of what is hidden from it.
    """
    cls = game_class(gid)
    counts = range(cls.min_seats, cls.max_seats + 1)
    for i in range(SOAK_GAMES):
        game = cls(counts[i % len(counts)])
        play_and_check_conservation(game, 10_000 + i)
        if i % 50 == 0:
            play_bots_checking_views(game, i)


def play_bots_checking_views(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    table = Table(game, RandomDice(seed))
    names = list(game.bots())
    bots = make_bots(game, [names[s % len(names)] for s in range(game.seats)], rng)

    def check(t: Table) -> None:
        for seat in viewers(t.state):
            assert t.state.resample_hidden(seat, rng).view(seat) == t.state.view(seat)

    table.play(bots, on_step=check)
    assert sum(table.state.result().net) == 0
