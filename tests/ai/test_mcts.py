"""The MCTS player (ball.games.ball.ai.mcts): legal actions only, touchdowns found, threats stopped,
one seed one game (issue 14). Positions are spec §18.2 documents built with the engine
tests' scenario helper; `oracle.can_score` (exhaustive turn enumeration) is the judge."""

from __future__ import annotations

import dataclasses
import importlib.util
import pathlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ball.games.ball.ai import AGENTS, LEVEL_ALIASES, agent, agent_name
from ball.games.ball.ai.mcts import LEVELS, MctsAgent
from ball.games.ball.ai.mcts.levels import load
from ball.games.ball.engine import Game
from ball.games.ball.engine.generate import legal
from ball.games.ball.engine.state import N, S

from .oracle import can_score


def _scenario():
    path = pathlib.Path(__file__).parent.parent / "engine" / "scenario.py"
    spec = importlib.util.spec_from_file_location("engine_scenario_ai", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


position = _scenario().position

# The shipped levels with the time cap lifted: the iteration budget alone stops the search,
# so the tests are deterministic whatever the load on the machine.
MEDIUM = dataclasses.replace(LEVELS["medium"], seconds=None)
EASY = dataclasses.replace(LEVELS["easy"], seconds=None)


def play_turn(g: Game, player: MctsAgent) -> list:
    """Let `player` act until the turn passes (or the half ends); returns its actions."""
    s = g.state
    turn = s.turn
    played = []
    while not g.is_over and s.turn == turn:
        a = player(s)
        assert a in legal(s), f"illegal action {a} chosen"
        g.play_tuple(a)
        played.append(a)
    return played


# --- touchdown in one turn (§10: a touchdown ends the half) --------------------------------

TOUCHDOWN_POSITIONS = {
    # X5 four rows short: two 2-square diagonal moves, G13-I15 and I15-K17 (§4).
    "run": {"S:X5": "G13"},
    # a short pass next to a receiver standing beside the end zone, who steps onto the ball
    # (§9: taking a free ball at the end of an action, in the end zone, scores, D-11).
    # X5 on row 12 cannot reach row 17 with two moves; J16 is 4 squares away.
    "pass": {"S:X5": "F12", "S:X1": "J16", "N:X1": "G15", "N:O2": "H14"},
}


@pytest.mark.parametrize("name", sorted(TOUCHDOWN_POSITIONS))
def test_finds_a_touchdown_in_one_turn(name: str) -> None:
    g = position(TOUCHDOWN_POSITIONS[name], to_move="S", attack="S")
    assert can_score(g.state, S)  # the oracle agrees there is one
    play_turn(g, MctsAgent(MEDIUM, seed=1))
    assert g.is_over and g.score == {"S": 1, "N": 0}


# --- stopping a touchdown threat -----------------------------------------------------------

THREAT_POSITIONS = {
    # N's carrier on row 5 runs G5-E3, E3-C1 unless S's X1 dodges it (§5, forced fumble).
    "runner": {"N:X5": "G5", "S:X1": "E7", "S:O2": "J8"},
    # N passes to X1 on D2, who steps onto the ball on row 1 (§9); S's X3 can knock X1
    # down (§5/§6) or S can go for the carrier.
    "pass": {"N:X5": "F6", "N:X1": "D2", "S:X3": "F4", "S:Q4": "I7"},
    # the carrier is one block away (§7): S's X3 stands next to it.
    "block": {"N:X5": "G5", "S:X3": "H6", "S:X7": "K9"},
}


@pytest.mark.parametrize("name", sorted(THREAT_POSITIONS))
def test_stops_a_touchdown_threat(name: str) -> None:
    g = position(THREAT_POSITIONS[name], ball="N:X5", to_move="S", attack="N")
    threat = g.copy()
    threat.state.to_move = N  # had S passed, N would score in its turn
    assert can_score(threat.state, N)
    play_turn(g, MctsAgent(MEDIUM, seed=2))
    assert not g.is_over
    assert not can_score(g.state, N), "N can still score after S's turn"


# --- legality and determinism ---------------------------------------------------------------


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 60))
def test_never_plays_an_illegal_action(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    g = Game.new()
    for _ in range(plies):  # a random but reachable position (steals, releases included)
        if g.is_over:
            break
        g.play_tuple(rng.choice(g.legal_tuples()))
    player = MctsAgent(dataclasses.replace(EASY, iterations=15), seed=seed)
    for _ in range(6):
        if g.is_over:
            break
        a = player(g.state)
        assert a in legal(g.state)
        g.play_tuple(a)


def test_same_seed_same_moves() -> None:
    def game(seed: int) -> list:
        g = Game.new()
        players = {S: MctsAgent(EASY, seed=seed), N: MctsAgent(EASY, seed=seed + 1)}
        moves = []
        while not g.is_over and g.turn <= 2:
            s = g.state
            a = players[s.steal_by if s.steal_by >= 0 else s.to_move](s)
            moves.append(a)
            g.play_tuple(a)
        return moves

    assert game(7) == game(7)


def test_the_search_stays_within_its_iteration_budget() -> None:
    player = MctsAgent(dataclasses.replace(EASY, iterations=30), seed=0)
    player(Game.new().state)
    assert 0 < player.search.last_iterations <= 30


def test_self_play_searches_by_iterations_even_when_the_clock_runs_out(monkeypatch) -> None:
    """A clock that jumps 100 s per reading makes the time cap bind at once: the player at the
    board stops after one iteration; the self-play player (`time_cap=False`) still spends
    its whole budget, so a seed replays the same match on a loaded machine."""
    from ball.games.ball.ai.mcts import search

    ticks = iter(range(0, 10**9, 100))
    monkeypatch.setattr(search.time, "perf_counter", lambda: float(next(ticks)))
    state = Game.new().state
    timed, untimed = agent("mcts-easy", seed=4), agent("mcts-easy", seed=4, time_cap=False)
    assert isinstance(timed, MctsAgent) and isinstance(untimed, MctsAgent)
    timed(state.copy())
    untimed(state.copy())
    assert timed.search.last_iterations == 1
    assert untimed.search.last_iterations == LEVELS["easy"].iterations


# --- naming: agents and level aliases --------------------------------------------------------


def test_levels_are_agents_with_aliases() -> None:
    for level in ("easy", "medium", "hard"):
        assert f"mcts-{level}" in AGENTS
        assert LEVEL_ALIASES[level] == f"mcts-{level}"
        assert agent_name(level) == f"mcts-{level}"
    assert agent_name("greedy") == "greedy"
    assert isinstance(agent("mcts-easy", seed=1), MctsAgent)
    with pytest.raises(ValueError, match="unknown agent 'expert'"):
        agent_name("expert")


def test_harder_levels_search_more() -> None:
    assert LEVELS["easy"].iterations < LEVELS["medium"].iterations < LEVELS["hard"].iterations
    assert LEVELS["hard"].seconds is not None and LEVELS["hard"].seconds < 2.0  # issue 14


def test_levels_file_errors_name_the_key() -> None:
    src = pathlib.Path(__file__).parents[2] / "src"
    text = (src / "ball/games/ball/ai/mcts/levels.toml").read_text()
    with pytest.raises(ValueError, match=r"levels.easy.iterations"):
        load(text.replace("iterations = 20", "iterations = -1", 1))
    with pytest.raises(ValueError, match=r"unknown \['speed'\]"):
        load(text.replace("[levels.easy]", "[levels.easy]\nspeed = 3", 1))
