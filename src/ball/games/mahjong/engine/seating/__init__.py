"""Who sits where: tables of four, east-south-west-north, session by session.

A seating is a tuple of sessions, a session a tuple of tables, a table a tuple of four players
(numbered 1..N) in wind order east, south, west, north. Ways to seat a session:

- `random_session`: a seeded shuffle (the first session, when no template is imported);
- `by_ranking`: the top four together, the next four, and so on, team-mates moved apart
  the shortest way (decision M-24);
- `balanced`: whole schedules where no two players meet twice when that is possible, and as
  few repeat meetings as possible when it is not; players of the same team (or country) never
  share a table when every team has at most one player per table (a hard rule then).

Winds are dealt afterwards (`deal_winds`) so that each player sits each wind as evenly as the
number of sessions allows. `report` checks any seating (repeat meetings, wind counts, team
clashes); `to_csv` / `from_csv` carry seatings in and out (`session,table,E,S,W,N`).

The balanced search: a start from an affine geometry over GF(4) when N is a power of 4 (its
parallel classes are whole sessions in which no pair meets twice, the classic resolvable
design), or from a shipped design with no repeat (`designs.DESIGNS`: 24, 28, 32 and 40
players), relabelled and reordered by the seed, otherwise a seeded deal; then a tabu search that
swaps two players of one session between tables (the method of social-golfer solvers),
minimising sum over pairs of C(meetings, 2), which equals the repeat count once no pair
meets three times. With teams,
a seating built without them is relabelled so that team-mates never met in it, or else the
search starts from a team-separating deal and never seats two team-mates together. The work
is bounded by counts (swap evaluations, table re-deals), never by the clock, so a seed gives
the same seating on every machine.

The modules: `tables` (the types, sizes and checks), `sessions` (one session: random or by
ranking), `starts` (where the search starts), `tabu` (the search), `schedules` (balanced
seatings, templates relabelled for teams), `winds`, `checking` (`report`) and `csv_format`.
"""

from __future__ import annotations

from ball.games.mahjong.engine.seating.checking import Report, report
from ball.games.mahjong.engine.seating.csv_format import (
    CSV_HEADER,
    from_csv,
    teams_from_csv,
    to_csv,
)
from ball.games.mahjong.engine.seating.schedules import balanced, separate_teams
from ball.games.mahjong.engine.seating.sessions import by_ranking, random_session
from ball.games.mahjong.engine.seating.tables import (
    MAX_PLAYERS,
    MAX_SESSIONS,
    SEATS,
    Seating,
    SeatingError,
    Session,
    Table,
    check_session,
    check_size,
    teams_separable,
)
from ball.games.mahjong.engine.seating.tabu import (
    SAMPLE_PLAYERS,
    SAMPLE_SESSIONS,
    pair_cost_bound,
    repeat_bound,
)
from ball.games.mahjong.engine.seating.winds import (
    WIND_WORK,
    deal_winds,
    exact_winds,
    wind_counts,
    wind_spread,
)

__all__ = [
    "CSV_HEADER",
    "MAX_PLAYERS",
    "MAX_SESSIONS",
    "SAMPLE_PLAYERS",
    "SAMPLE_SESSIONS",
    "SEATS",
    "WIND_WORK",
    "Report",
    "Seating",
    "SeatingError",
    "Session",
    "Table",
    "balanced",
    "by_ranking",
    "check_session",
    "check_size",
    "deal_winds",
    "exact_winds",
    "from_csv",
    "pair_cost_bound",
    "random_session",
    "repeat_bound",
    "report",
    "separate_teams",
    "teams_from_csv",
    "teams_separable",
    "to_csv",
    "wind_counts",
    "wind_spread",
]
