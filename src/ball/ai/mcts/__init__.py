"""A search player for BALL: Monte Carlo tree search over the engine's own state.

- `search`: the tree, its budget (iterations, a time cap per turn) and tree reuse;
- `playout`: the leaf policy (one-action look-ahead) and move ordering for widening;
- `evaluation`: the static evaluation (ball progress, threats on the carrier, PB);
- `levels`: levels and weights, read from `levels.toml` (data).
"""

from .levels import LEVELS, Level
from .search import MctsAgent, Search

__all__ = ["LEVELS", "Level", "MctsAgent", "Search"]
