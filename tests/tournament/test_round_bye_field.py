"""`round pair --json` tells a requested bye from a pairing-allocated one (issue 32, 15)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from ball.cli import app

runner = CliRunner()


def ok(db: str, *args: object) -> str:
    r = runner.invoke(app, [*(str(a) for a in args), "--db", db])
    assert r.exit_code == 0, r.output
    return r.output


def _byes(tables: list[dict]) -> dict[str, dict]:
    return {t["a"]: t for t in tables if t["b"] is None}


def test_pair_json_names_the_kind_of_each_bye(tmp_path):
    db = str(tmp_path / "byes.db")
    ok(db, "event", "create", "--name", "Byes", "--system", "swiss", "--rounds", 3)
    for i, name in enumerate(["Ann", "Bob", "Cid", "Dee", "Eve"]):
        ok(db, "event", "add-player", name, "--rating", 2000 - 10 * i)
    ok(db, "event", "bye", "Bob", "--round", 1, "--kind", "half")
    # Bob asked for a half-point bye; of the four left nobody needs one.
    byes = _byes(json.loads(ok(db, "round", "pair", "--json")))
    assert byes == {"Bob": {"table": byes["Bob"]["table"], "a": "Bob", "b": None,
                            "bye": "half", "requested": True,
                            "check": byes["Bob"]["check"]}}  # fmt: skip
    _enter_all(db, 1)
    ok(db, "event", "bye", "Cid", "--round", 2, "--kind", "zero")
    byes = _byes(json.loads(ok(db, "round", "pair", "--json")))
    assert {k: (v["bye"], v["requested"]) for k, v in byes.items()} == {"Cid": ("zero", True)}
    # Round 3: five entrants, one is left over and gets the pairing-allocated bye.
    _enter_all(db, 2)
    byes = _byes(json.loads(ok(db, "round", "pair", "--json")))
    assert len(byes) == 1
    (left_over,) = byes.values()
    assert left_over["bye"] == "pab" and left_over["requested"] is False
    # `round show --json` says the same of the round just paired.
    assert _byes(json.loads(ok(db, "round", "show", "--json"))) == byes


def _enter_all(db: str, round_number: int) -> None:
    for t in json.loads(ok(db, "round", "show", "--round", round_number, "--json")):
        if t["b"] is not None:
            ok(db, "result", "enter", "--round", round_number, "--table", t["table"],
               "--forfeit", "B")  # fmt: skip
