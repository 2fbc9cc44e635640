"""Fixed action ids, observation tensors, information states and declared bounds, every game.

The ids are pinned here: changing an id breaks every trained agent and saved
policy, so a change must be a new game version, never an edit of this list.
"""

from __future__ import annotations

import json
import random
from array import array
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicehall.core import Game, IllegalActionError, RandomDice, State
from dicehall.core.recall import Recall
from dicehall.games import game_class, game_ids, make_game

PINNED_ACTIONS = {
    "tepiiku": (
        3,
        '[{"type":"thumbs","up":false},{"type":"thumbs","up":true},{"type":"pay"},'
        '{"type":"reroll","dice":[0]},{"type":"reroll","dice":[1]},{"type":"reroll","dice":[2]},'
        '{"type":"reroll","dice":[0,1]},{"type":"reroll","dice":[0,2]},'
        '{"type":"reroll","dice":[1,2]},{"type":"reroll","dice":[0,1,2]}]',
    ),
    "toplshteyner": (
        3,
        '[{"type":"buy"},{"type":"decline"},{"type":"elect","seat":0},'
        '{"type":"elect","seat":1},{"type":"elect","seat":2}]',
    ),
    "tao": (
        4,
        '[{"type":"ante","white":0},{"type":"ante","white":1},{"type":"ante","white":2},'
        '{"type":"ante","white":3},{"type":"pass"},{"type":"raise","white":0},'
        '{"type":"raise","white":1},{"type":"raise","white":2},{"type":"raise","white":3},'
        '{"type":"call","white":0},{"type":"call","white":1},{"type":"call","white":2},'
        '{"type":"call","white":3},{"type":"fold"}]',
    ),
    "kariki": (
        4,
        '[{"type":"claim","rank":"4"},{"type":"claim","rank":"5"},{"type":"claim","rank":"6"},'
        '{"type":"claim","rank":"7"},{"type":"claim","rank":"8"},{"type":"claim","rank":"9"},'
        '{"type":"claim","rank":"10"},{"type":"claim","rank":"11"},'
        '{"type":"claim","rank":"1-1"},{"type":"claim","rank":"2-2"},'
        '{"type":"claim","rank":"3-3"},{"type":"claim","rank":"4-4"},'
        '{"type":"claim","rank":"5-5"},{"type":"claim","rank":"6-6"},{"type":"roll"},'
        '{"type":"pull"},{"type":"pass"},{"type":"direction","way":"left"},'
        '{"type":"direction","way":"right"},{"type":"emergency"},{"type":"go-out"}]',
    ),
}
PINNED_OBSERVATION_SIZES = {"tepiiku": 123, "toplshteyner": 74, "tao": 121, "kariki": 167}

VARIANTS: dict[str, list[dict[str, object]]] = {
    "kariki": [
        {"berries": 2},
        {"one_round": True},
        {"one_round": True, "first_roller": "0", "throws": 1},
        {"high_rollers": True, "berries": 1},
    ],
    "tao": [
        {"length": "round"},
        {"length": "round", "tiebreaks": 0},
        {
            "length": "round",
            "opener": "0",
            "tiebreaks": 0,
            "hidden_faces": 2,
            "shown_faces": 2,
            "black_stones": 1,
            "white_stones": 1,
        },
    ],
}


def configurations() -> Iterator[tuple[str, int, dict[str, object]]]:
    for gid in game_ids():
        cls = game_class(gid)
        for n in range(cls.min_seats, cls.max_seats + 1):
            yield gid, n, {}
        for options in VARIANTS.get(gid, []):
            yield gid, cls.min_seats, options


CONFIGS = list(configurations())
IDS = [f"{gid}-{n}-{'-'.join(f'{k}={v}' for k, v in o.items())}" for gid, n, o in CONFIGS]


def random_game(game: Game, seed: int) -> Iterator[State]:
    """Every state of one random game, up to the game's length cap."""
    rng = random.Random(seed)
    dice = RandomDice(seed)
    state = game.new_state()
    for _ in range(game.encoding.length_cap):
        yield state
        if state.is_over():
            return
        if state.is_chance():
            state.apply_chance(dice.throw(state.chance_dice()))
        else:
            seat = state.actors()[0]
            ids = state.legal_action_ids(seat)
            state.apply(seat, ids[int(rng.random() * len(ids))])


@pytest.mark.parametrize("gid", sorted(PINNED_ACTIONS))
def test_action_ids_are_pinned(gid: str) -> None:
    if gid not in game_ids():
        pytest.skip(f"{gid} is not installed")
    seats, listing = PINNED_ACTIONS[gid]
    game = make_game(gid, seats)
    assert [dict(a) for a in game.encoding.actions.actions] == json.loads(listing)
    assert game.num_actions == len(json.loads(listing))
    assert make_game(gid).observation_shape == (PINNED_OBSERVATION_SIZES[gid],)


@pytest.mark.parametrize(("gid", "seats", "options"), CONFIGS, ids=IDS)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_ids_masks_tensors_and_bounds_hold_over_a_game(
    gid: str, seats: int, options: dict[str, object], seed: int
) -> None:
    game = make_game(gid, seats, options)
    low, high = game.observation_bounds
    (size,) = game.observation_shape
    assert len(low) == len(high) == size and all(a <= b for a, b in zip(low, high, strict=True))
    steps = -1
    for steps, state in enumerate(random_game(game, seed)):  # noqa: B007
        for seat in range(seats):
            tensor = state.observation_tensor(seat)
            assert len(tensor) == size
            assert all(a <= x <= b for a, x, b in zip(low, tensor, high, strict=True))
            ids = state.legal_action_ids(seat)
            assert ids == sorted(game.action_id(a) for a in state.legal_actions(seat))
            mask = state.legal_action_mask(seat)
            assert [i for i, m in enumerate(mask) if m] == ids
            assert all(game.action_of(i) in state.legal_actions(seat) for i in ids)
    if state.is_over():
        net = state.result().net
        lo, hi = game.utility_bounds
        assert all(lo <= x <= hi for x in net) and sum(net) == game.utility_sum
        if game.max_game_length is not None:
            assert steps <= game.max_game_length


@pytest.mark.parametrize(("gid", "seats", "options"), CONFIGS, ids=IDS)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_C6_tensors_and_information_states_ignore_hidden_facts_of_others(
    gid: str, seats: int, options: dict[str, object], seed: int
) -> None:
    game = make_game(gid, seats, options)
    rng = random.Random(seed)
    dice = RandomDice(seed)
    recall = Recall(game)
    for _ in range(300):
        state = recall.state
        for seat in range(seats):
            other = state.resample_hidden(seat, rng)
            assert other.observation_tensor(seat) == state.observation_tensor(seat)
            assert other.observation_string(seat) == state.observation_string(seat)
        if state.is_over():
            break
        if state.is_chance():
            recall.apply_chance(dice.throw(state.chance_dice()))
        else:
            seat = state.actors()[0]
            ids = state.legal_action_ids(seat)
            recall.apply(seat, ids[int(rng.random() * len(ids))])
    # the record only grows and never holds another seat's hidden dice
    for seat in range(seats):
        text = recall.information_state_string(seat)
        for line in text.splitlines():
            kind, _, body = line.partition(" ")
            assert kind in ("obs", "act")
            if kind == "obs":
                assert json.loads(body)["seat"] == seat
        tensor = recall.information_state_tensor(seat)
        assert (len(tensor),) == recall.information_state_shape()


def test_integer_like_ids_and_seats_are_accepted_everywhere() -> None:
    numpy = pytest.importorskip("numpy")
    game = make_game("kariki", numpy.int64(2), {"buy_in": numpy.int32(3), "first_roller": "0"})
    assert game.seats == 2 and game.options["buy_in"] == 3
    state = game.new_state()
    left = game.action_id({"type": "direction", "way": "left"})
    applied = state.apply(numpy.int64(0), numpy.int32(left))
    assert applied == {"type": "direction", "way": "left"}
    assert type(state.view(0)["direction"]) is str
    assert game.action_of(numpy.int64(15)) == {"type": "pull"}
    json.dumps(state.view(0))  # no numpy value reached the state


def test_bad_ids_are_named() -> None:
    game = make_game("kariki")
    for bad in (-1, game.num_actions, 1.5, "3"):
        with pytest.raises(IllegalActionError, match="action id|whole number"):
            game.action_of(bad)
    with pytest.raises(IllegalActionError, match="not an action"):
        game.action_id({"type": "fly"})
    state = game.new_state()
    with pytest.raises(IllegalActionError):
        state.apply(0, 17)  # a roll-off is due, not a decision


def test_bounded_lengths_are_declared_and_unbounded_ones_say_why() -> None:
    small = make_game("kariki", 2, {"one_round": True, "first_roller": "0", "throws": 1})
    assert small.max_game_length is not None and small.max_game_length <= 10
    assert make_game("kariki", 4, {"first_roller": "1"}).max_game_length is not None
    for gid in game_ids():
        game = make_game(gid)
        if game.max_game_length is None:
            assert game.encoding.unbounded
            assert game.encoding.length_cap > 0


@pytest.mark.parametrize(("gid", "seats", "options"), CONFIGS, ids=IDS)
def test_the_fast_tensors_are_the_views_encoded_exactly(
    gid: str, seats: int, options: dict[str, object]
) -> None:
    """`observation_tensor` (the encoding's `fill`, where a game has one) gives exactly
    `encode(view(seat))`: the same floats, entry for entry, for every seat at every
    position of many seeded random games, into a list and into any zeroed vector."""
    game = make_game(gid, seats, options)
    encoding = game.encoding
    positions = 0
    for seed in range(12):
        if positions > 1500:  # long games (Tao's) fill the budget with fewer of them
            break
        for state in random_game(game, seed):
            positions += 1
            for seat in range(seats):
                expected = encoding.encode(state.view(seat))
                tensor = state.observation_tensor(seat)
                assert tensor == expected
                assert all(type(x) is float for x in tensor)
                if encoding.fill is not None:  # into a float32 buffer, as the adapters fill
                    written = array("f", bytes(4 * len(expected)))
                    encoding.fill(state, seat, memoryview(written))
                    assert written == array("f", expected)
