"""The browser UI end to end: full games against bots, two players at one table, reconnects."""

from __future__ import annotations

import contextlib
import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from dicehall.games import game_ids
from tests.browser.conftest import (
    CHROMIUM,
    NO_CHROMIUM,
    free_port,
    screenshot,
    start_server,
    stop_server,
)
from tests.browser.helpers import (
    GAME_OVER,
    MY_TURN_OR_OVER,
    PAUSE_MS,
    click_random_action,
    create_table,
    play_until_over,
    record_frames,
)

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("game", game_ids())
def test_a_full_game_against_bots(server: str, new_page: Any, game: str) -> None:
    page: Page = new_page()
    screenshot_lobby = game == game_ids()[0]
    if screenshot_lobby:
        page.goto(f"{server}/")
        page.wait_for_selector("#game")
        screenshot(page, "lobby")
    frames = record_frames(page)
    table_id = create_table(page, server, game)
    page.wait_for_selector(f".felt.game-{game}")
    expect(page.locator(".table-title")).to_contain_text("you are Ann")
    rng = random.Random(game)

    # at the first choice (some games, like Toplshteyner, may run to the end without one):
    # the odds panel answers, and the table in play is pictured
    page.wait_for_function(MY_TURN_OR_OVER)
    if not page.evaluate(GAME_OVER):
        page.locator(".odds summary").click()
        answer = page.locator(".odds-body .odds-table, .odds-body .no-odds")
        expect(answer.first).to_be_visible(timeout=15_000)
    screenshot(page, f"{game}-in-play")

    play_until_over(page, rng)
    end = page.locator(".end")
    expect(end).to_contain_text("Net")
    expect(page.locator(".status")).to_have_text("finished")
    assert frames[0]["type"] == "welcome"
    assert any(f["type"] == "over" for f in frames)

    # the fair-dice panel says in words what checks: public throws, and this seat's own
    page.locator(".fair > summary").click()
    words = page.locator(".fair .fair-words.ok")
    expect(words).to_contain_text(re.compile(r"The dice were fair: all \d+ throws everyone saw"))
    page.locator(".fair .fair-how summary").click()
    expect(page.locator(".fair .openings")).to_contain_text("hash up to the committed root")
    expect(page.locator(".fair a[download]")).to_have_count(2)
    report = page.request.get(f"{server}/api/tables/{table_id}/verify").json()
    assert report["ok"] is True and report["fairness"] == "sealed"
    assert report["entropy_from"] and 0 in report["entropy_from"], report
    mine = page.evaluate("window.dicehall.screen.fairDice.report.your_throws")
    if mine:  # the page's own openings proved this seat's hidden throws
        own = "so is your own hidden throw" if mine == 1 else f"so are your own {mine} hidden"
        expect(words).to_contain_text(own)
    screenshot(page, f"{game}-over")

    # step-by-step replay of the finished game
    page.click("text=Replay step by step")
    counter = page.locator(".replay-counter")
    expect(counter).to_have_text(re.compile(r"^Step 0 of \d+$"))
    page.click("text=Next →")
    expect(counter).to_have_text(re.compile(r"^Step 1 of"))
    page.keyboard.press("ArrowRight")
    expect(counter).to_have_text(re.compile(r"^Step 2 of"))
    page.keyboard.press("ArrowLeft")
    expect(counter).to_have_text(re.compile(r"^Step 1 of"))
    page.wait_for_selector(f".replay .felt.game-{game}")
    if screenshot_lobby:
        screenshot(page, "replay")
        # a rematch seats the host at a new table of the same game
        page.click("text=Back to the table")
        page.click("text=Rematch")
        page.wait_for_url(re.compile(r"#/table/(?!" + re.escape(table_id) + r"$)"))
        expect(page.locator(".table-title")).to_contain_text("you are Ann")
        page.wait_for_selector(f".felt.game-{game}")


@pytest.mark.skipif("kariki" not in game_ids(), reason="Kariki is not installed")
def test_two_players_never_see_each_others_dice(server: str, new_page: Any) -> None:
    host: Page = new_page()
    guest: Page = new_page()
    watcher: Page = new_page()
    frames = {"host": record_frames(host), "guest": record_frames(guest)}
    watched = record_frames(watcher)

    table_id = create_table(host, server, "kariki", seats=3, people=2, name="Ann")
    room = host.locator(".room-code").inner_text()
    expect(host.locator(".prompt")).to_contain_text("Waiting for players")
    expect(host.locator("#invite-link")).to_have_value(re.compile(f"#/room/{room}$"))
    screenshot(host, "kariki-waiting")
    # the guest comes in by the room code, through the lobby's join form
    guest.goto(f"{server}/")
    guest.fill("#room-code", room)
    guest.click("text=Go to room")
    expect(guest.locator(".seat-list")).to_contain_text("free")
    screenshot(guest, "room")
    guest.fill("#join-name", "Bo")
    guest.click("text=Take a seat")
    guest.wait_for_url(f"**/#/table/{table_id}")
    watcher.goto(f"{server}/#/table/{table_id}")
    expect(watcher.locator(".table-title")).to_contain_text("watching")
    expect(guest.locator(".table-title")).to_contain_text("you are Bo")

    pages = {"host": host, "guest": guest}
    rng = random.Random(7)
    secrets_seen = 0
    for _ in range(3000):
        if host.evaluate("document.querySelector('.end:not([hidden])') !== null"):
            break
        moved = False
        for page in pages.values():
            # dice under the mug show only on the page of the seat that threw them
            shown = page.evaluate(OWN_THROW)
            assert shown is not False, "a page shows dice it did not throw"
            secrets_seen += bool(shown)
            moved = click_random_action(page, rng) or moved
        assert watcher.locator(".secret").count() == 0
        host.wait_for_timeout(PAUSE_MS if moved else 20)
    else:
        raise AssertionError("the game did not end")
    expect(guest.locator(".end")).to_be_visible()
    expect(watcher.locator(".end")).to_be_visible()
    assert secrets_seen > 0
    screenshot(guest, "kariki-two-players")

    assert "you threw" not in watcher.locator(".log").inner_text()
    seat_of = {"host": 0, "guest": 1}
    public = views_by_step(watched)
    public_events = {event_key(e) for f in watched for e in f.get("events", [])}
    for who, received in frames.items():
        seat = seat_of[who]
        for step, view in views_by_step(received).items():
            assert view["seat"] == seat
            if view.get("your_dice") is not None:
                assert view["roller"] == seat, f"{who} saw dice under another's mug at {step}"
            if step in public:
                assert without_own(view) == without_own(public[step]), f"{who}, step {step}"
        for frame in received:
            for event in frame.get("events", []):
                # an event the watcher never got is private: it must be this seat's own
                if event_key(event) not in public_events:
                    assert event.get("seat") == seat, f"{who} got another seat's secret: {event}"
        # the log on the page tells only this seat's own secret throws
        private = [
            e
            for f in received
            for e in f.get("events", [])
            if e["type"] == "throw" and event_key(e) not in public_events
        ]
        shown = pages[who].locator(".log li", has_text="you threw").count()
        assert shown == len(private) > 0


OWN_THROW = """() => {
    // null: no dice under the mug on show; else whether they are this seat's own throw
    if (!document.querySelector('.secret')) return null;
    const screen = window.dicehall.screen;
    return screen.view.roller === screen.seat && Array.isArray(screen.view.your_dice);
}"""


@pytest.mark.skipif("kariki" not in game_ids(), reason="Kariki is not installed")
def test_play_goes_on_after_the_server_restarts(new_page: Any, tmp_path: Path) -> None:
    port, db = free_port(), tmp_path / "restart.sqlite"
    process = start_server(port, db)
    try:
        page: Page = new_page()
        create_table(page, f"http://127.0.0.1:{port}", "kariki", seats=2)
        page.wait_for_function(MY_TURN_OR_OVER)
        stop_server(process)
        expect(page.locator("#notice")).to_contain_text("reconnecting")
        process = start_server(port, db)
        expect(page.locator("#notice")).to_contain_text("Reconnected", timeout=20_000)
        play_until_over(page, random.Random(5))
        expect(page.locator(".end")).to_contain_text("Net")
    finally:
        stop_server(process)


@pytest.mark.skipif("toplshteyner" not in game_ids(), reason="Toplshteyner is not installed")
def test_a_burst_of_throws_is_told_one_event_at_a_time(server: str, new_page: Any) -> None:
    """The server throws a whole Toplshteyner turn at once; at the bots' pace the page tells
    it event by event, and "Show all" tells the rest at once."""
    page: Page = new_page()
    create_table(page, server, "toplshteyner", seats=2, pace="300")
    skip = page.locator(".skip-story")
    expect(skip).to_be_visible()
    told = page.locator(".log li").count()
    page.wait_for_function(f"() => document.querySelectorAll('.log li').length > {told}")
    screenshot(page, "toplshteyner-story")
    rng = random.Random(11)
    for _ in range(500):
        if page.evaluate(GAME_OVER):
            break
        if skip.is_visible():
            # the story may end (and the button go) between the look and the click
            with contextlib.suppress(PlaywrightTimeoutError):
                skip.click(timeout=2000)
        click_random_action(page, rng)
        page.wait_for_timeout(PAUSE_MS)
    expect(page.locator(".end")).to_contain_text("Net")
    expect(skip).to_be_hidden()


def fits_the_screen(page: Page) -> bool:
    """Nothing sticks out sideways: the page scrolls only up and down."""
    fits: bool = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    return fits


def views_by_step(frames: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    return {f["step"]: f["view"] for f in frames if f["type"] in ("welcome", "update")}


def without_own(view: dict[str, Any]) -> dict[str, Any]:
    """A view less what differs by viewer: who is looking, and one's own dice."""
    return {k: v for k, v in view.items() if k not in ("seat", "your_dice")}


def event_key(event: dict[str, Any]) -> str:
    return repr(sorted(event.items()))


@pytest.mark.skipif("kariki" not in game_ids(), reason="Kariki is not installed")
def test_reconnects_after_a_dropped_connection(server: str, new_page: Any) -> None:
    page: Page = new_page(375, 812)  # a phone-width screen
    page.goto(f"{server}/")
    page.wait_for_selector("#game")
    assert fits_the_screen(page)
    screenshot(page, "lobby-phone")
    table_id = create_table(page, server, "kariki", seats=3, turn_seconds=300)
    page.wait_for_function("() => document.querySelector('button.action:not([disabled])')")
    expect(page.locator(".timer")).to_have_text(re.compile(r"^\d+s left$"))
    assert fits_the_screen(page)
    screenshot(page, "kariki-phone")

    # an error from the server is shown plainly, and the table stays usable
    page.evaluate(
        "window.dicehall.screen.connection.send("
        "{type: 'action', step: window.dicehall.screen.step, action: {type: 'nonsense'}})"
    )
    expect(page.locator(".moves .error")).to_contain_text("nonsense")

    page.evaluate("window.dicehall.screen.connection.drop()")
    notice = page.locator("#notice")
    expect(notice).to_contain_text("reconnecting")
    expect(notice).to_contain_text("Reconnected")
    # play goes on, from the keyboard: key 1 takes the first offered action
    log = page.locator(".log li")
    before = log.count()
    page.wait_for_function("() => document.querySelector('button.action:not([disabled])')")
    page.keyboard.press("1")
    page.wait_for_function(f"() => document.querySelectorAll('.log li').length > {before}")

    # a reload resumes the seat from the token kept in localStorage
    page.reload()
    expect(page.locator(".table-title")).to_contain_text("you are Ann")
    play_until_over(page, random.Random(3))
    assert page.url.endswith(f"/#/table/{table_id}")

    # a token the server does not know is dropped, and the page watches instead
    page.evaluate(
        f"localStorage.setItem('dicehall.seat.{table_id}', "
        "JSON.stringify({seat: 0, token: 'not-a-real-token'}))"
    )
    page.reload()
    expect(page.locator(".table-title")).to_contain_text("watching")
    expect(page.locator("#notice")).to_contain_text("watching instead")
