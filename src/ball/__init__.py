"""BALL Toolbox: rules engine, matches, tournaments, clocks, printing and the web toolbox."""

from . import compiled_build

__version__ = "0.1.0"

# Before anything imports the engine: the compiled build, unless BALL_PURE=1 or the engine's
# sources changed since it was built (ball.compiled_build).
compiled_build.choose()
