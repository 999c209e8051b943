"""Reading the desk's Mahjong forms (issue 18) into the session-sheet format of
`ball.games.mahjong.engine.sheet`: one hand (winner, self-drawn or the discarder, the fan total or
the tiles of the winning hand), one ruling, one time penalty, a waiver. Only the shape is read
here; the rules (8-fan minimum, dead hands, amounts) are checked by `ball.games.mahjong.engine` when
the service reads the sheet whole. A fault is a `TournamentError` naming the field.
"""

from __future__ import annotations

import re
from typing import Any

from ball.games.mahjong.engine.rulings import KINDS, Kind
from ball.games.mahjong.engine.winds import WINDS
from ball.tournament.errors import TournamentError
from ball.web.core.timefmt import hms

MAX_TILES = 40
MAX_TEXT = 500
_TIME = re.compile(r"^\d{1,2}:\d{2}(:\d{2})?$")


def _wind(form: dict[str, Any], key: str) -> str:
    value = (form.get(key) or "").strip().upper()
    if value not in WINDS:
        raise TournamentError(f"{key}: a seat is E, S, W or N")
    return value


def _whole(form: dict[str, Any], key: str, default: int | None = None, high: int = 10**5) -> int:
    raw = (form.get(key) or "").strip()
    if not raw and default is not None:
        return default
    if not raw.isascii() or not raw.isdigit() or int(raw) > high:
        raise TournamentError(f"{key}: a whole number from 0 to {high}")
    return int(raw)


def _tiles(text: str, key: str) -> list[str]:
    tiles = [t for t in re.split(r"[\s,;]+", text.strip().upper()) if t]
    if len(tiles) > MAX_TILES:
        raise TournamentError(f"{key}: at most {MAX_TILES} tiles")
    return tiles


def _melds(text: str) -> list[list[str]]:
    """`PENG J2, GANG J1` → `[["PENG", "J2"], ["GANG", "J1"]]`."""
    melds = []
    for part in re.split(r"[,;\n]+", text.strip().upper()):
        words = part.split()
        if not words:
            continue
        if len(words) != 2:
            raise TournamentError(f"melds: {part.strip()!r} is not KIND TILE (e.g. PENG J2)")
        melds.append(words)
    return melds


def at_of(form: dict[str, Any], now: float) -> str:
    """The time a ruling was given: typed as HH:MM[:SS], else now (the venue's clock)."""
    raw = (form.get("at") or "").strip()
    if not raw:
        return hms(now)
    if not _TIME.match(raw):
        raise TournamentError("at: a time is HH:MM or HH:MM:SS")
    return raw


def hand_from_form(form: dict[str, Any]) -> dict[str, Any]:
    """One hand of the sheet: `{"draw": true}`, or winner + discarder (absent when
    self-drawn) + the fan or the winning hand's tiles."""
    outcome = form.get("outcome", "")
    if outcome == "draw":
        return {"draw": True}
    if outcome not in ("discard", "self_drawn"):
        raise TournamentError("outcome: won on a discard, self-drawn, or a draw")
    winner = _wind(form, "winner")
    hand: dict[str, Any] = {"winner": winner}
    if outcome == "discard":
        hand["discarder"] = _wind(form, "discarder")
    tiles = (form.get("tiles") or "").strip()
    if tiles:
        hand["hand"] = {
            "hand": _tiles(tiles, "tiles"),
            "melds": _melds(form.get("melds") or ""),
            "win_tile": (form.get("win_tile") or "").strip().upper(),
            "self_drawn": outcome == "self_drawn",
            "seat_wind": (form.get("seat_wind") or winner).strip().upper(),
            "round_wind": (form.get("round_wind") or "E").strip().upper(),
            "flowers": _whole(form, "flowers", 0, 8),
            **{k: form.get(k) == "on" for k in ("fourth_tile", "kong", "last_tile")},
        }
    else:
        hand["fan"] = _whole(form, "fan", high=10_000)
    return hand


def ruling_from_form(form: dict[str, Any], now: float) -> dict[str, Any]:
    """One ruling (seed 003): its kind, the seat, when, and what the kind needs."""
    kind = form.get("kind", "")
    if kind not in KINDS:
        raise TournamentError(f"kind: one of {', '.join(KINDS)}")
    ruling: dict[str, Any] = {"seat": _wind(form, "seat"), "kind": kind, "at": at_of(form, now)}
    if kind == Kind.FALSE_WIN:
        ruling["exposed_tiles"] = _whole(form, "tiles", 0, 14)
    elif kind == Kind.WITHDRAWN_WIN:
        ruling["concealed_tiles"] = _whole(form, "tiles", 13, 14)
    elif kind == Kind.CORRECTED_EXPOSURE:
        ruling["spare_tiles"] = _whole(form, "tiles", 0, 14)
    elif kind == Kind.LATE_EXPOSURE:
        ruling["after_replacement"] = form.get("after_replacement") == "on"
    elif kind == Kind.ARBITER:
        ruling["points"] = _whole(form, "points", high=10_000)
        article = (form.get("article") or "").strip()
        if len(article) > MAX_TEXT:
            raise TournamentError(f"article: at most {MAX_TEXT} characters")
        ruling["article"] = article
    return ruling


def time_from_form(form: dict[str, Any], now: float) -> dict[str, Any]:
    """A time penalty (TL 1, 2): the seat, the limit overrun and by how many seconds."""
    limit = form.get("limit", "turn")
    if limit not in ("turn", "hand"):
        raise TournamentError("limit: turn or hand")
    over = _whole(form, "over_seconds", high=99_999)
    if over == 0:
        raise TournamentError("over_seconds: the seconds over the limit, 1 or more")
    return {"seat": _wind(form, "seat"), "at": at_of(form, now), "over_seconds": over,
            "limit": limit}  # fmt: skip


def waiver_from_form(form: dict[str, Any]) -> dict[str, Any]:
    return {"index": _whole(form, "index", high=10_000), "reason": form.get("reason") or ""}
