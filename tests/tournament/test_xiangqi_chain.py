"""Seed 004 article 15.1/15.2: the ranking chain ends where the seed's does (issue 32, 11).

Games and wins with Black are no criterion of the seed: they rank only when the organiser
adds them to the chain. A tie the chain leaves is a shared rank, and at a group's cut it
goes to the higher seed (E-15)."""

from __future__ import annotations

import json

import pytest

from ball.games import game
from ball.tournament.standings import default_chain

from .test_groups_cli import Desk

# 16 entrants, snake-seeded into 4 groups: group A holds seeds 1, 8, 9 and 16.
NAMES = [f"G{i:02d}" for i in range(1, 17)]
RATING = {name: 2400 - 10 * i for i, name in enumerate(NAMES)}


@pytest.mark.parametrize("system", ["round-robin", "double-round-robin", "swiss"])
def test_the_xiangqi_default_chain_is_the_seeds(system):
    chain = default_chain(system, game("xiangqi"))
    assert "black-games" not in chain and "black-wins" not in chain
    assert chain[-1] == "fouls"  # 15.1 and 15.2 both end on fouls


def test_a_groups_event_takes_15_1_without_black_criteria():
    assert default_chain("groups", game("xiangqi")) == [
        "sanctions", "sonneborn-berger", "wins", "direct-encounter", "fouls"
    ]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize(
    "cycle", [("G01", "G08", "G09"), ("G01", "G09", "G08")], ids=["1>8>9>1", "1>9>8>1"]
)
def test_a_three_way_tie_at_the_cut_goes_to_the_higher_seeds(tmp_path, cycle):
    """G01, G08 and G09 beat each other in a circle and all beat G16: equal on points,
    Sonneborn-Berger, wins, direct encounter and fouls. 15.1 cannot separate them; E-15
    qualifies the two higher seeds, whatever colours the tables gave them."""
    beats = {(cycle[0], cycle[1]), (cycle[1], cycle[2]), (cycle[2], cycle[0])}

    def decide(a: str, b: str) -> str:
        if (a, b) in beats:
            return "A"
        if (b, a) in beats:
            return "B"
        return "A" if RATING[a] > RATING[b] else "B"

    desk = Desk(tmp_path, game="xiangqi")
    desk.ok("event", "create", "--name", "XQ", "--system", "groups", "--game", "xiangqi",
            "--groups", 4, "--final", "knockout")  # fmt: skip
    for name in NAMES:
        desk.ok("event", "add-player", name, "--rating", RATING[name])
    for rnd in (1, 2, 3):
        desk.play(rnd, decide)
    group_a = next(
        g
        for g in json.loads(desk.ok("standings", "--json"))["groups"]["groups"]
        if {r["name"] for r in g["standings"]} == {"G01", "G08", "G09", "G16"}
    )
    ranks = {r["name"]: r["rank"] for r in group_a["standings"]}
    assert ranks == {"G01": 1, "G08": 1, "G09": 1, "G16": 4}
    tables = json.loads(desk.ok("round", "pair", "--json"))
    finalists = {x for t in tables for x in (t["a"], t["b"]) if x}
    assert {"G01", "G08"} <= finalists and "G09" not in finalists
