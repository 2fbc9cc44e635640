"""Provably fair dice: the seed, its commitment, and the verify report.

A table draws a secret 32-byte seed when it is created and publishes
`commitment = sha256(seed)`. Throw k of the game is
`core.chance.CommittedDice(seed)`'s throw k, with the dice the state
asked for. The seed is revealed when the game ends; then anyone can check that it
hashes to the commitment, that every throw is the one the seed gives, and
that the transcript replays under the rules.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from dicehall.core.chance import CommittedDice, commitment_of
from dicehall.core.errors import TranscriptError
from dicehall.core.transcript import GameMaker, replay

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
    steps = data.get("steps")
    report["steps"] = len(steps) if isinstance(steps, list) else 0
    dice = CommittedDice(seed)
    if not replay(data, record=False, make=make, dice=dice).is_over():
        raise TranscriptError("the game does not end: the transcript is incomplete")
    return dice.count


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
