"""BALL Toolbox: rules engine, matches, tournaments, clocks, printing and the web toolbox."""

__version__ = "0.1.0"
