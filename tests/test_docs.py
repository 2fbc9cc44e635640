"""The documentation's examples are real: every transcript in docs/transcripts.md replays."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dicehall.core.transcript import replay
from dicehall.games import game_ids

DOC = Path(__file__).parent.parent / "docs" / "transcripts.md"
EXAMPLE = re.compile(r"^### (\w+)\n.*?```json\n(.*?)```", re.S | re.M)


def examples() -> dict[str, dict[str, object]]:
    return {gid: json.loads(body) for gid, body in EXAMPLE.findall(DOC.read_text())}


@pytest.mark.parametrize("gid", game_ids())
def test_every_game_has_a_replayable_example(gid: str) -> None:
    data = examples().get(gid)
    assert data is not None, f"docs/transcripts.md has no example for {gid}"
    assert data["game"] == gid
    state = replay(data)
    assert state.is_over()
    assert state.result().to_json() == data["result"]
