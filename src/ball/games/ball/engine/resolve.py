"""Applying a legal action: effects, possession, steals, touchdowns and the ball clock.

`play(s, a, events)` mutates `s`. It trusts that `a` is legal (the caller checked it against
`generate.legal`); `events` is a list to append `Event`s to, or None when nobody listens
(perft, self-play).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .actions import (
    CARD,
    CONTINUE,
    DODGE,
    END,
    HANDOFF,
    KEEP_BOTTOM,
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
from .board import NAMES, opposite_step
from .generate import action_phase, has_release_task
from .state import (
    ACTION,
    ACTIVE,
    BOTTOM,
    DOWN,
    OVER,
    RELEASE,
    SIDE_NAMES,
    STEAL,
    TOP,
    State,
)  # fmt: skip
from .state import (
    RECOVER as RECOVER_PHASE,
)


@dataclass(frozen=True)
class Event:
    """Something that happened while an action resolved, for logs, records and the UI."""

    kind: str
    side: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)


def play(s: State, a: Action, events: list[Event] | None = None) -> None:
    kind: int = a[0]  # typed: the compiled build compares it unboxed
    s.legal_next = None
    # the ball's owner and square before (read inline: perft's hot path)
    carrier = s.carrier
    before = (carrier, s.pos[carrier] if carrier >= 0 else s.ball_sq)
    if kind <= LONG:
        _ordinary(s, a, events)
        _after_ball_change(s, before, events)
        if s.phase == ACTION and s.pa <= 0:
            _maybe_auto_end(s, events)
    elif kind == PE:
        s.pa -= 1
        s.pe = _added(s.pe, s.to_move, 1)
        _maybe_auto_end(s, events)
    elif kind == END:
        _enter_release(s, events)
    elif kind == UP:
        _stand_up(s, a[1], a[2])
        _after_release_task(s, events)
    elif kind == SPLIT:
        _split(s, a)
        _after_ball_change(s, before, events)
        if s.phase == RELEASE:
            _after_release_task(s, events)
    elif kind in (CONTINUE, RESET):
        _decide_steal(s, kind == RESET, events)
    elif kind == CARD:
        _play_card(s, a, events)
        _maybe_auto_end(s, events)
    elif kind == RECOVER:
        _recover(s, a[1], events)
    else:
        raise ValueError(f"unknown action kind {kind}")


# --- ordinary actions (§4–§9) -------------------------------------------------------------


def _ordinary(s: State, a: Action, events: list[Event] | None) -> None:
    kind: int = a[0]
    origin: int = a[1]
    occ = s.occ
    i = occ[origin]
    n = s.t.n
    side = i // n
    rs = s.rs
    if kind == MOVE:
        to: int = a[2]
        o = occ[to]
        if o < 0:
            action_kind = "move"
            occ[origin] = -1  # _relocate, inlined on the commonest action
            occ[to] = i
            s.pos[i] = to
            if s.ball_sq == to:
                _take_free_ball(s, i, events)
        else:
            action_kind = "block" if o // n != side else "protect"
            _stack(s, i, origin, to, o)
    elif kind == DODGE:
        action_kind = "dodge"
        victim = occ[a[2]]
        s.st[victim] = DOWN
        _relocate(s, i, origin, a[3])
        if events is not None:
            events.append(Event("knockdown", _side(s, victim), {"piece": s.piece_label(victim)}))
        if s.carrier == victim:  # forced fumble: the dodger carries the ball to its exit
            s.carrier = i
            s.restricted |= 1 << i
        elif s.ball_sq == a[3]:
            _take_free_ball(s, i, events)
    elif kind == TDODGE:
        action_kind = "tdodge"
        land, push = a[2], a[3]
        mid = (origin + land) // 2
        victim = occ[mid]
        _relocate(s, i, origin, land)
        occ[mid] = -1
        occ[push] = victim
        s.pos[victim] = push
        s.st[victim] = DOWN
        if events is not None:
            events.append(Event("knockdown", _side(s, victim), {"piece": s.piece_label(victim)}))
        if s.carrier == victim:  # fumble: the ball steps away from the push, if it can
            b = opposite_step(mid, push)
            s.carrier = -1
            s.ball_sq = b if b is not None and occ[b] < 0 else mid
        elif s.ball_sq == land:
            _take_free_ball(s, i, events)
    else:
        action_kind = ("handoff", "short", "long")[kind - HANDOFF]
        if kind == HANDOFF:
            s.carrier = occ[a[2]]
        else:
            s.carrier = -1
            s.ball_sq = a[3] if kind == SHORT else a[2]
        if s.audible:
            s.audible = False
            s.pa += rs.pa_cost[action_kind]  # refunded below: the action costs no PA
    s.pa -= rs.pa_cost[action_kind]
    if s.t.uses_pe and rs.pe_table[action_kind]:
        s.pe = _added(s.pe, side, rs.pe_table[action_kind])


def _added(values: list[int], k: int, amount: int) -> list[int]:
    """`values` with `amount` added at `k`, as a new list. `play` replaces the small
    per-side lists (PE, PB, score, hands, discards) instead of writing into them, so that
    an undo record (`ball.games.ball.engine.undo`) keeps the old lists without copying them."""
    new = values[:]
    new[k] += amount
    return new


def _relocate(s: State, i: int, origin: int, to: int) -> None:
    s.occ[origin] = -1
    s.occ[to] = i
    s.pos[i] = to


def _take_free_ball(s: State, i: int, events: list[Event] | None) -> None:
    s.carrier = i
    s.ball_sq = -1
    s.restricted |= 1 << i  # §9: it may not start another ordinary action this turn
    if events is not None:
        events.append(Event("possession", _side(s, i), {"piece": s.piece_label(i)}))


def _stack(s: State, i: int, origin: int, at: int, bottom: int) -> None:
    """§7 Block / Protection: `i` climbs on `bottom`; a carrier underneath loses the ball."""
    s.occ[origin] = -1
    s.occ[at] = i
    s.under[at] = bottom
    s.pos[i] = at
    s.was[bottom] = s.st[bottom]
    s.st[bottom] = BOTTOM
    s.st[i] = TOP
    s.since[i] = s.turn
    if s.carrier == bottom:
        s.carrier = i


def _side(s: State, piece: int) -> str:
    return SIDE_NAMES[s.side_of(piece)]


# --- ball clock, steals and touchdowns (§10, §12) -------------------------------------------


def _after_ball_change(s: State, before: tuple[int, int], events: list[Event] | None) -> None:
    """Charge 1 PB when the ball's owner, square or state changed; then touchdown / steal."""
    carrier = s.carrier
    changed = (carrier, s.pos[carrier] if carrier >= 0 else s.ball_sq) != before
    stealer = -1
    if carrier >= 0 and changed and carrier // s.t.n != s.attack:
        stealer = carrier // s.t.n
    if carrier >= 0 and _touchdown(s, events):  # only a carrier scores
        if stealer >= 0:
            s.attack = stealer  # D-24: a steal that scores at once counts as continued
        if changed:
            _charge_pb(s, 1, events)
        s.phase = OVER
        return
    if stealer >= 0:
        s.steal_by = stealer
        s.steal_pb = 1
        s.steal_resume = s.phase
        s.phase = STEAL
        if events is not None:
            events.append(Event("steal", SIDE_NAMES[stealer], {"piece": s.piece_label(carrier)}))
        return
    if changed:
        _charge_pb(s, 1, events)


def _charge_pb(s: State, amount: int, events: list[Event] | None) -> None:
    """Dual entry: the ATK coach gets +PBATK, the other coach the same +PBDEF (§12, D-17)."""
    atk = s.attack
    pb = s.pb[:]  # a new list, not written into: see `_added`
    pb[2 * atk] += amount
    pb[2 * (1 - atk) + 1] += amount
    s.pb = pb
    if events is not None:
        events.append(Event("pb", SIDE_NAMES[atk], {"atk": SIDE_NAMES[atk], "amount": amount}))


def _touchdown(s: State, events: list[Event] | None) -> bool:
    carrier = s.carrier
    if carrier < 0:
        return False
    side = s.side_of(carrier)
    if s.pos[carrier] not in s.t.zone[side]:
        return False
    s.score = _added(s.score, side, 1)
    if events is not None:
        events.append(
            Event(
                "touchdown",
                SIDE_NAMES[side],
                {"piece": s.piece_label(carrier), "at": NAMES[s.pos[carrier]]},
            )
        )
    return True


def _decide_steal(s: State, reset: bool, events: list[Event] | None) -> None:
    stealer = s.steal_by
    pending = s.steal_pb
    s.steal_by, s.steal_pb = -1, 0
    resume = s.steal_resume
    if not reset:
        s.attack = stealer
        _charge_pb(s, pending, events)
        s.phase = resume
        if events is not None:
            events.append(Event("continue", SIDE_NAMES[stealer]))
        if resume == ACTION:
            _maybe_auto_end(s, events)
        else:
            _after_release_task(s, events)
        return
    # reset: the ATK keeps the role; the steal's PB and the reset's PB go to its attack
    _charge_pb(s, pending + s.rs.pb_for_reset, events)
    reset_formation(s)
    if events is not None:
        events.append(Event("reset", SIDE_NAMES[stealer]))
    if s.rs.reset_ends_turn:
        _end_turn(s, events)  # D-12, D-25
    else:
        s.phase = ACTION
        _maybe_auto_end(s, events)


def reset_formation(s: State) -> None:
    """Back to the standard formation; PE kept, downs and stacks cleared, restriction off."""
    s.place_formation()


# --- phases and turns (§3, §8, §11) --------------------------------------------------------


def _maybe_auto_end(s: State, events: list[Event] | None) -> None:
    """The action phase ends by itself when no PA are left and nothing else can be done.

    The list built to find that out is kept in `s.legal_next` when the phase goes on, so
    that nobody builds the same list twice for one action."""
    if s.phase == ACTION and s.pa <= 0:
        if s.t.nothing_is_free and not s.audible:  # (Audible makes the next pass free)
            _enter_release(s, events)
            return
        rest = action_phase(s, include_end=False)
        if rest:
            s.legal_next = [(END,), *rest]  # what `legal(s)` returns in the action phase
        else:
            _enter_release(s, events)


def _enter_release(s: State, events: list[Event] | None) -> None:
    s.phase = RELEASE
    s.pa = 0  # unspent, unconverted PA vanish (§11)
    if not has_release_task(s):
        _end_turn(s, events)


def _after_release_task(s: State, events: list[Event] | None) -> None:
    if s.phase == RELEASE and not has_release_task(s):
        _end_turn(s, events)


def _stand_up(s: State, origin: int, to: int) -> None:
    i = s.occ[origin]
    _relocate(s, i, origin, to)
    s.st[i] = ACTIVE


def _split(s: State, a: Action) -> None:
    at, top_to, bottom_to, keep = a[1], a[2], a[3], a[4]
    top = s.occ[at]
    bottom = s.under[at]
    s.occ[at] = -1
    s.under[at] = -1
    s.occ[top_to] = top
    s.pos[top] = top_to
    s.st[top] = ACTIVE
    s.occ[bottom_to] = bottom
    s.pos[bottom] = bottom_to
    s.st[bottom] = s.was[bottom]
    s.was[bottom] = ACTIVE
    if keep == KEEP_BOTTOM:
        s.carrier = bottom


def _end_turn(s: State, events: list[Event] | None) -> None:
    """After the release phase: card recovery (R-cards), then the other coach's turn."""
    side = s.to_move
    if s.rs.card_mode and not s.hands[side] and s.discards[side]:
        s.phase = RECOVER_PHASE
        s.pa = 0
        return
    start_next_turn(s, events)


def start_next_turn(s: State, events: list[Event] | None) -> None:
    s.to_move = 1 - s.to_move
    s.turn += 1
    s.pa = s.rs.pa
    s.restricted = 0
    s.short_range = s.rs.short_range
    s.screen = False
    s.audible = False
    if s.recovery_owed == s.to_move and s.discards[s.to_move]:
        s.phase = RECOVER_PHASE
    else:
        s.recovery_owed = -1
        s.phase = ACTION
    if events is not None:
        events.append(Event("turn", SIDE_NAMES[s.to_move], {"turn": s.turn}))


def _replaced(piles: list[tuple[str, ...]], k: int, pile: tuple[str, ...]) -> list[tuple[str, ...]]:
    """`piles` with `pile` at `k`, as a new list (see `_added`)."""
    new = piles[:]
    new[k] = pile
    return new


def _recover(s: State, name: str | None, events: list[Event] | None) -> None:
    side = s.to_move
    if name is not None:
        discard = list(s.discards[side])
        discard.remove(name)
        s.discards = _replaced(s.discards, side, tuple(discard))
        s.hands = _replaced(s.hands, side, (*s.hands[side], name))
        if events is not None:
            events.append(Event("recover", SIDE_NAMES[side], {"card": name}))
    if s.recovery_owed == side:  # the opponent's answer, just before its own turn
        s.recovery_owed = -1
        s.phase = ACTION
        return
    s.recovery_owed = 1 - side if name is not None else -1
    start_next_turn(s, events)


def _play_card(s: State, a: Action, events: list[Event] | None) -> None:
    side = s.to_move
    name, args = a[1], a[2]
    card = s.rs.deck.card(name)
    assert card is not None, "only a card of the deck is ever legal to play"
    s.pe = _added(s.pe, side, -card.pe)
    hand = list(s.hands[side])
    hand.remove(name)
    s.hands = _replaced(s.hands, side, tuple(hand))
    s.discards = _replaced(s.discards, side, (*s.discards[side], name))
    effect = card.effect
    if effect == "extra_pa":
        s.pa += card.amount
    elif effect == "second_wind":
        s.restricted &= ~(1 << s.occ[args[0]])
    elif effect == "short_range":
        s.short_range = max(s.short_range, card.value)
    elif effect == "stand_up":
        _stand_up(s, args[0], args[1])
    elif effect == "cross_own_down":
        s.screen = True
    elif effect == "free_ball_action":
        s.audible = True
    if events is not None:
        events.append(Event("card", SIDE_NAMES[side], {"card": name}))
