"""`dicehall replay` and `dicehall verify` on mutated transcripts: whatever the file
holds (deep nesting, bytes that are not UTF-8, odd names, wrong types anywhere), the
command ends without a traceback: a clear line and exit status 2 for a bad file, and
names are printed as text, never read as Rich markup."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from dicehall.cli import app
from dicehall.core.chance import CommittedDice, commitment_of
from dicehall.core.errors import ChanceError
from dicehall.core.transcript import make_transcript
from dicehall.games import game_ids, make_game

SEED = bytes(range(32))


def played(gid: str) -> dict[str, Any]:
    """A finished game with committed dice, as the server's transcript of a seed table."""
    game = make_game(gid)
    state = game.new_state(record=True)
    dice, rng, steps = CommittedDice(SEED), random.Random(gid), []
    while not state.is_over():
        if state.is_chance():
            faces = dice.throw(state.chance_dice())
            state.apply_chance(faces)
            steps.append({"chance": list(faces)})
        else:
            seat = state.actors()[0]
            action = rng.choice(list(state.legal_actions(seat)))
            state.apply(seat, action)
            steps.append({"seat": seat, "action": dict(action)})
    names = [f"Player {s + 1}" for s in range(game.seats)]
    data = make_transcript(game, steps, names, state)
    data.update(seed=SEED.hex(), commitment=commitment_of(SEED), fairness="seed")
    return data


TRANSCRIPTS = {gid: played(gid) for gid in game_ids()}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 300) | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)
odd_names = st.one_of(
    st.lists(st.text(max_size=8), max_size=9),
    st.lists(st.sampled_from(["[/]", "[bold red]x", "[link=x]y[/link]", "\\[", "]["]), max_size=9),
    json_values,
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value where another value could go."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value[:30]):
            found += paths(item, (*prefix, i))
    return found


def put(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    data[path[0]] = put(data[path[0]], path[1:], value)
    return data


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = json.loads(json.dumps(TRANSCRIPTS[draw(st.sampled_from(sorted(TRANSCRIPTS)))]))
    kind = draw(st.sampled_from(["replace", "names", "nest", "bytes", "drop"]))
    if kind == "replace":
        for _ in range(draw(st.integers(1, 3))):
            data = put(data, draw(st.sampled_from(paths(data))), draw(json_values))
    elif kind == "names":
        data["names"] = draw(odd_names)
    elif kind == "drop" and isinstance(data, dict) and data:
        del data[draw(st.sampled_from(sorted(data)))]
    elif kind == "nest":
        depth = draw(st.integers(50, 3000))
        where = draw(st.sampled_from(paths(data)))
        text = json.dumps(put(data, where, "HOLE"))
        return text.replace('"HOLE"', "[" * depth + "]" * depth, 1).encode()
    text = json.dumps(data).encode()
    if kind == "bytes":
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\x80\x80", b"\xed\xa0\x80"]))
        text += json.dumps(data).encode()[at:]
    return text


runner = CliRunner()


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(raw=mutated(), command=st.sampled_from(["replay", "verify"]))
def test_a_mutated_transcript_never_ends_in_a_traceback(
    tmp_path_factory: Any, raw: bytes, command: str
) -> None:
    path: Path = tmp_path_factory.mktemp("fuzz") / "game.json"
    path.write_bytes(raw)
    result = runner.invoke(app, [command, str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    assert result.exit_code in (0, 1, 2), result.output
    if result.exit_code == 2:
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), lines


def test_names_are_printed_as_text_not_markup(tmp_path: Path) -> None:
    gid = sorted(TRANSCRIPTS)[0]
    data = json.loads(json.dumps(TRANSCRIPTS[gid]))
    data["names"] = ["[/]", "[bold red]Mallory", *data["names"][2:]]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "[bold red]Mallory" in result.output and "[/]" in result.output


def test_names_of_the_wrong_length_or_type_are_refused(tmp_path: Path) -> None:
    gid = sorted(TRANSCRIPTS)[0]
    for names in (["Ann"], [1, 2, 3, 4, 5, 6, 7, 8][: len(TRANSCRIPTS[gid]["names"])], "Ann"):
        data = {**TRANSCRIPTS[gid], "names": names}
        path = tmp_path / "game.json"
        path.write_text(json.dumps(data))
        result = runner.invoke(app, ["replay", str(path)])
        assert result.exit_code == 2 and "names" in result.stderr, result.output


def test_float_faces_are_refused_in_chance_steps() -> None:
    """2.0 == 2, but a face is an int or a string: lookalikes are refused (like True)."""
    checked = 0
    for gid in game_ids():
        state = make_game(gid).new_state()
        while not state.is_chance() and not state.is_over():
            seat = state.actors()[0]
            state.apply(seat, state.legal_actions(seat)[0])
        dice = state.chance_dice() if state.is_chance() else ()
        if not dice or not isinstance(dice[0][0], int):
            continue
        faces = [die[0] for die in dice]
        for lookalike in (float(faces[0]), faces[0] == 1):
            try:
                state.apply_chance([lookalike, *faces[1:]])
            except ChanceError as e:
                assert f"got {lookalike!r}" in str(e)
            else:
                raise AssertionError(f"{gid}: the face {lookalike!r} was taken")
        checked += 1
    assert checked
