"""Self-play at scale for rule designers: many matches, one summary.

from ball.sim import SimConfig, run
summary = run(SimConfig(matches=200, agent_a="greedy", agent_b="random"))
"""

from .selfplay import MatchOutcome, SimConfig, Summary, play_match, run, summarise

__all__ = ["MatchOutcome", "SimConfig", "Summary", "play_match", "run", "summarise"]
