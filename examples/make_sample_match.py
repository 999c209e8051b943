"""Write examples/sample-match.bgn: a full timed match between two greedy agents.

The match runs on a manual clock (each action takes a few seeded seconds), so the record
shows clock annotations, the Final Drive and, when it happens, the release-phase protocol —
and the file is the same every time it is made:

    .venv/bin/python examples/make_sample_match.py [OUT]
    .venv/bin/ball record check examples/sample-match.bgn
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from ball.games.ball.ai.agents import GreedyAgent
from ball.games.ball.engine.actions import to_text
from ball.games.ball.match.flow import Match
from ball.games.ball.match.record import write
from ball.games.ball.match.timing import ManualClock

SEED = 1
THINK_MIN, THINK_MAX = 10, 29  # seconds per answer (seeded)
TAGS = {
    "Event": "BALL Toolbox sample match",
    "Site": "Sofia",
    "Date": "2026.11.30",
    "Round": "1",
    "Table": "1",
}


def sample_match(seed: int = SEED) -> Match:
    rng = random.Random(seed)
    clock = ManualClock()
    match = Match(clock=clock, names={"A": "Kim Minjun", "B": "Petrova Elena"})
    agents = {"A": GreedyAgent(seed), "B": GreedyAgent(seed + 1)}
    while not match.is_over:
        if match.half_over:
            match.next_half()
            continue
        clock.advance(rng.uniform(THINK_MIN, THINK_MAX))  # thinking time of the coach to answer
        match.tick()
        if match.half_over or match.is_over:
            continue
        coach = match.half.coach_of(match.game.actor)
        by = None
        if match.release_stage == "opponent":
            coach, by = ("B" if coach == "A" else "A"), "opponent"
        match.play(to_text(agents[coach](match.game.state)), by=by)
    return match


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name("sample-match.bgn")
    out.write_text(write(sample_match().record(TAGS)), encoding="utf-8")
    print(out)


if __name__ == "__main__":
    main()
