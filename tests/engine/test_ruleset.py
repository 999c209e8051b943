"""Rulesets as data: shipped files, every *(param)* decision changed through a small TOML
that `extends = "standard"`, and unknown keys / bad values rejected naming the key."""

from __future__ import annotations

import pytest

from ball.games.ball.engine import Game, RulesetError, load_ruleset, shipped_rulesets

from .scenario import position


def ruleset(tmp_path, body: str, name: str = "custom"):
    path = tmp_path / f"{name}.toml"
    path.write_text(f'extends = "standard"\nname = "{name}"\n{body}\n', encoding="utf-8")
    return load_ruleset(str(path))


def rejected(tmp_path, body: str) -> str:
    with pytest.raises(RulesetError) as err:
        ruleset(tmp_path, body)
    return str(err.value)


def test_shipped_rulesets_and_standard_values():
    assert {"standard", "pe", "cards"} <= set(shipped_rulesets())
    rs = load_ruleset()
    assert (rs.pa, rs.end_zone_depth, rs.short_range, rs.long_min_distance) == (2, 1, 4, 2)
    assert (rs.pe_mode, rs.card_mode) == (False, False)
    assert rs.roster == ("X1", "O2", "X3", "Q4", "X5", "O6", "X7")  # D-04
    assert set(rs.pa_cost.values()) == {1}  # D-06
    assert (load_ruleset("pe").pe_mode, load_ruleset("pe").card_mode) == (True, False)
    assert load_ruleset("cards").card_mode


# --- parameters -----------------------------------------------------------------------------


def test_d03_end_zone_depth_is_a_parameter(tmp_path):
    """D-03 (param): with depth 2, S scores on row 16 too; standard depth 1 does not."""
    deep = ruleset(tmp_path, "[board]\nend_zone_depth = 2", "deep")
    g = position({"S:X5": "G15"}, rs=deep)
    g.apply("G15-H16")
    assert g.is_over and g.score == {"S": 1, "N": 0}
    g1 = position({"S:X5": "G15"})
    g1.apply("G15-H16")
    assert not g1.is_over
    n = position({"N:X5": "G3"}, rs=deep, ball="N:X5", attack="N", to_move="N")
    n.apply("G3-H2")
    assert n.score == {"S": 0, "N": 1}


def test_d06_pa_cost_table_is_a_parameter(tmp_path):
    rs = ruleset(tmp_path, "[pa_cost]\nlong = 2\ndodge = 2")
    g = position({"S:X5": "G9", "N:X3": "I11", "S:X1": "C9"}, rs=rs)
    assert any(a.startswith("G9@") for a in g.legal_actions())
    g.apply("C9-D10")
    assert not any(a.startswith("G9@") for a in g.legal_actions())
    assert not any(a.startswith("G9-I11/") for a in g.legal_actions())


def test_s3_pa_per_turn_is_a_parameter(tmp_path):
    g = Game.new(ruleset(tmp_path, "[turn]\npa = 3"))
    assert g.pa == 3


def test_s9_pass_distances_are_parameters(tmp_path):
    rs = ruleset(tmp_path, "[pass]\nshort_range = 2\nlong_min_distance = 4")
    g = position({"S:X5": "G9", "S:X1": "G13", "S:X3": "I11"}, rs=rs)
    legal = g.legal_actions()
    assert any(a.startswith("G9~I11@") for a in legal)
    assert not any(a.startswith("G9~G13@") for a in legal)
    assert "G9@G15" not in legal and "G9@G17" in legal  # G15 is 2 from G13; G17 is 4


def test_d12_pb_for_reset_is_a_parameter(tmp_path):
    rs = ruleset(tmp_path, "[turn]\npb_for_reset = 0")
    g = position({"S:X1": "G9", "N:X5": "H10"}, ball="N:X5", attack="N", rs=rs)
    g.apply("G9-H10")
    g.apply("reset")
    assert g.pb == {"S": {"atk": 0, "def": 1}, "N": {"atk": 1, "def": 0}}


def test_d14_pe_table_is_a_parameter(tmp_path):
    rs = ruleset(tmp_path, "[modes]\npe = true\n[pe_table]\nmove = 2\nblock = 0")
    g = position({"S:X1": "G9", "N:X3": "I11"}, rs=rs)
    g.apply("G9-H10")
    assert g.pe["S"] == 2
    g.apply("H10-I11")  # block earns nothing in this ruleset
    assert g.pe["S"] == 2


def test_d04_d05_roster_kinds_and_formation_are_parameters(tmp_path):
    body = '[kinds]\nX = ["diag1"]\n[formation.S]\nX5 = "G5"\n'
    g = Game.new(ruleset(tmp_path, body))
    at = {f"{p['side']}:{p['id']}": p["at"] for p in g.to_json()["pieces"]}
    assert at["S:X5"] == "G5"
    g.apply("end")
    # X lost its 2-square move; H6 (S:Q4) is a protection
    assert {a.split("-")[1] for a in g.legal_actions() if a.startswith("G5-")} == {
        "F4", "H4", "F6", "H6",
    }  # fmt: skip


def test_d15_custom_deck_file(tmp_path):
    (tmp_path / "mydeck.toml").write_text(
        'provisional = false\n[[card]]\nname = "surge"\ntitle = "Surge"\npe = 1\n'
        'effect = "extra_pa"\namount = 2\n',
        encoding="utf-8",
    )
    rs = ruleset(tmp_path, '[modes]\ncards = true\n[cards]\ndeck = "mydeck.toml"')
    assert [c.name for c in rs.deck.cards] == ["surge"]
    g = position({}, rs=rs, ruleset="custom", pe={"S": 1, "N": 0})
    g.apply("card surge")
    assert g.pa == 4


# --- faults ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "key"),
    [
        ("colour = 1", "'colour'"),
        ("[turn]\npaa = 3", "'turn.paa'"),
        ("[board]\ndepth = 2", "'board.depth'"),
        ("[pe_table]\nrun = 1", "'pe_table.run'"),
        ("[modes]\nturbo = true", "'modes.turbo'"),
        ("[formation.E]\nX1 = 'D8'", "'formation.E'"),
        ("[time]\nlunch_minutes = 30", "'time.lunch_minutes'"),
    ],
)
def test_unknown_keys_are_rejected_naming_them(tmp_path, body, key):
    assert f"unknown key {key}" in rejected(tmp_path, body)


@pytest.mark.parametrize(
    ("body", "key"),
    [
        ("[turn]\npa = 2.5", "turn.pa"),
        ("[turn]\nreset_ends_turn = 1", "turn.reset_ends_turn"),
        ("[board]\nend_zone_depth = '2'", "board.end_zone_depth"),
        ("[pass]\nshort_range = -1", "pass.short_range"),
        ("[modes]\npe = 'yes'", "modes.pe"),
        ("[pa_cost]\nmove = true", "pa_cost.move"),
        ("pa_cost = 3", "[pa_cost]"),
        ("[time]\nhalf_minutes = 'x'", "time.half_minutes"),
        ("[kinds]\nX = ['diag3']", "kinds.X"),
        ("[kinds]\nX = []", "kinds.X"),
        ("[roster]\npieces = []", "roster.pieces"),
        ("[roster]\npieces = ['X1', 'X1']", "roster.pieces"),
        ("[roster]\npieces = ['Z1']\nball_carrier = 'Z1'", "roster.pieces"),
        ("[roster]\nball_carrier = 'X9'", "roster.ball_carrier"),
        ("[formation.S]\nX1 = 'D9'", "formation.S.X1"),
        ("[formation.S]\nX1 = 'F8'", "formation"),
        ("[formation.S]\nZ9 = 'A1'", "formation.S"),
    ],
)
def test_bad_values_are_rejected_naming_the_key(tmp_path, body, key):
    assert key in rejected(tmp_path, body)


def test_ruleset_file_problems(tmp_path):
    with pytest.raises(RulesetError, match="not found"):
        load_ruleset(str(tmp_path / "absent.toml"))
    (tmp_path / "broken.toml").write_text("[turn\npa = 2\n")
    with pytest.raises(RulesetError, match="broken.toml: not valid TOML"):
        load_ruleset(str(tmp_path / "broken.toml"))
    (tmp_path / "a.toml").write_text('extends = "b.toml"\n')
    (tmp_path / "b.toml").write_text('extends = "a.toml"\n')
    with pytest.raises(RulesetError, match="cycle"):
        load_ruleset(str(tmp_path / "a.toml"))


def test_d15_bad_deck_files_name_the_card_key(tmp_path):
    (tmp_path / "d.toml").write_text('[[card]]\nname = "x"\npe = 1\neffect = "teleport"\n')
    assert "card[0].effect" in rejected(tmp_path, '[cards]\ndeck = "d.toml"')
    (tmp_path / "e.toml").write_text('[[card]]\nname = "x"\npe = 1\neffect = "extra_pa"\n')
    assert "missing key 'amount'" in rejected(tmp_path, '[cards]\ndeck = "e.toml"')


@pytest.mark.parametrize(
    ("body", "key"), [('kinds = "X"', "kinds"), ("formation = 3", "formation")]
)
def test_ruleset_non_table_sections_name_the_key(tmp_path, body, key):
    assert key in rejected(tmp_path, body)


@pytest.mark.parametrize("depth", [0, 9])
def test_d03_end_zone_depth_must_be_a_real_depth(tmp_path, depth):
    assert "board.end_zone_depth" in rejected(tmp_path, f"[board]\nend_zone_depth = {depth}")


def test_d15_missing_deck_names_cards_deck(tmp_path):
    assert "cards.deck" in rejected(tmp_path, '[cards]\ndeck = "nodeck"')
