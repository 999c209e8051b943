import json

from typer.testing import CliRunner

from ball.cli.clock import app

runner = CliRunner()


def test_controls_lists_every_shipped_control():
    result = runner.invoke(app, ["controls"])
    assert result.exit_code == 0
    names = [line.split("\t")[0] for line in result.stdout.splitlines()]
    assert "xiangqi-6.1" in names and "mahjong-wmc" in names and "ball-standard" in names


def test_show_prints_json_in_seconds():
    result = runner.invoke(app, ["show", "xiangqi-6.2"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["stages"][0] == {"moves": 30, "time": 3600.0, "repeat": False}


def test_unknown_control_is_exit_2_one_line():
    result = runner.invoke(app, ["show", "blitz"])
    assert result.exit_code == 2
    assert "unknown time control" in result.stderr and len(result.stderr.splitlines()) == 1


def test_check_a_bad_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "b"\ngame = "g"\ntitle = "t"\nplayers = ["a"]\n[[stages]]\ntime=1\n')
    result = runner.invoke(app, ["check", str(bad)])
    assert result.exit_code == 2 and "players" in result.stderr


def test_replay_a_log(tmp_path):
    log = tmp_path / "log.json"
    log.write_text(
        json.dumps([{"kind": "start", "at": 0}, {"kind": "press", "at": 20, "data": {}}])
    )
    result = runner.invoke(app, ["replay", "mahjong-wmc", str(log), "--at", "30"])
    assert result.exit_code == 0
    state = json.loads(result.stdout)
    # East's first turn: 20 s, 5 s over the turn limit -> 5 points
    assert state["players"][0]["penalty_points"] == 5 and state["mover"] == 1
    result = runner.invoke(app, ["replay", "mahjong-wmc", str(log), "--history"])
    kinds = [e["kind"] for e in json.loads(result.stdout)]
    assert kinds == ["start", "turn_overrun", "press"]


def test_replay_refuses_a_typed_in_flag(tmp_path):
    log = tmp_path / "log.json"
    log.write_text(json.dumps([{"kind": "start", "at": 0}, {"kind": "flag", "at": 5}]))
    result = runner.invoke(app, ["replay", "xiangqi-6.5", str(log)])
    assert result.exit_code == 2 and "kind" in result.stderr


def test_history_and_round_from_the_database(tmp_path):
    from ball.clocks.store import ClockStore
    from ball.storage import open_database

    db = tmp_path / "venue.db"
    store = ClockStore(open_database(db)[1], lambda: 1000.0)
    view = store.create("T1", "mahjong-wmc", pin="2468", round="R1")
    store.record(view.id, "start")
    store.now = lambda: 1040.0
    store.record(view.id, "press")
    result = runner.invoke(app, ["history", str(view.id), "--db", str(db)])
    assert result.exit_code == 0
    history = json.loads(result.stdout)
    assert [e["kind"] for e in history[:4]] == ["start", "turn_overrun", "turn_overrun", "press"]
    assert history[2]["data"] == {"block": 2, "blocks": 1, "points": 5}
    # South's turn has been running since 1040 (decades): charged in a few bulk steps.
    assert len(history) < 40 and "threshold" in [e["kind"] for e in history]
    assert sum(e["data"].get("blocks", 0) for e in history) > 10**6
    result = runner.invoke(app, ["round", "R1", "--db", str(db)])
    assert result.exit_code == 0 and "east=10pt" in result.stdout
    result = runner.invoke(app, ["history", "99", "--db", str(db)])
    assert result.exit_code == 2 and "no clock 99" in result.stderr
    result = runner.invoke(app, ["round", "R9", "--db", str(db)])
    assert result.exit_code == 2
