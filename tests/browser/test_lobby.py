"""The lobby's open tables show each sitter's rating in the table's game beside the name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from sqlalchemy import create_engine, delete, insert

from dicehall.ratings import RatingBook, shown
from dicehall.server.people.accounts import AccountStore
from dicehall.server.people.results import ratings
from tests.browser.conftest import CHROMIUM, NO_CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(NO_CHROMIUM, allow_module_level=True)

pytestmark = pytest.mark.browser


def test_the_open_tables_show_a_rated_bots_rating(
    server: str, server_db: Path, new_page: Any
) -> None:
    book = RatingBook()
    standing = book.standing("random")
    standing.rating = book.model.rating(mu=31.5, sigma=2.5)  # as if rated
    engine = create_engine(f"sqlite:///{server_db}")
    try:
        bot = AccountStore(engine).bot("random")
        assert bot is not None
        with engine.begin() as db:
            db.execute(delete(ratings).where(ratings.c.account_id == bot.id))
            db.execute(
                insert(ratings).values(
                    account_id=bot.id, game="tepiiku", mu=31.5, sigma=2.5,
                    ordinal=standing.ordinal, games=40, wins=10.0,
                )
            )  # fmt: skip
    finally:
        engine.dispose()
    page = new_page()
    made = page.request.post(
        f"{server}/api/tables",
        data={"game": "tepiiku", "seats": 3, "bots": {"1": "random", "2": "random"},
              "names": ["Ann"]},
    ).json()  # fmt: skip
    page.goto(f"{server}/")
    link = page.locator(f"a[href='#/table/{made['table_id']}']")
    entry = page.locator(".open-tables li", has=link)
    players = entry.locator(".open-player")
    expect(players.nth(1)).to_contain_text(f"(bot) {shown(31.5, 2.5)}")
    expect(players.nth(0)).to_have_text("Ann")  # a guest: no rating
    expect(players.nth(2).locator(".open-rating")).to_have_count(0)  # "random 2": unrated
