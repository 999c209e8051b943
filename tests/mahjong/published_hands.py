"""Named MCR hands with their fan totals, for tests/mahjong/test_fan.py.

Sources. Fan values and exclusions: *Mahjong Competition Rules* (World Mahjong Organization,
English edition, 2006), chapter 8 "The various kinds of fan and their relevant points" and
Appendix 1 (the fans with examples); the same table in English is T. Sloper, "Weekly
Mah-Jongg" columns 340-341 (sloperama.com/mahjongg/column341c.html). Hands marked
"Sloper #289.n" realise the fan breakdown of exercise n of Sloper's column 289 (MCR scoring
exercises from the 4th China Majiang Championship, sloperama.com/mahjongg/column289c.html),
whose published totals they must reproduce; the others are the book's single-fan examples
extended to whole hands, their totals added up from the book's table by hand (the breakdown
is written next to each). Tile names: W characters, T bamboos, B dots, F1-F4 winds E S W N,
J1-J3 dragons (red, green, white). Seat and round east, won on a discard, unless stated.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Named:
    name: str
    concealed: str
    melds: str  # "CHI:W3 PENG:B5" (a chow by its middle tile)
    win: str
    total: int  # fans, flowers included
    breakdown: str  # the book's fans that make the total
    options: dict[str, object] = field(default_factory=dict)

    @property
    def valid(self) -> bool:
        flowers = int(self.options.get("flowers", 0))  # type: ignore[call-overload]
        return self.total - flowers >= 8


def doc(h: Named) -> dict[str, object]:
    """The `ball mahjong fan` document of a named hand."""
    melds = [m.split(":") for m in h.melds.split()]
    return {"hand": h.concealed.split(), "melds": melds, "win_tile": h.win, **h.options}


CHICKEN = dict(concealed="T5 T6 F3 F3", melds="CHI:W3 PENG:B5 CHI:T7", win="T7")

HANDS: list[Named] = [
    Named("Chicken Hand", **CHICKEN, total=8, breakdown="Chicken Hand 8"),
    Named("single wait only (refused)", "T5 T6 T7 F3", "CHI:W3 PENG:B5 CHI:T7", "F3", 1,
          "Single Wait 1"),
    Named("Sloper #289.6: false mahjong", "W7 W8 W9 B1 B2 B3 B5", "CHI:W2 CHI:T8", "B5", 6,
          "All Chows 2, Two Terminal Chows 1, Mixed Double Chow 1 x2, Single Wait 1"),
    Named("Thirteen Orphans", "W1 W9 T1 T9 B1 B9 F1 F2 F3 F4 J1 J2 J3", "", "W1", 88,
          "Thirteen Orphans 88"),
    Named("Sloper #289.2: Big Three Dragons", "W2 W3 W6 W6", "GANG:J1 PENG:J2 PENG:J3", "W4",
          95, "Big Three Dragons 88, Half Flush 6, Melded Kong 1"),
    Named("Seven Pairs", "W1 W1 W3 W3 B4 B4 B7 B7 T2 T2 T9 T9 F1", "", "F1", 24,
          "Seven Pairs 24"),
    Named("Full Flush with Pure Straight", "W3 W4 W5 W7 W8 W5 W5", "CHI:W2 CHI:W5", "W9", 44,
          "Full Flush 24, Pure Straight 16, All Chows 2, Tile Hog 2 (four W5, no kong)"),
    Named("Pure Straight, Half Flush, edge wait", "B1 B2 B4 B5 B6 B7 B8 B9 F2 F2 F2 J3 J3", "",
          "B3", 26,
          "Pure Straight 16, Half Flush 6, Concealed Hand 2, Pung of Terminals or Honors 1, "
          "Edge Wait 1"),
    Named("Sloper #289.4: All Pungs", "W7 W7 B8 B8", "ANGANG:W2 PENG:B4 PENG:T6", "B8", 10,
          "All Pungs 6, All Simples 2, Concealed Kong 2"),
    Named("Sloper #289.5: Reversible Tiles", "J3 J3 B5 B5", "PENG:B9 CHI:T5 CHI:B3", "B5", 9,
          "Reversible Tiles 8, Pung of Terminals or Honors 1"),
    Named("Sloper #289.7: Lesser Honors and Knitted Tiles",
          "W1 W4 W7 T2 T5 T8 B3 B6 F1 F2 F3 J1 J2", "", "J3", 12,
          "Lesser Honors and Knitted Tiles 12"),
    Named("Greater Honors and Knitted Tiles", "W1 W4 T2 T5 T8 B3 B6 F1 F2 F3 F4 J1 J2", "",
          "J3", 24, "Greater Honors and Knitted Tiles 24"),
    Named("Sloper #289.9: Mixed Straight, All Types", "B8 B9 J1 J1 J1 F1 F1", "CHI:W2 CHI:T5",
          "B7", 17, "Mixed Straight 8, All Types 6, Dragon Pung 2, Edge Wait 1"),
    Named("Sloper #289.10: Outside Hand", "W7 W8 W9 F3 F3 F2 F2", "GANG:F4 CHI:W2", "F3", 14,
          "Half Flush 6, Outside Hand 4, Pung of Terminals or Honors 1 x2, Melded Kong 1, "
          "Two Terminal Chows 1"),
    Named("Sloper #289.8: Mixed Shifted Chows", "B4 B5 B6 B2 B3 T6 T6", "CHI:W3 CHI:T4", "B4",
          11, "Mixed Shifted Chows 6, All Chows 2, All Simples 2, Mixed Double Chow 1"),
    Named("All Pungs, Half Flush", "T8 T8 F2 F2", "PENG:J1 PENG:T2 PENG:T5", "T8", 14,
          "All Pungs 6, Half Flush 6, Dragon Pung 2"),
    Named("Three Concealed Pungs", "W2 W2 W2 B5 B5 B5 T7 T7 T7 W3 W4 J3 J3", "", "W5", 18,
          "Three Concealed Pungs 16, Concealed Hand 2"),
    Named("Fully Concealed Hand under 8 (refused)", "W2 W3 W4 B5 B6 B7 T3 T4 T5 T7 T8 B9 B9",
          "", "T9", 6, "Fully Concealed Hand 4, All Chows 2", {"self_drawn": True}),
    Named("Last Tile Draw", "W2 W3 W4 B5 B6 B7 T3 T4 T5 T7 T8 B9 B9", "", "T9", 14,
          "Last Tile Draw 8, Fully Concealed Hand 4, All Chows 2",
          {"self_drawn": True, "last_tile": True}),
    Named("Out with Replacement Tile", "W2 W3 W4 B5 B6 B7 T3 T4 T7 T7", "GANG:B2", "T5", 11,
          "Out with Replacement Tile 8, All Simples 2, Melded Kong 1",
          {"self_drawn": True, "kong": True}),
    # The chicken hand with its bamboo chow in dots: the robbed T7 is the fourth of a pung
    # being made into a kong, so the winner may hold no other T7 (`hand._check_flags`).
    Named("Robbing the Kong", "T5 T6 F3 F3", "CHI:W3 PENG:B5 CHI:B7", "T7", 8,
          "Robbing the Kong 8", {"kong": True}),
    Named("Last Tile Claim", **CHICKEN, total=8, breakdown="Last Tile Claim 8",
          options={"last_tile": True}),
    Named("Chicken Hand with flowers", **CHICKEN, total=10,
          breakdown="Chicken Hand 8, Flower Tiles 1 x2", options={"flowers": 2}),
    Named("flowers do not reach the minimum (refused)", "T5 T6 T7 F3",
          "CHI:W3 PENG:B5 CHI:T7", "F3", 8, "Single Wait 1, Flower Tiles 1 x7",
          {"flowers": 7}),
    Named("Prevalent and Seat Wind (refused)", "B2 B3 B5 B5", "PENG:F1 CHI:W3 CHI:T7", "B4", 5,
          "Prevalent Wind 2, Seat Wind 2, Mixed Double Chow 1"),
    Named("Seat Wind only, round south (refused)", "B2 B3 B5 B5", "PENG:F1 CHI:W3 CHI:T7", "B4",
          3, "Seat Wind 2, Mixed Double Chow 1", {"round_wind": "S"}),
    Named("All Even Pungs", "W8 W8 B2 B2", "PENG:W2 PENG:B4 PENG:T6", "W8", 24,
          "All Even Pungs 24"),
    Named("Quadruple Chow", "B3 B4 B5 B3 B4 B5 B3 B4 B5 B3 B4 W9 W9", "", "B5", 53,
          "Quadruple Chow 48, Concealed Hand 2, All Chows 2, One Voided Suit 1"),
    Named("Little Three Dragons", "W2 W3 W4 W5 W6 J3 J3", "PENG:J1 PENG:J2", "W7", 71,
          "Little Three Dragons 64, Half Flush 6, Short Straight 1"),
    Named("All Terminals and Honors", "F1 F1 J2 J2 J3 J3 J3", "PENG:W1 PENG:B9", "J2", 39,
          "All Terminals and Honors 32, Two Dragon Pungs 6, One Voided Suit 1"),
    Named("Big Four Winds", "F4 F4 W5 W5", "PENG:F1 PENG:F2 PENG:F3", "F4", 94,
          "Big Four Winds 88, Half Flush 6"),
]
