"""Columns for several server processes and a paged lobby.

``games`` gains ``revision`` (counts changes, so a process can tell its cached copy is old),
``move_number``, ``to_move`` and ``updated_at`` (the lobby and the bot sweep read games from
their rows; ``updated_at`` stays nullable in the schema, though always written, so that SQLite
need not rebuild the table), and ``creator`` (a hash of the creating client's address, for the per-minute
limit); indexes for listing newest first by game and by creator. ``seats.level`` widens to 100
characters for bot specs with options (``mcts:iterations=50``).

Existing rows are filled in: the move number from the actions, ``to_move`` by replaying each
unfinished game (a game type this installation lacks keeps ``NULL``).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ADD COLUMNs: SQLite rebuilds no table for them (a rebuild of "games" would drop it)
    op.add_column("games", sa.Column("revision", sa.Integer, nullable=False, server_default="0"))
    op.add_column("games", sa.Column("move_number", sa.Integer, nullable=False,
                                     server_default="0"))
    op.add_column("games", sa.Column("to_move", sa.Integer, nullable=True))
    # every row gets one below and every new row on insert; left nullable so SQLite need not
    # rebuild the table to say so
    op.add_column("games", sa.Column("updated_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("games", sa.Column("creator", sa.String(64), nullable=True))
    if op.get_bind().dialect.name != "sqlite":  # SQLite does not enforce a VARCHAR's length
        op.alter_column("seats", "level", type_=sa.String(100), existing_type=sa.String(32),
                        existing_nullable=True)
    backfill()
    op.create_index("ix_games_created", "games", ["created_at", "id"])
    op.create_index("ix_games_game_created", "games", ["game", "created_at"])
    op.create_index("ix_games_creator_created", "games", ["creator", "created_at"])


def backfill() -> None:
    bind = op.get_bind()
    games = sa.table("games", sa.column("id", sa.String), sa.column("game", sa.String),
                     sa.column("players", sa.Integer), sa.column("options", sa.JSON),
                     sa.column("seed", sa.BigInteger), sa.column("status", sa.String),
                     sa.column("created_at", sa.DateTime(timezone=True)),
                     sa.column("revision", sa.Integer), sa.column("move_number", sa.Integer),
                     sa.column("to_move", sa.Integer),
                     sa.column("updated_at", sa.DateTime(timezone=True)))
    actions = sa.table("actions", sa.column("game_id", sa.String), sa.column("n", sa.Integer),
                       sa.column("notation", sa.Text),
                       sa.column("created_at", sa.DateTime(timezone=True)))
    rows = bind.execute(sa.select(games.c.id, games.c.game, games.c.players, games.c.options,
                                  games.c.seed, games.c.status, games.c.created_at)).all()
    for row in rows:
        moves = bind.execute(sa.select(actions.c.notation, actions.c.created_at)
                             .where(actions.c.game_id == row.id).order_by(actions.c.n)).all()
        updated = max([row.created_at, *(m.created_at for m in moves)])
        bind.execute(sa.update(games).where(games.c.id == row.id).values(
            move_number=len(moves), revision=len(moves), updated_at=updated,
            to_move=None if row.status == "finished" else replayed_to_move(row, moves)))


def replayed_to_move(row: sa.Row, moves: list[sa.Row]) -> int | None:
    import palio.games as registry
    from palio.core.errors import PalioError

    try:
        state = registry.get(row.game).setup(row.players, row.seed, row.options)
        for move in moves:
            state.apply(move.notation)
    except PalioError:
        return None
    return None if state.is_over else state.to_move


def downgrade() -> None:
    """Run through ``palio.server.base.db.upgrade(engine, "0001")``, which turns SQLite's foreign
    keys off: dropping columns rebuilds the table there."""
    op.drop_index("ix_games_creator_created", "games")
    op.drop_index("ix_games_game_created", "games")
    op.drop_index("ix_games_created", "games")
    if op.get_bind().dialect.name != "sqlite":
        op.alter_column("seats", "level", type_=sa.String(32), existing_type=sa.String(100),
                        existing_nullable=True)
    with op.batch_alter_table("games") as batch:
        for name in ("creator", "updated_at", "to_move", "move_number", "revision"):
            batch.drop_column(name)
