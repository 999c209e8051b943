"""Two agents on the engine's internal state (no JSON, no text: fast enough for self-play).

- `random`: a uniformly random legal action.
- `greedy`: looks one action ahead and picks the best by `evaluate` (touchdowns, then the
  ball, the carrier's progress, knocked-down opponents), ties broken by a seeded RNG.
- `mcts-easy|mcts-medium|mcts-hard`: the Monte Carlo tree search player of `ball.games.ball.ai.mcts`
  at one of its levels (aliases `easy|medium|hard` through `agent_name`).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Protocol

from ball.games.ball.engine.actions import END, Action
from ball.games.ball.engine.board import ROWS, row_of
from ball.games.ball.engine.generate import legal
from ball.games.ball.engine.resolve import play
from ball.games.ball.engine.state import DOWN, STEAL, State

from .mcts import LEVELS, MctsAgent

if TYPE_CHECKING:
    from ball.games.ball.engine import Game


class Agent(Protocol):
    def __call__(self, s: State) -> Action: ...


def evaluate(s: State, side: int) -> float:
    """How good `s` is for `side` (higher is better)."""
    other = 1 - side
    value = 1000.0 * (s.score[side] - s.score[other])
    carrier = s.carrier
    if carrier >= 0:
        holder = s.side_of(carrier)
        row = row_of(s.pos[carrier])
        progress = row if holder == 0 else ROWS - 1 - row
        value += (30 + 4 * progress) * (1 if holder == side else -1)
    elif s.ball_sq >= 0:
        # A free ball is worth something to whoever stands nearer to it.
        value -= 5
    for i in s.pieces_of(other):
        if s.st[i] == DOWN:
            value += 3
    for i in s.pieces_of(side):
        if s.st[i] == DOWN:
            value -= 3
    if s.attack == side and s.phase != STEAL:
        value += 10
    return value


class RandomAgent:
    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __call__(self, s: State) -> Action:
        actions = legal(s)
        return actions[self.rng.randrange(len(actions))]


class GreedyAgent:
    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __call__(self, s: State) -> Action:
        side = s.steal_by if s.phase == STEAL else s.to_move
        best: list[Action] = []
        best_value = float("-inf")
        for a in legal(s):
            trial = s.copy()
            play(trial, a, None)
            value = evaluate(trial, side) - (0.5 if a[0] == END else 0.0)
            if value > best_value + 1e-9:
                best, best_value = [a], value
            elif value > best_value - 1e-9:
                best.append(a)
        return best[self.rng.randrange(len(best))]


AGENTS: dict[str, Callable[[int | None], Agent]] = {"random": RandomAgent, "greedy": GreedyAgent}
# The search player's levels (ball.games.ball.ai.mcts, levels.toml), one agent name per level.
AGENTS.update({f"mcts-{level}": partial(MctsAgent, level) for level in LEVELS})
# Short names a player may type where a level is asked for (`ball play --vs hard`).
LEVEL_ALIASES = {level: f"mcts-{level}" for level in LEVELS}


def agent_name(name: str) -> str:
    """`name` itself if it is an agent, the agent of a level alias (`hard`), else ValueError."""
    if name in AGENTS:
        return name
    if name in LEVEL_ALIASES:
        return LEVEL_ALIASES[name]
    known = ", ".join([*AGENTS, *LEVEL_ALIASES])
    raise ValueError(f"unknown agent {name!r} (known: {known})")


def choose_text(game: Game, name: str = "greedy", seed: int | None = None) -> str:
    """The canonical text of the action agent `name` plays now in `game`."""
    from ball.games.ball.engine.actions import to_text

    return to_text(agent(name, seed)(game.state))


def agent(name: str, seed: int | None = None, *, time_cap: bool = True) -> Agent:
    """Agent `name` seeded with `seed`. `time_cap=False` lifts a search level's time cap so
    that only its iterations stop it: self-play must replay the same matches for a seed
    whatever the machine's load, while a player at the board needs the cap."""
    try:
        player = AGENTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown agent {name!r} (known: {', '.join(AGENTS)})") from None
    if not time_cap and isinstance(player, MctsAgent) and player.level.seconds is not None:
        return MctsAgent(dataclasses.replace(player.level, seconds=None), seed)
    return player
