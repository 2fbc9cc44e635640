"""A player closes the tab mid-game: the others see the seat gone, the table's bot takes it
after the grace period, the player reopens the invite link and takes the seat back, and
the game ends normally with a transcript that replays and verifies."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from dicehall.core.transcript import replay
from dicehall.games import game_ids
from tests.browser.conftest import CHROMIUM, NO_CHROMIUM, screenshot
from tests.browser.helpers import (
    GAME_OVER,
    click_random_action,
    create_table,
    play_all_until_over,
    record_frames,
)

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif("kariki" not in game_ids(), reason="Kariki is not installed"),
]

GRACE = 2


def chip(page: Page, seat: int) -> Any:
    return page.locator(f".seat-chip[data-seat='{seat}']")


def test_a_closed_tab_is_played_by_the_bot_until_its_player_comes_back(
    server: str, new_page: Any
) -> None:
    ann: Page = new_page()
    frames = record_frames(ann)
    table_id = create_table(
        ann, server, "kariki", seats=3, people=2, name="Ann", grace_seconds=GRACE
    )
    room = ann.locator(".room-code").inner_text()
    bob_context = new_page().context  # Bob's browser: its storage keeps his seat
    bob = bob_context.new_page()
    bob.goto(f"{server}/#/room/{room}")
    bob.fill("#join-name", "Bob")
    bob.click("text=Take a seat")
    bob.wait_for_url(f"**/#/table/{table_id}")
    expect(chip(ann, 1)).to_have_attribute("data-state", "connected")
    rng = random.Random(13)
    for _ in range(4):  # a few moves by both
        for page in (ann, bob):
            click_random_action(page, rng)
        ann.wait_for_timeout(100)

    bob.close()  # the tab closes mid-game
    if ann.evaluate(GAME_OVER):
        pytest.skip("the game ended before the tab closed")  # pragma: no cover
    expect(chip(ann, 1)).to_have_attribute("data-state", "gone")
    expect(chip(ann, 1)).to_have_attribute("data-stand-in", "yes", timeout=GRACE * 1000 + 10_000)
    expect(chip(ann, 1)).to_contain_text("bot plays")
    expect(ann.locator(".log .ev-notice").last).to_contain_text("Bob is gone")
    screenshot(ann, "presence-bot-stands-in")
    for _ in range(6):  # the bot plays Bob's turns while Ann plays hers
        if ann.evaluate(GAME_OVER):
            break
        click_random_action(ann, rng)
        ann.wait_for_timeout(100)

    comes_back = not ann.evaluate(GAME_OVER)
    if comes_back:
        bob = bob_context.new_page()  # Bob reopens the invite link
        bob.goto(f"{server}/#/room/{room}")
        back = bob.locator(".back-to-seat")
        # the bots may end the game while the page loads: then it offers to watch
        expect(back.or_(bob.locator("text=This table has started"))).to_be_visible()
        comes_back = back.is_visible()
    if comes_back:
        back.click()
        expect(bob.locator(".table-title")).to_contain_text("you are Bob")
        expect(chip(ann, 1)).to_have_attribute("data-stand-in", "no")
        expect(chip(ann, 1)).to_have_attribute("data-state", "connected")
        expect(ann.locator(".log .ev-notice").last).to_contain_text("Bob is back")
        play_all_until_over([ann, bob], rng)
        expect(bob.locator(".end")).to_contain_text("Net")
    expect(ann.locator(".end")).to_contain_text("Net")
    notices = [f for f in frames if f["type"] == "notice"]
    assert [n["kind"] for n in notices][:1] == ["stand-in"]
    transcript = ann.request.get(f"{server}/api/tables/{table_id}/transcript").json()
    assert replay(transcript).is_over()
    assert ann.request.get(f"{server}/api/tables/{table_id}/verify").json()["ok"] is True
