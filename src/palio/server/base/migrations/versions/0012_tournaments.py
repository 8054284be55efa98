"""Tournaments (palio.server.tournaments): the tournament, its entrants, its rounds (one row
per round, unique per tournament and number: each round is created once), each round's
tables (the game playing it and its seat order) and byes.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("timing", sa.JSON, nullable=True),
        sa.Column("on_timeout", sa.JSON, nullable=True),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("scoring", sa.String(16), nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("bots", sa.Boolean, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("organiser_id", sa.Integer, nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("round_days", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_tournaments_starts_at", "tournaments", ["starts_at"])
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.Integer,
                  sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("withdrawn", sa.Boolean, nullable=False),
        sa.Column("timeouts", sa.Integer, nullable=False),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tournament_rounds",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.Integer,
                  sa.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deadline_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("tournament_id", "number", name="uq_tournament_rounds_number"),
    )
    op.create_index("ix_tournament_rounds_tournament_id", "tournament_rounds",
                    ["tournament_id"])
    op.create_index("ix_tournament_rounds_deadline_at", "tournament_rounds", ["deadline_at"])
    op.create_table(
        "tournament_tables",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("round_id", sa.Integer,
                  sa.ForeignKey("tournament_rounds.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("places", sa.JSON, nullable=True),
        sa.Column("scores", sa.JSON, nullable=True),
    )
    op.create_index("ix_tournament_tables_round_id", "tournament_tables", ["round_id"])
    op.create_table(
        "tournament_byes",
        sa.Column("round_id", sa.Integer,
                  sa.ForeignKey("tournament_rounds.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("account_id", sa.Integer, primary_key=True),
    )


def downgrade() -> None:
    for table in ("tournament_byes", "tournament_tables", "tournament_rounds",
                  "tournament_entrants", "tournaments"):
        op.drop_table(table)
