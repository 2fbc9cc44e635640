"""Alembic's entry point: run the revisions on the connection `upgrade` hands over, or,
from the `alembic` command, on the database named by `-x db=URL` (or alembic.ini)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from dicehall.server.migrations.schema import metadata

cfg = context.config
connection = cfg.attributes.get("connection")


def run(conn: object) -> None:
    context.configure(
        connection=conn,  # type: ignore[arg-type]
        target_metadata=metadata,
        render_as_batch=True,  # SQLite alters a table by copying it
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if connection is not None:
    run(connection)
else:
    url = context.get_x_argument(as_dictionary=True).get("db") or cfg.get_main_option(
        "sqlalchemy.url"
    )
    if not url:
        raise SystemExit("name the database: alembic -x db=URL ...")
    engine = create_engine(url)
    with engine.begin() as conn:
        run(conn)
    engine.dispose()
