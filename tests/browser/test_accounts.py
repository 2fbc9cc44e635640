"""Accounts and profiles in the browser: register, a rated game, the player's page with its
rating chart, the game's page (transcript, fair dice), the leaderboard, logging out and in
(a wrong password first), the session cookie's flags, claiming the browser's kept seats,
and deleting the account."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from dicehall.games import game_ids
from tests.browser.conftest import CHROMIUM, NO_CHROMIUM, screenshot
from tests.browser.helpers import log_in, rated_game

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif("toplshteyner" not in game_ids(), reason="Toplshteyner is not installed"),
]

PASSWORD = "a long enough secret"


def test_an_account_plays_rated_and_its_pages_show_it(server: str, new_page: Any) -> None:
    page: Page = new_page()
    table_id = rated_game(
        server, [page, new_page()], ["Rita", "Sam"], "toplshteyner", random.Random(4)
    )
    expect(page.locator("#account-link")).to_have_text("Rita")
    (cookie,) = [c for c in page.context.cookies() if c["name"] == "dicehall_session"]
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
    assert page.evaluate("document.cookie") == ""  # no script reads the session

    page.goto(f"{server}/#/player/Rita")
    expect(page.locator("table.ratings tbody tr")).to_have_count(1)
    expect(page.locator("table.ratings")).to_contain_text("Toplshteyner")
    expect(page.locator(".rating-chart polyline")).to_have_count(1)
    expect(page.locator("table.games tbody tr")).to_have_count(1)
    screenshot(page, "player")
    page.click("table.games a")
    page.wait_for_url(f"**/#/game/{table_id}")
    expect(page.locator("h1")).to_contain_text("rated")
    expect(page.locator("table.record")).to_contain_text("Rita")
    expect(page.locator("table.record")).to_contain_text("Sam")
    href = page.get_attribute("a[download]", "href")
    assert href == f"/api/tables/{table_id}/transcript"
    page.click("text=Verify the dice")
    expect(page.locator(".verify-words")).to_contain_text("✓ The dice were fair")
    screenshot(page, "game-record")
    page.goto(f"{server}/#/leaderboard/toplshteyner")
    expect(page.locator("table.leaderboard tbody tr")).to_have_count(2)

    page.goto(f"{server}/#/account")
    page.click("text=Log out")
    expect(page.locator("#account-link")).to_have_text("Log in")
    log_in(page, "login", "Rita", "not the password")
    expect(page.locator("form.login .error")).to_have_text("wrong name or password")
    log_in(page, "login", "Rita", PASSWORD)
    expect(page.locator("#account-link")).to_have_text("Rita")
    # the seats this browser keeps are claimed by their tokens: the rated game's is Rita's
    # already, a kept seat at a table the server does not know is nobody's to claim
    page.evaluate("localStorage.setItem('dicehall.seat.nosuch', JSON.stringify({token: 'x'}))")
    page.click("text=Claim this browser's earlier seats")
    expect(page.locator(".claim-result")).to_have_text(
        "0 claimed, 1 already yours, 1 not yours to claim."
    )

    page.click(".delete-account summary")
    page.fill("#delete-password", PASSWORD)
    page.click("text=Delete my account")
    expect(page.locator("#account-link")).to_have_text("Log in")
    page.goto(f"{server}/#/player/Rita")
    expect(page.locator(".profile .error")).to_contain_text("no player 'Rita'")
    page.goto(f"{server}/#/game/{table_id}")
    expect(page.locator("table.record")).to_contain_text("deleted player")
