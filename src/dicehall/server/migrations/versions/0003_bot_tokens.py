"""Bots from outside: their names and tokens' hashes (server/outside_bots.py).

Servers of the version that brought these made the table themselves, on
first start; a database from one of them has it already and keeps it.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if "bot_tokens" in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table(
        "bot_tokens",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("bot_tokens")
