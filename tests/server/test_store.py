"""The store's group commits: the steps of tables that move at once share one transaction,
and a write the database refuses fails only the table it was for."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import event

from dicehall.server.store import StorageError, Store, TableRecord
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


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'db.sqlite'}")


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
        assert len(commits) == 1
        assert [store.steps_of(t) for t in ids] == [[{"chance": [i]}] for i in range(5)]
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
