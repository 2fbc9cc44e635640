"""The rules core on its own, driven through the toy game High Die."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from dicehall.core import (
    D6,
    ChanceError,
    CommittedDice,
    IllegalActionError,
    OptionError,
    ScriptedDice,
    Table,
    TranscriptError,
    UnknownGameError,
)
from dicehall.core.chance import commitment_of, derive_faces, outcomes
from dicehall.core.options import parse_option_args
from dicehall.core.transcript import replay
from dicehall.games import make_game
from tests.toy_game import STAND, HighDie


def maker(gid: object, seats: object, options: object) -> HighDie:
    assert gid == "highdie"
    return HighDie(seats, options)  # type: ignore[arg-type]


def scripted_game(throws: list[list[int]]) -> Table:
    return Table(HighDie(2), ScriptedDice(throws))


def test_C1_outcomes_are_exact_and_uniform() -> None:
    all_outcomes = list(outcomes((D6, D6)))
    assert len(all_outcomes) == 36
    assert sum(p for _, p in all_outcomes) == 1
    assert all(p == Fraction(1, 36) for _, p in all_outcomes)
    assert all_outcomes[0][0] == (1, 1)


def test_C1_committed_dice_follow_from_the_seed() -> None:
    seed = b"\x01" * 32
    dice = CommittedDice(seed)
    first = [dice.throw((D6, D6)) for _ in range(5)]
    assert first == [derive_faces(seed, k, (D6, D6)) for k in range(5)]
    assert dice.commitment == commitment_of(seed) != commitment_of(b"\x02" * 32)
    assert all(f in D6 for faces in first for f in faces)


def test_seat_count_and_options_are_checked() -> None:
    with pytest.raises(OptionError, match="2 to 4 seats; got 5"):
        HighDie(5)
    with pytest.raises(OptionError, match="unknown option 'colour'.*coins, mode"):
        HighDie(2, {"colour": "red"})
    with pytest.raises(OptionError, match="'mode' must be one of high, low; got 'middle'"):
        HighDie(2, {"mode": "middle"})
    with pytest.raises(OptionError, match="'coins' must be a whole number from 1 to 100"):
        HighDie(2, {"coins": 0})
    with pytest.raises(UnknownGameError, match="unknown game 'chess'"):
        make_game("chess")


def test_options_parse_from_the_command_line() -> None:
    assert parse_option_args("highdie", HighDie.declared_options, ["coins=7", "mode=low"]) == {
        "coins": 7,
        "mode": "low",
    }
    with pytest.raises(OptionError, match="NAME=VALUE"):
        parse_option_args("highdie", HighDie.declared_options, ["coins"])
    with pytest.raises(OptionError, match="'coins' must be"):
        parse_option_args("highdie", HighDie.declared_options, ["coins=lots"])


def test_illegal_action_says_why_and_changes_nothing() -> None:
    table = scripted_game([[3], [5]])
    table.settle()
    state = table.state
    before = state.view(None), state.view(0), state.view(1)
    with pytest.raises(IllegalActionError, match="not seat 1's turn"):
        state.apply(1, {"type": "stand"})
    with pytest.raises(IllegalActionError, match="may not play fly.*Legal: stand, reroll"):
        state.apply(0, {"type": "fly"})
    with pytest.raises(IllegalActionError, match="no seat 9"):
        state.apply(9, {"type": "stand"})
    with pytest.raises(ChanceError, match="no throw is due"):
        state.apply_chance([4])
    assert (state.view(None), state.view(0), state.view(1)) == before


def test_chance_faces_are_checked() -> None:
    state = HighDie(2).new_state()
    with pytest.raises(ChanceError, match="1 dice, got 2 faces"):
        state.apply_chance([1, 2])
    with pytest.raises(ChanceError, match="die 0 has faces"):
        state.apply_chance([7])
    with pytest.raises(ChanceError, match="list of faces"):
        state.apply_chance("6")  # type: ignore[arg-type]


def test_C6_events_and_views_are_filtered_per_seat() -> None:
    table = scripted_game([[3], [5]])
    table.settle()
    state = table.state
    assert state.view(0)["dice"] == [3, None]
    assert state.view(1)["dice"] == [None, 5]
    assert state.view(None)["dice"] == [None, None]
    assert "you threw 3" in [e["text"] for e in state.events_for(0)]
    assert not any("3" in e["text"] for e in state.events_for(1))
    assert [e["type"] for e in state.events_for(None)] == ["thrown", "thrown"]


def test_transcript_round_trip_and_errors() -> None:
    table = scripted_game([[3], [5], [6]])
    table.settle()
    table.act(0, {"type": "reroll"})
    table.roll()
    table.act(1, {"type": "stand"})
    data = json.loads(json.dumps(table.transcript()))
    assert data["result"] == {"winners": [0], "net": [1, -1], "unit": "coins"}
    assert replay(data, make=maker).result() == table.state.result()

    broken = json.loads(json.dumps(data))
    broken["steps"][2] = {"seat": 1, "action": {"type": "stand"}}
    with pytest.raises(TranscriptError, match="step 2: it is not seat 1's turn"):
        replay(broken, make=maker)
    broken["steps"][2] = {"chance": [4]}
    with pytest.raises(TranscriptError, match="step 2: no throw is due"):
        replay(broken, make=maker)
    broken["steps"][2] = {"seat": 0, "action": "reroll"}
    with pytest.raises(TranscriptError, match="step 2: an action is a JSON object"):
        replay(broken, make=maker)
    broken["steps"][2] = data["steps"][2]
    broken["steps"][3] = {"chance": [9]}
    with pytest.raises(TranscriptError, match=r"step 3: die 0 has faces \[1, 2, 3, 4, 5, 6\]"):
        replay(broken, make=maker)
    broken["steps"][3] = "roll"
    with pytest.raises(TranscriptError, match="step 3: a step is a JSON object"):
        replay(broken, make=maker)
    del broken["steps"]
    with pytest.raises(TranscriptError, match="missing field 'steps'"):
        replay(broken, make=maker)
    lying = json.loads(json.dumps(data))
    lying["result"]["winners"] = [1]
    with pytest.raises(TranscriptError, match="recorded result"):
        replay(lying, make=maker)


def test_scripted_dice_run_out_clearly() -> None:
    table = scripted_game([[3]])
    table.roll()
    with pytest.raises(ChanceError, match="only 1 throws"):
        table.roll()


def test_timeout_applies_the_default_action() -> None:
    table = scripted_game([[3], [5]])
    table.settle()
    table.timeout(0)
    assert table.steps[-1] == {"seat": 0, "timeout": True}
    assert table.state.actors() == (1,)
    with pytest.raises(IllegalActionError):
        table.timeout(0)


def test_lookalike_actions_are_replaced_by_the_legal_one() -> None:
    table = scripted_game([[3], [5]])
    table.settle()
    table.act(0, {"type": "stand"})
    lookalike = {"type": "stand"}
    applied = table.state.apply(1, lookalike)
    assert applied is STAND and applied is not lookalike


def test_C1_replay_with_committed_dice_checks_every_throw() -> None:
    seed = b"\x07" * 32
    table = Table(HighDie(2), CommittedDice(seed))
    table.settle()
    table.act(0, {"type": "stand"})
    table.act(1, {"type": "stand"})
    data = json.loads(json.dumps(table.transcript()))
    assert replay(data, make=maker, dice=CommittedDice(seed)).is_over()
    data["steps"][1]["chance"] = [data["steps"][1]["chance"][0] % 6 + 1]
    with pytest.raises(TranscriptError, match="step 1: throw .* is not what the dice give"):
        replay(data, make=maker, dice=CommittedDice(seed))
