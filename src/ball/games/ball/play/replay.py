"""A simulator game rebuilt by replaying its actions through the engine: the action log,
the positions kept every `SNAPSHOT_EVERY` plies, the legal actions as texts, the half timer
of a timed half, and a new game from a position document.

Cost (issue 15): a rebuilt game keeps copies of its position every `SNAPSHOT_EVERY` plies,
so an undo replays at most that many plies from the nearest snapshot, never the whole
game. A caller that already holds the log up to ply N asks for `since=N` and gets only the
entries after it (`log_view`: `log_start` says where the tail begins)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ball.games.ball.engine import Game, IllegalAction, InvalidPosition, notation
from ball.games.ball.engine.actions import Action, to_text
from ball.games.ball.engine.ruleset import RulesetError, ruleset_by_name
from ball.games.ball.match.narrate import consequences, describe
from ball.games.ball.match.timing import Timing
from ball.half_timer import TurnTimer, half_turns
from ball.play.errors import BadPosition, GameConflict, StoredGameBroken

MODES = ("free", "play", "computer")
COMPUTER_LEVELS = ("greedy", "easy", "medium", "hard")  # ball.games.ball.ai names or level aliases
SIDES = ("S", "N")
# Halves of a match end on the half timer (D-20), counted in turns (`TurnTimer`); free play
# is analysis and runs untimed, as an editor position may sit at any turn.
TIMED_MODES = ("play", "computer")


@dataclass
class LogEntry:
    """One applied action as the action log shows it: who, what, and the PB it added."""

    ply: int
    half: int
    turn: int
    side: str
    phase: str
    action: str
    pb: int
    events: list[str] = field(default_factory=list)
    # the action told in plain language, as catalogue ids with arguments
    # (ball.games.ball.match.narrate); the API renders it in the reader's language as `text`
    narration: list[Any] = field(default_factory=list)


SNAPSHOT_EVERY = 16  # plies between kept positions: an undo replays fewer than this many


@dataclass
class Rebuilt:
    """A game at one version: its position, its log and copies of earlier positions.

    `snapshots` holds (ply, position after that ply) for ply 0 and every `SNAPSHOT_EVERY`th
    ply; the positions are never mutated (callers copy before applying), so versions share
    them.
    """

    game: Game
    log: list[LogEntry]
    snapshots: tuple[tuple[int, Game], ...]  # always starts with ply 0
    # the position's legal actions by their text, once an answer has listed them
    # (`legal_texts`): the next apply looks its action up instead of parsing it
    by_text: dict[str, Action] | None = field(default=None, compare=False, repr=False)
    # the ATK side as the current turn began ("" = as now): the Final Drive's extra turn
    # goes to it (D-20, `TurnTimer`); a steal may swap the roles later in the turn
    turn_attack: str = field(default="", compare=False)

    @property
    def attack_at_turn_start(self) -> str:
        return self.turn_attack or self.game.attack

    def extended(self, game: Game, entry: LogEntry) -> Rebuilt:
        """This game after `entry` (already applied to `game`, a copy of `self.game`)."""
        snapshots = self.snapshots
        if entry.ply % SNAPSHOT_EVERY == 0:
            snapshots = (*snapshots, (entry.ply, game.copy()))
        attack = game.attack if game.turn != self.game.turn else self.attack_at_turn_start
        return Rebuilt(game, [*self.log, entry], snapshots, turn_attack=attack)

    def rewound(self, plies: int) -> Rebuilt:
        """This game as it was after its first `plies` plies, replayed from the nearest
        snapshot (at most `SNAPSHOT_EVERY - 1` engine steps) instead of from the start."""
        kept = tuple(s for s in self.snapshots if s[0] <= plies)
        start, position = kept[-1]
        game = position.copy()
        for entry in self.log[start:plies]:
            game.apply(entry.action)
        return Rebuilt(game, self.log[:plies], kept)


# The text of each action tuple, remembered (issue 15): writing the texts of a position's
# 40-60 actions through the notation cost more than the rest of listing them. A plain dict
# (a look-up is a third of an lru_cache call's cost), emptied when it reaches the bound.
_TEXTS_KEPT = 1 << 16
_texts: dict[Action, str] = {}


def _new_text(action: Action) -> str:
    if len(_texts) >= _TEXTS_KEPT:
        _texts.clear()
    text = _texts[action] = to_text(action)
    return text


def legal_texts(rebuilt: Rebuilt) -> list[str]:
    """`rebuilt.game.legal_actions()`: the engine's actions as sorted texts, each text
    written once per action tuple; the actions by text are kept for the next apply."""
    actions = rebuilt.game.legal_tuples()
    known = _texts.get
    texts = [known(a) or _new_text(a) for a in actions]
    rebuilt.by_text = dict(zip(texts, actions, strict=True))
    texts.sort()
    return texts


def log_view(log: list[LogEntry], since: int | None) -> tuple[int, list[dict[str, Any]]]:
    """Where the returned log starts and its entries: all of them, or those after ply
    `since` (clamped to the log, so after an undo the tail is empty and starts at the new
    end)."""
    start = 0 if since is None else max(0, min(since, len(log)))
    return start, [entry.__dict__ for entry in log[start:]]  # read-only views, no copy


def pb_added(events: list) -> int:
    """PB an action added: the `pb` events' amounts (a reset after a steal adds 2)."""
    return sum(int(e.detail.get("amount", 1)) for e in events if e.kind == "pb")


def action_origin(action: str) -> str | None:
    """The square an action starts from (the acting piece or the stack), if it has one.

    `card NAME SQ…` starts from a square too (Second Wind, Quick Feet), so it filters by piece.
    """
    return notation.origin(action)


def apply_logged(
    game: Game, action: str, ply: int, seen: Game | None = None, parsed: Action | None = None
) -> LogEntry:
    """Apply `action` to `game`, logged as ply `ply`. `seen` is a game at the same position
    that may be read for the narration: `Game.state` forgets the position's action list, so
    reading `game` itself would make `apply` find it again (issue 15). `parsed` is the
    action's tuple when the caller knows it (`Rebuilt.by_text`)."""
    before = (game.half, game.turn, game.actor, game.phase)
    if parsed is None:
        parsed = game.parse(action)
    try:  # told from the state before; an illegal action is refused by `apply` just below
        told = [describe((seen or game).state, parsed)]
    except (IndexError, KeyError, TypeError):
        told = []
    events = game.apply(parsed)
    pb = pb_added(events)
    return LogEntry(
        ply=ply,
        half=before[0],
        turn=before[1],
        side=before[2],
        phase=before[3],
        action=action,
        pb=pb,
        events=[e.kind for e in events],
        narration=[list(part) for part in [*told, *consequences(events)]],
    )


def check_ruleset(ruleset: str) -> str:
    """A shipped or organiser-installed ruleset's name (never a path, D-37); anything else
    is a 422 naming it and the choices."""
    try:
        ruleset_by_name(ruleset)
    except RulesetError as exc:
        raise BadPosition(f"ruleset: {exc}") from None
    return ruleset


def start_game(position: dict[str, Any] | None, ruleset: str | None = None) -> Game:
    if ruleset is not None:
        check_ruleset(ruleset)
    if position is None:
        return Game.new(ruleset)
    if not isinstance(position, dict):
        raise BadPosition("position: expected a JSON object (spec 18.2 position document)")
    try:
        game = Game.from_json(position)
    except InvalidPosition as exc:
        raise BadPosition(f"position: {exc}") from exc
    except (TypeError, KeyError, AttributeError, ValueError) as exc:
        # The engine names the field for every fault it checks; anything else it trips
        # over is still the document's fault, not the server's.
        raise BadPosition(f"position: not a valid position document ({exc!r})") from exc
    if ruleset is not None and game.ruleset.name != ruleset:
        raise BadPosition(
            f"ruleset: {ruleset!r} differs from the position's ruleset "
            f"{game.ruleset.name!r}; give one or make them agree"
        )
    return game


def deck_view(game: Game) -> dict[str, Any] | None:
    """The deck's cards (name, title, PE cost) in card mode, for the page's card panel."""
    rules = game.ruleset
    if not rules.card_mode:
        return None
    deck = rules.deck
    return {
        "name": deck.name,
        "provisional": deck.provisional,
        "short_range": rules.short_range,  # Long Arm is in force while the turn's range exceeds it
        "cards": [
            {"name": c.name, "title": c.title, "pe": c.pe, "effect": c.effect} for c in deck.cards
        ],
    }


def rebuild(initial: dict[str, Any], actions: list[str]) -> Rebuilt:
    try:
        game = Game.from_json(initial)
    except InvalidPosition as exc:
        raise StoredGameBroken(f"the stored initial position is not valid any more: {exc}") from exc
    log = []
    snapshots = [(0, game.copy())]
    attack = game.attack
    for ply, action in enumerate(actions, 1):
        turn = game.turn
        try:
            log.append(apply_logged(game, action, ply))
        except IllegalAction as exc:
            raise StoredGameBroken(
                f"the stored game no longer replays: ply {ply} {action!r}: {exc}"
            ) from exc
        if ply % SNAPSHOT_EVERY == 0:
            snapshots.append((ply, game.copy()))
        if game.turn != turn:
            attack = game.attack
    return Rebuilt(game, log, tuple(snapshots), turn_attack=attack)


def half_timer(mode: str, rebuilt: Rebuilt) -> dict[str, Any] | None:
    """The half timer of a match half (`TIMED_MODES`) on its turn count: turns left, the
    Final Drive, over on time (`TurnTimer.reading`); None untimed or after a touchdown."""
    game = rebuilt.game
    if mode not in TIMED_MODES or game.is_over:
        return None
    timing = Timing.from_ruleset(game.ruleset)
    timer = TurnTimer(half_turns(timing.half_seconds, timing.turn_seconds))
    return timer.reading(game.turn, game.to_move, rebuilt.attack_at_turn_start)


def time_up(mode: str, rebuilt: Rebuilt) -> bool:
    """Whether the half ended on the half timer (its Final Drive played out)."""
    reading = half_timer(mode, rebuilt)
    return bool(reading and reading["over"])


def half_over(mode: str, rebuilt: Rebuilt) -> bool:
    """Whether the half is over: by a touchdown or on the half timer."""
    return rebuilt.game.is_over or time_up(mode, rebuilt)


def refuse_after_time(mode: str, rebuilt: Rebuilt) -> None:
    """The server's word that a half over on time takes no more actions (not only the
    page's: the API refuses them too)."""
    if time_up(mode, rebuilt):
        raise GameConflict(
            f"half {rebuilt.game.half} is over: the half timer ran out and its Final Drive "
            "was played (D-20)"
        )


