"""Alembic environment: runs on the connection handed over by `ball.storage.migrate`."""

from __future__ import annotations

from alembic import context

from ball.storage import Base

target_metadata = Base.metadata


def run_migrations_online() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:
        from ball.storage import make_engine

        with make_engine(context.config.get_main_option("sqlalchemy.url")).begin() as conn:
            _run(conn)
    else:
        _run(connection)


def _run(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


run_migrations_online()
