"""A search player for BALL: Monte Carlo tree search over the engine's own state.

- `search`: the tree, its budget (iterations, a time cap per turn) and tree reuse;
- `priors`: move ordering from the action tuples alone, and the touchdown-now test;
- `evaluation`: the static evaluation (ball progress, threats on the carrier, PB);
- `levels`: levels and weights, read from `levels.toml` (data).
"""

from .levels import LEVELS, Level
from .search import MctsAgent, Search

__all__ = ["LEVELS", "Level", "MctsAgent", "Search"]
