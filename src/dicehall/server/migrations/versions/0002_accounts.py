"""Player accounts and sessions, finished games' results by seat, and ratings.

Tables already finished keep no result of their own here: each gets a row
without one, so the server never rates them after the fact (they were
played before there were rated tables) and never takes them for a game
whose recording a stop interrupted.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("name_key", sa.String(40), nullable=True, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("deleted", sa.Float, nullable=True),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False, index=True
        ),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    results = op.create_table(
        "game_results",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("finished", sa.Float, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Index("game_results_by_game", "game", "finished"),
    )
    op.create_table(
        "result_seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column(
            "account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=True, index=True
        ),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("won", sa.Float, nullable=False),
        sa.Column("net", sa.Float, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=True),
        sa.Column("sigma_before", sa.Float, nullable=True),
        sa.Column("mu_after", sa.Float, nullable=True),
        sa.Column("sigma_after", sa.Float, nullable=True),
    )
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("ordinal", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Float, nullable=False),
        sa.Index("ratings_by_game", "game", "ordinal"),
    )
    tables = sa.table(
        "tables", sa.column("id"), sa.column("game"), sa.column("status"), sa.column("created")
    )
    op.execute(
        results.insert().from_select(
            ["table_id", "game", "finished", "rated"],
            sa.select(tables.c.id, tables.c.game, tables.c.created, sa.false()).where(
                tables.c.status == "over"
            ),
        )
    )


def downgrade() -> None:
    for name in ("ratings", "result_seats", "game_results", "sessions", "accounts"):
        op.drop_table(name)
