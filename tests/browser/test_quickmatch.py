"""Quick match in the lobby: two people who ask for the same game and size meet at one table,
and the open tables list says who sits there."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import CHROMIUM, NO_CHROMIUM, screenshot

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # make soak: the HTTP tests cover it


def quick_match(page: Page, server: str, name: str) -> str:
    page.goto(f"{server}/")
    page.select_option("#qm-game", "tepiiku")
    page.fill("#qm-seats", "3")
    page.fill("#qm-name", name)
    page.click("button:has-text('Quick match')")
    page.wait_for_url("**/#/table/*")
    return page.url.rsplit("/", 1)[-1]


def test_two_quick_matches_meet_at_one_table(server: str, new_page: Any) -> None:
    ann, bob, watcher = new_page(), new_page(), new_page()
    first = quick_match(ann, server, "Ann")
    expect(ann.locator(".table-title")).to_contain_text("you are Ann")
    watcher.goto(f"{server}/")
    entry = watcher.locator(".open-tables li", has=watcher.locator(f"a[href='#/table/{first}']"))
    expect(entry).to_contain_text("Ann")
    expect(entry).to_contain_text("free seat")
    expect(entry).to_contain_text("open ")
    assert quick_match(bob, server, "Bob") == first
    expect(bob.locator(".table-title")).to_contain_text("you are Bob")
    watcher.reload()
    entry = watcher.locator(".open-tables li", has=watcher.locator(f"a[href='#/table/{first}']"))
    expect(entry).to_contain_text("Bob")
    screenshot(watcher, "lobby-quick-match")
