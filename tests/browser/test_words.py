"""The words a player reads: seats by the names the page shows them (never "seat 0") in
the advice, the fair-dice panel and the replay; fair dice in plain words with the hashes
behind "How it works"; ratings on the 1500 scale with mu and sigma behind "details"."""

from __future__ import annotations

import random
import re
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
    play_until_over,
    rated_game,
)

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif("kariki" not in game_ids(), reason="Kariki is not installed"),
]

SEAT_NUMBER = re.compile(r"\bseats? \d", re.I)
"""A seat by its number as the engine counts (from 0): what no person should read."""

OUTSIDE_DETAILS = """(selector) => {
    const el = document.querySelector(selector).cloneNode(true);
    for (const d of el.querySelectorAll('details')) d.remove();
    return el.textContent;
}"""


def test_advice_fair_dice_and_replay_name_every_seat(server: str, new_page: Any) -> None:
    page: Page = new_page()
    table_id = create_table(page, server, "kariki", seats=3, pace="0", name="Ann")
    names = ["Ann", "solver bot 2", "solver bot 3"]  # the strongest at three seats
    page.locator(".odds summary").click()
    rng = random.Random(7)
    notes: list[str] = []
    for _ in range(400):
        page.wait_for_function(MY_TURN_OR_OVER)
        if page.evaluate(GAME_OVER):
            break
        page.locator(".odds-body .odds-table, .odds-body .no-odds").first.wait_for()
        advice = page.locator(".odds-body").inner_text()
        if "odds-table" in page.locator(".odds-body").inner_html():
            notes.append(advice)
            if "as if you played only against" in advice:
                break
        click_random_action(page, rng)
        page.wait_for_timeout(PAUSE_MS)
    assert notes, "no odds were offered"
    for advice in notes:
        assert not SEAT_NUMBER.search(advice), advice
    modelled = [a for a in notes if "as if you played only against" in a]
    if modelled:  # the two-seat model names the other player as the table does
        assert any(n in modelled[0] for n in names[1:]), modelled[0]
    screenshot(page, "words-advice")

    play_until_over(page, rng)
    page.locator(".fair > summary").click()
    words = page.locator(".fair .fair-words.ok")
    expect(words).to_contain_text("The dice were fair: all ")
    outside = page.evaluate(OUTSIDE_DETAILS, ".fair")
    assert "root" not in outside and "commitment" not in outside.lower(), outside
    assert not SEAT_NUMBER.search(outside), outside
    page.locator(".fair .fair-how > summary").click()
    how = page.locator(".fair .fair-how")
    for heading in ("Promised before the game", "Checked now", "Still secret, and why"):
        expect(how).to_contain_text(heading)
    expect(how).to_contain_text("Ann")
    assert not SEAT_NUMBER.search(how.inner_text())
    screenshot(page, "words-fair-dice")

    page.goto(f"{server}/#/replay/{table_id}")
    page.locator(".replay, main").first.wait_for()
    page.keyboard.press("End")
    page.wait_for_timeout(300)
    text = page.locator("main").inner_text()
    assert "Ann" in text
    assert not re.search(r"\bseat 0\b", text, re.I), text[:2000]
    outside = page.evaluate(OUTSIDE_DETAILS, "main")
    assert "root" not in outside
    screenshot(page, "words-replay")


def test_ratings_read_as_people_read_them(server: str, new_page: Any) -> None:
    page: Page = new_page()
    rated_game(server, [page, new_page()], ["Rae", "Roy"], "kariki", random.Random(3))
    page.goto(f"{server}/#/leaderboard/kariki")
    board = page.locator("table.leaderboard")
    expect(board).to_be_visible()
    shown = page.locator("table.leaderboard tbody td:nth-child(3)").all_inner_texts()
    assert shown and all(re.fullmatch(r"\d{1,4}\??", r) for r in shown), shown
    assert any(r.endswith("?") for r in shown)  # a first game: provisional
    outside = page.evaluate(OUTSIDE_DETAILS, ".profile")
    assert "mu" not in outside.split() and "sigma" not in outside, outside
    assert "-" not in "".join(shown)
    page.locator(".rating-details > summary").click()
    expect(page.locator(".rating-details")).to_contain_text("sigma")
    screenshot(page, "words-leaderboard")

    page.locator("table.leaderboard tbody a").first.click()
    chart = page.locator(".rating-chart svg")
    expect(chart).to_be_visible()
    assert page.locator(".rating-chart .y-label").count() >= 2
    dates = page.locator(".rating-chart .x-label").all_text_contents()  # SVG: no innerText
    assert dates and all(re.search(r"\d", d) for d in dates), dates
    assert page.locator(".rating-chart .axis-title").text_content() == "date of the game"
    ratings = page.locator("table.ratings tbody td:nth-child(2)").all_inner_texts()
    assert ratings and all(re.fullmatch(r"\d{1,4}\??", r) for r in ratings), ratings
    screenshot(page, "words-player")
