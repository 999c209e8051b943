"""Legal-action generation for every phase (spec §3–§11).

`legal(s)` lists every action tuple the player to act may take now. It is the one place
legality is decided: `Game.apply` accepts exactly these, the web page and the AI ask for them.
"""

from __future__ import annotations

from collections.abc import Iterator

from .actions import (
    CARD,
    CONTINUE,
    DODGE,
    END,
    HANDOFF,
    KEEP_BOTTOM,
    KEEP_NONE,
    KEEP_TOP,
    LONG,
    MOVE,
    PE,
    RECOVER,
    RESET,
    SHORT,
    SPLIT,
    TDODGE,
    UP,
    Action,
)  # fmt: skip
from .board import ADJACENT, PLAYABLE, WITHIN1, distance
from .ruleset import Card
from .state import ACTION, ACTIVE, DOWN, OVER, RELEASE, STEAL, TOP, State
from .state import RECOVER as RECOVER_PHASE


def legal(s: State) -> list[Action]:
    phase = s.phase
    if phase == ACTION:
        return action_phase(s)
    if phase == RELEASE:
        return release_tasks(s)
    if phase == STEAL:
        return [(CONTINUE,), (RESET,)]
    if phase == RECOVER_PHASE:
        return [(RECOVER, None), *((RECOVER, name) for name in sorted(set(s.discards[s.to_move])))]
    assert phase == OVER
    return []


def action_phase(s: State, include_end: bool = True) -> list[Action]:
    out: list[Action] = []
    rs = s.rs
    side = s.to_move
    if include_end:
        out.append((END,))
    if s.pa >= 1 and rs.uses_pe:
        out.append((PE,))
    if rs.card_mode:
        out.extend(card_plays(s))
    cost = rs.pa_cost
    pa = s.pa
    ball_cost = 0 if s.audible else 1  # Audible: the next hand-off or pass is free
    occ, under, st, pos = s.occ, s.under, s.st, s.pos
    n = s.t.n
    lo = side * n
    restricted = s.restricted
    can_move = pa >= cost["move"]
    for i in range(lo, lo + n):
        if st[i] != ACTIVE or restricted >> i & 1:
            continue
        sq = pos[i]
        if can_move or pa >= cost["block"] or pa >= cost["protect"]:
            for to in s.t.step1[i][sq]:
                o = occ[to]
                if o < 0:
                    if can_move:
                        out.append((MOVE, sq, to))
                # D-09: the piece underneath is a single piece, active or knocked down.
                elif under[to] < 0 and pa >= cost["block" if o // n != side else "protect"]:
                    out.append((MOVE, sq, to))
        _two_square(s, i, sq, side, out)
        if i == s.carrier:
            _ball_actions(s, i, sq, side, out, ball_cost)
    return out


def _two_square(s: State, i: int, sq: int, side: int, out: list[Action]) -> None:
    """2-square moves: plain moves, dodges (§5) and tactical dodges (§6)."""
    occ, under, st = s.occ, s.under, s.st
    n = s.t.n
    pa, cost = s.pa, s.rs.pa_cost
    can_move, can_dodge, can_tdodge = pa >= cost["move"], pa >= cost["dodge"], pa >= cost["tdodge"]
    for mid, to in s.t.step2[i][sq]:
        if mid >= 0:
            m = occ[mid]
            if m >= 0:
                if under[mid] >= 0:
                    continue  # a stack square is closed (§2)
                if m // n == side:
                    if not (st[m] == ACTIVE or (st[m] == DOWN and s.screen)):
                        continue  # inactive allies cannot be crossed (Screen: own downs can)
                else:
                    if st[m] == ACTIVE and occ[to] < 0 and can_tdodge:
                        _tactical_dodges(s, sq, mid, to, out)
                    continue  # an opposing piece is only passed by a tactical dodge
        o = occ[to]
        if o < 0:
            if can_move:
                out.append((MOVE, sq, to))
        elif can_dodge and under[to] < 0 and o // n != side and st[o] == ACTIVE:
            for exit_sq in ADJACENT[to]:
                if occ[exit_sq] < 0:  # D-08: the free ball's square is a legal exit
                    out.append((DODGE, sq, to, exit_sq))


def _tactical_dodges(s: State, origin: int, mid: int, land: int, out: list[Action]) -> None:
    occ, ball_sq = s.occ, s.ball_sq
    for push in ADJACENT[mid]:
        if push in (land, ball_sq):
            continue
        if occ[push] < 0 or push == origin:  # the vacated origin is a legal push square
            out.append((TDODGE, origin, land, push))


def _ball_actions(s: State, i: int, sq: int, side: int, out: list[Action], ball_cost: int) -> None:
    cost = s.rs.pa_cost
    pa = s.pa
    occ, st, pos = s.occ, s.st, s.pos
    n = s.t.n
    lo = side * n
    if pa >= cost["handoff"] * ball_cost:
        for r in sorted(handoff_network(s, i)):
            out.append((HANDOFF, sq, pos[r]))
    if pa >= cost["short"] * ball_cost:
        reach = s.short_range
        for r in range(lo, lo + n):
            if r == i or st[r] != ACTIVE or distance(sq, pos[r]) > reach:
                continue
            rsq = pos[r]
            for b in ADJACENT[rsq]:
                if occ[b] < 0:
                    out.append((SHORT, sq, rsq, b))
    if pa >= cost["long"] * ball_cost:
        near: set[int] = set()
        if s.rs.long_min_distance == 2:
            for a in range(lo, lo + n):
                near |= WITHIN1[pos[a]]
            for b in PLAYABLE:
                if occ[b] < 0 and b not in near:
                    out.append((LONG, sq, b))
        else:
            mind = s.rs.long_min_distance
            allies = [pos[a] for a in range(lo, lo + n)]
            for b in PLAYABLE:
                if occ[b] < 0 and all(distance(b, p) >= mind for p in allies):
                    out.append((LONG, sq, b))


def handoff_network(s: State, carrier: int) -> set[int]:
    """Active allies connected to the carrier through chains of adjacent squares (§8)."""
    occ, st = s.occ, s.st
    n = s.t.n
    side = carrier // n
    seen = {carrier}
    frontier = [s.pos[carrier]]
    while frontier:
        sq = frontier.pop()
        for nb in ADJACENT[sq]:
            p = occ[nb]
            if p >= 0 and p not in seen and p // n == side and st[p] == ACTIVE:
                seen.add(p)
                frontier.append(nb)
    seen.discard(carrier)
    return seen


def stand_up_squares(s: State, sq: int) -> list[int]:
    """Empty adjacent squares with no free ball (§10, D-10)."""
    occ, ball_sq = s.occ, s.ball_sq
    return [t for t in ADJACENT[sq] if occ[t] < 0 and t != ball_sq]


def release_tasks(s: State) -> list[Action]:
    """Every legal release step of the coach to move (§8): stand-ups and splits."""
    return list(_release_steps(s))


def has_release_task(s: State) -> bool:
    """Whether the coach to move has a release step left (§8); stops at the first one.

    `play` asks this after every action that may end a turn, and most turns have none or
    few: listing every split only to test for emptiness was the search's hottest spot."""
    return next(_release_steps(s), None) is not None


def _release_steps(s: State) -> Iterator[Action]:
    side = s.to_move
    st, pos, under = s.st, s.pos, s.under
    n = s.t.n
    for i in range(side * n, side * n + n):  # pieces_of, as a loop the compiled build unboxes
        if st[i] == DOWN:
            sq = pos[i]
            for t in stand_up_squares(s, sq):
                yield (UP, sq, t)
        elif st[i] == TOP and s.since[i] < s.turn:
            at = pos[i]
            squares = stand_up_squares(s, at)
            if len(squares) < 2:
                continue
            bottom = under[at]
            if i == s.carrier:
                keeps = [KEEP_TOP]
                if s.was[bottom] == ACTIVE:  # D-23: a knocked-down piece cannot hold the ball
                    keeps.append(KEEP_BOTTOM)
            else:
                keeps = [KEEP_NONE]
            for a in squares:
                for b in squares:
                    if a != b:
                        for k in keeps:
                            yield (SPLIT, at, a, b, k)


def card_plays(s: State) -> list[Action]:
    """Cards the coach to move can play now (§11): in hand, affordable, with a target."""
    out: list[Action] = []
    side = s.to_move
    pe = s.pe[side]
    deck = s.rs.deck
    for name in sorted(set(s.hands[side])):
        card = deck.card(name)
        if card is None or card.pe > pe:
            continue
        if card.effect == "second_wind":
            for i in s.pieces_of(side):
                if s.restricted >> i & 1:
                    out.append((CARD, name, (s.pos[i],)))
        elif card.effect == "stand_up":
            for i in s.pieces_of(side):
                if s.st[i] == DOWN:
                    sq = s.pos[i]
                    out.extend((CARD, name, (sq, t)) for t in stand_up_squares(s, sq))
        elif not _already_in_effect(s, card):
            out.append((CARD, name, ()))
    return out


def _already_in_effect(s: State, card: Card) -> bool:
    """D-30: a turn effect that could change nothing this turn is not offered — already on,
    or with nothing left it could apply to (no PA for the action it helps, no carrier)."""
    cost = s.rs.pa_cost
    if card.effect == "short_range":
        return s.short_range >= card.value or (s.pa < cost["short"] and not s.audible)
    if card.effect == "cross_own_down":
        return s.screen or s.pa < cost["move"]
    if card.effect == "free_ball_action":
        c = s.carrier
        can_pass = (
            c >= 0 and c // s.t.n == s.to_move and s.st[c] == ACTIVE and not s.restricted >> c & 1
        )
        return s.audible or not can_pass
    return False
