"""`dicehall migrate` and `dicehall backup`: the server's database, by its operator.

The server migrates its database itself on start; `migrate` does it ahead of
a rolling deploy (the new schema in place before the new processes start), and
`migrate --check` lets a deploy script stop when a database is behind. Both
commands read the database's URL as `dicehall serve` does (--db, DICEHALL_DB,
the config file) and import the server only when they run, so that the
terminal commands stay free of the server extra.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from dicehall.cli.common import app, fail, guarded

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

DbOpt = Annotated[
    str | None,
    typer.Option(
        help="SQLAlchemy URL of the server's database (setting db; DICEHALL_DB).",
        show_default=False,
    ),
]
ConfigOpt = Annotated[
    Path | None,
    typer.Option(help="A TOML file of settings (or DICEHALL_CONFIG).", show_default=False),
]


def _url(command: str, db: str | None, config: Path | None) -> str:
    """The database's URL from the option, the config file or the default."""
    from dicehall.server import missing_modules

    if missing := missing_modules():
        fail(f"dicehall {command} needs the server extra (missing: {', '.join(missing)})")
    from dicehall.server.ops.settings import database_url, load_settings

    settings = guarded(lambda: load_settings(config, db=db))
    return database_url(settings.db)


def _engine(command: str, db: str | None, config: Path | None, *, exists: bool = True) -> Engine:
    """The database's engine; with `exists`, an SQLite file that is not there is an error
    (connecting would create an empty one)."""
    from sqlalchemy import create_engine

    engine = create_engine(_url(command, db, config), hide_parameters=True)
    path = engine.url.database
    if exists and engine.dialect.name == "sqlite" and path and not Path(path).is_file():
        engine.dispose()
        fail(f"no database at {path}")
    return engine


@app.command(rich_help_panel="Host")
def migrate(
    db: DbOpt = None,
    config: ConfigOpt = None,
    check: Annotated[
        bool,
        typer.Option("--check", help="Change nothing; exit 1 if the database is behind."),
    ] = False,
    current: Annotated[
        bool, typer.Option("--current", help="Change nothing; print the revisions.")
    ] = False,
) -> None:
    """Bring the server's database to this version's schema (the server also does on start).

    Exits 2, changing nothing, if the database is ahead: migrated by a newer dicehall."""
    from sqlalchemy.exc import SQLAlchemyError

    from dicehall.server import migrations

    engine = _engine("migrate", db, config, exists=check or current)
    shown = engine.url.render_as_string()
    try:
        with engine.connect() as connection:
            was = migrations.current(connection)
            behind = migrations.behind(connection)
        head = migrations.head()
        print(f"database {shown}: at revision {was or '(none)'}, this dicehall's newest {head}")
        if current:
            return
        if check:
            if behind:
                print("behind: `dicehall migrate` brings it up to date")
                raise typer.Exit(1)
            print("up to date")
            return
        if behind:
            migrations.upgrade(engine)
            with engine.connect() as connection:
                print(f"migrated to {migrations.current(connection)}")
        else:
            print("up to date: nothing to do")
    except migrations.DatabaseAhead as e:
        fail(str(e))
    except SQLAlchemyError as e:
        fail(f"database {shown}: {type(e).__name__}: {getattr(e, 'orig', None) or e}")
    finally:
        engine.dispose()


@app.command(rich_help_panel="Host")
def backup(
    destination: Annotated[Path, typer.Argument(help="The file to write the copy to.")],
    db: DbOpt = None,
    config: ConfigOpt = None,
    overwrite: Annotated[
        bool, typer.Option("--overwrite", help="Replace DESTINATION if it exists.")
    ] = False,
) -> None:
    """Copy an SQLite database while the server runs (online backup API); checked before
    it is put in place. PostgreSQL: pg_dump (docs/operators/backup.md)."""
    from dicehall.server.tables.backup import sqlite_path

    # another database is refused before an engine needs its driver
    guarded(lambda: sqlite_path(_url("backup", db, config)))
    engine = _engine("backup", db, config)
    url = engine.url.render_as_string(hide_password=False)
    engine.dispose()
    from dicehall.server.tables.backup import backup_sqlite

    done = guarded(lambda: backup_sqlite(url, destination, overwrite=overwrite))
    tables = ", ".join(f"{n} {status}" for status, n in sorted(done.tables.items())) or "none"
    print(
        f"backed up to {done.path}: {done.bytes / 1e6:.1f} MB, schema revision"
        f" {done.revision or '(none)'}, tables: {tables}"
    )
