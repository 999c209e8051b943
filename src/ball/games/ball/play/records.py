"""`.bgn` records for the simulator: export a stored game, and turn a record into the list of
positions the replay viewer steps through (syntax from `ball.games.ball.match.record`, rules from
the engine).

A game that did not start from the standard formation carries its initial position document
in the `Position` tag (compact JSON), so the record replays exactly.
"""

from __future__ import annotations

import json
from typing import Any

from ball.games.ball.engine import Game, IllegalAction
from ball.games.ball.match import record as bgn
from ball.games.ball.match.replay import begin_half, replay_entry, start_match
from ball.games.ball.match.timing import Timing
from ball.games.ball.play.replay import pb_added
from ball.half_timer import half_turns
from ball.play.errors import GameError

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


def match_record_text(
    halves: list[tuple[dict[str, Any], list[str]]], tags: dict[str, str], timed: bool = True
) -> str:
    """The `.bgn` text of a match recorded half by half (each half's initial position and
    actions, half 1 first): one record with both halves, as a table's match is written.

    `timed`: the halves ran on the simulator's half timer counted in turns (`play` mode),
    which expires during turn `cap`; the record says so with a `final-drive` entry where
    that turn begins, so that the match flow replays the Final Drive and the half's end."""
    records = []
    for initial, actions in halves:
        game = Game.from_json(initial)
        timing = Timing.from_ruleset(game.ruleset)
        cap = half_turns(timing.half_seconds, timing.turn_seconds) if timed else None
        entries: list[bgn.Entry] = []
        for action in actions:
            if game.turn == cap and not any(e.kind == "final-drive" for e in entries):
                entries.append(bgn.Entry(turn=game.turn, kind="final-drive"))
            entries.append(bgn.Entry(turn=game.turn, action=action))
            game.apply(action)
        records.append(bgn.HalfRecord(game.half, entries))
    all_tags = dict(tags)
    all_tags.setdefault("Ruleset", str(halves[0][0].get("ruleset", "standard")))
    return bgn.write(bgn.GameRecord(tags=all_tags, halves=records))


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


def _entry_label(entry: bgn.Entry) -> str:
    if entry.kind == "action":
        return str(entry.action)
    if entry.kind == "sanction":
        return f"sanction {entry.coach} {entry.step}"
    if entry.kind == "forfeit":
        return f"forfeit {entry.coach}"
    return str(entry.kind)


def _atk_total(position: dict[str, Any]) -> int:
    # every PB is written once as somebody's PBATK, so their sum counts the PB of the half
    return sum(side["atk"] for side in position["pb"].values())


def replay_record_text(text: str) -> dict[str, Any]:
    """Read a `.bgn` record into positions per half, through the match flow of
    `ball.games.ball.match.replay` (so sanctions and the Final Drive replay too); a fault names its
    line and column."""
    try:
        record = bgn.parse(text)
        match = start_match(record, None)
        halves = []
        for half in record.halves:
            if half.number != match.half.number:
                begin_half(match, half.number, half.entries)
            positions = [match.game.to_json()]
            plies = []
            for ply, entry in enumerate(half.entries, 1):
                side, turn = match.game.actor, match.game.turn
                replay_entry(match, entry)
                positions.append(match.game.to_json())
                plies.append(
                    {
                        "ply": ply,
                        "turn": turn,
                        "side": side,
                        "action": _entry_label(entry),
                        "pb": _atk_total(positions[-1]) - _atk_total(positions[-2]),
                    }
                )
            halves.append({"half": half.number, "plies": plies, "positions": positions})
    except bgn.RecordError as exc:
        raise GameError(f"record: {exc}") from exc
    return {"tags": record.tags, "halves": halves}
