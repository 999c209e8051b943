"""The tabu search: swaps two players of one session between tables, minimising the sum over
pairs of C(meetings, 2) and the team clashes, with the bounds it aims for."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ball.games.mahjong.engine.seating.tables import SEATS, teams_separable


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
class Search:
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
    st: Search, s: int, tabu: dict[tuple[int, int, int], int], it: int, room: int
) -> tuple[int, int, int] | None:
    """The best swap in session `s` moving a conflicted player: (score, a, b).

    The swaps are scored as `Search.delta` scores them, in the same order and with the same
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


def tabu_search(st: Search, bound: int, budget: int) -> None:
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


def _perturb(st: Search, sessions: Sequence[int]) -> None:
    for _ in range(max(2, len(st.team) // 16)):
        s = st.rng.choice(list(sessions))
        a, b = st.rng.sample(range(1, len(st.team)), 2)
        if st.where[s][a] == st.where[s][b]:
            continue
        if st.hard_teams and st.delta(s, a, b)[1] > 0:
            continue
        st.swap(s, a, b)


def _restore(st: Search, sched: list[list[list[int]]]) -> None:
    fresh = Search(sched, st.free, st.team, st.hard_teams, st.rng)
    st.sched, st.meet, st.where = fresh.sched, fresh.meet, fresh.where
