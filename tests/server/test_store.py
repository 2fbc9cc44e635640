"""The store's group commits: the steps of tables that move at once share one transaction,
and a write the database refuses fails only the table it was for; on the event loop where
that cannot wait (synchronous NORMAL), in the writer thread otherwise (FULL) or whenever
the loop would have to wait for the write lock."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import pytest
from sqlalchemy import event

from dicehall.server.tables import loop_writes
from dicehall.server.tables.store import StorageError, Store, TableRecord
from tests.aio import run


def record(table_id: str) -> TableRecord:
    return TableRecord(
        id=table_id,
        room=table_id.upper(),
        game="duel",
        seats=2,
        options={},
        players=[],
        status="playing",
        seed="00",
        commitment="00",
        turn_seconds=None,
        bot_delay_ms=0,
    )


@pytest.fixture(params=["NORMAL", "FULL"])
def store(tmp_path: Path, request: pytest.FixtureRequest) -> Store:
    return Store(f"sqlite:///{tmp_path / 'db.sqlite'}", synchronous=request.param)


def test_tables_that_move_at_once_share_one_commit(store: Store) -> None:
    ids = [f"t{i}" for i in range(5)]
    commits: list[object] = []
    try:
        for table_id in ids:
            store.insert(record(table_id))
        event.listen(store.engine, "commit", commits.append)

        async def moves() -> None:
            await asyncio.gather(
                *(store.save_steps(t, 0, [{"chance": [i]}], None) for i, t in enumerate(ids))
            )

        run(moves())
        assert store.commits == 1
        # on the loop's own connection at NORMAL, in the writer thread's at FULL
        assert len(commits) == (0 if store.on_loop is not None else 1)
        assert [store.steps_of(t) for t in ids] == [[{"chance": [i]}] for i in range(5)]
    finally:
        store.close()


def test_only_commits_that_sync_nothing_are_made_on_the_loop(tmp_path: Path) -> None:
    for synchronous, on_loop in [("OFF", True), ("NORMAL", True), ("FULL", False)]:
        store = Store(f"sqlite:///{tmp_path / synchronous}.sqlite", synchronous=synchronous)
        assert (store.on_loop is not None) is on_loop
        store.close()
    memory = Store("sqlite://")
    assert memory.on_loop is None
    memory.close()


def test_a_write_lock_held_elsewhere_sends_the_group_to_the_writer_thread(
    tmp_path: Path,
) -> None:
    db = tmp_path / "db.sqlite"
    store = Store(f"sqlite:///{db}", busy_timeout=5.0)
    holder = sqlite3.connect(db, timeout=0, isolation_level=None, check_same_thread=False)
    try:
        store.insert(record("t"))
        assert store.on_loop is not None
        holder.execute("BEGIN IMMEDIATE")
        threading.Timer(0.3, holder.execute, ("ROLLBACK",)).start()

        async def move() -> float:
            loop = asyncio.get_running_loop()
            began = loop.time()
            ticks = 0

            async def tick() -> None:  # the loop runs on while the writer thread waits
                nonlocal ticks
                while True:
                    await asyncio.sleep(0.01)
                    ticks += 1

            ticker = asyncio.create_task(tick())
            await store.save_steps("t", 0, [{"chance": [4]}], None)
            ticker.cancel()
            assert ticks >= 10
            return loop.time() - began

        assert run(move()) >= 0.25  # it waited for the lock, in the writer thread
        assert store.on_loop.commits == 0 and store.commits == 1
        assert store.steps_of("t") == [{"chance": [4]}]
    finally:
        holder.close()
        store.close()


def test_the_writer_thread_checkpoints_what_the_loop_commits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(loop_writes, "CHECKPOINT_EVERY", 3)
    store = Store(f"sqlite:///{tmp_path / 'db.sqlite'}")
    checkpoints: list[None] = []
    checkpoint = store._checkpoint_now
    monkeypatch.setattr(store, "_checkpoint_now", lambda: checkpoints.append(checkpoint()))
    try:
        store.insert(record("t"))

        async def moves() -> None:
            for i in range(7):
                await store.save_steps("t", i, [{"chance": [i]}], None)
                await asyncio.sleep(0.05)  # a checkpoint is done before the next is due

        run(moves())
        assert store.on_loop is not None and store.on_loop.commits == 7
        assert len(checkpoints) == 2
        assert [s["chance"] for s in store.steps_of("t")] == [[i] for i in range(7)]
    finally:
        store.close()


def test_a_refused_write_fails_only_its_own_table(store: Store) -> None:
    try:
        store.insert(record("good"))
        store.insert(record("bad"))
        store.append("bad", 0, [{"chance": [1]}], None)

        async def moves() -> list[BaseException | None]:
            got = await asyncio.gather(
                store.save_steps("bad", 0, [{"chance": [2]}], None),  # step 0 is stored already
                store.save_steps("good", 0, [{"chance": [3]}], "over"),
                return_exceptions=True,
            )
            return list(got)

        bad, good = run(moves())
        assert isinstance(bad, StorageError) and good is None
        assert store.steps_of("bad") == [{"chance": [1]}]
        assert store.steps_of("good") == [{"chance": [3]}]
        stored = store.get("good")
        assert stored is not None and stored.status == "over"
    finally:
        store.close()
