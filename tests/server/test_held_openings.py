"""Openings the sealed-dice tracker finds ride with each seat's next update, or go in a
message of their own once OPENINGS_HOLD_SECONDS pass without one; each audience gets
exactly its own. The news are handed to the table directly, on a seed table, so that
no throw's own openings mix in."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from dicehall.server.ops.settings import ServerConfig
from dicehall.server.tables import live
from dicehall.server.tables.catalog import Catalog
from dicehall.server.tables.hall import Hall
from dicehall.server.tables.store import Store
from tests.aio import run


class Listener:
    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.got: list[dict[str, Any]] = []

    def push(self, text: str) -> None:
        self.got.append(json.loads(text))


def test_openings_ride_with_the_next_update_or_go_alone_after_the_hold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live, "OPENINGS_HOLD_SECONDS", 0.05)
    store = Store(f"sqlite:///{tmp_path / 'db.sqlite'}")

    async def play() -> list[Listener]:
        hall = Hall(store, Catalog(), config=ServerConfig(compute_in_processes=False))
        table, _, _ = await hall.create("kariki", 2, {}, {}, None, None, 0, fairness="seed")
        await hall.join(table, "", None)
        listeners = [Listener(0), Listener(1), Listener(None)]
        table.listeners.update(listeners)
        table._send_openings({None: [{"throw": 0}], 0: [{"throw": 1}]})
        seat = table.state.actors()[0]
        await table.act(seat, table.state.legal_actions(seat)[0], table.step)
        table._send_openings({1: [{"throw": 2}]})
        await asyncio.sleep(0.2)
        hall.tracker.close()
        return listeners

    try:
        seat0, seat1, watcher = run(play())
    finally:
        store.close()
    updates = [[m for m in listener.got if m["type"] == "update"] for listener in (seat0, seat1)]
    assert [o["throw"] for o in updates[0][0]["openings"]] == [0, 1]
    assert [o["throw"] for o in updates[1][0]["openings"]] == [0]
    assert [m["type"] for m in seat0.got] == ["update"]  # nothing of its own came later
    assert seat1.got[-1] == {"type": "openings", "openings": [{"throw": 2}]}
    assert [o["throw"] for o in watcher.got[0]["openings"]] == [0] and len(watcher.got) == 1


def test_openings_found_after_the_end_go_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No update follows the end to carry them: the tracker's last openings are not held."""
    monkeypatch.setattr(live, "OPENINGS_HOLD_SECONDS", 3600.0)
    store = Store(f"sqlite:///{tmp_path / 'db.sqlite'}")

    async def play() -> tuple[list[Listener], bool]:
        hall = Hall(store, Catalog(), config=ServerConfig(compute_in_processes=False))
        table, _, _ = await hall.create("kariki", 2, {}, {}, None, None, 0, fairness="seed")
        await hall.join(table, "", None)
        listeners = [Listener(0), Listener(1), Listener(None)]
        table.listeners.update(listeners)
        table.record.status = live.OVER
        table._send_openings({None: [{"throw": 0}], 1: [{"throw": 3}]})
        timer = table._held_timer is not None or bool(table._held)
        hall.tracker.close()
        return listeners, timer

    try:
        (seat0, seat1, watcher), held = run(play())
    finally:
        store.close()
    assert not held
    assert seat0.got == [{"type": "openings", "openings": [{"throw": 0}]}]
    assert seat1.got == [{"type": "openings", "openings": [{"throw": 0}, {"throw": 3}]}]
    assert watcher.got == [{"type": "openings", "openings": [{"throw": 0}]}]
