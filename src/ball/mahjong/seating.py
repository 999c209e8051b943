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
"""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ball.mahjong.designs import DESIGNS

Table = tuple[int, int, int, int]
Session = tuple[Table, ...]
Seating = tuple[Session, ...]

SEATS = 4
MAX_PLAYERS = 1024
MAX_SESSIONS = 64


class SeatingError(ValueError):
    """A seating that cannot be built or read; the message says what is wrong."""


def check_size(players: int, sessions: int) -> None:
    """Refuse a player or session count that cannot make tables of four (decision M-05)."""
    if not 4 <= players <= MAX_PLAYERS:
        raise SeatingError(f"players: must be from 4 to {MAX_PLAYERS}, not {players}")
    if players % SEATS:
        raise SeatingError(
            f"players: {players} is not a multiple of 4; every table seats four "
            "(add or remove players, or seat substitutes)"
        )
    if not 1 <= sessions <= MAX_SESSIONS:
        raise SeatingError(f"sessions: must be from 1 to {MAX_SESSIONS}, not {sessions}")


def _chunks(order: Sequence[int]) -> Session:
    return tuple(
        (order[i], order[i + 1], order[i + 2], order[i + 3]) for i in range(0, len(order), SEATS)
    )


def random_session(
    players: int, seed: int = 0, teams: Mapping[int, str] | None = None
) -> Session:
    """Players 1..N shuffled (seeded) into tables; with `teams`, a seeded deal that keeps
    team-mates apart where every team has at most one player per table (M-07)."""
    check_size(players, 1)
    if teams:
        _team_numbers(players, teams)  # checks the players named
        if teams_separable(players, teams):
            return tuple(_table(t) for t in _deal(players, teams, random.Random(seed)))
    order = list(range(1, players + 1))
    random.Random(seed).shuffle(order)
    return _chunks(order)


def by_ranking(
    ranking: Sequence[int], history: Seating = (), teams: Mapping[int, str] | None = None
) -> Session:
    """The top four together, the next four, ... (`ranking` best first). With `teams`,
    team-mates are kept apart as decision M-24 says (`_separate_by_rank`). Without
    `history` the seats follow the ranking; with the sessions already played, the winds are
    dealt so that each player's wind counts over the event stay even (`deal_winds`)."""
    if sorted(ranking) != list(range(1, len(ranking) + 1)):
        raise SeatingError("ranking: must list every player 1..N exactly once")
    check_size(len(ranking), 1)
    tables = [list(t) for t in _chunks(list(ranking))]
    _separate_by_rank(tables, list(ranking), _team_numbers(len(ranking), teams))
    session = tuple(_table(t) for t in tables)
    if not history:
        return session
    for i, played in enumerate(history, 1):
        check_session(played, len(ranking), f"session {i}")
    return deal_winds((*history, session), keep=len(history))[-1]


def _separate_by_rank(tables: list[list[int]], ranking: list[int], team: list[int]) -> None:
    """Move team-mates apart in a session seated by ranking, displacing ranks as little as
    the teams allow (decision M-24). Tables are taken best first; while a table seats two
    team-mates, the lower-ranked of them leaves it along the shortest chain of moves
    (`_chain`): in the simplest case they change places with the player nearest to them in
    rank at the nearest table. No table a move touches is left with team-mates, so a table
    put right stays right. A clash no chain removes stays (`report` counts it). Each table is
    sorted by rank again afterwards, so seats still follow the ranking."""
    rank = {p: i for i, p in enumerate(ranking)}
    for i, table in enumerate(tables):
        for _ in range(SEATS):  # each chain takes one clashing player away for good
            clashing = sorted(_clashing(table, team), key=rank.__getitem__, reverse=True)
            chain = next(filter(None, (_chain(tables, i, p, rank, team) for p in clashing)), None)
            if chain is None:
                break
            for j, leaving, coming in chain:
                tables[j][tables[j].index(leaving)] = coming
    for table in tables:
        table.sort(key=rank.__getitem__)


def _clashing(table: Sequence[int], team: list[int]) -> list[int]:
    """The players of `table` who share it with a team-mate."""
    return [p for p in table if team[p] >= 0 and sum(team[q] == team[p] for q in table) > 1]


def _chain(
    tables: list[list[int]], i: int, mover: int, rank: dict[int, int], team: list[int]
) -> list[tuple[int, int, int]] | None:
    """The moves (table, player leaving it, player taking the seat) that take `mover` away
    from table `i`: `mover` sits down at another table, whose player leaves for a third,
    ... until a player takes `mover`'s seat. Breadth first, so the fewest tables change;
    nearer tables (a lower one first at the same distance) and, in each, the player nearest
    in rank are tried first. No player may join a table where a team-mate sits. None when
    no chain exists."""
    stay = [q for q in tables[i] if q != mover]
    order = sorted(range(len(tables)), key=lambda j: (abs(j - i), j < i))
    queue: deque[tuple[int, list[tuple[int, int, int]]]] = deque([(mover, [])])
    seen = {(i, team[mover])}  # a table reached by a player of a team: reached by any of it
    while queue:
        coming, moves = queue.popleft()
        touched = {j for j, _, _ in moves}
        for j in order:
            if j in touched or (j, team[coming]) in seen or j == i:
                continue
            seen.add((j, team[coming]))
            for leaving in sorted(tables[j], key=lambda q: abs(rank[q] - rank[coming])):
                if not _fits(coming, [q for q in tables[j] if q != leaving], team):
                    continue
                path = [*moves, (j, leaving, coming)]
                if _fits(leaving, stay, team):
                    return [*path, (i, mover, leaving)]
                queue.append((leaving, path))
    return None


def _fits(player: int, others: Sequence[int], team: list[int]) -> bool:
    return team[player] < 0 or all(team[q] != team[player] for q in others)


# --- geometry start: AG(k, 4) -----------------------------------------------------------

_GF4_MUL = ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2))  # x^2 = x + 1; add = xor


def _power_of_four(n: int) -> int:
    k = 0
    while n > 1 and n % 4 == 0:
        n, k = n // 4, k + 1
    return k if n == 1 and k >= 2 else 0


def _vec(i: int, k: int) -> list[int]:
    return [(i >> (2 * j)) & 3 for j in range(k)]


def _index(v: Sequence[int]) -> int:
    return sum(x << (2 * j) for j, x in enumerate(v))


def _directions(k: int) -> list[list[int]]:
    """One vector per parallel class: nonzero, last nonzero coordinate 1."""
    out = []
    for i in range(1, 4**k):
        v = _vec(i, k)
        if [x for x in v if x][-1] == 1:
            out.append(v)
    return out


def _parallel_class(k: int, d: Sequence[int]) -> list[list[int]]:
    lines: dict[int, list[int]] = {}
    for p in range(4**k):
        pv = _vec(p, k)
        line = sorted(_index([pv[j] ^ _GF4_MUL[t][d[j]] for j in range(k)]) for t in range(4))
        lines.setdefault(line[0], line)
    return list(lines.values())


def _geometry_start(players: int, sessions: int, rng: random.Random) -> list[list[list[int]]]:
    """Sessions from AG(k, 4)'s parallel classes (cycled when there are more sessions)."""
    k = _power_of_four(players)
    label = list(range(1, players + 1))
    rng.shuffle(label)
    directions = _directions(k)
    rng.shuffle(directions)
    classes = [_parallel_class(k, d) for d in directions[:sessions]]
    return [
        [[label[p] for p in line] for line in classes[s % len(classes)]] for s in range(sessions)
    ]


def _design_start(players: int, sessions: int, rng: random.Random) -> list[list[list[int]]]:
    """Sessions of a shipped design with no repeat meeting (`designs.DESIGNS`), relabelled
    and reordered by the seed (cycled when there are more sessions)."""
    design = DESIGNS[players]
    label = list(range(1, players + 1))
    rng.shuffle(label)
    order = list(range(len(design)))
    rng.shuffle(order)
    return [
        [[label[p - 1] for p in table] for table in design[order[s % len(order)]]]
        for s in range(sessions)
    ]


def _dealt_start(
    players: int, sessions: int, team_of: Mapping[int, str], rng: random.Random
) -> list[list[list[int]]]:
    """Seeded deals in which no two team-mates share a table when every team has at most
    one player per table (`teams_separable`)."""
    return [_deal(players, team_of, rng) for _ in range(sessions)]


def _deal(players: int, team_of: Mapping[int, str], rng: random.Random) -> list[list[int]]:
    """Largest team first, each team onto the tables with the most free seats (random among
    equals), then everyone without a team into the seats left; if that ever fails, a deal
    round the tables in team order, which always separates a separable field."""
    tables = players // SEATS
    members: dict[str, list[int]] = {}
    for p in range(1, players + 1):
        if p in team_of:
            members.setdefault(team_of[p], []).append(p)
    groups = sorted(members.values(), key=lambda g: (-len(g), rng.random()))
    session: list[list[int]] = [[] for _ in range(tables)]
    for group in groups:
        rng.shuffle(group)
        free = sorted(range(tables), key=lambda t: (len(session[t]), rng.random()))
        if len(group) > tables or len(session[free[len(group) - 1]]) >= SEATS:
            return _round_robin(players, team_of, rng)
        for p, t in zip(group, free, strict=False):
            session[t].append(p)
    rest = [p for p in range(1, players + 1) if p not in team_of]
    rng.shuffle(rest)
    for t in range(tables):
        while len(session[t]) < SEATS:
            session[t].append(rest.pop())
    return session


def _round_robin(
    players: int, team_of: Mapping[int, str], rng: random.Random
) -> list[list[int]]:
    tables = players // SEATS
    order = list(range(1, players + 1))
    rng.shuffle(order)
    order.sort(key=lambda p: team_of.get(p, ""))
    session: list[list[int]] = [[] for _ in range(tables)]
    for i, p in enumerate(order):
        session[i % tables].append(p)
    return session


# --- tabu search ------------------------------------------------------------------------


def _open_pairs(players: int, teams: Mapping[int, str] | None) -> int:
    """Pairs that may meet: all of them, less team-mates when teams are kept apart."""
    pairs = players * (players - 1) // 2
    if teams and teams_separable(players, teams):
        pairs -= sum(n * (n - 1) // 2 for n in Counter(teams.values()).values())
    return pairs


def pair_cost_bound(players: int, sessions: int, teams: Mapping[int, str] | None = None) -> int:
    """The least possible sum over pairs of C(meetings, 2): the meetings spread evenly."""
    meetings = players * (SEATS - 1) * sessions // 2
    pairs = _open_pairs(players, teams)
    q, r = divmod(meetings, pairs)
    return r * (q + 1) * q // 2 + (pairs - r) * q * (q - 1) // 2


def repeat_bound(players: int, sessions: int, teams: Mapping[int, str] | None = None) -> int:
    """The least possible number of repeat meetings (meetings beyond each pair's first):
    every player meets 3 others a session, so N*3*S/2 meetings among the N(N-1)/2 pairs,
    less the pairs of team-mates when teams are kept apart."""
    meetings = players * (SEATS - 1) * sessions // 2
    return max(0, meetings - _open_pairs(players, teams))


@dataclass
class _Search:
    sched: list[list[list[int]]]
    free: int  # sessions before this one are fixed (imported or already played)
    team: list[int]  # team number per player, -1 for none
    hard_teams: bool
    rng: random.Random
    weight: int = 1000  # what a team clash costs, in repeat meetings
    evaluations: int = 0  # swaps scored so far: the search's budget is counted in these
    meet: list[list[int]] = field(default_factory=list)
    where: list[list[int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        n = len(self.team)
        self.meet = [[0] * n for _ in range(n)]
        self.where = [[0] * n for _ in self.sched]
        for s, session in enumerate(self.sched):
            for t, table in enumerate(session):
                for p in table:
                    self.where[s][p] = t
                    for q in table:
                        if q != p:
                            self.meet[p][q] += 1

    def same(self, p: int, q: int) -> int:
        return 1 if self.team[p] >= 0 and self.team[p] == self.team[q] else 0

    def cost(self) -> tuple[int, int]:
        """(sum over pairs of C(m, 2), team clashes)."""
        n = len(self.team)
        pairs = sum(self.meet[p][q] * (self.meet[p][q] - 1) // 2 for p in range(n)
                    for q in range(p + 1, n))
        clashes = sum(self.same(p, q) for session in self.sched for table in session
                      for i, p in enumerate(table) for q in table[i + 1:])
        return pairs, clashes

    def conflicted(self, s: int) -> list[int]:
        """Players of session `s` who meet a table-mate again or sit with a team-mate (the
        search's hot path: plain loops, no generator or method call per pair)."""
        out = []
        meet, team = self.meet, self.team
        for table in self.sched[s]:
            for p in table:
                mp, kp = meet[p], team[p]
                for q in table:
                    if q != p and (mp[q] > 1 or (kp >= 0 and team[q] == kp)):
                        out.append(p)
                        break
        return out

    def delta(self, s: int, a: int, b: int) -> tuple[int, int]:
        """(change in sum of C(m, 2), change in team clashes) if a and b change tables."""
        ma, mb, team = self.meet[a], self.meet[b], self.team
        ka, kb = team[a], team[b]
        d = c = 0
        for x in self.sched[s][self.where[s][a]]:
            if x != a:
                d += mb[x] - ma[x] + 1
                kx = team[x]
                if kx >= 0:
                    c += (kx == kb) - (kx == ka)
        for y in self.sched[s][self.where[s][b]]:
            if y != b:
                d += ma[y] - mb[y] + 1
                ky = team[y]
                if ky >= 0:
                    c += (ky == ka) - (ky == kb)
        return d, c

    def swap(self, s: int, a: int, b: int) -> None:
        m, wa, wb = self.meet, self.where[s][a], self.where[s][b]
        ta, tb = self.sched[s][wa], self.sched[s][wb]
        for x in ta:
            if x != a:
                m[a][x] -= 1
                m[x][a] -= 1
                m[b][x] += 1
                m[x][b] += 1
        for y in tb:
            if y != b:
                m[b][y] -= 1
                m[y][b] -= 1
                m[a][y] += 1
                m[y][a] += 1
        ta[ta.index(a)], tb[tb.index(b)] = b, a
        self.where[s][a], self.where[s][b] = wb, wa


# Per step at most this many sessions, and conflicted players in each, are looked at (a
# random sample when there are more): small fields get the best swap over the whole seating,
# large ones (1000 players) a step that costs thousands of evaluations, not millions.
SAMPLE_SESSIONS = 4
SAMPLE_PLAYERS = 12


def _best_move(
    st: _Search, s: int, tabu: dict[tuple[int, int, int], int], it: int, room: int
) -> tuple[int, int, int] | None:
    """The best swap in session `s` moving a conflicted player: (score, a, b).

    The swaps are scored as `_Search.delta` scores them, in the same order and with the same
    random tie-breaks (so a seed gives the same seating), but with the sums that do not
    depend on `b` taken once per mover and table: this is the search's inner loop."""
    best: tuple[int, int, int] | None = None
    ties = 0
    movers = st.conflicted(s)
    if len(movers) > SAMPLE_PLAYERS:
        movers = st.rng.sample(movers, SAMPLE_PLAYERS)
    meet, team, where, session = st.meet, st.team, st.where[s], st.sched[s]
    hard, weight, rng = st.hard_teams, st.weight, st.rng
    for a in movers:
        wa = where[a]
        ma, ka = meet[a], team[a]
        # Tables seat SEATS = 4, so a's three mates and a table's four players are unpacked.
        o0, o1, o2 = others = [x for x in session[wa] if x != a]
        mates = [team[x] for x in others]
        # `delta`'s d, summed apart: for b at table T (meet[b][b] is 0),
        #   sum over a's mates x of (mb[x] - ma[x] + 1) + sum over T less b of (ma[y] - mb[y] + 1)
        #   = base - ma[b] + (mb[o0] + mb[o1] + mb[o2]) - (mb[y0] + ... + mb[y3])
        # where base holds the +1 of each of the 2 * (SEATS - 1) pairs and the ma terms.
        own = 2 * (SEATS - 1) - ma[o0] - ma[o1] - ma[o2]
        # and its c: team-mates b joins at a's table less those a leaves, and the same at T
        lose_a = mates.count(ka) if ka >= 0 else 0
        for t, table in enumerate(session):
            if t == wa:
                continue
            st.evaluations += len(table)
            y0, y1, y2, y3 = table
            base = own + ma[y0] + ma[y1] + ma[y2] + ma[y3]
            kin = [team[y] for y in table]
            gain_a = kin.count(ka) if ka >= 0 else 0
            for b in table:
                mb, kb = meet[b], team[b]
                d = base - ma[b] + mb[o0] + mb[o1] + mb[o2] - mb[y0] - mb[y1] - mb[y2] - mb[y3]
                c = gain_a - (kb == ka and ka >= 0) - lose_a
                if kb >= 0:
                    c += mates.count(kb) - kin.count(kb) + 1
                if hard and c > 0:
                    continue
                score = d + c * weight
                banned = tabu.get((s, a, t), 0) > it or tabu.get((s, b, wa), 0) > it
                if banned and score >= room:  # aspiration: a tabu move that beats the best
                    continue
                if best is None or score < best[0]:
                    best, ties = (score, a, b), 1
                elif score == best[0]:
                    ties += 1
                    if rng.randrange(ties) == 0:
                        best = (score, a, b)
    return best


def _tabu(st: _Search, bound: int, budget: int) -> None:
    """Improve `st` in place until its cost reaches `bound` or `budget` swap evaluations are
    spent (a measure of work, so the same seed gives the same seating on any machine); the
    best schedule seen is left in `st`. Each step takes the best swap of a conflicted player
    over all sessions, not tabu unless it beats the best seen (aspiration)."""
    pairs, clashes = st.cost()
    cost = pairs + st.weight * clashes
    best_cost, best = cost, [[list(t) for t in session] for session in st.sched]
    tabu: dict[tuple[int, int, int], int] = {}
    stale = 0
    sessions = list(range(st.free, len(st.sched)))
    it = 0
    while st.evaluations < budget:
        it += 1
        if cost <= bound or not sessions:
            break
        look = sessions if len(sessions) <= SAMPLE_SESSIONS else st.rng.sample(
            sessions, SAMPLE_SESSIONS)
        moves = [(m, s) for s in look if (m := _best_move(st, s, tabu, it, best_cost - cost))]
        if not moves and look is not sessions:
            continue
        if not moves:
            break
        least = min(m[0] for m, _ in moves)
        (score, a, b), s = st.rng.choice([(m, s) for m, s in moves if m[0] == least])
        wa, wb = st.where[s][a], st.where[s][b]
        st.swap(s, a, b)
        cost += score
        tenure = 4 + st.rng.randrange(8)
        tabu[(s, a, wa)] = tabu[(s, b, wb)] = it + tenure
        if cost < best_cost:
            best_cost, best, stale = cost, [[list(t) for t in ses] for ses in st.sched], 0
        else:
            stale += 1
        if stale > 400:  # stuck: shake a few tables and go on from there
            _perturb(st, sessions)
            pairs, clashes = st.cost()
            cost, stale = pairs + st.weight * clashes, 0
    _restore(st, best)


def _perturb(st: _Search, sessions: Sequence[int]) -> None:
    for _ in range(max(2, len(st.team) // 16)):
        s = st.rng.choice(list(sessions))
        a, b = st.rng.sample(range(1, len(st.team)), 2)
        if st.where[s][a] == st.where[s][b]:
            continue
        if st.hard_teams and st.delta(s, a, b)[1] > 0:
            continue
        st.swap(s, a, b)


def _restore(st: _Search, sched: list[list[list[int]]]) -> None:
    fresh = _Search(sched, st.free, st.team, st.hard_teams, st.rng)
    st.sched, st.meet, st.where = fresh.sched, fresh.meet, fresh.where


# --- balanced schedules -----------------------------------------------------------------


def _team_numbers(players: int, teams: Mapping[int, str] | None) -> list[int]:
    numbers: dict[str, int] = {}
    team = [-1] * (players + 1)
    for p, name in (teams or {}).items():
        if not 1 <= p <= players:
            raise SeatingError(f"teams: player {p} is not one of 1..{players}")
        team[p] = numbers.setdefault(name, len(numbers))
    return team


def teams_separable(players: int, teams: Mapping[int, str] | None) -> bool:
    """Whether no two team-mates need ever share a table: no team has more players than
    there are tables (then a deal round the tables by team always separates them)."""
    sizes = Counter((teams or {}).values())
    return max(sizes.values(), default=0) <= players // SEATS


def check_session(session: Sequence[Sequence[int]], players: int, what: str) -> None:
    """Every player 1..N exactly once, in tables of four."""
    if any(len(table) != SEATS for table in session):
        raise SeatingError(f"{what}: every table seats exactly four players")
    seated = sorted(p for table in session for p in table)
    if seated != list(range(1, players + 1)):
        missing = sorted(set(range(1, players + 1)) - set(seated))
        doubled = sorted(p for p, n in Counter(seated).items() if n > 1)
        if doubled:
            raise SeatingError(f"{what}: player {doubled[0]} is seated twice")
        if missing:
            raise SeatingError(f"{what}: player {missing[0]} has no seat")
        raise SeatingError(f"{what}: players must be numbered 1..{players}")


def balanced(
    players: int,
    sessions: int,
    teams: Mapping[int, str] | None = None,
    seed: int = 0,
    fixed: Sequence[Session] = (),
    budget: int | None = None,
) -> Seating:
    """A seating of `sessions` sessions with as few repeat meetings as the search finds
    (the bound is `repeat_bound`), team-mates apart (hard when `teams_separable`), winds
    dealt evenly. `fixed` sessions (imported or already played) are kept as they are and
    only the sessions after them are built."""
    check_size(players, sessions)
    if len(fixed) > sessions:
        raise SeatingError(f"fixed: {len(fixed)} sessions given for a seating of {sessions}")
    for i, session in enumerate(fixed, 1):
        check_session(session, players, f"session {i}")
    team = _team_numbers(players, teams)
    rng = random.Random(seed)
    work = budget if budget is not None else min(3_000_000, 300_000 + 8_000 * players)
    start = _start(players, sessions - len(fixed), fixed, team, rng, work // 4)
    sched = [[list(t) for t in session] for session in fixed] + start
    st = _Search(sched, len(fixed) + _whole_design(players, sessions, fixed, team), team,
                 teams_separable(players, teams), rng)
    _tabu(st, pair_cost_bound(players, sessions, teams), work)
    tables = tuple(tuple(_table(t) for t in session) for session in st.sched)
    return deal_winds(tables, keep=len(fixed), seed=seed)


def _whole_design(players: int, sessions: int, fixed: Sequence[Session], team: list[int]) -> int:
    """How many sessions of the start to keep as they are: all of a known design's sessions
    (no repeat among them) when more sessions than it has are asked for, no teams are kept
    apart and nothing was played. The search then seats only the sessions beyond it, which
    it does better than reworking the whole."""
    if fixed or max(team) >= 0:
        return 0
    if _power_of_four(players):
        whole = (players - 1) // (SEATS - 1)
    elif players in DESIGNS:
        whole = len(DESIGNS[players])
    else:
        return 0
    return whole if sessions > whole else 0


def _start(
    players: int,
    todo: int,
    fixed: Sequence[Session],
    team: list[int],
    rng: random.Random,
    work: int,
) -> list[list[list[int]]]:
    """The sessions the search starts from. Without teams: the geometry, or a deal. With
    teams kept apart: a seating built without them and then relabelled so that team-mates
    never met in it (`_relabel`), which keeps its repeat count; failing that, a deal that
    keeps them apart."""
    spare: list[list[list[int]]] = []
    if _power_of_four(players):
        start = _geometry_start(players, todo, rng)
    elif players in DESIGNS:
        whole = _design_start(players, max(todo, len(DESIGNS[players])), rng)
        start, spare = whole[:todo], whole[todo:]
    else:
        start = _dealt_start(players, todo, {}, rng)
    named = {p: str(team[p]) for p in range(1, players + 1) if team[p] >= 0}
    if not named or not teams_separable(players, named):
        return start
    if not fixed:
        free = _Search([[list(t) for t in s] for s in start], 0, [-1] * (players + 1), False,
                       rng)
        _tabu(free, pair_cost_bound(players, todo), work)
        relabelled = _relabel(free.sched, team, rng, spare=spare)
        if relabelled is not None:
            return relabelled
    return _dealt_start(players, todo, named, rng)


def _relabel(
    sched: list[list[list[int]]],
    team: list[int],
    rng: random.Random,
    tries: int = 200,
    spare: Sequence[Sequence[Sequence[int]]] = (),
) -> list[list[list[int]]] | None:
    """Give the seats of `sched` to the players again so that no two team-mates hold seats
    that ever share a table: each team, largest first, takes seats none of which met
    another (random greedy, a few hundred tries). `spare` sessions (a design's sessions
    left out of `sched`) hold tables of seats that never met: the first tries offer the
    seats table by table of one of them, so teams of up to four fill those tables. None
    when no try succeeds."""
    seats = len(team) - 1
    met: list[set[int]] = [set() for _ in range(seats + 1)]
    for session in sched:
        for table in session:
            for p in table:
                met[p].update(q for q in table if q != p)
    groups: dict[int, list[int]] = {}
    for p in range(1, seats + 1):
        groups.setdefault(team[p], []).append(p)
    teamless = groups.pop(-1, [])
    for attempt in range(tries):
        order = sorted(groups.values(), key=lambda g: (-len(g), rng.random()))
        left = _seat_order(seats, spare[attempt] if attempt < len(spare) else (), rng)
        label = _place_teams(order, left, met)
        if label is not None:
            for p, seat in zip(teamless, [x for x in left if x not in label], strict=True):
                label[seat] = p
            return [[[label[x] for x in t] for t in session] for session in sched]
    return None


def _seat_order(seats: int, session: Sequence[Sequence[int]], rng: random.Random) -> list[int]:
    """Seats 1..seats shuffled; given a session, its tables in turn (each shuffled)."""
    if not session:
        left = list(range(1, seats + 1))
        rng.shuffle(left)
        return left
    tables = [list(t) for t in session]
    rng.shuffle(tables)
    for t in tables:
        rng.shuffle(t)
    return [p for t in tables for p in t]


def separate_teams(seating: Seating, teams: Mapping[int, str], seed: int = 0) -> Seating:
    """A template (an imported seating) whose tables seat team-mates together, with its
    places given to the players again so that team-mates never share a table (the same
    tables, so the same repeat meetings and wind counts; seeded, so every session of the
    template is relabelled alike). A template with no clash, or one no relabelling frees
    of clashes, is returned as it is."""
    players = sum(len(t) for t in seating[0]) if seating else 0
    if not seating or not teams_separable(players, teams) or not report(
        seating, teams
    ).team_clashes:
        return seating
    team = _team_numbers(players, teams)
    sched = [[list(t) for t in session] for session in seating]
    relabelled = _relabel(sched, team, random.Random(seed))
    if relabelled is None:
        return seating
    return tuple(tuple(_table(t) for t in session) for session in relabelled)


def _place_teams(
    groups: list[list[int]], seats: list[int], met: list[set[int]]
) -> dict[int, int] | None:
    """seat -> player for every team member, team-mates on seats that never met."""
    label: dict[int, int] = {}
    for group in groups:
        chosen: list[int] = []
        for seat in seats:
            if len(chosen) == len(group):
                break
            if seat not in label and not any(seat in met[c] for c in chosen):
                chosen.append(seat)
        if len(chosen) < len(group):
            return None
        for seat, p in zip(chosen, group, strict=True):
            label[seat] = p
    return label


def _table(seats: Sequence[int]) -> Table:
    return (seats[0], seats[1], seats[2], seats[3])


# --- winds --------------------------------------------------------------------------------

_ORDERS = [
    (a, b, c, d) for a in range(4) for b in range(4) for c in range(4) for d in range(4)
    if len({a, b, c, d}) == 4
]


def _best_order(table: Table, counts: dict[int, list[int]]) -> Table:
    """The seats of `table`'s players (E, S, W, N) that leave their wind counts most even:
    the least highest count, then the least sum of squares (first such order on ties)."""
    rows = [counts[p] for p in table]
    best, best_key = _ORDERS[0], (1 << 30, 1 << 30)
    for order in _ORDERS:
        a = rows[order[0]][0] + 1
        b = rows[order[1]][1] + 1
        c = rows[order[2]][2] + 1
        d = rows[order[3]][3] + 1
        key = (max(a, b, c, d), a * a + b * b + c * c + d * d)
        if key < best_key:
            best, best_key = order, key
    return (table[best[0]], table[best[1]], table[best[2]], table[best[3]])


def wind_spread(seating: Seating) -> tuple[int, int]:
    """The fewest and the most times any player sat any one wind."""
    counts = wind_counts(seating)
    return min(min(c) for c in counts.values()), max(max(c) for c in counts.values())


def wind_counts(seating: Seating) -> dict[int, list[int]]:
    """Per player, how often they sat east, south, west and north."""
    counts: dict[int, list[int]] = {}
    for session in seating:
        for table in session:
            for w, p in enumerate(table):
                counts.setdefault(p, [0] * 4)[w] += 1
    return counts


# Table re-deals the wind search may make after the first deal (a few seconds at most).
WIND_WORK = 40_000


def _descend(
    out: list[list[Table]], keep: int, counts: dict[int, list[int]], work: list[int]
) -> None:
    """Re-deal each table against all the others until nothing improves (every step lowers
    the sum of squared wind counts, so this ends) or `work[0]` re-deals are spent."""
    for _ in range(8):
        changed = False
        for s in range(keep, len(out)):
            if work[0] <= 0:
                return
            work[0] -= len(out[s])
            for i, table in enumerate(out[s]):
                for w, p in enumerate(table):
                    counts[p][w] -= 1
                new = _best_order(table, counts)
                for w, p in enumerate(new):
                    counts[p][w] += 1
                changed |= new != table
                out[s][i] = new
        if not changed:
            return


def _excess(counts: dict[int, list[int]], sessions: int) -> int:
    hi, lo = -(-sessions // 4), sessions // 4
    return sum(max(0, c - hi) + max(0, lo - c) for cs in counts.values() for c in cs)


def exact_winds(seating: Seating) -> Seating:
    """The same tables with seats dealt so that every player sits each wind floor(S/4) or
    ceil(S/4) times, always (no search): an equitable edge colouring of the bipartite graph
    players - tables with the four winds as colours.

    Each player's sessions are cut into runs of four (and one shorter run), each run a
    vertex of its own; every vertex then has at most four edges and every table four, so
    by König's theorem four colours suffice, each table gets every wind once and each run
    of four every wind once: a player of S sessions sits each wind S // 4 times, plus once
    more for each wind of the last, shorter run. The colouring adds the edges one by one,
    swapping the two colours along an alternating path when the colour free at the player
    is taken at the table (the path cannot return to the player in a bipartite graph)."""
    run: dict[int, int] = {}  # sessions seen per player
    edges: list[tuple[tuple[int, int], tuple[int, int]]] = []  # (player run, table)
    for s, session in enumerate(seating):
        for t, table in enumerate(session):
            for p in table:
                edges.append(((p, run.get(p, 0) // SEATS), (s, t)))
                run[p] = run.get(p, 0) + 1
    at: dict[tuple[str, tuple[int, int]], list[int]] = {}  # vertex -> edge per colour, -1 free
    colour = [-1] * len(edges)
    for e, (u, v) in enumerate(edges):
        cu = at.setdefault(("p", u), [-1] * SEATS)
        cv = at.setdefault(("t", v), [-1] * SEATS)
        a, b = cu.index(-1), cv.index(-1)
        if cv[a] != -1:
            _swap_path(("t", v), a, b, edges, colour, at)
        colour[e], cu[a], cv[a] = a, e, e
    out = []
    for s, session in enumerate(seating):
        tables = []
        for t, _ in enumerate(session):
            seats = at[("t", (s, t))]
            tables.append(_table([edges[seats[w]][0][0] for w in range(SEATS)]))
        out.append(tuple(tables))
    return tuple(out)


def _swap_path(
    start: tuple[str, tuple[int, int]],
    a: int,
    b: int,
    edges: list[tuple[tuple[int, int], tuple[int, int]]],
    colour: list[int],
    at: dict[tuple[str, tuple[int, int]], list[int]],
) -> None:
    """Swap colours `a` and `b` along the path from `start` whose edges alternate a, b, ...
    (`b` is free at `start`, so afterwards `a` is)."""
    path, vertex, c = [], start, a
    while (e := at[vertex][c]) != -1:
        path.append(e)
        u, v = edges[e]
        vertex = ("p", u) if vertex[0] == "t" else ("t", v)
        c = b if c == a else a
    for e in path:  # clear first, then set: an edge's two ends swap at once
        u, v = edges[e]
        at[("p", u)][colour[e]] = at[("t", v)][colour[e]] = -1
    for e in path:
        colour[e] = b if colour[e] == a else a
        u, v = edges[e]
        at[("p", u)][colour[e]] = at[("t", v)][colour[e]] = e


def deal_winds(seating: Seating, keep: int = 0, seed: int = 0) -> Seating:
    """The same tables with seats re-dealt so that every player sits each wind between
    floor(S/4) and ceil(S/4) times; the first `keep` sessions are left as they are. With
    none kept this is exact (`exact_winds`). With sessions kept, whose winds may already be
    uneven, a greedy deal session by session, then descent (`_descend`), then rounds that
    shuffle the tables of players outside the bounds and descend again, keeping the best."""
    if keep == 0:
        return exact_winds(seating)
    counts: dict[int, list[int]] = {p: [0] * 4 for s in seating for t in s for p in t}
    out = [list(session) for session in seating]
    for s, session in enumerate(out):  # first deal: greedy, session by session
        for i, table in enumerate(session):
            if s >= keep:
                table = session[i] = _best_order(table, counts)
            for w, p in enumerate(table):
                counts[p][w] += 1
    work = [WIND_WORK]
    _descend(out, keep, counts, work)
    rng, sessions = random.Random(seed), len(out)
    best, best_excess = [list(s) for s in out], _excess(counts, sessions)
    for _ in range(60):
        if best_excess == 0 or keep >= sessions or work[0] <= 0:
            break
        hi, lo = -(-sessions // 4), sessions // 4
        bad = {p for p, cs in counts.items() if max(cs) > hi or min(cs) < lo}
        for s in range(keep, sessions):
            for i, table in enumerate(out[s]):
                if bad.intersection(table) and rng.random() < 0.5:
                    order = list(table)
                    rng.shuffle(order)
                    for w, p in enumerate(table):
                        counts[p][w] -= 1
                    out[s][i] = _table(order)
                    for w, p in enumerate(order):
                        counts[p][w] += 1
        _descend(out, keep, counts, work)
        if _excess(counts, sessions) < best_excess:
            best, best_excess = [list(s) for s in out], _excess(counts, sessions)
    return tuple(tuple(session) for session in best)


# --- checking and CSV ---------------------------------------------------------------------


@dataclass(frozen=True)
class Report:
    """What `report` found in a seating."""

    players: int
    sessions: int
    repeats: int  # meetings beyond each pair's first
    repeat_bound: int  # the least possible (see `repeat_bound`)
    repeated_pairs: tuple[tuple[int, int, int], ...]  # (p, q, meetings) for meetings > 1
    repeats_per_session: tuple[int, ...]  # repeat meetings made in each session
    wind_counts: dict[int, list[int]]
    wind_spread: tuple[int, int]  # fewest, most times any player sat one wind
    team_clashes: tuple[tuple[int, int, int], ...]  # (session, p, q) team-mates at a table

    def to_json(self) -> dict[str, object]:
        return {
            "players": self.players,
            "sessions": self.sessions,
            "repeats": self.repeats,
            "repeat_bound": self.repeat_bound,
            "repeated_pairs": [list(x) for x in self.repeated_pairs],
            "repeats_per_session": list(self.repeats_per_session),
            "wind_counts": {str(p): c for p, c in sorted(self.wind_counts.items())},
            "wind_spread": list(self.wind_spread),
            "team_clashes": [list(x) for x in self.team_clashes],
        }


def report(seating: Seating, teams: Mapping[int, str] | None = None) -> Report:
    """Check a seating (every player once per session) and count what it does."""
    if not seating:
        raise SeatingError("the seating has no sessions")
    players = sum(len(t) for t in seating[0])
    for i, session in enumerate(seating, 1):
        check_session(session, players, f"session {i}")
    meet: Counter[tuple[int, int]] = Counter()
    per_session, clashes = [], []
    for s, session in enumerate(seating, 1):
        made = 0
        for table in session:
            for i, p in enumerate(table):
                for q in table[i + 1:]:
                    pair = (min(p, q), max(p, q))
                    made += meet[pair] > 0
                    meet[pair] += 1
                    if teams and p in teams and teams.get(q) == teams[p]:
                        clashes.append((s, *pair))
        per_session.append(made)
    return Report(
        players=players,
        sessions=len(seating),
        repeats=sum(n - 1 for n in meet.values()),
        repeat_bound=repeat_bound(players, len(seating), teams),
        repeated_pairs=tuple(sorted((p, q, n) for (p, q), n in meet.items() if n > 1)),
        repeats_per_session=tuple(per_session),
        wind_counts=wind_counts(seating),
        wind_spread=wind_spread(seating),
        team_clashes=tuple(clashes),
    )


CSV_HEADER = "session,table,E,S,W,N"


def to_csv(seating: Seating) -> str:
    """`session,table,E,S,W,N`, one line per table, sessions and tables numbered from 1."""
    lines = [CSV_HEADER]
    for s, session in enumerate(seating, 1):
        for t, table in enumerate(session, 1):
            lines.append(",".join(str(x) for x in (s, t, *table)))
    return "\n".join(lines) + "\n"


def _csv_row(line: str, number: int) -> tuple[int, int, Table]:
    cells = [c.strip() for c in line.split(",")]
    if len(cells) != 6:
        raise SeatingError(f"line {number}: expected 6 fields (session,table,E,S,W,N)")
    try:
        s, t, e, so, w, n = (int(c) for c in cells)
    except ValueError:
        raise SeatingError(f"line {number}: every field must be a whole number") from None
    if s < 1 or t < 1:
        raise SeatingError(f"line {number}: sessions and tables are numbered from 1")
    return s, t, (e, so, w, n)


def from_csv(text: str) -> Seating:
    """Read `to_csv`'s format (the header line is optional; blank lines are skipped). Tables
    must be numbered 1.. in each session and sessions 1.. in order; the result is checked
    (every player exactly once per session)."""
    rows: dict[int, dict[int, Table]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or (number == 1 and line.replace(" ", "") == CSV_HEADER):
            continue
        s, t, table = _csv_row(line, number)
        if t in rows.setdefault(s, {}):
            raise SeatingError(f"line {number}: session {s} table {t} is listed twice")
        rows[s][t] = table
    if not rows:
        raise SeatingError("the seating file lists no tables")
    if sorted(rows) != list(range(1, len(rows) + 1)):
        raise SeatingError("sessions must be numbered 1, 2, 3, ... without gaps")
    seating = []
    for s in sorted(rows):
        if sorted(rows[s]) != list(range(1, len(rows[s]) + 1)):
            raise SeatingError(f"session {s}: tables must be numbered 1, 2, 3, ... without gaps")
        seating.append(tuple(rows[s][t] for t in sorted(rows[s])))
    result = tuple(seating)
    players = sum(len(t) for t in result[0])
    for i, session in enumerate(result, 1):
        check_session(session, players, f"session {i}")
    return result


def teams_from_csv(text: str, players: int) -> dict[int, str]:
    """`player,team` lines (a `player,team` header is allowed): the team (or country) of
    each listed player; players not listed have no team."""
    teams: dict[int, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or (number == 1 and line.replace(" ", "").lower() == "player,team"):
            continue
        cells = [c.strip() for c in line.split(",")]
        if len(cells) != 2 or not cells[1]:
            raise SeatingError(f"line {number}: expected player,team")
        try:
            p = int(cells[0])
        except ValueError:
            raise SeatingError(f"line {number}: player {cells[0]!r} is not a number") from None
        if not 1 <= p <= players:
            raise SeatingError(f"line {number}: player {p} is not one of 1..{players}")
        if p in teams:
            raise SeatingError(f"line {number}: player {p} is listed twice")
        teams[p] = cells[1]
    return teams
