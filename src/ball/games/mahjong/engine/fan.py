"""The fans of a winning hand, computed by PyMahjongGB, and the event's minimum.

PyMahjongGB (MIT, `import MahjongGB`) implements the MCR fan table with its exclusion rules;
it does not apply the minimum, which is the event's (8 fan in MCR and at the WMC). Flower
tiles score a fan each but never help a hand reach the minimum (MCR: a hand must be worth the
minimum without them; decision M-01).

Meld mapping to PyMahjongGB's pack tuples `(packType, tileCode, offer)`: `CHI` →
`("CHI", middle, 1)`, `PENG` → `("PENG", tile, 1)`, `GANG` → `("GANG", tile, 1)`, `ANGANG` →
`("GANG", tile, 0)`. An offer of 0 is PyMahjongGB's mark of a concealed set; for melded sets
the offering seat (1..3) does not change any fan, so 1 stands for all of them.
"""

from __future__ import annotations

from dataclasses import dataclass

import MahjongGB

from ball.games.mahjong.engine.hand import WinningHand
from ball.games.mahjong.engine.winds import WINDS

DEFAULT_MINIMUM = 8
FLOWER_FAN = "Flower Tiles"

_PACK = {"CHI": ("CHI", 1), "PENG": ("PENG", 1), "GANG": ("GANG", 1), "ANGANG": ("GANG", 0)}


class NotAWin(ValueError):
    """The tiles do not make a winning hand."""


@dataclass(frozen=True)
class FanResult:
    fans: tuple[tuple[str, int], ...]  # (English name, fan) in PyMahjongGB's order
    minimum: int

    @property
    def total(self) -> int:
        return sum(fan for _, fan in self.fans)

    @property
    def counted(self) -> int:
        """The total that must reach the minimum: every fan but the flowers."""
        return sum(fan for name, fan in self.fans if name != FLOWER_FAN)

    @property
    def valid(self) -> bool:
        return self.counted >= self.minimum

    def to_json(self) -> dict[str, object]:
        return {"fan": self.total, "valid": self.valid, "fans": [list(f) for f in self.fans]}


def _packs(hand: WinningHand) -> tuple[tuple[str, str, int], ...]:
    return tuple((_PACK[m.kind][0], m.tile, _PACK[m.kind][1]) for m in hand.melds)


def score(hand: WinningHand, minimum: int = DEFAULT_MINIMUM) -> FanResult:
    """The fans of `hand`; `NotAWin` when the tiles do not make a winning hand."""
    try:
        raw = MahjongGB.MahjongFanCalculator(
            pack=_packs(hand),
            hand=hand.concealed,
            winTile=hand.win_tile,
            flowerCount=hand.flowers,
            isSelfDrawn=hand.self_drawn,
            is4thTile=hand.fourth_tile,
            isAboutKong=hand.kong,
            isWallLast=hand.last_tile,
            seatWind=WINDS.index(hand.seat_wind),
            prevalentWind=WINDS.index(hand.round_wind),
            verbose=True,
        )
    except TypeError as exc:  # PyMahjongGB reports every refusal as a TypeError
        raise NotAWin(_reason(str(exc))) from None
    # verbose rows: (fan of one instance, instances, Chinese name, English name)
    fans = tuple((str(en), int(point) * int(count)) for point, count, _, en in raw)
    return FanResult(fans=fans, minimum=minimum)


def _reason(code: str) -> str:
    if "NOT_WIN" in code:
        return "the tiles do not make a winning hand"
    if "COUNT" in code:
        return "the hand has the wrong number of tiles"
    return f"PyMahjongGB refused the hand ({code})"
