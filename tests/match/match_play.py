"""Playing matches for the tests: seeded policies over the engine's legal actions."""

from __future__ import annotations

import random

from ball.games.ball.engine import Game
from ball.games.ball.match.flow import Match


def carrier_row(game: Game) -> tuple[str | None, int]:
    """(side holding the ball or None when free, the ball's row)."""
    doc = game.to_json()
    ball = doc["ball"]
    if "carrier" in ball:
        side, pid = ball["carrier"].split(":")
        at = next(p["at"] for p in doc["pieces"] if p["side"] == side and p["id"] == pid)
        return side, int(at[1:])
    return None, int(ball["at"][1:])


def push_for_s(game: Game, rng: random.Random) -> str:
    """S drives the ball up the board (it scores at row 17); anyone else plays at random."""
    legal = game.legal_actions()
    if game.actor != "S":
        return rng.choice(legal)

    def score(action: str) -> float:
        after = game.copy()
        after.apply(action)
        side, row = carrier_row(after)
        value = row if side == "S" else -50.0
        if after.is_over and after.score["S"]:
            value += 1000
        return value - (0.5 if action == "end" else 0.0) + rng.random()

    return max(legal, key=score)


def random_action(game: Game, rng: random.Random) -> str:
    return rng.choice(game.legal_actions())


def touchdown_line(seed: int = 0) -> list[tuple[int, str]]:
    """(turn, action) pairs of a half in which S scores; the last action is the touchdown."""
    rng = random.Random(seed)
    game = Game.new()
    line = []
    while not game.is_over:
        action = push_for_s(game, rng)
        line.append((game.turn, action))
        game.apply(action)
        assert game.turn < 100, "the S push policy should score quickly"
    return line


def release_line(min_tasks: int = 1, seed: int = 0) -> list[str]:
    """Actions from the start to a release phase holding at least `min_tasks` tasks that
    the referee's resolution performs one after the other."""
    for attempt in range(500):
        rng = random.Random(seed * 1000 + attempt)
        game = Game.new()
        line: list[str] = []
        while not game.is_over and game.turn < 60:
            if game.phase == "release":
                tasks = game.copy().referee_release()
                if len(tasks) >= min_tasks:
                    return line
            action = random_action(game, rng)
            line.append(action)
            game.apply(action)
    raise AssertionError(f"no release phase with {min_tasks} tasks found")


def random_match(seed: int, events: bool = True, max_turns: int = 40) -> Match:
    """An untimed match played at random to its end, with sanctions, Final Drives and
    forfeits thrown in when `events` is true."""
    rng = random.Random(seed)
    match = Match(atk_first=rng.choice("AB"))
    while not match.is_over:
        if match.half_over:
            match.next_half()
            continue
        roll = rng.random()
        if events and roll < 0.01:
            match.sanction(rng.choice("AB"), reason=f"roll {roll:.4f}")
        elif events and roll < 0.011:
            match.forfeit(rng.choice("AB"), "abandoned")
        elif match.game.turn >= max_turns and not match.in_final_drive:
            match.expire_half_timer()
        else:
            policy = push_for_s if rng.random() < 0.3 else random_action
            match.play(policy(match.game, rng))
    return match
