"""Transcripts: a whole game as JSON, and exact replay of one.

A transcript names the game, its seats and options, and lists every step in
order. Chance steps carry the faces thrown, so replay needs no random source
and reproduces the game exactly. The format is documented, with an example
per game, in docs/reference/transcripts.md.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any, Protocol

from dicehall.core.chance import DiceSource
from dicehall.core.errors import ChanceError, DicehallError, TranscriptError
from dicehall.core.game import Game, State
from dicehall.core.nesting import depth
from dicehall.core.registry import make_game
from dicehall.core.words import default_names

FORMAT = "dicehall-transcript"
VERSION = 2
VERSIONS = (1, 2)
MAX_NESTING = 32  # levels of arrays and objects; a transcript needs fewer than ten
"""Version 2 adds sealed tables' fields; version 1 files read as before.

See docs/reference/transcripts.md.
"""


def make_transcript(
    game: Game, steps: list[dict[str, Any]], names: list[str] | None, state: State | None = None
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": game.id,
        "seats": game.seats,
        "names": names or default_names(game.seats),
        "options": dict(game.options),
        "steps": steps,
    }
    if state is not None and state.is_over():
        data["result"] = state.result().to_json()
    return data


def load(path: str | Path, what: str = "a transcript") -> dict[str, Any]:
    """Read a transcript (or another JSON object) file; malformed JSON raises TranscriptError."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise TranscriptError(f"cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise TranscriptError(f"{path} is not UTF-8 text: byte {e.start} is not") from None
    too_deep = TranscriptError(f"{path} nests arrays and objects deeper than {MAX_NESTING} levels")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise TranscriptError(f"{path} is not JSON: {e.msg} at line {e.lineno}") from None
    except RecursionError:
        raise too_deep from None
    if depth(data, MAX_NESTING) > MAX_NESTING:
        raise too_deep
    if not isinstance(data, dict):
        raise TranscriptError(f"{what} is a JSON object")
    return data


SCHEMA_FILE = "transcript.schema.json"
"""The JSON Schema of the format, shipped beside this module (docs/transcript.schema.json)."""


def schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(files(__package__).joinpath(SCHEMA_FILE).read_text())
    return data


@cache
def _validator() -> Any:
    from jsonschema import Draft202012Validator  # only when a transcript is checked

    return Draft202012Validator(schema())


def check_schema(data: object) -> None:
    """Raise TranscriptError naming the JSON path of the first structural error.

    The schema says what a transcript looks like (fields, types, step shapes);
    whether its steps follow the rules is for `replay` to say.
    """
    from jsonschema.exceptions import best_match

    errors = list(_validator().iter_errors(data))
    error = best_match(errors)
    if error is not None:
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise TranscriptError(f"{error.json_path}: {error.message}{more}")


GameMaker = Callable[[Any, Any, Mapping[str, object]], Game]
"""Builds a configured game from (id, seats, options): the registry's make_game by default."""


def game_of(data: Mapping[str, Any], make: GameMaker | None = None) -> Game:
    """The configured game a transcript names; errors name the bad field."""
    if make is None:
        make = make_game

    if data.get("format", FORMAT) != FORMAT:
        raise TranscriptError(f"format must be {FORMAT!r}; got {data.get('format')!r}")
    if data.get("version", VERSION) not in VERSIONS:
        raise TranscriptError(
            f"unsupported version {data.get('version')!r}; this reads versions "
            f"{', '.join(map(str, VERSIONS))}"
        )
    for key in ("game", "seats", "steps"):
        if key not in data:
            raise TranscriptError(f"missing field {key!r}")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise TranscriptError("options must be a JSON object")
    try:
        return make(data["game"], data["seats"], options)
    except DicehallError as e:
        raise TranscriptError(str(e)) from None


class StepCheck(Protocol):
    """Checks each step of a replay before it is applied (how online tables are verified)."""

    def check(self, state: State, step: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """Raise a DicehallError if `step` may not follow `state`; or return the step
        to apply in its place (a sealed throw its owner opened)."""


class DiceCheck:
    """Every throw must show exactly the faces `dice` give for the throw that is due."""

    def __init__(self, dice: DiceSource) -> None:
        self.dice = dice

    def check(self, state: State, step: Mapping[str, Any]) -> None:
        if "chance" in step:
            check_throw(state, step["chance"], self.dice)
        return None


def replay(
    data: Mapping[str, Any],
    record: bool = True,
    make: GameMaker | None = None,
    dice: DiceSource | None = None,
    check: StepCheck | None = None,
) -> State:
    """Re-apply every step; a step that breaks the rules raises TranscriptError naming it.

    With `dice` (a table's revealed `CommittedDice`), every throw must also
    show exactly the faces those dice give for it; a `check` sees every step
    before it is applied: that is how a finished online table is verified.
    """
    game = game_of(data, make)
    steps = data["steps"]
    if not isinstance(steps, list):
        raise TranscriptError("steps must be a list")
    if check is None and dice is not None:
        check = DiceCheck(dice)
    state = game.new_state(record=record)
    for i, step in enumerate(steps):
        try:
            if check is not None:
                if not isinstance(step, dict):
                    raise TranscriptError(f"a step is a JSON object; got {step!r}")
                step = check.check(state, step) or step
            apply_step(state, step)
        except DicehallError as e:
            raise TranscriptError(str(e), step=i) from None
    expected = data.get("result")
    if expected is not None:
        if not state.is_over():
            raise TranscriptError("the transcript has a result but the game is not over")
        actual = state.result().to_json()
        if json.loads(json.dumps(actual)) != expected:
            raise TranscriptError(
                f"the recorded result {expected} differs from the replay's {actual}"
            )
    return state


def check_throw(state: State, faces: object, dice: DiceSource) -> None:
    """The faces of a chance step must be those `dice` throw for the throw that is due."""
    if not state.is_chance():
        raise ChanceError("a throw where none is due")
    expected = list(dice.throw(state.chance_dice()))
    if faces != expected:
        raise ChanceError(f"throw {faces!r} is not what the dice give: {expected}")


def apply_step(state: State, step: object) -> None:
    """Apply one transcript step to a state; a sealed table's "entropy" record changes nothing."""
    if not isinstance(step, dict):
        raise TranscriptError(f"a step is a JSON object; got {step!r}")
    if "entropy" in step:
        return
    if "chance" in step:
        state.apply_chance(step["chance"])
        return
    seat = step.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise TranscriptError(f'a step needs "chance" or an integer "seat"; got {step!r}')
    if step.get("timeout") is True:
        state.timeout(seat)
        return
    action = step.get("action")
    if not isinstance(action, dict):
        raise TranscriptError(f"an action is a JSON object; got {action!r}")
    state.apply(seat, action)
