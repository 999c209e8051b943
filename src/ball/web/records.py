"""`.bgn` records for the simulator: export a stored game, and turn a record into the list of
positions the replay viewer steps through (syntax from `ball.match.record`, rules from the
engine).

A game that did not start from the standard formation carries its initial position document
in the `Position` tag (compact JSON), so the record replays exactly.
"""

from __future__ import annotations

import json
from typing import Any

from ball.engine import Game, IllegalAction, InvalidPosition
from ball.match import record as bgn
from ball.web.games import BadPosition, GameError, pb_added

POSITION_TAG = "Position"


def _is_standard(initial: dict[str, Any]) -> bool:
    return Game.new(half=int(initial.get("half", 1))).to_json() == initial


def record_text(initial: dict[str, Any], actions: list[str], tags: dict[str, str]) -> str:
    """The `.bgn` text of a simulator game (one half)."""
    game = Game.from_json(initial)
    entries = []
    for action in actions:
        entries.append(bgn.Entry(turn=game.turn, action=action))
        game.apply(action)
    all_tags = dict(tags)
    all_tags.setdefault("Ruleset", str(initial.get("ruleset", "standard")))
    if not _is_standard(initial):
        all_tags[POSITION_TAG] = json.dumps(initial, separators=(",", ":"))
    return bgn.write(bgn.GameRecord(tags=all_tags, halves=[bgn.HalfRecord(game.half, entries)]))


def replay_actions(initial: dict[str, Any], actions: list[str], half: int) -> dict[str, Any]:
    """Every position of one half: `positions[0]` is the start, `positions[i]` after ply i."""
    game = Game.from_json(initial)
    return _replay(game, [(a, None) for a in actions], half)


def _replay(game: Game, entries: list[tuple[str, str | None]], half: int) -> dict[str, Any]:
    positions = [game.to_json()]
    plies = []
    for ply, (action, where) in enumerate(entries, 1):
        side, turn = game.to_move, game.turn
        try:
            events = game.apply(action)
        except IllegalAction as exc:
            place = f" ({where})" if where else ""
            message = f"half {half}, ply {ply}{place}: illegal action {action!r}: {exc}"
            raise GameError(message) from exc
        plies.append(
            {
                "ply": ply,
                "turn": turn,
                "side": side,
                "action": action,
                "pb": pb_added(events),
            }
        )
        positions.append(game.to_json())
    return {"half": half, "plies": plies, "positions": positions, "game": game}


def replay_record_text(text: str) -> dict[str, Any]:
    """Read a `.bgn` record into positions per half; a fault names its line and column."""
    try:
        record = bgn.parse(text)
    except bgn.RecordError as exc:
        raise GameError(f"record: {exc}") from exc
    start: Game | None = None
    if POSITION_TAG in record.tags:
        try:
            start = Game.from_json(json.loads(record.tags[POSITION_TAG]))
        except (json.JSONDecodeError, InvalidPosition) as exc:
            raise BadPosition(f"record tag {POSITION_TAG}: {exc}") from exc
    halves = []
    previous: Game | None = None
    for half in record.halves:
        if previous is not None:
            game = previous.next_half()
        elif start is not None:
            game = start
        else:
            game = Game.new(half=half.number)
        entries = [
            (e.action, f"line {e.line}") for e in half.entries if e.kind == "action" and e.action
        ]
        result = _replay(game, entries, half.number)
        previous = result.pop("game")
        halves.append(result)
    return {"tags": record.tags, "halves": halves}
