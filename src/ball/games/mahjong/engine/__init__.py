"""Mahjong (MCR, as the World Mahjong Championship plays it): a pure package.

One concept per module, no I/O (the CLI and, later, the tournament core read and write files):

- `winds`: the four winds (seats and a hand's winds), alone so the tournament core can name
  seats cheaply;
- `tiles`: tile names (PyMahjongGB's codes);
- `hand`: the winning-hand document (`ball mahjong fan`'s input) parsed with field-named errors;
- `fan`: the fans of a winning hand (PyMahjongGB) and the event's minimum;
- `scoring`: hand scores, session totals, table points, event and team standings;
- `penalties`: the WMC rulings (dead hands, wrong calls, false and withdrawn wins, arbiter
  and time penalties) as entries of a table's log, amounts from `rules/wmc.toml`;
- `rulings`: the rulings' names (the sheet's kinds, the log's keys) and their labels;
- `sheet`: a table's session sheet read and scored;
- `seating`: who sits where in each session (random, by ranking, balanced), CSV, checking.
"""
