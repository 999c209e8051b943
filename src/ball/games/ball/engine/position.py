"""The position document of spec §18.2: `to_doc(state)` and `from_doc(doc)`.

`from_doc` checks everything a hand-written or uploaded document can get wrong and raises
`InvalidPosition` whose message starts with the offending field (`pieces[3].at: …`).
Optional fields missing from a document take their start-of-turn defaults.
"""

from __future__ import annotations

from typing import Any

from .board import NAMES, SquareError, parse_square
from .ruleset import Ruleset, RulesetError, ruleset_by_name
from .state import (
    ACTION,
    ACTIVE,
    BOTTOM,
    OVER,
    PHASE_NAMES,
    RECOVER,
    RELEASE,
    SIDE_NAMES,
    STATE_NAMES,
    STEAL,
    TOP,
    State,
    tables_for,
)  # fmt: skip

FORMAT = "ball-position/1"
_FIELDS = {
    "format", "ruleset", "half", "turn", "to_move", "phase", "attack", "pa", "pe", "pieces",
    "ball", "restricted", "pb", "score", "cards", "effects", "recovery_owed", "steal",
}  # fmt: skip


class InvalidPosition(ValueError):
    """A position document that cannot be a BALL position; the message names the field."""


def to_doc(s: State) -> dict[str, Any]:
    rs = s.rs
    doc: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": rs.name,
        "half": s.half,
        "turn": s.turn,
        "to_move": SIDE_NAMES[s.to_move],
        "phase": PHASE_NAMES[s.phase],
        "attack": SIDE_NAMES[s.attack],
        "pa": s.pa,
        "pe": {"S": s.pe[0], "N": s.pe[1]},
        "pieces": [_piece_doc(s, i) for i in range(2 * s.t.n)],
        "ball": {"carrier": s.piece_label(s.carrier)}
        if s.carrier >= 0
        else {"at": NAMES[s.ball_sq]},
        "restricted": [s.piece_label(i) for i in range(2 * s.t.n) if s.restricted >> i & 1],
        "pb": {
            "S": {"atk": s.pb[0], "def": s.pb[1]},
            "N": {"atk": s.pb[2], "def": s.pb[3]},
        },
        "score": {"S": s.score[0], "N": s.score[1]},
    }
    if rs.card_mode:
        doc["cards"] = {
            side: {"hand": list(s.hands[k]), "discard": list(s.discards[k])}
            for k, side in enumerate(SIDE_NAMES)
        }
        doc["effects"] = {"short_range": s.short_range, "screen": s.screen, "audible": s.audible}
    if s.recovery_owed >= 0:
        doc["recovery_owed"] = SIDE_NAMES[s.recovery_owed]
    if s.phase == STEAL:
        doc["steal"] = {
            "by": SIDE_NAMES[s.steal_by],
            "pb": s.steal_pb,
            "resume": PHASE_NAMES[s.steal_resume],
        }
    return doc


def _piece_doc(s: State, i: int) -> dict[str, Any]:
    d: dict[str, Any] = {
        "side": SIDE_NAMES[s.side_of(i)],
        "id": s.piece_id(i),
        "kind": s.piece_id(i)[0],
        "at": NAMES[s.pos[i]],
        "state": STATE_NAMES[s.st[i]],
    }
    if s.st[i] == TOP:
        d["since_turn"] = s.since[i]
    elif s.st[i] == BOTTOM:
        d["was"] = STATE_NAMES[s.was[i]]
    return d


# --- reading -----------------------------------------------------------------------------


def _fail(field: str, message: str) -> InvalidPosition:
    return InvalidPosition(f"{field}: {message}")


def _int(
    doc: dict[str, Any], key: str, default: int, lo: int = 0, hi: int | None = None, where: str = ""
) -> int:
    """doc[key] as a bounded int; errors name the full path `where` + key."""
    value = doc.get(key, default)
    field = f"{where}{key}"
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(field, f"expected a whole number, got {value!r}")
    if value < lo or (hi is not None and value > hi):
        raise _fail(field, f"{value} is out of range ({lo}..{hi if hi is not None else '∞'})")
    return value


def _side(value: Any, field: str) -> int:
    if value not in SIDE_NAMES:
        raise _fail(field, f"expected 'S' or 'N', got {value!r}")
    return SIDE_NAMES.index(value)


def _square(value: Any, field: str) -> int:
    if not isinstance(value, str):
        raise _fail(field, f"expected a square such as 'G7', got {value!r}")
    try:
        return parse_square(value)
    except SquareError as exc:
        raise _fail(field, str(exc)) from None


def _per_side(doc: dict[str, Any], key: str) -> dict[str, Any]:
    value = doc.get(key, {"S": 0, "N": 0})
    if not isinstance(value, dict) or set(value) != {"S", "N"}:
        raise _fail(key, "expected an object with exactly the keys 'S' and 'N'")
    return value


def from_doc(doc: Any, ruleset: Ruleset | None = None) -> State:
    if not isinstance(doc, dict):
        raise InvalidPosition(f"document: expected a JSON object, got {type(doc).__name__}")
    for key in doc:
        if key not in _FIELDS:
            raise _fail(key, "unknown field")
    if doc.get("format") != FORMAT:
        raise _fail("format", f"expected {FORMAT!r}, got {doc.get('format')!r}")
    rs = _ruleset(doc, ruleset)
    s = State(rs)
    s.half = _int(doc, "half", 1, 1, 2)
    s.turn = _int(doc, "turn", 1, 1)
    s.to_move = _side(doc.get("to_move", "N"), "to_move")
    s.attack = _side(doc.get("attack", "S"), "attack")
    phase = doc.get("phase", "action")
    if phase not in PHASE_NAMES:
        raise _fail("phase", f"expected one of {', '.join(PHASE_NAMES)}, got {phase!r}")
    s.phase = PHASE_NAMES.index(phase)
    s.pa = _int(doc, "pa", rs.pa if s.phase == ACTION else 0, 0, 99)
    pe = _per_side(doc, "pe")
    for k, side in enumerate(SIDE_NAMES):
        s.pe[k] = _int(pe, side, 0, 0, where="pe.")
    _read_pieces(s, doc.get("pieces"))
    _read_ball(s, doc.get("ball"))
    _read_restricted(s, doc.get("restricted", []))
    _read_pb(s, doc)
    score = _per_side(doc, "score")
    for k, side in enumerate(SIDE_NAMES):
        s.score[k] = _int(score, side, 0, 0, 1, where="score.")
    if sum(s.score) > 1:
        raise _fail("score", "a half holds at most one touchdown")
    if (sum(s.score) == 1) != (s.phase == OVER):
        raise _fail(
            "phase" if s.phase == OVER else "score",
            "a touchdown ends the half at once: phase is 'over' exactly when one is scored (D-11)",
        )
    if rs.uses_pe is False and any(s.pe):
        raise _fail("pe", f"ruleset {rs.name!r} has neither PE nor card mode")
    _read_cards(s, doc)
    _read_pending(s, doc)
    return s


def _ruleset(doc: dict[str, Any], ruleset: Ruleset | None) -> Ruleset:
    name = doc.get("ruleset", "standard")
    if ruleset is not None:
        return ruleset
    if not isinstance(name, str):
        raise _fail("ruleset", f"expected a ruleset name, got {type(name).__name__}")
    try:
        # a document names its ruleset; it never points the reader at a file (D-37)
        return ruleset_by_name(name)
    except RulesetError as exc:
        raise _fail("ruleset", str(exc)) from None


def _read_pieces(s: State, pieces: Any) -> None:
    rs, n = s.rs, tables_for(s.rs).n
    if not isinstance(pieces, list):
        raise _fail("pieces", "expected a list of pieces")
    seen: dict[int, dict[str, Any]] = {}
    for k, p in enumerate(pieces):
        f = f"pieces[{k}]"
        if not isinstance(p, dict):
            raise _fail(f, "expected an object")
        allowed = {"side", "id", "kind", "at", "state", "since_turn", "was"}
        for key in p:
            if key not in allowed:
                raise _fail(f"{f}.{key}", "unknown field")
        side = _side(p.get("side"), f"{f}.side")
        pid = p.get("id")
        if pid not in rs.roster:
            raise _fail(f"{f}.id", f"expected one of {', '.join(rs.roster)}, got {pid!r}")
        if "kind" in p and p["kind"] != pid[0]:
            raise _fail(f"{f}.kind", f"{pid} is of kind {pid[0]}, not {p['kind']!r}")
        i = side * n + rs.roster.index(pid)
        if i in seen:
            raise _fail(f"{f}.id", f"{SIDE_NAMES[side]}:{pid} appears twice")
        state = p.get("state", "active")
        if state not in STATE_NAMES:
            raise _fail(f"{f}.state", f"expected one of {', '.join(STATE_NAMES)}, got {state!r}")
        s.pos[i] = _square(p.get("at"), f"{f}.at")
        s.st[i] = STATE_NAMES.index(state)
        if s.st[i] == TOP:
            s.since[i] = _int(p, "since_turn", s.turn, 1, where=f"{f}.")
            if s.since[i] > s.turn:
                raise _fail(f"{f}.since_turn", f"{s.since[i]} is after the current turn")
        elif "since_turn" in p:
            raise _fail(f"{f}.since_turn", "only the top of a stack has since_turn")
        if s.st[i] == BOTTOM:
            was = p.get("was", "active")
            if was not in ("active", "down"):
                raise _fail(f"{f}.was", f"expected 'active' or 'down', got {was!r}")
            s.was[i] = STATE_NAMES.index(was)
        elif "was" in p:
            raise _fail(f"{f}.was", "only the bottom of a stack has was")
        seen[i] = p
    missing = [s.piece_label(i) for i in range(2 * n) if i not in seen]
    if missing:
        raise _fail("pieces", f"missing {', '.join(missing)} (each side has {n} pieces)")
    _place(s)


def _place(s: State) -> None:
    on: dict[int, list[int]] = {}
    for i, sq in enumerate(s.pos):
        on.setdefault(sq, []).append(i)
    for sq, here in on.items():
        where = f"pieces (on {NAMES[sq]})"
        if len(here) == 1:
            i = here[0]
            if s.st[i] in (TOP, BOTTOM):
                raise _fail(
                    where,
                    f"{s.piece_label(i)} is {STATE_NAMES[s.st[i]]} of a stack "
                    "but alone on its square",
                )
            s.occ[sq] = i
        elif len(here) == 2:
            tops = [i for i in here if s.st[i] == TOP]
            bottoms = [i for i in here if s.st[i] == BOTTOM]
            if len(tops) != 1 or len(bottoms) != 1:
                raise _fail(where, "two pieces on one square must be one 'top' and one 'bottom'")
            s.occ[sq] = tops[0]
            s.under[sq] = bottoms[0]
        else:
            raise _fail(where, f"{len(here)} pieces on one square (a stack is exactly two)")


def _read_ball(s: State, ball: Any) -> None:
    if not isinstance(ball, dict) or len(ball) != 1 or not ({"carrier", "at"} & set(ball)):
        raise _fail("ball", 'expected {"carrier": "SIDE:ID"} or {"at": "SQUARE"}')
    if "carrier" in ball:
        i = _label(s, ball["carrier"], "ball.carrier")
        if s.st[i] not in (ACTIVE, TOP):
            raise _fail(
                "ball.carrier",
                f"{s.piece_label(i)} is {STATE_NAMES[s.st[i]]}; "
                "only an active piece or the top of a stack holds the ball",
            )
        s.carrier = i
    else:
        sq = _square(ball["at"], "ball.at")
        if s.occ[sq] >= 0:
            raise _fail(
                "ball.at", f"{NAMES[sq]} holds a piece; a free ball lies on an empty square"
            )
        s.ball_sq = sq


def _label(s: State, value: Any, field: str) -> int:
    if not isinstance(value, str) or ":" not in value:
        raise _fail(field, f"expected 'SIDE:ID' such as 'S:X5', got {value!r}")
    side, pid = value.split(":", 1)
    k = _side(side, field)
    if pid not in s.rs.roster:
        raise _fail(field, f"no piece {pid!r} in the roster")
    return k * s.t.n + s.rs.roster.index(pid)


def _read_restricted(s: State, restricted: Any) -> None:
    if not isinstance(restricted, list):
        raise _fail("restricted", "expected a list of 'SIDE:ID'")
    for k, value in enumerate(restricted):
        s.restricted |= 1 << _label(s, value, f"restricted[{k}]")


def _read_pb(s: State, doc: dict[str, Any]) -> None:
    pb = doc.get("pb", {"S": {"atk": 0, "def": 0}, "N": {"atk": 0, "def": 0}})
    if not isinstance(pb, dict) or set(pb) != {"S", "N"}:
        raise _fail("pb", "expected an object with the keys 'S' and 'N'")
    for k, side in enumerate(SIDE_NAMES):
        entry = pb[side]
        if not isinstance(entry, dict) or set(entry) != {"atk", "def"}:
            raise _fail(f"pb.{side}", "expected an object with the keys 'atk' and 'def'")
        s.pb[2 * k] = _int(entry, "atk", 0, where=f"pb.{side}.")
        s.pb[2 * k + 1] = _int(entry, "def", 0, where=f"pb.{side}.")
    if s.pb[0] != s.pb[3] or s.pb[2] != s.pb[1]:
        raise _fail("pb", "dual entry broken: S.atk must equal N.def and N.atk must equal S.def")


def _read_cards(s: State, doc: dict[str, Any]) -> None:
    rs = s.rs
    if not rs.card_mode:
        if s.phase == RECOVER:
            raise _fail("phase", f"'recover' exists only in card mode (ruleset {rs.name!r})")
        for key in ("cards", "effects", "recovery_owed"):
            if key in doc:
                raise _fail(key, f"ruleset {rs.name!r} is not in card mode")
        return
    names = {c.name for c in rs.deck.cards}
    cards = doc.get("cards")
    if cards is not None:
        if not isinstance(cards, dict) or set(cards) != {"S", "N"}:
            raise _fail("cards", "expected an object with the keys 'S' and 'N'")
        for k, side in enumerate(SIDE_NAMES):
            entry = cards[side]
            if not isinstance(entry, dict) or not set(entry) <= {"hand", "discard"}:
                raise _fail(f"cards.{side}", "expected {'hand': [...], 'discard': [...]}")
            for pile in ("hand", "discard"):
                value = entry.get(pile, [])
                if not isinstance(value, list) or any(v not in names for v in value):
                    raise _fail(f"cards.{side}.{pile}", f"expected card names from {sorted(names)}")
            s.hands[k] = tuple(entry.get("hand", []))
            s.discards[k] = tuple(entry.get("discard", []))
    effects = doc.get("effects", {})
    if not isinstance(effects, dict) or not set(effects) <= {"short_range", "screen", "audible"}:
        raise _fail("effects", "expected {'short_range': int, 'screen': bool, 'audible': bool}")
    s.short_range = _int(effects, "short_range", rs.short_range, 0, 99, where="effects.")
    for key in ("screen", "audible"):
        value = effects.get(key, False)
        if not isinstance(value, bool):
            raise _fail(f"effects.{key}", f"expected true or false, got {value!r}")
        setattr(s, key, value)
    if "recovery_owed" in doc:
        s.recovery_owed = _side(doc["recovery_owed"], "recovery_owed")


def _read_pending(s: State, doc: dict[str, Any]) -> None:
    steal = doc.get("steal")
    if s.phase != STEAL:
        if steal is not None:
            raise _fail("steal", "only a position in the 'steal' phase has a pending steal")
        return
    if s.carrier < 0:
        raise _fail("phase", "a steal is pending but nobody holds the ball")
    by = SIDE_NAMES[s.side_of(s.carrier)]
    if by == SIDE_NAMES[s.attack]:
        raise _fail("phase", "a steal is pending but the ball carrier's side is already ATK")
    if steal is None:
        steal = {"by": by, "pb": 1, "resume": "action"}
    if not isinstance(steal, dict) or not set(steal) <= {"by", "pb", "resume"}:
        raise _fail("steal", "expected {'by': side, 'pb': n, 'resume': 'action'|'release'}")
    s.steal_by = _side(steal.get("by", by), "steal.by")
    if SIDE_NAMES[s.steal_by] != by:
        raise _fail("steal.by", f"the ball carrier is {by}'s piece")
    s.steal_pb = _int(steal, "pb", 1, 0, 1, where="steal.")
    resume = steal.get("resume", "action")
    if resume not in ("action", "release"):
        raise _fail("steal.resume", f"expected 'action' or 'release', got {resume!r}")
    s.steal_resume = ACTION if resume == "action" else RELEASE


__all__ = ["FORMAT", "InvalidPosition", "from_doc", "to_doc"]
