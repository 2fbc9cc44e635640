"""Provably fair dice: the seed, its commitment, and the verify report.

A table draws a secret 32-byte seed when it is created and publishes
`commitment = sha256(seed)`. Throw k of the game is
`core.chance.derive_faces(seed, k, dice)`, with the dice the state asked
for. The seed is revealed when the game ends; then anyone can check that it
hashes to the commitment, that every throw is the one the seed gives, and
that the transcript replays under the rules.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping
from typing import Any

from dicehall.core.chance import commitment_of, derive_faces
from dicehall.core.errors import DicehallError, TranscriptError
from dicehall.core.transcript import GameMaker, apply_step, game_of

SEED_BYTES = 32


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def verify_transcript(data: Mapping[str, Any], make: GameMaker | None = None) -> dict[str, Any]:
    """Check a finished table's transcript (with "seed" and "commitment").

    The report says `ok`, and otherwise `error` and, where one step is to
    blame, its index in `step`.
    """
    report: dict[str, Any] = {
        "ok": False,
        "game": data.get("game"),
        "commitment": data.get("commitment"),
        "steps": 0,
        "throws": 0,
        "error": None,
        "step": None,
    }
    try:
        report["throws"] = _verify(data, make, report)
    except TranscriptError as e:
        report["error"] = str(e)
        report["step"] = e.step
    else:
        report["ok"] = True
    return report


def _verify(data: Mapping[str, Any], make: GameMaker | None, report: dict[str, Any]) -> int:
    seed = _seed(data)
    commitment = data.get("commitment")
    if commitment_of(seed) != commitment:
        raise TranscriptError(f"the seed does not hash to the commitment {commitment!r}")
    state = game_of(data, make).new_state(record=False)
    steps = data["steps"]
    if not isinstance(steps, list):
        raise TranscriptError("steps must be a list")
    report["steps"] = len(steps)
    throws = 0
    for i, step in enumerate(steps):
        try:
            if isinstance(step, dict) and "chance" in step:
                if not state.is_chance():
                    raise TranscriptError("a throw where none is due")
                expected = list(derive_faces(seed, throws, state.chance_dice()))
                if step["chance"] != expected:
                    raise TranscriptError(
                        f"throw {throws} shows {step['chance']!r} but the seed gives {expected}"
                    )
                throws += 1
            apply_step(state, step)
        except DicehallError as e:
            raise TranscriptError(str(e), step=i) from None
    if not state.is_over():
        raise TranscriptError("the game does not end: the transcript is incomplete")
    actual = json.loads(json.dumps(state.result().to_json()))
    if "result" in data and data["result"] != actual:
        raise TranscriptError(
            f"the recorded result {data['result']} differs from the replay's {actual}"
        )
    return throws


def _seed(data: Mapping[str, Any]) -> bytes:
    text = data.get("seed")
    if not isinstance(text, str):
        raise TranscriptError("missing field 'seed' (hex): only a finished table reveals it")
    try:
        seed = bytes.fromhex(text)
    except ValueError:
        raise TranscriptError(f"the seed must be hex; got {text!r}") from None
    if len(seed) != SEED_BYTES:
        raise TranscriptError(f"the seed must be {SEED_BYTES} bytes; got {len(seed)}")
    return seed
