"""The schema as it was before migrations: tables, their steps, settings and chat.

A database made by a server of that time has some or all of these already
(settings and chat came later, each created when first needed; so did a
table's fairness column): only what is missing is added, so every such
database arrives here with all its rows. A new database gets all four.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    have = set(sa.inspect(op.get_bind()).get_table_names())
    if "tables" not in have:
        op.create_table(
            "tables",
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("room", sa.String(16), nullable=False, unique=True),
            sa.Column("game", sa.String(32), nullable=False),
            sa.Column("seats", sa.Integer, nullable=False),
            sa.Column("options", sa.JSON, nullable=False),
            sa.Column("players", sa.JSON, nullable=False),
            sa.Column("status", sa.String(16), nullable=False, index=True),
            sa.Column("seed", sa.String(64), nullable=False),
            sa.Column("commitment", sa.String(64), nullable=False),
            sa.Column("turn_seconds", sa.Float, nullable=True),
            sa.Column("bot_delay_ms", sa.Integer, nullable=False),
            sa.Column("rematch_id", sa.String(32), nullable=True),
            sa.Column("created", sa.Float, nullable=False),
            sa.Column("fairness", sa.String(16), nullable=False, server_default="seed"),
        )
    else:
        columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("tables")}
        if "fairness" not in columns:  # tables stored before there was a choice are "seed"
            with op.batch_alter_table("tables") as batch:
                batch.add_column(
                    sa.Column("fairness", sa.String(16), nullable=False, server_default="seed")
                )
    if "steps" not in have:
        op.create_table(
            "steps",
            sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
            sa.Column("idx", sa.Integer, primary_key=True),
            sa.Column("step", sa.JSON, nullable=False),
        )
    if "table_settings" not in have:
        op.create_table(
            "table_settings",
            sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
            sa.Column("settings", sa.JSON, nullable=False),
        )
    if "chat_messages" not in have:
        op.create_table(
            "chat_messages",
            sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
            sa.Column("idx", sa.Integer, primary_key=True),
            sa.Column("at", sa.Float, nullable=False),
            sa.Column("seat", sa.Integer, nullable=True),
            sa.Column("name", sa.String(64), nullable=False),
            sa.Column("text", sa.String(1200), nullable=False),
            sa.Column("quick", sa.String(32), nullable=True),
        )


def downgrade() -> None:
    raise NotImplementedError("the first schema is not undone: it holds every game played")
