"""Schema migrations: a database written before migrations existed (data/old_database.*,
made by that server: see data/make_old_database.py) upgrades in place, nothing of it is
lost, and its unfinished tables resume; the revisions build exactly the tables the code
uses. On SQLite, and on PostgreSQL when its URL is given (the old rows copied there)."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Table, create_engine, func, select, text
from sqlalchemy.engine import Engine

from dicehall.server import migrations
from dicehall.server.migrations.schema import metadata
from dicehall.server.tables.chat import chat_messages
from dicehall.server.tables.house_rules import table_settings
from dicehall.server.tables.store import Store, steps, tables
from tests.server.databases import CHEAP, db_url
from tests.server.helpers import Conn, drive, running

__all__ = ["db_url"]  # the fixture

DATA = Path(__file__).parent / "data"
OLD = DATA / "old_database.sqlite"
SEATS: dict[str, dict[str, Any]] = json.loads((DATA / "old_database.json").read_text())
OLD_TABLES: list[Table] = [tables, steps, table_settings, chat_messages]  # parents first
IN_PLAY = ("tepiiku", "toplshteyner", "tao", "kariki")


def load_old_database(url: str) -> None:
    """The old database at `url`: the file itself for SQLite; elsewhere its schema as the
    old server made it (the first revision, unrecorded) and every row copied over."""
    if url.startswith("sqlite:///"):
        shutil.copy(OLD, url.removeprefix("sqlite:///"))
        return
    target = create_engine(url)
    source = create_engine(f"sqlite:///{OLD}")
    try:
        migrations.upgrade(target, "0001")
        with target.begin() as db, source.connect() as old:
            db.execute(text("DROP TABLE alembic_version"))
            for table in OLD_TABLES:
                rows = [dict(r._mapping) for r in old.execute(select(table))]
                if rows:
                    db.execute(table.insert(), rows)
    finally:
        target.dispose()
        source.dispose()


def contents(engine: Engine) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the old tables, in a fixed order."""
    with engine.connect() as db:
        return {
            t.name: sorted(tuple(map(str, r)) for r in db.execute(select(t))) for t in OLD_TABLES
        }


def test_the_revisions_build_exactly_the_tables_the_code_uses(db_url: str) -> None:
    Store(db_url).close()
    Store(db_url).close()  # a second start finds nothing to do
    engine = create_engine(db_url)
    try:
        with engine.connect() as db:
            assert migrations.current(db) == migrations.head()
            context = MigrationContext.configure(db, opts={"compare_type": True})
            assert compare_metadata(context, metadata) == []
    finally:
        engine.dispose()


def test_an_old_database_upgrades_in_place_and_its_tables_resume(db_url: str) -> None:
    load_old_database(db_url)
    engine = create_engine(db_url)
    try:
        with engine.connect() as db:
            assert migrations.current(db) is None
            old_steps = {
                r.table_id: r.n
                for r in db.execute(
                    select(steps.c.table_id, func.count().label("n")).group_by(steps.c.table_id)
                )
            }
        before = contents(engine)
        with running(db_url, None, config=CHEAP) as client:
            assert contents(engine) == before  # the upgrade changed no row of the old tables
            for gid in IN_PLAY:
                seat = SEATS[gid]
                summary = client.get(f"/api/tables/{seat['table_id']}").json()
                assert summary["status"] == "playing" and summary["game"] == gid
                assert summary["step"] == old_steps[seat["table_id"]]
                url = f"/ws/tables/{seat['table_id']}?token={seat['token']}"
                with client.websocket_connect(url) as ws:
                    conn = Conn(ws, 0)
                    welcome = conn.read()
                    assert welcome["seat"] == 0 and welcome["legal"], gid  # its person's turn
                    if gid == "kariki":  # one plays on to the end, and is recorded
                        drive([conn], random.Random(7))
            kariki = SEATS["kariki"]["table_id"]
            assert client.get(f"/api/tables/{kariki}/verify").json()["ok"]
            record = client.get(f"/api/tables/{kariki}/record").json()
            assert record["rated"] is False and record["seats"][0]["account"] is None
            chat = client.get(f"/api/tables/{kariki}/chat").json()["messages"]
            assert chat[0]["text"] == "good luck at kariki"
            finished = SEATS["finished"]["table_id"]
            assert client.get(f"/api/tables/{finished}").json()["status"] == "over"
            assert client.get(f"/api/tables/{finished}/verify").json()["ok"]
            old_record = client.get(f"/api/tables/{finished}/record").json()
            assert old_record["result"] is None and old_record["rated"] is False
            waiting = SEATS["waiting"]
            joined = client.post(f"/api/rooms/{waiting['room']}/join", json={"name": "Late"})
            assert joined.status_code == 200 and joined.json()["seat"] == 1
            summary = client.get(f"/api/tables/{waiting['table_id']}").json()
            assert summary["status"] == "playing"
        after = contents(engine)
        with engine.connect() as db:
            assert migrations.current(db) == migrations.head()
    finally:
        engine.dispose()
    for name in ("table_settings", "chat_messages"):
        assert set(before[name]) <= set(after[name])
    assert {r[0] for r in before["tables"]} <= {r[0] for r in after["tables"]}
    assert set(before["steps"]) <= set(after["steps"])  # play went on, nothing was lost
