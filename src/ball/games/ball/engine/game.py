"""`Game`: the one public face of the rules engine (python-chess style Board API).

g = Game.new()
g.legal_actions()        # ['D10-C11', 'D10-E11', ...]
g.apply("F10-E9")        # -> [Event, ...]; raises IllegalAction saying why
g.to_json()              # spec §18.2 document; Game.from_json(doc) reads it back

A `Game` builds each legal-action list once per position: `legal_actions`, `legal_tuples`
and `apply` share one cached list, dropped whenever the position changes through the
`Game` (or whenever the live `state` is handed out, since its holder may change it), and
`apply` takes over the list `play` built to test whether the action phase ended by itself.
"""

from __future__ import annotations

from typing import Any

from .actions import END, SPLIT, UP, Action, parse, to_text
from .explain import why_illegal
from .generate import legal, release_tasks
from .notation import NotationError
from .position import from_doc, to_doc
from .resolve import Event, play, reset_formation, start_next_turn
from .ruleset import Ruleset, ruleset_by_name
from .state import (
    ACTION,
    OVER,
    PHASE_NAMES,
    RELEASE,
    SIDE_NAMES,
    STEAL,
    S,
    State,
)  # fmt: skip
from .undo import make, unmake


class IllegalAction(ValueError):
    """An action that cannot be applied; the message says why."""


class Game:
    __slots__ = ("_s", "_legal", "_legal_set")

    def __init__(self, state: State) -> None:
        self._s = state
        self._legal: list[Action] | None = None  # legal(self._s), built at most once
        self._legal_set: frozenset[Action] | None = None  # the same, for `apply`'s test

    def _actions(self) -> list[Action]:
        actions = self._legal
        if actions is None:
            actions = self._legal = legal(self._s)
        return actions

    def _changed(self, actions: list[Action] | None = None) -> None:
        """The position changed: forget its action list, or take the one `play` built.

        The state's own hand-over slot is emptied: once taken (or the position changed by
        other means) it may no longer describe the state."""
        self._legal = actions
        self._legal_set = None
        self._s.legal_next = None

    # --- construction ------------------------------------------------------------------
    @classmethod
    def new(cls, ruleset: Ruleset | str | object = None, *, half: int = 1) -> Game:
        """Standard formation at the start of a half: N (DEF) to move, S is ATK.

        A string is a ruleset *name* (D-37); a file is loaded with `load_ruleset(PATH)`.
        Anything else is refused by `ruleset_by_name` (RulesetError): `ruleset` and the other
        API-edge arguments are typed `object` so that the compiled build does not refuse them
        first with a TypeError (actions.parse)."""
        rs = ruleset if isinstance(ruleset, Ruleset) else ruleset_by_name(ruleset or "standard")
        s = State(rs)
        s.half = half
        s.attack = S
        s.place_formation()
        return cls(s)

    @classmethod
    def from_json(cls, doc: dict[str, Any] | object, ruleset: Ruleset | None = None) -> Game:
        """Read a position document; raises InvalidPosition naming the offending field."""
        return cls(from_doc(doc, ruleset))

    def to_json(self) -> dict[str, Any]:
        return to_doc(self._s)

    def copy(self) -> Game:
        """An independent game at the same position; the action list found for it, if any,
        comes along (lists are replaced, never changed in place, so both may hold it)."""
        g = Game(self._s.copy())
        g._legal, g._legal_set = self._legal, self._legal_set
        return g

    def next_half(self) -> Game:
        """Half 2 after this half: ends change, PE and cards go with their coaches (D-22)."""
        s = self._s
        g = Game.new(s.rs, half=s.half + 1)
        n = g._s
        n.pe = [s.pe[1], s.pe[0]]
        n.hands = [s.hands[1], s.hands[0]]
        n.discards = [s.discards[1], s.discards[0]]
        return g

    # --- playing -----------------------------------------------------------------------
    def legal_actions(self) -> list[str]:
        return sorted(to_text(a) for a in self._actions())

    def legal_tuples(self) -> list[Action]:
        return self._actions()[:]  # a copy: the caller may sort or shuffle it

    @staticmethod
    def canonical(text: str | object) -> str:
        """The canonical spelling of an action text (`g7-h8` → `G7-H8`); IllegalAction if
        it is not an action at all."""
        try:
            return to_text(parse(text))
        except NotationError as exc:
            raise IllegalAction(str(exc)) from None

    def parse(self, text: str | object) -> Action:
        try:
            return parse(text)
        except NotationError as exc:
            raise IllegalAction(str(exc)) from None

    def apply(self, action: str | Action | object) -> list[Event]:
        a = action if isinstance(action, tuple) else self.parse(action)
        allowed = self._legal_set
        if allowed is None:
            allowed = self._legal_set = frozenset(self._actions())
        if a not in allowed:
            raise IllegalAction(why_illegal(self._s, a))
        events: list[Event] = []
        play(self._s, a, events)
        self._changed(self._s.legal_next)
        return events

    def play_tuple(self, a: Action) -> None:
        """Apply an action known to be legal (from `legal_tuples`), without events."""
        play(self._s, a, None)
        self._changed(self._s.legal_next)

    # --- match-level primitives (time protocol and sanctions, spec §13–§14) ---------------
    def referee_release(self) -> list[str]:
        """Resolve the pending release phase deterministically: always the first legal task
        in sorted notation order, until none is left. Returns the applied actions."""
        done: list[str] = []
        s = self._s
        turn = s.turn
        while s.phase == RELEASE and s.turn == turn:
            tasks = sorted(to_text(a) for a in release_tasks(s))
            if not tasks:
                break
            done.append(tasks[0])
            self.apply(tasks[0])
            while s.phase == STEAL:  # a release step cannot steal from the ATK in practice,
                done.append("continue")  # but stay total: the referee keeps the ball moving
                self.apply("continue")
        return done

    def lose_turn(self) -> list[Event]:
        """Sanction 'loss of the current turn': the turn ends now, with no release phase.

        Returns the events (the `turn` event of the next coach's turn)."""
        s = self._s
        if s.phase == OVER:
            raise IllegalAction("the half is over")
        events: list[Event] = []
        s.steal_by, s.steal_pb = -1, 0
        start_next_turn(s, events)
        self._changed()
        return events

    def lose_possession(self, side: str | object) -> list[Event]:
        """D-19: reset to the standard formation with the opponent of `side` as ATK; no PB.
        The turn in progress ends, and the next turn is the other coach's (D-25)."""
        s = self._s
        if s.phase == OVER:
            raise IllegalAction("the half is over")
        if side not in SIDE_NAMES:
            raise IllegalAction(f"side must be S or N, got {side!r}")
        events: list[Event] = [
            Event("reset", None, {"attack": SIDE_NAMES[1 - SIDE_NAMES.index(side)]})
        ]
        s.attack = 1 - SIDE_NAMES.index(side)
        s.steal_by, s.steal_pb = -1, 0
        reset_formation(s)
        start_next_turn(s, events)
        self._changed()
        return events

    # --- read-only views -----------------------------------------------------------------
    @property
    def state(self) -> State:
        """The live state. Whoever holds it may change it, so the cached list goes."""
        self._changed()
        return self._s

    @property
    def peek(self) -> State:
        """The live state for reading only: unlike `state`, the cached action list stays
        (whoever reads it must not change it)."""
        return self._s

    @property
    def ruleset(self) -> Ruleset:
        return self._s.rs

    @property
    def half(self) -> int:
        return self._s.half

    @property
    def turn(self) -> int:
        return self._s.turn

    @property
    def phase(self) -> str:
        return PHASE_NAMES[self._s.phase]

    @property
    def to_move(self) -> str:
        return SIDE_NAMES[self._s.to_move]

    @property
    def actor(self) -> str:
        """Who must answer now: the stealer during a steal decision, else the side to move."""
        s = self._s
        return SIDE_NAMES[s.steal_by if s.phase == STEAL else s.to_move]

    @property
    def attack(self) -> str:
        return SIDE_NAMES[self._s.attack]

    @property
    def pa(self) -> int:
        return self._s.pa

    @property
    def pe(self) -> dict[str, int]:
        return {"S": self._s.pe[0], "N": self._s.pe[1]}

    @property
    def pb(self) -> dict[str, dict[str, int]]:
        p = self._s.pb
        return {"S": {"atk": p[0], "def": p[1]}, "N": {"atk": p[2], "def": p[3]}}

    @property
    def score(self) -> dict[str, int]:
        return {"S": self._s.score[0], "N": self._s.score[1]}

    @property
    def is_over(self) -> bool:
        return self._s.phase == OVER

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.to_json() == other.to_json()

    def __repr__(self) -> str:
        s = self._s
        return (
            f"<Game half {s.half} turn {s.turn} {SIDE_NAMES[s.to_move]} to move "
            f"({PHASE_NAMES[s.phase]}), ATK {SIDE_NAMES[s.attack]}>"
        )


def perft(game: Game | State, depth: int) -> int:
    """Number of action sequences of length `depth` (every action is one ply).

    The position is walked in place with make/unmake (`ball.games.ball.engine.undo`) and is, field
    by field, the same afterwards."""
    s = game._s if isinstance(game, Game) else game
    return _perft(s, depth)


def _perft(s: State, depth: int) -> int:
    if depth == 0:
        return 1
    actions = s.legal_next or legal(s)
    if depth == 1:
        return len(actions)
    total = 0
    for a in actions:
        undo = make(s, a)
        total += _perft(s, depth - 1)
        unmake(s, undo)
    return total


def perft_made(game: Game | State, depth: int) -> int:
    """`perft` with every leaf made: each action of the last ply is applied too, not just
    counted, so the node rate compares like with like against a make-every-leaf chess
    perft (bulk counting flatters a game whose lists are longer)."""
    s = game._s if isinstance(game, Game) else game
    return _perft_made(s, depth)


def _perft_made(s: State, depth: int) -> int:
    if depth == 0:
        return 1
    actions = s.legal_next or legal(s)
    if depth == 1:  # the leaves: each is made and taken back, and counts one
        for a in actions:
            unmake(s, make(s, a))
        return len(actions)
    total = 0
    for a in actions:
        undo = make(s, a)
        total += _perft_made(s, depth - 1)
        unmake(s, undo)
    return total


__all__ = ["Game", "IllegalAction", "perft", "perft_made", "ACTION", "END", "SPLIT", "UP"]
