"""The operator's database commands: `dicehall migrate` (upgrade, --current, --check),
the server refusing a database a newer dicehall migrated, and a backup taken while
the server plays that restores whole: its finished table's transcript verifies, its
running table resumes and finishes, and that transcript verifies too. On SQLite with
`dicehall backup`, and on PostgreSQL with pg_dump and pg_restore when
DICEHALL_TEST_PG_URL names one and the tools are installed (docs/operators/backup.md)."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from typer.testing import CliRunner

from dicehall.cli import app
from dicehall.server import migrations
from dicehall.server.migrations import DatabaseAhead
from dicehall.server.tables.store import Store
from tests.server.databases import PG_URL, wipe
from tests.server.helpers import Conn, create, drive, receive, running, sqlite_url

runner = CliRunner()
GAME = "kariki"


def invoke(*args: str) -> tuple[int, str]:
    done = runner.invoke(app, list(args))
    return done.exit_code, done.output


def test_migrate_upgrades_reports_and_checks(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    code, said = invoke("migrate", "--check", "--db", url)
    assert code == 2 and "no database at" in said
    assert not (tmp_path / "db.sqlite").exists()  # a check creates nothing

    engine = create_engine(url)
    migrations.upgrade(engine, "0001")  # as an older dicehall left it
    engine.dispose()
    code, said = invoke("migrate", "--current", "--db", url)
    assert code == 0 and f"at revision 0001, this dicehall's newest {migrations.head()}" in said
    code, said = invoke("migrate", "--check", "--db", url)
    assert code == 1 and "behind" in said

    code, said = invoke("migrate", "--db", url)
    assert code == 0 and f"migrated to {migrations.head()}" in said
    code, said = invoke("migrate", "--check", "--db", url)
    assert code == 0 and "up to date" in said


def test_a_database_ahead_of_the_code_is_refused_by_migrate_and_the_server(
    tmp_path: Path,
) -> None:
    url = sqlite_url(tmp_path)
    Store(url).close()
    with sqlite3.connect(tmp_path / "db.sqlite") as db:
        db.execute("UPDATE alembic_version SET version_num = 'f00d'")
    for args in (["migrate"], ["migrate", "--check"]):
        code, said = invoke(*args, "--db", url)
        assert code == 2, said
        assert "schema revision f00d, which this dicehall does not know" in said
        assert "migrated by a newer dicehall" in said
    with pytest.raises(DatabaseAhead, match="f00d"):
        Store(url)
    with sqlite3.connect(tmp_path / "db.sqlite") as db:  # nothing was changed
        assert db.execute("SELECT version_num FROM alembic_version").fetchall() == [("f00d",)]


def test_backup_refuses_what_it_cannot_copy(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    code, said = invoke("backup", str(tmp_path / "copy.sqlite"), "--db", url)
    assert code == 2 and "no database at" in said
    Store(url).close()
    (tmp_path / "copy.sqlite").write_text("kept")
    code, said = invoke("backup", str(tmp_path / "copy.sqlite"), "--db", url)
    assert code == 2 and "exists already" in said
    assert (tmp_path / "copy.sqlite").read_text() == "kept"
    code, said = invoke("backup", str(tmp_path / "x.sqlite"), "--db", "postgresql://h/d")
    assert code == 2 and "pg_dump" in said


def _table(client: Any) -> tuple[str, str]:
    """A table of one person (seat 0) and two bots: its id and the person's token."""
    table = create(client, GAME, bots={1: "heuristic", 2: "heuristic"}, seats=3)
    return table["table_id"], table["token"]


def _finish(client: Any, tid: str, token: str, rng: random.Random) -> None:
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        drive([Conn(ws, 0)], rng)


def _start(client: Any, tid: str, token: str, rng: random.Random, moves: int) -> None:
    """A few of the person's moves: the table is left playing."""
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        m = receive(ws)
        while moves > 0:
            if m["type"] in ("welcome", "update") and m["legal"]:
                choice = rng.choice(m["legal"])["action"]
                ws.send_json({"type": "action", "step": m["step"], "action": choice})
                moves -= 1
            m = receive(ws)
    assert client.get(f"/api/tables/{tid}").json()["status"] == "playing"


def _restored_tables_verify(db: str, finished: str, playing: tuple[str, str], folder: Path) -> None:
    """On the restored database: the finished transcript verifies (`dicehall verify`), the
    running table resumes, finishes and verifies too."""
    with running(db, None) as client:
        assert client.get(f"/api/tables/{finished}").json()["status"] == "over"
        _finish(client, *playing, random.Random(2))
        transcripts = [client.get(f"/api/tables/{t}/transcript") for t in (finished, playing[0])]
    for n, transcript in enumerate(transcripts):
        assert transcript.status_code == 200, transcript.text
        path = folder / f"game{n}.json"
        path.write_text(transcript.text)
        code, said = invoke("verify", str(path), "--json")
        assert code == 0 and json.loads(said)["ok"], said


def test_a_backup_taken_while_serving_restores_finished_and_running_tables(
    tmp_path: Path,
) -> None:
    live = tmp_path / "live"
    live.mkdir()
    rng = random.Random(1)
    with running(live / "db.sqlite", None) as client:
        finished, token = _table(client)
        _finish(client, finished, token, rng)
        playing = _table(client)
        _start(client, *playing, rng, moves=4)
        # while the server still holds the database and its bots may still move
        code, said = invoke("backup", str(tmp_path / "backup.sqlite"), "--db", sqlite_url(live))
        assert code == 0, said
        assert "tables: 1 over, 1 playing" in said and f"revision {migrations.head()}" in said
    restored = tmp_path / "restored"
    restored.mkdir()
    shutil.copy(tmp_path / "backup.sqlite", restored / "db.sqlite")  # the restore
    _restored_tables_verify(sqlite_url(restored), finished, playing, tmp_path)


@pytest.mark.skipif(not PG_URL, reason="set DICEHALL_TEST_PG_URL to a PostgreSQL URL")
@pytest.mark.skipif(not shutil.which("pg_dump"), reason="pg_dump and pg_restore not installed")
def test_pg_dump_while_serving_restores_finished_and_running_tables(tmp_path: Path) -> None:
    assert PG_URL
    wipe(PG_URL)
    source = make_url(PG_URL)
    copy = source.set(database=f"{source.database}_restored")
    admin = create_engine(source, isolation_level="AUTOCOMMIT")
    with admin.connect() as db:
        db.execute(text(f'DROP DATABASE IF EXISTS "{copy.database}"'))
        db.execute(text(f'CREATE DATABASE "{copy.database}"'))
    admin.dispose()

    def libpq(url: Any) -> str:  # pg_dump's URL: no SQLAlchemy driver name
        return str(url.set(drivername="postgresql").render_as_string(hide_password=False))

    rng = random.Random(1)
    dump = tmp_path / "dicehall.dump"
    try:
        with running(PG_URL, None) as client:
            finished, token = _table(client)
            _finish(client, finished, token, rng)
            playing = _table(client)
            _start(client, *playing, rng, moves=4)
            subprocess.run(
                ["pg_dump", "--format=custom", f"--file={dump}", libpq(source)], check=True
            )
        subprocess.run(
            ["pg_restore", "--no-owner", f"--dbname={libpq(copy)}", str(dump)], check=True
        )
        _restored_tables_verify(
            copy.render_as_string(hide_password=False), finished, playing, tmp_path
        )
    finally:
        admin = create_engine(source, isolation_level="AUTOCOMMIT")
        with admin.connect() as db:
            db.execute(text(f'DROP DATABASE IF EXISTS "{copy.database}"'))
        admin.dispose()
