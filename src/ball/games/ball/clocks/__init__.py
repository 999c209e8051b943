"""BALL's table clock: the control made from a ruleset's `[time]` table, which the shared
clocks offer as `ball-standard`, and its title in the reader's words
(`BallGame.clock_controls`)."""
