"""Alembic's script directory for every branch (tournament, desk, clocks, web): `env.py`
and `versions/`; `ball.storage.migrate` runs it on a database's connection."""
