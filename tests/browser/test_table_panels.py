"""The side panels of a table: the odds readable in the sidebar and on a phone (the verdict
first, percentages before fractions, "0" for zero, no column cut off), and the your-turn
alerts, off until the player turns them on."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from dicehall.games import game_ids
from tests.browser.conftest import CHROMIUM, NO_CHROMIUM, screenshot
from tests.browser.helpers import (
    GAME_OVER,
    MY_TURN_OR_OVER,
    PAUSE_MS,
    click_random_action,
    create_table,
)

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif("kariki" not in game_ids(), reason="Kariki is not installed"),
]

LAYOUT = """() => {
    const table = document.querySelector('.odds-body .odds-table');
    const card = document.querySelector('.odds');
    const t = table.getBoundingClientRect(), c = card.getBoundingClientRect();
    return {
        fits: table.scrollWidth <= table.clientWidth + 1 && t.right <= c.right + 0.5,
        page: document.documentElement.scrollWidth <= window.innerWidth,
        headers: [...table.querySelectorAll('th')].map((th) => th.textContent),
        chances: [...table.querySelectorAll('td .pct')].map((x) => x.textContent),
        cells: [...table.querySelectorAll('td')].map((x) => x.textContent),
    };
}"""


def check(page: Page) -> dict[str, Any]:
    layout: dict[str, Any] = page.evaluate(LAYOUT)
    assert layout["fits"] and layout["page"], layout
    assert layout["chances"] and all(c == "0" or c.endswith("%") for c in layout["chances"]), (
        layout["chances"]
    )
    assert not any(c.startswith("0/") or " 0/" in c for c in layout["cells"])
    if "the truth" in layout["headers"]:
        assert layout["headers"][0] == "the truth"
    return layout


def test_odds_fit_the_sidebar_and_a_phone(server: str, new_page: Any) -> None:
    page: Page = new_page()
    create_table(page, server, "kariki", seats=3, pace="0")
    page.locator(".odds summary").click()
    rng = random.Random(2)
    for _ in range(400):
        if page.locator(".odds-body .odds-table").count():
            break
        if page.evaluate(GAME_OVER):
            pytest.skip("the game ended before any odds were offered")  # pragma: no cover
        page.wait_for_function(MY_TURN_OR_OVER)
        if not page.evaluate(GAME_OVER):  # let the odds of this position come in first
            page.locator(".odds-body .odds-table, .odds-body .no-odds").first.wait_for()
            if page.locator(".odds-body .odds-table").count():
                break
        click_random_action(page, rng)
        page.wait_for_timeout(PAUSE_MS)
    expect(page.locator(".odds-body .odds-table")).to_be_visible()
    check(page)
    screenshot(page, "odds-sidebar")
    page.set_viewport_size({"width": 375, "height": 812})
    page.wait_for_timeout(100)
    check(page)
    page.locator(".odds").scroll_into_view_if_needed()
    screenshot(page, "odds-phone")


def test_your_turn_alerts_are_off_until_turned_on(server: str, new_page: Any) -> None:
    page: Page = new_page()
    page.context.grant_permissions(["notifications"])
    create_table(page, server, "kariki", seats=3, pace="0")
    rng = random.Random(4)
    screen = "window.dicehall.screen"

    def turns(count: int) -> list[list[str]]:
        for _ in range(count):
            page.wait_for_function(MY_TURN_OR_OVER)
            if page.evaluate(GAME_OVER):
                break
            click_random_action(page, rng)
            page.wait_for_timeout(PAUSE_MS)
        alerted: list[list[str]] = page.evaluate(f"{screen}.alerted")
        return alerted

    assert all(done == [] for done in turns(4))  # off by default: nothing
    page.check("#alert-sound")
    page.check("#alert-notify")
    page.evaluate("Object.defineProperty(document, 'hidden', {get: () => true})")
    page.evaluate(f"{screen}.alerted = []")
    alerted = turns(6)
    if not page.evaluate(GAME_OVER):
        assert ["sound", "notification"] in alerted
    assert page.evaluate("JSON.parse(localStorage.getItem('dicehall.alerts'))") == {
        "sound": True,
        "notify": True,
    }
