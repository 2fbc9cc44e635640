"""Steps the browser tests share: make a table through the lobby, play through the buttons."""

from __future__ import annotations

import json
import random
from typing import Any

from playwright.sync_api import Page

# Options that keep a test game short; anything a game does not declare is left alone.
SHORT_GAMES: dict[str, dict[str, Any]] = {
    "tepiiku": {"bankroll": "3"},
    "tao": {"length": "single"},
}

PAUSE_MS = 50
"""A pause after each move: the server limits each connection to 20 messages a second."""

GAME_OVER = "document.querySelector('.end:not([hidden])') !== null"
MY_TURN_OR_OVER = (
    "() => document.querySelector('.end:not([hidden])') !== null"
    " || document.querySelector('button.action:not([disabled])') !== null"
)


def create_table(
    page: Page,
    server: str,
    game: str,
    *,
    seats: int | None = None,
    people: int = 1,
    name: str = "Ann",
    pace: str = "0",
    turn_seconds: int | None = None,
    grace_seconds: int | None = None,
    listed: bool = True,
    rated: bool = False,
) -> str:
    """Fill in the lobby's form and create a table; returns the table id from the URL.

    The first `people` seats are people (the host sits in the first), the rest bots.
    """
    page.goto(f"{server}/")
    page.select_option("#game", game)
    if seats is not None:
        page.fill("#seats", str(seats))
        page.press("#seats", "Tab")
    for option, value in SHORT_GAMES.get(game, {}).items():
        field = page.locator(f"#opt-{option}")
        if field.count():
            if field.evaluate("e => e.tagName") == "SELECT":
                field.select_option(value)
            else:
                field.fill(value)
    for seat in range(1, people):
        page.select_option(f"#seat-{seat}", "")
    page.select_option("#bot-pace", pace)
    if turn_seconds is not None:
        page.fill("#turn-seconds", str(turn_seconds))
    if grace_seconds is not None:
        page.fill("#grace-seconds", str(grace_seconds))
    page.set_checked("#listed", listed)
    page.set_checked("#rated", rated)
    page.fill("#host-name", name)
    page.click("button:has-text('Create table')")
    page.wait_for_url("**/#/table/*")
    return page.url.rsplit("/", 1)[-1]


def click_random_action(page: Page, rng: random.Random) -> bool:
    """Click one of the offered action buttons at random (chosen and clicked in one go, so a
    redraw between counting and clicking cannot catch the test out). False if none is offered."""
    clicked: bool = page.evaluate(
        """(r) => {
            const buttons = [...document.querySelectorAll('button.action:not([disabled])')];
            if (!buttons.length) return false;
            buttons[Math.floor(r * buttons.length)].click();
            return true;
        }""",
        rng.random(),
    )
    return clicked


def play_until_over(page: Page, rng: random.Random, max_moves: int = 3000) -> int:
    """Click legal-action buttons until the game is over; returns the number of moves made."""
    moves = 0
    while moves < max_moves:
        page.wait_for_function(MY_TURN_OR_OVER, timeout=20_000)
        if page.evaluate(GAME_OVER):
            return moves
        if click_random_action(page, rng):
            moves += 1
            page.wait_for_timeout(PAUSE_MS)
    raise AssertionError(f"the game did not end within {max_moves} moves")


def play_all_until_over(pages: list[Page], rng: random.Random, max_rounds: int = 3000) -> None:
    """Click legal actions on whichever page has some, until the first page shows the end."""
    for _ in range(max_rounds):
        if pages[0].evaluate(GAME_OVER):
            return
        moved = False
        for page in pages:
            moved = click_random_action(page, rng) or moved
        pages[0].wait_for_timeout(PAUSE_MS if moved else 20)
    raise AssertionError("the game did not end")


def record_frames(page: Page) -> list[dict[str, Any]]:
    """Every WebSocket message the page receives from now on, decoded."""
    frames: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    page.on("websocket", on_socket)
    return frames


def log_in(page: Page, form: str, name: str, password: str) -> None:
    """Fill in the account page's `register` or `login` form and send it."""
    page.fill(f"#{form}-name", name)
    page.fill(f"#{form}-password", password)
    page.click(f"form.{form} button[type=submit]")


def rated_game(
    server: str, pages: list[Page], names: list[str], game: str, rng: random.Random
) -> str:
    """Each page registers an account (`names`, one each) and they play one rated game of
    `game` at a table of their own, the first page its host: a game with a bot the host
    chose would not be rated (docs/reference/ratings.md). Returns the table id."""
    from playwright.sync_api import expect

    for page, name in zip(pages, names, strict=True):
        page.goto(f"{server}/#/account")
        log_in(page, "register", name, "a long enough secret")
        expect(page.locator(".logged-in")).to_contain_text(f"Logged in as {name}")
    host, *guests = pages
    table_id = create_table(
        host, server, game, seats=len(pages), people=len(pages), name=names[0], rated=True
    )
    room = host.locator(".room-code").inner_text()
    for guest, name in zip(guests, names[1:], strict=True):
        guest.goto(f"{server}/")
        guest.fill("#room-code", room)
        guest.click("text=Go to room")
        guest.fill("#join-name", name)
        guest.click("text=Take a seat")
        guest.wait_for_url(f"**/#/table/{table_id}")
    play_all_until_over(pages, rng)
    return table_id
