"""Board replay in Chromium, one finished game of each game: every step's board is the drawing
of exactly the seat's view at that step (the oracle replays the table's real steps), and the
frames the page got pass the live leak checker (no other seat's hidden dice, C6)."""

from __future__ import annotations

import json
import re
import sqlite3
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from dicehall.core.transcript import apply_step
from dicehall.games import game_ids, make_game
from tests.browser.conftest import (
    CHROMIUM,
    NO_CHROMIUM,
    free_port,
    screenshot,
    start_server,
    stop_server,
)
from tests.server.helpers import Frames, Secrets, check_messages, example, roundtrip

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)

pytestmark = pytest.mark.browser

SHORT: dict[str, dict[str, Any]] = {"tepiiku": {"bankroll": 3}, "tao": {"length": "single"}}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A server of our own, so the test can read the real steps from its database."""
    db = tmp_path_factory.mktemp("replay") / "dicehall.sqlite"
    port = free_port()
    process = start_server(port, db)
    try:
        yield f"http://127.0.0.1:{port}", db
    finally:
        stop_server(process)


def post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def secrets(db: Path, table_id: str) -> Secrets:
    with sqlite3.connect(db) as con:
        seed, fairness = con.execute(
            "select seed, fairness from tables where id = ?", (table_id,)
        ).fetchone()
        steps = [
            json.loads(s)
            for (s,) in con.execute(
                "select step from steps where table_id = ? order by idx", (table_id,)
            )
        ]
    return Secrets(fairness, seed, steps)


@pytest.mark.parametrize("game", game_ids())
def test_board_replay_draws_each_seats_view(
    served: tuple[str, Path], new_page: Any, game: str
) -> None:
    server, db = served
    cls = make_game(game)
    seats = cls.seats
    bot = "heuristic" if "heuristic" in cls.bots() else next(iter(cls.bots()))  # quick
    table = post(
        f"{server}/api/tables",
        {
            "game": game,
            "bots": {s: bot for s in range(1, seats)},
            "options": SHORT.get(game, {}),
            "bot_delay_ms": 0,
        },
    )
    tid = table["table_id"]
    example("bot_client").play(server, tid, table["token"])  # seat 0 plays at random to the end

    page: Page = new_page()
    page.goto(f"{server}/")
    seat = {"seat": 0, "token": table["token"], "room": table["room"]}
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, v)", [f"dicehall.seat.{tid}", json.dumps(seat)]
    )
    with page.expect_response(lambda r: "/replay" in r.url) as asked:
        page.goto(f"{server}/#/replay/{tid}")
    answer = asked.value.json()
    assert answer["seat"] == 0 and answer["stand_ins"] is False  # our own seat: real throws
    page.wait_for_selector(f".replay .felt.game-{game}")

    # the oracle: the game replayed from the table's real steps, seat 0's view at each step
    secret = secrets(db, tid)
    transcript = json.loads(
        urllib.request.urlopen(f"{server}/api/tables/{tid}/transcript", timeout=10).read()
    )
    played = make_game(game, seats, transcript["options"])
    state = played.new_state(record=True)
    views = [roundtrip(state.view(0))]
    for step in secret.steps:
        apply_step(state, step)
        views.append(roundtrip(state.view(0)))
    views.append(views[-1])  # the "over" frame shows the last position

    spectator = page.request.get(f"{server}/api/tables/{tid}/replay").json()
    check_messages(
        [Frames(0, answer["frames"]), Frames(None, spectator["frames"])],
        transcript,
        played,
        secret,
    )

    # every step: the page's board is the drawing of the oracle's view, nothing else
    mismatches = page.evaluate(
        """async (views) => {
            const { frameBoard } = await import('/replay.js');
            const screen = window.dicehall.screen;
            const board = document.querySelector('.replay .board');
            const bad = [];
            for (let k = 0; k < views.length; k++) {
                screen.go(k);
                const frame = screen.positionAt(k);
                const expected = frameBoard(views[k], frame, screen.answer, screen.eventsUpTo(k));
                if (board.innerHTML !== expected.outerHTML) bad.push(k);
            }
            return bad;
        }""",
        views,
    )
    assert mismatches == [], f"steps whose board is not the seat's view: {mismatches[:10]}"
    expect(page.locator(".replay-counter")).to_have_text(f"The end ({len(secret.steps)} steps)")

    # play at speed from the start, then pause
    page.click("text=« Start")
    page.select_option("#replay-speed", "4")
    page.click("button.play")
    expect(page.locator(".replay-counter")).not_to_have_text(re.compile("^Step 0 of"))
    page.click("button.play")
    screenshot(page, f"{game}-replay")

    # another seat's view, replayed by this browser (it holds seat 0 only)
    with page.expect_response(lambda r: "/replay?seat=1" in r.url) as other:
        page.select_option("#replay-seat", "1")
    page.wait_for_function("window.dicehall.screen.answer.seat === 1")
    # a sealed table's throws the rules never showed everyone replay as stand-ins, said so
    note = page.locator(".replay-note")
    expect(note).to_be_visible() if other.value.json()["stand_ins"] else expect(note).to_be_hidden()
    expect(page.locator(".replay > .muted")).to_contain_text("'s view")

    if game == game_ids()[0]:  # a transcript file dropped on the page replays the same way
        page.goto(f"{server}/#/replay")
        page.set_input_files(
            "#replay-file",
            files=[
                {
                    "name": "game.json",
                    "mimeType": "application/json",
                    "buffer": json.dumps(transcript).encode(),
                }
            ],
        )
        expect(page.locator(".replay-counter")).to_have_text(f"Step 0 of {len(secret.steps)}")
        page.wait_for_selector(f".replay .felt.game-{game}")
