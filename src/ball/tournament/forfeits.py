"""The stored result of a forfeit: one row builder for every place a table is forfeited
(a result entered as a forfeit, a withdrawn entrant left in a fixed schedule, a TRF `+`/`-`).

The figures a forfeit counts (points, and whatever the game's tie-breaks read) come from the
game plug-in, so a forfeit weighs the same however it reached the database.
"""

from __future__ import annotations

import json

from ball.games.protocol import Game
from ball.tournament.kinds import Coach, Outcome, ResultKind
from ball.tournament.models import Result


def forfeit_result(plugin: Game, by: Coach | str | None, at: float) -> Result:
    """The result of a forfeit by coach `by` (A or B: the opponent wins) or, with None, of
    a double forfeit (nobody wins), entered at `at`; not yet attached to a table."""
    if by is None:
        return Result(
            kind=ResultKind.DOUBLE_FORFEIT.value,
            decision=json.dumps({"figures": plugin.double_forfeit()}),
            outcome=Outcome.NOBODY.value,
            entered_at=at,
        )
    winner = Coach(by).opponent.value
    return Result(
        kind=ResultKind.FORFEIT.value,
        forfeit_by=Coach(by).value,
        decision=json.dumps({"figures": plugin.forfeit(winner)}),
        outcome=winner,
        entered_at=at,
    )
