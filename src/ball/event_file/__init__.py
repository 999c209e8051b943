"""The event file: one whole event (every table, round, pairing, result, tie game, sanction,
log line, team, group stage, Mahjong session and sheet, recorded Xiangqi game and table
clock) as one versioned JSON document, written by `ball event export` and read by `ball
event import` (docs/deploy.md, "The event file"): how a venue's laptop hands its event to
a federation's server, and how an event moves between SQLite and PostgreSQL.

`tables` says what the file holds, `write` exports, `check` reads a file and refuses a bad
one in one line, `load` imports in one transaction (idempotent by the event's uid). It sits
with the interfaces because it reads the tables of every subsystem (the tournament, the
clocks and the web's recorded games).
"""
