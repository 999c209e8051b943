import json

import pytest

from ball.clocks import ControlError, builtin_controls, get_control, parse_control
from ball.clocks.controls import parse_duration


def test_every_scheme_of_the_rules_is_shipped():
    names = set(builtin_controls())
    for name in ("xiangqi-6.1", "xiangqi-6.2", "xiangqi-6.3", "xiangqi-6.4", "xiangqi-6.5"):
        assert name in names
    assert {"ball-standard", "mahjong-wmc", "xiangqi-fischer", "xiangqi-delay"} <= names


def test_xiangqi_stage_data_matches_article_6():
    c = get_control("xiangqi-6.1")
    assert [(s.moves, s.time, s.repeat) for s in c.stages] == [(40, 5400, False), (10, 900, True)]
    c = get_control("xiangqi-6.3")
    assert [(s.moves, s.time) for s in c.stages] == [(40, 600), (30, 300)]
    assert get_control("xiangqi-6.5").stages[0].moves is None


@pytest.mark.parametrize(
    ("text", "seconds"), [("90m", 5400), ("1h30m", 5400), ("15s", 15), (2.5, 2.5), ("1m30s", 90)]
)
def test_durations(text, seconds):
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["90", "ten minutes", "-5s", "5x", True])
def test_bad_durations_are_refused(text):
    with pytest.raises(ValueError):
        parse_duration(text)


def test_bad_control_names_the_field():
    text = 'name = "x"\ngame = "g"\ntitle = "t"\nplayers = ["a", "b"]\n[[stages]]\ntime = "soon"\n'
    with pytest.raises(ControlError, match=r"stages\.0\.time"):
        parse_control(text, "x.toml")


def test_control_rules_between_fields():
    base = {"name": "x", "game": "g", "title": "t", "players": ["a", "b"]}
    with pytest.raises(ControlError, match="only the last stage"):
        parse_control(json.dumps({**base, "stages": [{"time": 60}, {"moves": 5, "time": 60}]}))
    with pytest.raises(ControlError, match="needs stages"):
        parse_control(json.dumps(base))
    with pytest.raises(ControlError, match="unknown_field"):
        parse_control(json.dumps({**base, "stages": [{"time": 60}], "unknown_field": 1}))
    with pytest.raises(ControlError, match="not valid TOML"):
        parse_control("name = ")


def test_json_and_toml_give_the_same_control():
    c = get_control("mahjong-wmc")
    assert parse_control(json.dumps(c.to_json())) == c


def test_unknown_control_lists_the_known_ones():
    with pytest.raises(ControlError, match="xiangqi-6.1"):
        get_control("blitz")


@pytest.mark.parametrize(
    ("control", "label"),
    [
        ("xiangqi-6.1", "40 moves in 90 min"),
        ("xiangqi-6.2", "30 moves in 60 min"),
        ("xiangqi-6.4", "30 moves in 5 min"),
        ("xiangqi-6.5", "30 min to the end"),
    ],
)
def test_stage_labels_use_the_rules_units(control, label):
    assert get_control(control).stage_label(0) == label
