"""Self-play at scale for rule designers: many matches, one summary.

from ball.games.ball.sim import SimConfig, run
summary = run(SimConfig(matches=200, agent_a="greedy", agent_b="random"))

A resumable run in a directory, on local processes or Ray (`ball sim run --out DIR`):
summary = run_in_dir(Path("runs/x"), config, make_backend("ray", 2), batch_size=1000)
"""

from .backends import BackendError, make_backend
from .rundir import RunDirError, auto_batch_size, run_in_dir
from .selfplay import MatchOutcome, SimConfig, play_match, run

__all__ = [
    "BackendError",
    "MatchOutcome",
    "RunDirError",
    "SimConfig",
    "auto_batch_size",
    "make_backend",
    "play_match",
    "run",
    "run_in_dir",
]
