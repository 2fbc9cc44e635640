"""Table talk in the browser: players and a spectator talk, quick messages, markup shown as
text, the host closes the chat to spectators, muting, and the limits' errors."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from dicehall.games import game_ids
from tests.browser.conftest import CHROMIUM, NO_CHROMIUM, screenshot
from tests.browser.helpers import create_table, record_frames

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif("kariki" not in game_ids(), reason="Kariki is not installed"),
]

MARKUP = "<img src=x onerror=\"document.title='pwned'\"><b>bold</b> & co"


def say(page: Page, text: str) -> None:
    page.fill("#chat-text", text)
    page.click(".chat-form button")


def lines(page: Page) -> Any:
    return page.locator(".chat-list .chat-said")


def test_players_and_spectators_talk_as_plain_text(server: str, new_page: Any) -> None:
    ann: Page = new_page()
    bob: Page = new_page()
    zoe: Page = new_page()
    frames = [record_frames(p) for p in (ann, bob, zoe)]
    table_id = create_table(ann, server, "kariki", seats=3, people=2, name="Ann", pace="600")
    bob.goto(f"{server}/#/room/{ann.locator('.room-code').inner_text()}")
    bob.fill("#join-name", "Bob")
    bob.click("text=Take a seat")
    bob.wait_for_url(f"**/#/table/{table_id}")
    zoe.goto(f"{server}/#/table/{table_id}")
    expect(zoe.locator(".table-title")).to_contain_text("watching")

    say(ann, MARKUP)
    for page in (ann, bob, zoe):
        expect(lines(page).last).to_have_text(MARKUP)  # text, never markup
        assert page.locator(".chat-list img, .chat-list b").count() == 0
    bob.click(".chat-quick button[data-quick='liar']")
    expect(lines(ann).last).to_have_text("liar!")
    say(zoe, "go Bob")
    # on the spectator's own page first, where a refusal would show in words
    heard = zoe.locator(".chat-list .chat-said", has_text="go Bob")
    expect(heard.or_(zoe.locator(".chat-error:not(:empty)")).first).to_be_visible()
    assert zoe.locator(".chat-error").inner_text() == ""
    expect(ann.locator(".chat-list .chat-line").last).to_contain_text("a spectator (watching)")
    assert ann.title() != "pwned"
    screenshot(ann, "chat")

    # Ann mutes Bob: his messages leave her page only
    ann.locator(".chat-line[data-seat='1'] .mute").first.click()
    bob.click(".chat-quick button[data-quick='believe']")
    expect(lines(zoe).last).to_have_text("I believe you")
    expect(ann.locator(".chat-muted")).to_contain_text("Bob (unmute)")
    assert "I believe you" not in ann.locator(".chat-list").inner_text()
    assert "liar!" not in ann.locator(".chat-list").inner_text()

    # the host closes the chat to spectators
    ann.uncheck("#chat-spectators")
    expect(zoe.locator(".chat-closed")).to_be_visible()
    expect(zoe.locator("#chat-text")).to_be_disabled()
    zoe.evaluate("window.dicehall.screen.chat.post({type: 'chat', text: 'sneaky'})")
    expect(zoe.locator(".chat-error")).to_have_text(
        "the host has closed this table's chat to spectators"
    )

    # the limits answer in words
    bob.evaluate("window.dicehall.screen.chat.post({type: 'chat', text: 'x'.repeat(301)})")
    expect(bob.locator(".chat-error")).to_contain_text("too long: 301 characters")
    for _ in range(6):
        bob.click(".chat-quick button[data-quick='good-luck']")
    expect(bob.locator(".chat-error")).to_contain_text("too many chat messages")

    chats = [[f["message"]["idx"] for f in got if f["type"] == "chat"] for got in frames]
    assert chats[0] == chats[1] == chats[2]
