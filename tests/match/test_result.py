"""The result table of spec 13, D-18's fall-backs, forfeits and every sheet fault."""

from __future__ import annotations

import copy

import pytest
from match_sheets import ISSUE_EXAMPLE, half, mutated, set_field, sheet

from ball.games.ball.match.result import Decision, SheetError, decide


def test_issue_example_is_a_touchdown_win():
    d = decide(copy.deepcopy(ISSUE_EXAMPLE))
    assert d.as_dict() == {
        "winner": "A",
        "reason": "touchdowns",
        "td": {"A": 1, "B": 0},
        "pbatk_scoring_half": {"A": 7, "B": None},
        "sd": {"A": (3 - 7) + (9 - 2), "B": (7 - 3) + (2 - 9)},
    }


def test_two_nil_is_a_touchdown_win_even_against_a_better_sd():
    d = decide(sheet(half("A", "A", 20, 0), half("B", "A", 15, 1)))
    assert (d.winner, d.reason) == ("A", "touchdowns")
    assert d.td == {"A": 2, "B": 0}
    assert d.sd["B"] > d.sd["A"]  # no PB figure overturns touchdowns
    assert d.pbatk_scoring_half == {"A": 35, "B": None}


def test_one_nil_for_the_second_coach():
    d = decide(sheet(half("A", None, 3, 4), half("B", "B", 0, 12)))
    assert (d.winner, d.reason) == ("B", "touchdowns")
    assert d.td == {"A": 0, "B": 1}
    assert d.pbatk_scoring_half == {"A": None, "B": 12}


def test_one_one_fewer_pbatk_wins_attack_efficiency():
    # A scores with 4 PBATK, B needs 6; B's SD is better but efficiency decides first.
    d = decide(sheet(half("A", "A", 4, 0), half("B", "B", 1, 6)))
    assert (d.winner, d.reason) == ("A", "attack-efficiency")
    assert d.pbatk_scoring_half == {"A": 4, "B": 6}
    assert d.td == {"A": 1, "B": 1}


def test_one_one_slower_first_touchdown_loses():
    d = decide(sheet(half("A", "A", 9, 0), half("B", "B", 0, 3)))
    assert (d.winner, d.reason) == ("B", "attack-efficiency")


def test_d18_one_one_equal_pbatk_falls_back_to_sd():
    # Both need 5 PBATK; A forced B to spend more in A's defensive moments.
    d = decide(sheet(half("A", "A", 5, 2), half("B", "B", 1, 5)))
    assert d.pbatk_scoring_half == {"A": 5, "B": 5}
    assert d.sd == {"A": (2 - 5) + (5 - 1), "B": (5 - 2) + (1 - 5)}
    assert (d.winner, d.reason) == ("A", "defensive-superiority")


def test_d18_one_one_equal_pbatk_and_equal_sd_is_a_draw():
    d = decide(sheet(half("A", "A", 5, 0), half("B", "B", 0, 5)))
    assert d.sd == {"A": 0, "B": 0}
    assert (d.winner, d.reason) == (None, "draw")


def test_nil_nil_larger_sd_wins():
    d = decide(sheet(half("A", None, 10, 1), half("B", None, 0, 12)))
    assert d.sd == {"A": (1 - 10) + (12 - 0), "B": (10 - 1) + (0 - 12)}
    assert (d.winner, d.reason) == ("A", "defensive-superiority")
    assert d.pbatk_scoring_half == {"A": None, "B": None}


def test_nil_nil_equal_sd_is_a_draw():
    d = decide(sheet(half("A", None, 6, 2), half("B", None, 2, 6)))
    assert (d.winner, d.reason, d.td) == (None, "draw", {"A": 0, "B": 0})


def test_forfeit_is_an_administrative_two_nil():
    # B was ahead on the board, then refused the second half.
    d = decide(sheet(half("A", "B", 0, 3), ..., forfeit="B"))
    assert d.as_dict() == {
        "winner": "A",
        "reason": "forfeit",
        "td": {"A": 2, "B": 0},
        "pbatk_scoring_half": {"A": None, "B": None},
        "sd": {"A": 0, "B": 0},
    }


def test_forfeit_with_no_half_played_and_a_null_half():
    assert decide(sheet(..., ..., forfeit="A")).winner == "B"
    assert decide(sheet(None, None, forfeit="A")).td == {"A": 0, "B": 2}


def test_forfeit_sheet_is_still_validated():
    bad = sheet(half("A", None, 1, 1), ..., forfeit="A")
    bad["halves"][0]["pb"]["B"]["def"] = 5
    with pytest.raises(SheetError, match="dual-entry"):
        decide(bad)


def test_d35_no_forfeit_once_both_halves_were_played_to_their_end():
    # the issue's sheet: the forfeiter won both halves 2-0 on the board
    played = sheet(half("A", "B", 0, 3), half("B", "B", 0, 4), forfeit="B")
    with pytest.raises(SheetError, match="both halves were played to their end"):
        decide(played)
    by_time = sheet(half("A", None, 3, 3), dict(half("B", None, 2, 2), end="time"), forfeit="A")
    with pytest.raises(SheetError, match="refused or abandoned half"):
        decide(by_time)


@pytest.mark.parametrize(
    "halves",
    [
        [],  # refused the match
        [half("A", "B", 0, 3)],  # refused the second half
        [half("A", "A", 3, 0), dict(half("B", None, 1, 0), end="forfeit")],  # abandoned half 2
        [half("A", "A", 3, 0), half("B", None, 1, 0)],  # half 2 unmarked, without a touchdown
        [dict(half("A", None, 2, 0), end="forfeit")],  # abandoned half 1
    ],
)
def test_d35_a_forfeit_before_during_or_between_the_halves_is_recorded(halves):
    d = decide({"coaches": ["A", "B"], "halves": halves, "forfeit": "B"})
    assert (d.winner, d.reason, d.td) == ("A", "forfeit", {"A": 2, "B": 0})


@pytest.mark.parametrize(
    ("fault", "halves", "forfeit"),
    [
        (
            "names no forfeit",
            [half("A", "A", 3, 0), dict(half("B", None, 1, 0), end="forfeit")],
            None,
        ),
        (
            "after half 1, which ended by forfeit",
            [dict(half("A", None, 1, 0), end="forfeit"), half("B", None, 0, 1)],
            "A",
        ),
        ("never played", [None, half("B", None, 0, 1)], "A"),
        (
            "no touchdown is recorded",
            [dict(half("A", None, 1, 0), end="touchdown"), half("B", None, 0, 1)],
            None,
        ),
        (
            "end cannot be 'time'",
            [dict(half("A", "A", 1, 0), end="time"), half("B", None, 0, 1)],
            None,
        ),
        (
            "is not one of",
            [dict(half("A", None, 1, 0), end="whistle"), half("B", None, 0, 1)],
            None,
        ),
    ],
)
def test_d35_half_ends_must_agree_with_the_sheet(fault, halves, forfeit):
    with pytest.raises(SheetError, match=fault):
        decide({"coaches": ["A", "B"], "halves": halves, "forfeit": forfeit})


def test_coach_labels_are_the_names_the_sheet_lists():
    names = ("Kim", "Petrova")
    d = decide(
        sheet(
            half("Kim", None, 2, 8, names), half("Petrova", "Petrova", 1, 3, names), coaches=names
        )
    )
    assert (d.winner, d.reason) == ("Petrova", "touchdowns")
    assert d.td == {"Kim": 0, "Petrova": 1}
    assert d.sd == {"Kim": (8 - 2) + (3 - 1), "Petrova": (2 - 8) + (1 - 3)}


def test_decision_is_frozen():
    d = decide(copy.deepcopy(ISSUE_EXAMPLE))
    assert isinstance(d, Decision)
    with pytest.raises(AttributeError):
        d.winner = "B"  # type: ignore[misc]


BAD_SHEETS = [
    ("dual-entry", set_field(("halves", 0, "pb", "A", "atk"), 8)),
    ("dual-entry", set_field(("halves", 1, "pb", "B", "def"), 3)),
    ("negative", set_field(("halves", 1, "pb", "A", "atk"), -1)),
    ("whole number", set_field(("halves", 0, "pb", "A", "atk"), 2.5)),
    ("whole number", set_field(("halves", 0, "pb", "A", "atk"), True)),
    ("not a coach", set_field(("halves", 1, "td"), "C")),
    (
        "recorded 0 PBATK",
        lambda s: s["halves"][0].update(pb={"A": {"atk": 0, "def": 3}, "B": {"atk": 3, "def": 0}}),
    ),
    ("half 2 is missing", lambda s: s["halves"].pop()),
    ("half 1 is missing", set_field(("halves", 0), None)),
    ("unknown field", set_field(("referee",), "X")),
    ("unknown field", set_field(("halves", 0, "clock"), 3)),
    ("unknown field", set_field(("halves", 0, "pb", "A", "pbdef"), 3)),
    ("unknown field", set_field(("halves", 0, "pb", "Z"), {"atk": 0, "def": 0})),
    ("missing counters", lambda s: s["halves"][0]["pb"].pop("B")),
    ("is missing", lambda s: s["halves"][0]["pb"]["B"].pop("def")),
    ("missing field 'coaches'", lambda s: s.pop("coaches")),
    ("missing field 'atk_first'", lambda s: s["halves"][0].pop("atk_first")),
    ("exactly two", set_field(("coaches",), ["A"])),
    ("must differ", set_field(("coaches",), ["A", "A"])),
    ("forfeit", set_field(("forfeit",), "Z")),
    ("atk_first", set_field(("halves", 1, "atk_first"), "A")),
    ("atk_first", set_field(("halves", 0, "atk_first"), "Q")),
    ("2 halves", lambda s: s["halves"].append(copy.deepcopy(s["halves"][0]))),
    ("must be a list", set_field(("halves",), {})),
]


@pytest.mark.parametrize(("fault", "mutate"), BAD_SHEETS)
def test_bad_sheets_name_the_fault(fault, mutate):
    with pytest.raises(SheetError, match=fault):
        decide(mutated(mutate))


def test_not_an_object():
    with pytest.raises(SheetError, match="JSON object"):
        decide([1, 2])  # type: ignore[arg-type]
