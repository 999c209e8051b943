"""The four winds as every Mahjong document writes them: the seats of a table at the start
of a session, and a hand's seat and round winds, in PyMahjongGB's order (0 = east).

A module of its own, with no other import, so that the tournament core can name the seats
without loading the rest of the game (a cold `ball standings` of a BALL event does not).
"""

from __future__ import annotations

WINDS: tuple[str, str, str, str] = ("E", "S", "W", "N")
