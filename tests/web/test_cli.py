"""`ball serve` refuses bad input with one line and exit status 2."""

from __future__ import annotations

import typer
from typer.testing import CliRunner

from ball.cli import serve


def cli() -> typer.Typer:
    app = typer.Typer()
    serve.register(app)

    @app.callback()
    def _root() -> None:
        """BALL"""

    return app


def test_serve_without_a_database_fails_cleanly(monkeypatch):
    monkeypatch.delenv("BALL_DB", raising=False)
    result = CliRunner().invoke(cli(), ["serve"])
    assert result.exit_code == 2
    assert "--db" in result.output


def test_serve_with_an_unusable_database_fails_cleanly(tmp_path, monkeypatch):
    monkeypatch.delenv("BALL_DB", raising=False)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = CliRunner().invoke(cli(), ["serve", "--db", str(blocker / "sub" / "db.sqlite")])
    assert result.exit_code == 2
    assert "cannot open database" in result.output


def test_serve_rejects_a_bad_port():
    result = CliRunner().invoke(cli(), ["serve", "--port", "70000", "--db", "x.sqlite"])
    assert result.exit_code == 2
