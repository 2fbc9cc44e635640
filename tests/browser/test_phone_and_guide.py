"""A first-time player's page: the first-game guides run to their end, and on a 390x844
phone the move bar never lies over what a decision needs (your dice, the claim or pot, the
scores), nothing scrolls sideways, the header is one line and the lobby puts quick match
and join first. Tepiiku's rerolls are chosen by tapping dice."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from dicehall.games import game_ids
from tests.browser.conftest import CHROMIUM, NO_CHROMIUM, screenshot
from tests.browser.helpers import GAME_OVER, PAUSE_MS, click_random_action, create_table

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)

pytestmark = pytest.mark.browser

PHONE = (390, 844)

NEEDED = ", ".join(
    [
        ".seat.me .die",  # your own dice (Tepiiku's runes)
        ".secret .die",  # Kariki: under the mug, yours alone
        ".tube.mine .die",  # Tao: your tube
        ".throw-now .die",  # Toplshteyner: the throw you decide on
        ".claim",  # Kariki: the claim to answer
        ".centre-row .stat.big, .kariki-stats",  # the pot
        ".seat .score, .seat .lives, .seat .stones, .score-sheet .cross",  # everyone's score
    ]
)
"""What a decision needs on the board: none of it may lie under an action button."""

OVERLAPS = """(needed) => {
  const box = (e) => e.getBoundingClientRect();
  const shown = (r) => r.width > 0 && r.height > 0;
  const buttons = [...document.querySelectorAll('.actions button')].map(box).filter(shown);
  const parts = [...document.querySelectorAll(needed)].map(box).filter(shown);
  const hits = [];
  for (const b of buttons) for (const p of parts) {
    const across = b.left < p.right && p.left < b.right;
    if (across && b.top < p.bottom && p.top < b.bottom) hits.push([b, p]);
  }
  return {buttons: buttons.length, parts: parts.length, hits: hits.length};
}"""
SIDEWAYS = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


def check_decision(page: Page) -> None:
    """At this decision, wherever the page is scrolled: no overlap, no sideways scroll."""
    for where in ("window.scrollTo(0, 0)", "document.querySelector('.actions').scrollIntoView()"):
        page.evaluate(where)
        found = page.evaluate(OVERLAPS, NEEDED)
        assert found["buttons"] and found["parts"], found
        assert found["hits"] == 0, f"action buttons lie over the board: {found}"
    assert page.evaluate(SIDEWAYS) <= 0


@pytest.mark.parametrize("game", game_ids())
def test_phone_decisions_keep_the_board_clear(server: str, new_page: Any, game: str) -> None:
    page: Page = new_page(*PHONE)
    create_table(page, server, game)
    page.wait_for_selector(f".felt.game-{game}")
    rng = random.Random(game)
    checked = 0
    for _ in range(1500):
        page.wait_for_function(
            "() => document.querySelector('.end:not([hidden])') !== null"
            " || document.querySelector('button.action:not([disabled])') !== null",
            timeout=20_000,
        )
        if page.evaluate(GAME_OVER):
            break
        if checked < 6:
            check_decision(page)
            if checked == 0:
                screenshot(page, f"phone-{game}")
            checked += 1
        click_random_action(page, rng)
        page.wait_for_timeout(PAUSE_MS)
    assert checked, "at least one decision was checked"
    assert page.evaluate(SIDEWAYS) <= 0
    over = page.evaluate(GAME_OVER)
    assert over or game not in ("tao", "toplshteyner"), "short games end within the loop"
    if over:
        check_end(page, game)


def check_end(page: Page, game: str) -> None:
    """The board at the end: Toplshteyner shows no point; Tao's final showdown stands open
    and a player out of the match shows no bet."""
    view = page.evaluate("window.dicehall.screen.view")
    board = page.locator(".board")
    if game == "toplshteyner":
        expect(board.locator(".stat-label", has_text="Point")).to_have_count(0)
    if game == "tao":
        expect(board.locator(".seat.out .bet")).to_have_count(0)
        sd = view.get("showdown")
        if sd and (sd["match"], sd["round"]) == (view["match"], view["round"]):
            others = [p for p in sd["players"] if p["seat"] != view["seat"]]
            expect(board.locator(".tube-label", has_text="shown")).to_have_count(len(others))


def test_phone_header_is_one_line_and_the_lobby_puts_quick_match_first(
    server: str, new_page: Any
) -> None:
    page: Page = new_page(*PHONE)
    page.goto(f"{server}/")
    page.wait_for_selector("#game")
    tops = page.evaluate(
        "[...document.querySelectorAll('.topbar .brand, .topbar nav a')]"
        ".map((e) => Math.round(e.getBoundingClientRect().top))"
    )
    assert max(tops) - min(tops) <= 6, f"the header wraps: {tops}"
    assert page.evaluate("document.querySelector('.topbar').offsetHeight") < 60
    y = {
        key: page.evaluate(f"document.querySelector('{sel}').getBoundingClientRect().y")
        for key, sel in (("quick", "#quick-title"), ("join", "#join-title"), ("new", "#new-title"))
    }
    assert y["quick"] < y["new"] and y["join"] < y["new"], y
    assert page.evaluate(SIDEWAYS) <= 0


@pytest.mark.parametrize("size", [(1280, 900), PHONE])
@pytest.mark.parametrize("game", game_ids())
def test_the_guide_runs_to_its_end(
    server: str, new_page: Any, game: str, size: tuple[int, int]
) -> None:
    page: Page = new_page(*size)
    page.goto(f"{server}/")
    offer = page.locator(f".guides a[href='#/guide/{game}']")
    expect(offer).to_be_visible()
    offer.click()
    expect(page.locator(".guide-note")).not_to_be_empty()
    expect(page.locator(f".felt.game-{game}")).to_be_visible()
    wrong_tried = False
    for _ in range(60):
        if page.locator(".guide-done").count():
            break
        if page.locator(".actions .guide-choice").count():
            if not wrong_tried and page.locator(".actions .action:not(.guide-choice)").count():
                page.locator(".actions .action:not(.guide-choice)").first.click()
                expect(page.locator(".guide-moves .error")).to_contain_text("In this guide")
                wrong_tried = True
            if size == PHONE:
                check_decision(page)
                if not wrong_tried or page.locator(".guide-moves .error").count():
                    screenshot(page, f"guide-{game}-phone")
            page.locator(".actions .guide-choice").click()
        else:
            page.locator(".actions .primary").click()
    expect(page.locator(".guide-done")).to_be_visible()
    assert "That is the guide" in page.locator(".guide-note").inner_text()
    assert "seat 0" not in page.locator(".log").inner_text().lower()
    if game == "tao":  # the showdown's tubes stand open; the folded one stays closed
        expect(page.locator(".tube-label", has_text="shown")).to_have_count(1)
        expect(page.locator(".tube-label", has_text="scooped")).to_have_count(1)
    # done: the lobby marks it, and still offers it until a real game is played
    page.locator(".guide-done").click()
    expect(page.locator(f".guides a[href='#/guide/{game}'] + small")).to_contain_text("done")


def test_the_lobby_stops_offering_a_guide_once_that_game_is_played(
    server: str, new_page: Any
) -> None:
    page: Page = new_page()
    create_table(page, server, "kariki")
    page.wait_for_selector(".felt.game-kariki")
    page.goto(f"{server}/")
    expect(page.locator(".guides a[href='#/guide/tao']")).to_be_visible()
    expect(page.locator(".guides a[href='#/guide/kariki']")).to_have_count(0)


def test_tepiiku_rerolls_are_chosen_by_tapping_dice(server: str, new_page: Any) -> None:
    page: Page = new_page(*PHONE)
    create_table(page, server, "tepiiku", pace="0")
    rng = random.Random(5)
    for _ in range(1500):
        page.wait_for_function(
            "() => document.querySelector('.end:not([hidden])') !== null"
            " || document.querySelector('button.action:not([disabled])') !== null",
            timeout=20_000,
        )
        if page.evaluate(GAME_OVER):  # over before a reroll came to this seat: again
            page.locator(".end button.primary").click()
            page.wait_for_selector(".end", state="hidden")
            continue
        if page.locator(".reroll-these").count():
            break
        click_random_action(page, rng)
        page.wait_for_timeout(PAUSE_MS)
    else:
        pytest.fail("no reroll choice came")
    these = page.locator(".reroll-these")
    expect(these).to_be_disabled()
    # never two choices with one meaning: one toggle per die, one "reroll these"
    assert page.locator(".actions button").count() <= 2
    page.locator(".seat.me button.die-pick").nth(0).click()
    page.keyboard.press("3")
    expect(page.locator(".seat.me button.die-pick[aria-pressed='true']")).to_have_count(2)
    expect(these).to_be_enabled()
    expect(these).to_contain_text("Reroll these: ")
    check_decision(page)
    before = page.locator(".log li").count()
    these.click()
    page.wait_for_function(f"document.querySelectorAll('.log li').length > {before}")
    assert "rerolls" in page.locator(".log").inner_text()


@pytest.mark.skipif("toplshteyner" not in game_ids(), reason="Toplshteyner is not installed")
def test_a_timed_out_throw_button_goes_with_the_time(server: str, new_page: Any) -> None:
    page: Page = new_page()
    create_table(page, server, "toplshteyner", seats=2, turn_seconds=60)
    throw = page.locator(".actions button.throw")
    for _ in range(50):  # the roll-off may give the first turn to the bot
        if throw.count():
            break
        page.wait_for_timeout(200)
    expect(throw).to_be_visible()
    # the deadline passes (as the page's clock sees it): the button goes at once, before
    # the server's throw for this seat arrives
    page.evaluate(
        "() => { const t = window.dicehall.screen; t.deadline = Date.now() / 1000 - 1;"
        " t.drawTimer(); }"
    )
    expect(throw).to_have_count(0)
    expect(page.locator(".prompt")).to_contain_text("Time is up")
