"""Build BALL positions for scenario tests from a compact description.

    g = position({"S:X5": "G7", "N:O2": ("F10", "down")}, to_move="S")

Keys are `SIDE:ID`; a value is a square, or a tuple `(square, state, extra)` where state is
`down`, `top` (extra = since_turn, default the current turn) or `bottom` (extra = the state
it had before the stack formed, default `active`). Pieces not named are parked on the far
corners (S near row 1, N near row 17, away from the middle columns), so a
scenario only lists the pieces it is about.
"""

from __future__ import annotations

from typing import Any

from ball.games.ball.engine import Game, Ruleset

ROSTER = ("X1", "O2", "X3", "Q4", "X5", "O6", "X7")
# Parking squares: the corners of each side's own back rows, away from the middle columns
# where scenarios play (S's spares near row 1, N's near row 17).
PARKING = {
    "S": ["A1", "C1", "A3", "M1", "K1", "M3", "B2", "L2", "E1"],
    "N": ["A17", "C17", "A15", "M17", "K17", "M15", "B16", "L16", "E17"],
}


def piece_docs(pieces: dict[str, Any]) -> list[dict[str, Any]]:
    docs: dict[str, dict[str, Any]] = {}
    taken = set()
    for label, value in pieces.items():
        side, pid = label.split(":")
        spec = (value,) if isinstance(value, str) else tuple(value)
        d: dict[str, Any] = {"side": side, "id": pid, "kind": pid[0], "at": spec[0]}
        state = spec[1] if len(spec) > 1 else "active"
        d["state"] = state
        if state == "top" and len(spec) > 2:
            d["since_turn"] = spec[2]
        if state == "bottom":
            d["was"] = spec[2] if len(spec) > 2 else "active"
        docs[label] = d
        taken.add(spec[0])
    for side in ("S", "N"):
        free = [sq for sq in PARKING[side] if sq not in taken]
        for pid in ROSTER:
            label = f"{side}:{pid}"
            if label not in docs:
                sq = free.pop(0)
                docs[label] = {"side": side, "id": pid, "kind": pid[0], "at": sq}
    return list(docs.values())


def position_doc(
    pieces: dict[str, Any],
    *,
    ball: str = "S:X5",
    to_move: str = "S",
    attack: str = "S",
    phase: str = "action",
    turn: int = 5,
    ruleset: str = "standard",
    **fields: Any,
) -> dict[str, Any]:
    """A spec §18.2 document; `ball` is `SIDE:ID` (carrier) or a square (free ball)."""
    doc: dict[str, Any] = {
        "format": "ball-position/1",
        "ruleset": ruleset,
        "half": 1,
        "turn": turn,
        "to_move": to_move,
        "phase": phase,
        "attack": attack,
        "pieces": piece_docs(pieces),
        "ball": {"carrier": ball} if ":" in ball else {"at": ball},
    }
    doc.update(fields)
    return doc


def position(pieces: dict[str, Any], *, rs: Ruleset | None = None, **kw: Any) -> Game:
    return Game.from_json(position_doc(pieces, **kw), rs)


def from_square(g: Game, sq: str) -> set[str]:
    """The legal actions of the piece on `sq` (every action text that starts there)."""
    out = set()
    for a in g.legal_actions():
        head = a.split(" ")[1] if a.startswith(("up ", "split ")) else a
        for sep in "-/x=~@>":
            head = head.split(sep)[0]
        if head == sq:
            out.add(a)
    return out


def targets(g: Game, sq: str) -> set[str]:
    """Destination squares of plain `FROM-TO` actions of the piece on `sq`."""
    return {a.split("-")[1] for a in from_square(g, sq) if "-" in a and "/" not in a}


def piece(g: Game, label: str) -> dict[str, Any]:
    side, pid = label.split(":")
    return next(p for p in g.to_json()["pieces"] if p["side"] == side and p["id"] == pid)


def ball(g: Game) -> dict[str, str]:
    return g.to_json()["ball"]
