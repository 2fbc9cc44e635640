"""Game review and practice in Chromium: a short game played through the buttons, then its
review from the finished-game screen shows each decision labelled; a practice puzzle on a
phone is answered and scored, with nothing wider than the screen."""

from __future__ import annotations

import random
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import CHROMIUM, NO_CHROMIUM, screenshot
from tests.browser.helpers import create_table, play_until_over

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)

pytestmark = pytest.mark.browser

LABELS = r"^(best|good|inaccuracy|mistake|blunder|not rated)$"


def test_a_finished_games_review_labels_each_decision(
    server: str, new_page: Any, tmp_path: Path
) -> None:
    page = new_page()
    tid = create_table(page, server, "kariki", seats=2)
    play_until_over(page, random.Random(3))
    page.click("a:has-text('Review my play')")
    page.wait_for_url(f"**/#/review/{tid}/0")
    # the first review starts a compute worker: on a busy machine that takes a while
    expect(page.locator("h1")).to_have_text("Review · Kariki", timeout=90_000)
    decisions = page.locator(".review-decision")
    expect(decisions.first).to_be_visible()
    labels = page.locator(".review-decision h3 .label-chip")
    expect(labels.first).to_have_text(re.compile(LABELS))
    assert labels.count() == decisions.count() > 0
    expect(page.locator(".review-choices tr.chosen").first).to_be_visible()
    expect(page.locator(".review-player-table tbody tr")).to_have_count(2)
    expect(page.locator(".review-player-table tbody tr").nth(1)).not_to_contain_text("…")
    page.locator(".review-seen summary").first.click()
    expect(page.locator(".review-board .felt").first).to_be_visible()
    screenshot(page, "review")
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(tmp_path / "phone.png"))
    # the same game's file, dropped on the replay page, is reviewed from its end
    with urllib.request.urlopen(f"{server}/api/tables/{tid}/transcript", timeout=10) as answer:
        (tmp_path / "game.json").write_bytes(answer.read())
    page.goto(f"{server}/#/replay")
    page.set_input_files("#replay-file", str(tmp_path / "game.json"))
    page.click("button:has-text('Review the play')")
    expect(page.locator(".review-decision h3 .label-chip").first).to_have_text(re.compile(LABELS))


def test_a_practice_puzzle_is_answered_and_scored_on_a_phone(server: str, new_page: Any) -> None:
    page = new_page(390, 844)
    page.goto(f"{server}/#/practice/toplshteyner/2")
    choices = page.locator(".practice-choices button")
    expect(choices.first).to_be_visible(timeout=90_000)  # a fresh worker loads the strategy
    expect(page.locator(".review-choices")).to_have_count(0)  # the values only once answered
    choices.first.click()
    expect(page.locator(".practice-label .label-chip")).to_have_text(re.compile(LABELS))
    expect(page.locator(".practice-verdict .review-choices tr.chosen")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "practice-phone")
    page.click("button:has-text('Next puzzle')")
    expect(page.locator(".practice-verdict")).to_be_empty()
