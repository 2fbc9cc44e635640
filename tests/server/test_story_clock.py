"""A person's turn clock starts once the page has told the step's events (live.py,
story_seconds): the deadline sent with a decision leaves the whole turn after the story.
And the first-game guides' route."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from dicehall.games import game_ids
from tests.server.helpers import create, receive, running

pytestmark = pytest.mark.skipif("kariki" not in game_ids(), reason="Kariki is not installed")

TURN = 30


def first_decision(tmp_path: Path, bot_delay_ms: int) -> tuple[float, float, int]:
    """(the deadline's lead over the clock, the story pace, events told) at the first
    update that asks this seat to decide after others moved."""
    with running(tmp_path / f"db{bot_delay_ms}.sqlite", games=None) as client:
        made = create(
            client,
            "kariki",
            seats=3,
            bots={1: "heuristic", 2: "heuristic"},
            listed=False,
            turn_seconds=TURN,
            bot_delay_ms=bot_delay_ms,
        )
        url = f"/ws/tables/{made['table_id']}?token={made['token']}"
        with client.websocket_connect(url) as ws:
            for _ in range(200):
                m = receive(ws)
                if m["type"] == "update" and m["legal"] and len(m["events"]) >= 2:
                    lead = m["deadlines"]["0"] - time.time()
                    return lead, min(bot_delay_ms / 2000, 0.6), len(m["events"])
                if m["type"] in ("welcome", "update") and m["legal"]:
                    ws.send_json(
                        {"type": "action", "step": m["step"], "action": m["legal"][0]["action"]}
                    )
    raise AssertionError("no decision after a story came")


def test_the_turn_clock_waits_for_the_story(tmp_path: Path) -> None:
    lead, pace, told = first_decision(tmp_path, 1000)
    story = (told - 1) * pace
    assert story >= 0.5 and lead >= TURN + story - 0.3, (lead, told)
    # bots at "instant": the page tells everything at once, and the turn is the turn
    lead, _, _ = first_decision(tmp_path, 0)
    assert TURN - 1.0 <= lead <= TURN + 0.1


def test_the_guides_route_gives_every_game_s_frames(tmp_path: Path) -> None:
    with running(tmp_path / "db.sqlite", games=None) as client:
        for gid in game_ids():
            shown = client.get(f"/api/guides/{gid}")
            assert shown.status_code == 200, shown.text
            data = shown.json()
            assert data["game"] == gid and data["names"][0] == "Player 1"
            assert data["frames"][-1]["end"] and all(f["view"]["seat"] == 0 for f in data["frames"])
        missing = client.get("/api/guides/chess")
        assert missing.status_code == 404 and "chess" in missing.json()["detail"]
