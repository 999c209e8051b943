"""An independent, deliberately plain legal-action generator (`legal`) and resolver (`apply`),
written from the spec (§1–§12, D-01…D-17, D-23…D-25) and reading and writing only §18.2 JSON
documents. It shares no code with ball.games.ball.engine, so agreeing with the engine on every node
of a perft tree or a random game is real evidence, not a tautology.

Covers the standard, "pe" and "cards" rulesets (provisional deck): action phase, release
phase, steal decision and card recovery.
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


CARD_COST = {
    "sprint": 2,
    "second-wind": 1,
    "long-arm": 1,
    "quick-feet": 2,
    "screen": 1,
    "audible": 1,
}
NO_EFFECTS = {"short_range": 4, "screen": False, "audible": False}


def legal(doc: dict[str, Any]) -> set[str]:
    phase = doc["phase"]
    if phase == "over":
        return set()
    if phase == "steal":
        return {"continue", "reset"}
    if phase == "recover":  # R-cards: take back one used card, or decline
        return {"recover -"} | {f"recover {c}" for c in doc["cards"][doc["to_move"]]["discard"]}
    board = Board(doc)
    if phase == "release":
        return release(board, doc["to_move"], doc["turn"])
    assert phase == "action", phase
    return {"end"} | action_options(doc, board)


def uses_pe(doc: dict[str, Any]) -> bool:
    return doc["ruleset"] in ("pe", "cards")


def action_options(doc: dict[str, Any], board: Board) -> set[str]:
    """Everything the coach may still do in the action phase, `end` aside (§3, §11)."""
    out: set[str] = set()
    pa, side = doc["pa"], doc["to_move"]
    effects = doc.get("effects", NO_EFFECTS)
    if uses_pe(doc) and pa >= 1:
        out.add("pe")
    if "cards" in doc:
        out |= card_plays(doc, board, effects)
    restricted = set(doc.get("restricted", []))
    for label, p in board.pieces.items():
        if p["side"] == side and p["state"] == "active" and label not in restricted:
            out |= piece_actions(board, label, p, pa, effects)
    return out


def card_plays(doc: dict[str, Any], board: Board, effects: dict) -> set[str]:
    """§11 / D-15: cards in hand that the coach can pay for and that have a target; a turn
    effect that could change nothing is not offered (D-30): already on, Long Arm with no PA
    for a short pass (and no Audible), Screen with no PA to move, Audible with no own
    carrier able to act."""
    side = doc["to_move"]
    out: set[str] = set()
    pa = doc["pa"]
    carrier = board.carrier
    carrier_piece = board.pieces.get(carrier) if carrier else None
    carrier_can_act = (
        carrier_piece is not None
        and carrier[0] == side
        and carrier_piece["state"] == "active"
        and carrier not in doc["restricted"]
    )
    in_effect = {
        "sprint": False,
        "long-arm": effects["short_range"] >= 6 or (pa < 1 and not effects["audible"]),
        "screen": effects["screen"] or pa < 1,
        "audible": effects["audible"] or not carrier_can_act,
    }
    for card in set(doc["cards"][side]["hand"]):
        if CARD_COST[card] > doc["pe"][side]:
            continue
        if card == "second-wind":
            mine = [board.pieces[r] for r in doc["restricted"] if r[0] == side]
            out |= {f"card second-wind {p['at']}" for p in mine}
        elif card == "quick-feet":
            for p in board.pieces.values():
                if p["side"] == side and p["state"] == "down":
                    for n in neighbours(square(p["at"])):
                        if board.empty(n) and n != board.free_ball:
                            out.add(f"card quick-feet {p['at']}-{name(n)}")
        elif not in_effect[card]:
            out.add(f"card {card}")
    return out


def piece_actions(board: Board, label: str, p: dict, pa: int, effects: dict) -> set[str]:
    side, at = p["side"], square(p["at"])
    ball_ok = label == board.carrier and (pa >= 1 or effects["audible"])  # Audible: free
    if pa < 1:
        return ball_actions(board, side, at, p["at"], effects["short_range"]) if ball_ok else set()
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
        out |= diagonal_jumps(board, side, at, origin, effects["screen"], land)
    if "orth2" in shapes:
        for d in ORTHOGONAL:
            target = step(at, d)
            if on_board(target):
                land(target)
    if ball_ok:
        out |= ball_actions(board, side, at, origin, effects["short_range"])
    return out


def diagonal_jumps(
    board: Board, side: str, at: Square, origin: str, screen: bool, land
) -> set[str]:
    """2-square diagonal movements: over an empty or own square (via `land`, which adds plain
    moves and dodges itself) or a tactical dodge over an active opponent (§6); returned."""
    out: set[str] = set()
    for d in DIAGONAL:
        middle, target = step(at, d), step(at, d, 2)
        if not on_board(target) or board.stack(middle):
            continue
        m = board.single(middle)
        if m is None:
            land(target)
        elif m["side"] == side:
            if m["state"] == "active" or (m["state"] == "down" and screen):
                land(target)  # Screen (D-15): own knocked-down pieces may be crossed
        elif m["state"] == "active" and board.empty(target):  # §6 tactical dodge
            for push in neighbours(middle):
                if push == target or push == board.free_ball:
                    continue
                if board.empty(push) or push == at:
                    out.add(f"{origin}x{name(target)}>{name(push)}")
    return out


def ball_actions(board: Board, side: str, at: Square, origin: str, reach: int) -> set[str]:
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
    # short pass (§9): receiver active ally within 4 (Long Arm: 6), ball next to it
    for q in allies:
        r = square(q["at"])
        if r != at and q["state"] == "active" and distance(at, r) <= reach:
            for b in neighbours(r):
                if board.empty(b):
                    out.add(f"{origin}~{q['at']}@{name(b)}")
    # long pass (§9): empty, 2+ from every allied piece
    ally_squares = [square(q["at"]) for q in allies]
    for c in range(13):
        for row in range(1, 18):
            b = (c, row)
            if playable(b) and board.empty(b) and all(distance(b, a) >= 2 for a in ally_squares):
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


# --- resolution --------------------------------------------------------------------------------
# An independent `apply(doc, action) -> doc` for the standard and PE rulesets (no cards), from
# §4–§12 and D-05/D-08/D-11/D-12/D-13/D-14/D-16/D-17 (plus the lead's D-24/D-25).

FORMATION = {  # D-05
    "S": {"X1": "D8", "O2": "F8", "O6": "H8", "X7": "J8", "X5": "G7", "X3": "F6", "Q4": "H6"},
    "N": {
        "X1": "D10",
        "O2": "F10",
        "O6": "H10",
        "X7": "J10",
        "X5": "G11",
        "X3": "F12",
        "Q4": "H12",
    },
}
SCORING_ROW = {"S": 17, "N": 1}  # D-03, depth 1
PE_TABLE = {"dodge": 1, "tdodge": 1, "block": 1}  # D-14


def other(side: str) -> str:
    return "N" if side == "S" else "S"


def ball_state(doc: dict) -> tuple:
    b = doc["ball"]
    if "at" in b:
        return (None, b["at"])
    side, pid = b["carrier"].split(":")
    return (
        b["carrier"],
        next(p["at"] for p in doc["pieces"] if (p["side"], p["id"]) == (side, pid)),
    )


def copy_document(value: Any) -> Any:
    """A deep copy of a JSON document: its dicts and lists new, its strings, numbers, booleans
    and None shared (they cannot change). `copy.deepcopy` did the same ~2.6x slower (it keeps a
    memo for shared and cyclic objects, which a JSON document has none of); the differential
    tests copy a document at every step."""
    if isinstance(value, dict):
        return {key: copy_document(item) for key, item in value.items()}
    if isinstance(value, list):
        return [copy_document(item) for item in value]
    return value


class Resolver:
    def __init__(self, doc: dict[str, Any]) -> None:
        self.d = copy_document(doc)
        self.by_label = {f"{p['side']}:{p['id']}": p for p in self.d["pieces"]}

    # small helpers
    def label(self, p: dict) -> str:
        return f"{p['side']}:{p['id']}"

    def top_at(self, sq: str) -> dict | None:
        here = [p for p in self.d["pieces"] if p["at"] == sq]
        tops = [p for p in here if p["state"] == "top"]
        return (tops or here or [None])[0]

    def pieces_at(self, sq: str) -> list[dict]:
        return [p for p in self.d["pieces"] if p["at"] == sq]

    def free_ball(self) -> str | None:
        return self.d["ball"].get("at")

    def carrier(self) -> str | None:
        return self.d["ball"].get("carrier")

    def give(self, p: dict) -> None:
        self.d["ball"] = {"carrier": self.label(p)}

    def take_free_ball(self, p: dict) -> None:
        self.give(p)
        self.d["restricted"] = sorted({*self.d["restricted"], self.label(p)})

    def charge(self, n: int) -> None:
        atk = self.d["attack"]
        self.d["pb"][atk]["atk"] += n
        self.d["pb"][other(atk)]["def"] += n

    def earn(self, side: str, kind: str) -> None:
        if uses_pe(self.d):
            self.d["pe"][side] += PE_TABLE.get(kind, 0)

    # phases and turns
    def end_turn(self) -> None:
        d = self.d
        cards = d.get("cards", {}).get(d["to_move"])
        if cards is not None and not cards["hand"] and cards["discard"]:
            d["phase"], d["pa"] = "recover", 0  # R-cards: may take one used card back
            return
        self.next_turn()

    def next_turn(self) -> None:
        d = self.d
        d.update(to_move=other(d["to_move"]), turn=d["turn"] + 1, pa=2, phase="action")
        d["restricted"] = []
        if "cards" in d:
            d["effects"] = dict(NO_EFFECTS)
            owed = d.get("recovery_owed")
            if owed == d["to_move"] and d["cards"][owed]["discard"]:
                d["phase"] = "recover"  # the opponent's answer, just before its turn
            else:
                d.pop("recovery_owed", None)

    def enter_release(self) -> None:
        self.d["phase"], self.d["pa"] = "release", 0
        self.release_done()

    def release_done(self) -> None:
        if self.d["phase"] == "release" and not legal(self.d):
            self.end_turn()

    def maybe_auto_end(self) -> None:
        d = self.d
        if d["phase"] == "action" and d["pa"] <= 0 and not action_options(d, Board(d)):
            self.enter_release()  # §3: no PA and nothing else (card, PE) left to do

    def after_ball_change(self, before: tuple) -> None:
        d = self.d
        changed = ball_state(d) != before
        c = self.carrier()
        stealer = c[0] if c and c[0] != d["attack"] and changed else None
        if c:
            p = self.by_label[c]
            if int(p["at"][1:]) == SCORING_ROW[p["side"]]:  # §10 / D-11 / D-13
                d["score"][p["side"]] += 1
                if stealer:
                    d["attack"] = stealer  # D-24
                if changed:
                    self.charge(1)
                d["phase"] = "over"
                return
        if stealer:
            d["steal"] = {"by": stealer, "pb": 1, "resume": d["phase"]}
            d["phase"] = "steal"
            return
        if changed:
            self.charge(1)

    # actions
    def apply(self, action: str) -> dict:
        d = self.d
        before = ball_state(d)
        if action in ("continue", "reset"):
            self.decide(action == "reset")
        elif action == "end":
            self.enter_release()
        elif action == "pe":
            d["pa"] -= 1
            d["pe"][d["to_move"]] += 1
            self.maybe_auto_end()
        elif action.startswith("card "):
            self.card(action.split()[1:])
            self.maybe_auto_end()
        elif action.startswith("recover "):
            self.recover(action.split()[1])
        elif action.startswith("up "):
            a, b = action[3:].split("-")
            p = self.top_at(a)
            p["at"], p["state"] = b, "active"
            self.release_done()
        elif action.startswith("split "):
            self.split(action)
            self.after_ball_change(before)
            self.release_done()
        else:
            self.ordinary(action)
            self.after_ball_change(before)
            self.maybe_auto_end()
        return self.d

    def ordinary(self, action: str) -> None:
        d = self.d
        side = d["to_move"]
        if "/" in action:
            route, exit_sq = action.split("/")
            a, b = route.split("-")
            mover, victim = self.top_at(a), self.top_at(b)
            victim["state"] = "down"
            mover["at"] = exit_sq
            fumble = self.carrier() == self.label(victim)  # §5 forced fumble
            if fumble or self.free_ball() == exit_sq:  # D-08: or the exit is the free ball
                self.take_free_ball(mover)
            self.earn(side, "dodge")
        elif "x" in action:
            a, rest = action.split("x")
            b, push = rest.split(">")
            sa, sb = square(a), square(b)
            mid = name(((sa[0] + sb[0]) // 2, (sa[1] + sb[1]) // 2))
            mover, victim = self.top_at(a), self.top_at(mid)
            mover["at"] = b
            victim["at"], victim["state"] = push, "down"
            if self.carrier() == self.label(victim):  # §6 fumble: one step away from the push
                sm, sp = square(mid), square(push)
                opp = (2 * sm[0] - sp[0], 2 * sm[1] - sp[1])
                ok = playable(opp) and not self.pieces_at(name(opp))
                d["ball"] = {"at": name(opp) if ok else mid}
            elif self.free_ball() == b:
                self.take_free_ball(mover)
            self.earn(side, "tdodge")
        elif "=" in action or "@" in action:  # hand-off, short pass, long pass
            if "=" in action:
                self.give(self.top_at(action.split("=")[1]))
            else:
                d["ball"] = {"at": action.split("@")[1]}
            if d.get("effects", {}).get("audible"):  # Audible: this one costs no PA
                d["effects"]["audible"] = False
                return
        else:
            a, b = action.split("-")
            mover, under = self.top_at(a), self.top_at(b)
            if under is None:
                mover["at"] = b
                if self.free_ball() == b:
                    self.take_free_ball(mover)
            else:  # §7 block / protection
                under["was"], under["state"] = under["state"], "bottom"
                mover["at"], mover["state"], mover["since_turn"] = b, "top", d["turn"]
                if self.carrier() == self.label(under):
                    self.give(mover)
                self.earn(side, "block" if under["side"] != side else "protect")
        d["pa"] -= 1

    def card(self, words: list[str]) -> None:
        d = self.d
        side, card = d["to_move"], words[0]
        d["pe"][side] -= CARD_COST[card]
        d["cards"][side]["hand"].remove(card)
        d["cards"][side]["discard"].append(card)
        if card == "sprint":
            d["pa"] += 1
        elif card == "second-wind":
            p = self.top_at(words[1])
            d["restricted"] = [r for r in d["restricted"] if r != self.label(p)]
        elif card == "long-arm":
            d["effects"]["short_range"] = 6
        elif card == "quick-feet":
            a, b = words[1].split("-")
            p = self.top_at(a)
            p["at"], p["state"] = b, "active"
        else:
            d["effects"][card] = True  # screen, audible

    def recover(self, card: str) -> None:
        d = self.d
        side = d["to_move"]
        if card != "-":
            d["cards"][side]["discard"].remove(card)
            d["cards"][side]["hand"].append(card)
        if d.get("recovery_owed") == side:  # the answer: now the turn itself starts
            del d["recovery_owed"]
            d["phase"] = "action"
            return
        if card != "-":
            d["recovery_owed"] = other(side)
        self.next_turn()

    def split(self, action: str) -> None:
        _, at, top_to, rest = action.split()
        bottom_to, _, keep = rest.partition(":")
        top = next(p for p in self.pieces_at(at) if p["state"] == "top")
        bottom = next(p for p in self.pieces_at(at) if p["state"] == "bottom")
        top["at"], top["state"] = top_to, "active"
        del top["since_turn"]
        bottom["at"], bottom["state"] = bottom_to, bottom.pop("was")
        if keep == "bottom":
            self.give(bottom)

    def decide(self, reset: bool) -> None:
        d = self.d
        steal = d.pop("steal")
        if not reset:
            d["attack"] = steal["by"]
            self.charge(steal["pb"])
            d["phase"] = steal["resume"]
            if d["phase"] == "action":
                self.maybe_auto_end()
            else:
                self.release_done()
            return
        self.charge(steal["pb"] + 1)  # D-17: the reset adds one more, same attack
        for p in d["pieces"]:
            p["at"], p["state"] = FORMATION[p["side"]][p["id"]], "active"
            p.pop("since_turn", None)
            p.pop("was", None)
        d["ball"] = {"carrier": f"{d['attack']}:X5"}
        d["restricted"] = []
        self.end_turn()  # D-12 / D-25


def apply(doc: dict[str, Any], action: str) -> dict[str, Any]:
    return Resolver(doc).apply(action)
