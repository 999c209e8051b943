"""An independent, deliberately plain legal-action generator for the standard ruleset, written
from the spec (§1–§10, D-01/D-02/D-07/D-08/D-09/D-10/D-23) and reading only the §18.2 JSON
document. It shares no code with ball.engine, so agreeing with the engine's `legal_actions()`
on every node of a perft tree or a random game is real evidence, not a tautology.

Covers the action phase without PE or cards, the release phase and the steal decision.
"""

from __future__ import annotations

from collections import deque
from typing import Any

COLS = "ABCDEFGHIJKLM"
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
ORTHOGONAL = ((2, 0), (-2, 0), (0, 2), (0, -2))
SHAPES = {"X": {"diag1", "diag2"}, "O": {"diag1", "orth2"}, "Q": {"diag1", "diag2", "orth2"}}
Square = tuple[int, int]


def name(s: Square) -> str:
    return f"{COLS[s[0]]}{s[1]}"


def square(text: str) -> Square:
    return COLS.index(text[0]), int(text[1:])


def on_board(s: Square) -> bool:
    return 0 <= s[0] < 13 and 1 <= s[1] <= 17


def playable(s: Square) -> bool:
    return on_board(s) and (s[0] + 1 + s[1]) % 2 == 0  # D-01, A = 1


def distance(a: Square, b: Square) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))  # D-02


def step(s: Square, d: tuple[int, int], k: int = 1) -> Square:
    return s[0] + k * d[0], s[1] + k * d[1]


def neighbours(s: Square) -> list[Square]:
    return [n for n in (step(s, d) for d in DIAGONAL) if on_board(n)]


class Board:
    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.pieces = {f"{p['side']}:{p['id']}": p for p in doc["pieces"]}
        self.on: dict[Square, list[dict]] = {}
        for p in doc["pieces"]:
            self.on.setdefault(square(p["at"]), []).append(p)
        ball = doc["ball"]
        self.carrier = ball.get("carrier")
        self.free_ball = square(ball["at"]) if "at" in ball else None

    def single(self, s: Square) -> dict | None:
        """The lone piece on s; None if empty or a stack."""
        here = self.on.get(s, [])
        return here[0] if len(here) == 1 else None

    def empty(self, s: Square) -> bool:
        return not self.on.get(s)

    def stack(self, s: Square) -> bool:
        return len(self.on.get(s, [])) == 2


def legal(doc: dict[str, Any]) -> set[str]:
    phase = doc["phase"]
    if phase == "over":
        return set()
    if phase == "steal":
        return {"continue", "reset"}
    board = Board(doc)
    if phase == "release":
        return release(board, doc["to_move"], doc["turn"])
    assert phase == "action", phase
    out = {"end"}
    if doc["pa"] >= 1:
        restricted = set(doc.get("restricted", []))
        for label, p in board.pieces.items():
            mine = p["side"] == doc["to_move"] and p["state"] == "active"
            if mine and label not in restricted:
                out |= piece_actions(board, label, p)
    return out


def piece_actions(board: Board, label: str, p: dict) -> set[str]:
    side, at = p["side"], square(p["at"])
    shapes = SHAPES[p["kind"]]
    origin = p["at"]
    out: set[str] = set()

    def land(target: Square) -> None:
        """A 2-square movement arriving on target: plain move or dodge (§4, §5)."""
        if board.empty(target):
            out.add(f"{origin}-{name(target)}")
            return
        victim = board.single(target)
        if victim and victim["side"] != side and victim["state"] == "active":
            for exit_sq in neighbours(target):
                if board.empty(exit_sq):  # D-08: the free ball's square is allowed
                    out.add(f"{origin}-{name(target)}/{name(exit_sq)}")

    if "diag1" in shapes:
        for d in DIAGONAL:
            t = step(at, d)
            if not on_board(t) or board.stack(t):
                continue
            out.add(f"{origin}-{name(t)}")  # move, take the ball, block or protect (D-09)
    if "diag2" in shapes:
        for d in DIAGONAL:
            middle, target = step(at, d), step(at, d, 2)
            if not on_board(target) or board.stack(middle):
                continue
            m = board.single(middle)
            if m is None:
                land(target)
            elif m["side"] == side:
                if m["state"] == "active":
                    land(target)
            elif m["state"] == "active" and board.empty(target):  # §6 tactical dodge
                for push in neighbours(middle):
                    if push == target or push == board.free_ball:
                        continue
                    if board.empty(push) or push == at:
                        out.add(f"{origin}x{name(target)}>{name(push)}")
    if "orth2" in shapes:
        for d in ORTHOGONAL:
            target = step(at, d)
            if on_board(target):
                land(target)
    if label == board.carrier:
        out |= ball_actions(board, side, at, origin)
    return out


def ball_actions(board: Board, side: str, at: Square, origin: str) -> set[str]:
    out: set[str] = set()
    allies = [p for p in board.pieces.values() if p["side"] == side]
    # hand-off network (§9)
    seen, queue = {at}, deque([at])
    while queue:
        s = queue.popleft()
        for n in neighbours(s):
            q = board.single(n)
            if n not in seen and q and q["side"] == side and q["state"] == "active":
                seen.add(n)
                queue.append(n)
                out.add(f"{origin}={name(n)}")
    # short pass (§9): receiver active ally within 4, ball on an empty square next to it
    for q in allies:
        r = square(q["at"])
        if r != at and q["state"] == "active" and distance(at, r) <= 4:
            for b in neighbours(r):
                if board.empty(b):
                    out.add(f"{origin}~{q['at']}@{name(b)}")
    # long pass (§9): empty, 2+ from every allied piece
    for c in range(13):
        for row in range(1, 18):
            b = (c, row)
            far = all(distance(b, square(q["at"])) >= 2 for q in allies)
            if playable(b) and board.empty(b) and far:
                out.add(f"{origin}@{name(b)}")
    return out


def release(board: Board, side: str, turn: int) -> set[str]:
    out: set[str] = set()

    def free(s: Square) -> list[Square]:
        return [n for n in neighbours(s) if board.empty(n) and n != board.free_ball]  # D-10

    for label, p in board.pieces.items():
        if p["side"] != side:
            continue
        at = square(p["at"])
        if p["state"] == "down":
            out |= {f"up {p['at']}-{name(n)}" for n in free(at)}
        elif p["state"] == "top" and p["since_turn"] < turn:
            bottom = next(q for q in board.on[at] if q is not p)
            if label == board.carrier:
                keeps = [":top"] + ([":bottom"] if bottom["was"] == "active" else [])  # D-23
            else:
                keeps = [""]
            squares = free(at)
            for a in squares:
                for b in squares:
                    if a != b:
                        out |= {f"split {p['at']} {name(a)} {name(b)}{k}" for k in keeps}
    return out
