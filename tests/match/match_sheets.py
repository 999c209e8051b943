"""Score-sheet builders shared by the match tests."""

from __future__ import annotations

import copy


def half(atk_first, td, a_atk, a_def, coaches=("A", "B")):
    a, b = coaches
    return {
        "atk_first": atk_first,
        "td": td,
        "pb": {a: {"atk": a_atk, "def": a_def}, b: {"atk": a_def, "def": a_atk}},
    }


def sheet(h1, h2, forfeit=None, coaches=("A", "B")):
    halves = [h for h in (h1, h2) if h is not ...]
    return {"coaches": list(coaches), "halves": halves, "forfeit": forfeit}


ISSUE_EXAMPLE = {
    "coaches": ["A", "B"],
    "halves": [
        {"atk_first": "A", "td": "A", "pb": {"A": {"atk": 7, "def": 3}, "B": {"atk": 3, "def": 7}}},
        {
            "atk_first": "B",
            "td": None,
            "pb": {"A": {"atk": 2, "def": 9}, "B": {"atk": 9, "def": 2}},
        },
    ],
    "forfeit": None,
}


def mutated(mutate):
    s = copy.deepcopy(ISSUE_EXAMPLE)
    mutate(s)
    return s


def set_field(path, value):
    def mutate(s):
        target = s
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return mutate
