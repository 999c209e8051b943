"""The winning-hand document: what `ball mahjong fan` reads, parsed into a `WinningHand`.

`{"hand": [concealed tiles without the winning tile], "melds": [[KIND, TILE], ...],
"win_tile": TILE, "self_drawn": bool, "seat_wind": "E|S|W|N", "round_wind": "E|S|W|N",
"flowers": n, "fourth_tile": bool, "kong": bool, "last_tile": bool}`. Absent booleans are
false, absent winds east, absent flowers 0. KIND is `CHI` (TILE is the chow's middle tile),
`PENG`, `GANG` (a melded kong) or `ANGANG` (a concealed kong). Every fault is a `HandError`
naming the field, and so is a combination of flags no hand can have (`_check_flags`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ball.games.mahjong.engine.tiles import COPIES, chow_tiles, is_chow_middle, is_tile
from ball.games.mahjong.engine.winds import WINDS

MELD_KINDS = ("CHI", "PENG", "GANG", "ANGANG")
FIELDS = frozenset(
    {"hand", "melds", "win_tile", "self_drawn", "seat_wind", "round_wind", "flowers",
     "fourth_tile", "kong", "last_tile"}
)
MAX_FLOWERS = 8  # four flowers and four seasons
HAND_SIZE = 13  # before the winning tile; a kong counts as three


class HandError(ValueError):
    """A winning-hand document that cannot be read; the message names the field."""


@dataclass(frozen=True)
class Meld:
    kind: str  # one of MELD_KINDS
    tile: str  # the chow's middle tile, or the pung's / kong's tile

    def tiles(self) -> tuple[str, ...]:
        if self.kind == "CHI":
            return chow_tiles(self.tile)
        return (self.tile,) * (3 if self.kind == "PENG" else 4)


@dataclass(frozen=True)
class WinningHand:
    concealed: tuple[str, ...]
    melds: tuple[Meld, ...]
    win_tile: str
    self_drawn: bool = False
    seat_wind: str = "E"
    round_wind: str = "E"
    flowers: int = 0
    fourth_tile: bool = False
    kong: bool = False
    last_tile: bool = False

    def all_tiles(self) -> list[str]:
        """Every tile of the hand, the winning tile included."""
        tiles = [*self.concealed, self.win_tile]
        for meld in self.melds:
            tiles.extend(meld.tiles())
        return tiles


def _tile(value: object, field: str) -> str:
    if not is_tile(value):
        raise HandError(f"{field}: {value!r} is not a tile (W1-W9, T1-T9, B1-B9, F1-F4, J1-J3)")
    assert isinstance(value, str)
    return value


def _meld(value: object, index: int) -> Meld:
    field = f"melds[{index}]"
    if not isinstance(value, list) or len(value) != 2:
        raise HandError(f"{field}: a meld is [KIND, TILE]")
    kind, tile = value
    if kind not in MELD_KINDS:
        raise HandError(f"{field}: kind {kind!r} is not one of {', '.join(MELD_KINDS)}")
    tile = _tile(tile, field)
    if kind == "CHI" and not is_chow_middle(tile):
        raise HandError(f"{field}: a CHI is named by its middle tile, a suit tile 2-8, not {tile}")
    return Meld(str(kind), tile)


def _boolean(doc: dict[str, object], field: str) -> bool:
    value = doc.get(field, False)
    if not isinstance(value, bool):
        raise HandError(f"{field}: must be true or false")
    return value


def _wind(doc: dict[str, object], field: str) -> str:
    value = doc.get(field, "E")
    if value not in WINDS:
        raise HandError(f"{field}: must be one of E, S, W, N")
    return str(value)


def _flowers(doc: dict[str, object]) -> int:
    value = doc.get("flowers", 0)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_FLOWERS:
        raise HandError(f"flowers: must be a whole number from 0 to {MAX_FLOWERS}")
    return value


def _check_counts(hand: WinningHand) -> None:
    size = len(hand.concealed) + 3 * len(hand.melds)
    if size != HAND_SIZE:
        raise HandError(
            f"hand: {len(hand.concealed)} concealed tiles and {len(hand.melds)} melds make "
            f"{size} tiles before the winning tile; a hand has {HAND_SIZE} (a kong counts as 3)"
        )
    for tile, n in Counter(hand.all_tiles()).items():
        if n > COPIES:
            raise HandError(f"hand: {n} tiles {tile}; the set has only {COPIES}")


def _check_flags(hand: WinningHand) -> None:
    """Refuse flags that contradict the tiles or each other (the fan calculator would drop
    them without a word and score the hand as if they were not there).

    `kong` on a self-drawn hand is "out with a replacement tile": it needs a kong among the
    melds. On a discard it is "robbing the kong": the tile robbed is the fourth of a pung
    another player was adding to, so the winner holds no other copy of it; and it is not a
    discard, so it cannot be the last tile's claim (`last_tile`, and no kong is made with the
    last tile). `fourth_tile` ("last tile": the other three copies already shown on the
    table) is impossible while the winner hides a copy in the concealed hand."""
    held = hand.concealed.count(hand.win_tile) + sum(
        meld.tiles().count(hand.win_tile) for meld in hand.melds
    )
    if hand.kong and hand.self_drawn and not any(m.kind in ("GANG", "ANGANG") for m in hand.melds):
        raise HandError(
            "kong: out with a replacement tile (kong with self_drawn) needs a kong (GANG or "
            "ANGANG) among the melds"
        )
    if hand.kong and not hand.self_drawn and held:
        raise HandError(
            f"kong: robbing the kong on {hand.win_tile} while the hand already holds "
            f"{held} {hand.win_tile}; the other three are in the kong being made"
        )
    if hand.kong and not hand.self_drawn and hand.last_tile:
        raise HandError(
            "kong, last_tile: robbing the kong is not a discard and no kong is made with the "
            "last tile; they cannot both be set on a hand won on another's tile"
        )
    if hand.fourth_tile and hand.concealed.count(hand.win_tile):
        raise HandError(
            f"fourth_tile: {hand.win_tile} cannot be the last of its kind (the other three "
            "shown on the table) while the concealed hand holds one"
        )


def parse_hand(doc: object) -> WinningHand:
    """The document `doc` (decoded JSON) as a `WinningHand`; `HandError` names what is wrong."""
    if not isinstance(doc, dict):
        raise HandError("the hand document must be a JSON object")
    unknown = sorted(set(doc) - FIELDS)
    if unknown:
        raise HandError(f"{unknown[0]}: unknown field")
    for field in ("hand", "win_tile"):
        if field not in doc:
            raise HandError(f"{field}: missing")
    concealed = doc["hand"]
    if not isinstance(concealed, list):
        raise HandError("hand: must be a list of tiles")
    melds = doc.get("melds", [])
    if not isinstance(melds, list):
        raise HandError("melds: must be a list of [KIND, TILE]")
    hand = WinningHand(
        concealed=tuple(_tile(t, f"hand[{i}]") for i, t in enumerate(concealed)),
        melds=tuple(_meld(m, i) for i, m in enumerate(melds)),
        win_tile=_tile(doc["win_tile"], "win_tile"),
        seat_wind=_wind(doc, "seat_wind"),
        round_wind=_wind(doc, "round_wind"),
        flowers=_flowers(doc),
        self_drawn=_boolean(doc, "self_drawn"),
        fourth_tile=_boolean(doc, "fourth_tile"),
        kong=_boolean(doc, "kong"),
        last_tile=_boolean(doc, "last_tile"),
    )
    _check_counts(hand)
    _check_flags(hand)
    return hand
