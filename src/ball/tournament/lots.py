"""The drawing of lots that pairs a knockout round (seed 004, section 9): the lot cards, a
draw (who drew which card), the pairings and the bye it gives, and its replay.

For n entrants the cards are two sets of the numbers 1..n//2, one set red and one black,
plus one K card when n is odd (13 entrants: red 1-6, black 1-6 and K). The two entrants
holding the same number meet; the red card's holder takes the first colour (E-01); the K
card's holder has the bye. A draw is either entered as the cards were drawn at the venue
(`check` validates it: every card once, every entrant once) or made from a seeded random
source (`draw_from_seed`), and its record (`Draw.record`) replays to the same pairs
(`replay`). Pure: no database, no clock, no global random state.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ball.tournament.errors import TournamentError

KING = "K"
RED, BLACK = "R", "B"


class LotsError(TournamentError):
    """A draw that is not a draw of these cards by these entrants (names what is wrong)."""


@dataclass(frozen=True, order=True)
class Card:
    """One lot card: a number with its set (red R or black B), or the K (number 0)."""

    number: int
    suit: str  # R, B, or K for the king

    def __str__(self) -> str:
        return KING if self.suit == KING else f"{self.number}{self.suit}"

    @property
    def is_king(self) -> bool:
        return self.suit == KING


def parse_card(text: str) -> Card:
    """`3R` (red 3), `3B` (black 3) or `K`, any case; anything else is a `LotsError`."""
    raw = text.strip().upper()
    if raw == KING:
        return Card(0, KING)
    number, suit = raw[:-1], raw[-1:]
    if suit not in (RED, BLACK) or not number.isascii() or not number.isdigit():
        raise LotsError(f"{text!r} is not a lot card: write a number and its set (3R, 3B) or K")
    if int(number) < 1:
        raise LotsError(f"{text!r} is not a lot card: numbers start at 1")
    return Card(int(number), suit)


def deck(n: int) -> list[Card]:
    """The cards for `n` entrants, in a fixed order: red 1.., black 1.., then K if n is odd."""
    if n < 2:
        raise LotsError(f"a drawing of lots needs at least two entrants, got {n}")
    half = n // 2
    cards = [Card(i, suit) for suit in (RED, BLACK) for i in range(1, half + 1)]
    if n % 2:
        cards.append(Card(0, KING))
    return cards


@dataclass(frozen=True)
class Draw:
    """Who drew which card. `entrants` keeps the order the desk listed them in (a seeded
    draw deals the shuffled cards in that order, so the order is part of the record)."""

    entrants: tuple[str, ...]
    cards: Mapping[str, Card]
    seed: int | None = None

    def pairs(self) -> list[tuple[str, str]]:
        """(red holder, black holder) for each number, by number."""
        by_card = {card: name for name, card in self.cards.items()}
        half = len(self.entrants) // 2
        return [(by_card[Card(i, RED)], by_card[Card(i, BLACK)]) for i in range(1, half + 1)]

    def bye(self) -> str | None:
        """Who drew the K (None when the field is even)."""
        return next((name for name, card in self.cards.items() if card.is_king), None)

    def record(self) -> dict[str, Any]:
        """The draw as JSON-able data: enough to check and replay it (`replay`)."""
        return {
            "entrants": list(self.entrants),
            "seed": self.seed,
            "cards": {name: str(self.cards[name]) for name in self.entrants},
            "pairs": [list(p) for p in self.pairs()],
            "bye": self.bye(),
        }


def check(entrants: Sequence[str], cards: Mapping[str, Card | str]) -> Draw:
    """The draw entered as drawn at the venue: each entrant exactly one card of `deck`,
    each card exactly once. Every fault is named (who, which card)."""
    order = tuple(entrants)
    if len(set(order)) != len(order):
        raise LotsError("an entrant is listed twice in the draw")
    parsed = {name: c if isinstance(c, Card) else parse_card(c) for name, c in cards.items()}
    strangers = [name for name in parsed if name not in order]
    if strangers:
        raise LotsError(f"{strangers[0]!r} is not in this draw (entrants: {', '.join(order)})")
    missing = [name for name in order if name not in parsed]
    if missing:
        raise LotsError(f"no card drawn by {', '.join(repr(m) for m in missing)}")
    valid = set(deck(len(order)))
    holder: dict[Card, str] = {}
    for name in order:
        card = parsed[name]
        if card not in valid:
            raise LotsError(
                f"{name!r} drew {card}, which is not among the {len(valid)} cards for "
                f"{len(order)} entrants ({', '.join(str(c) for c in deck(len(order)))})"
            )
        if card in holder:
            raise LotsError(f"card {card} drawn twice: by {holder[card]!r} and by {name!r}")
        holder[card] = name
    return Draw(order, {name: parsed[name] for name in order})


def draw_from_seed(entrants: Sequence[str], seed: int) -> Draw:
    """The draw made by the desk: `deck` shuffled by `random.Random(seed)`, dealt to the
    entrants in the order given. The same entrants, order and seed give the same draw."""
    order = tuple(entrants)
    cards = deck(len(order))
    random.Random(seed).shuffle(cards)
    drawn = check(order, dict(zip(order, cards, strict=True)))
    return Draw(drawn.entrants, drawn.cards, seed)


def replay(record: Mapping[str, Any]) -> Draw:
    """The draw of a record written by `Draw.record`, checked again: a seeded record is
    drawn anew from its seed and must give the same cards; pairs and bye must follow."""
    try:
        entrants = [str(e) for e in record["entrants"]]
        cards = {str(k): str(v) for k, v in dict(record["cards"]).items()}
        seed = record.get("seed")
    except (KeyError, TypeError, ValueError) as exc:
        raise LotsError(f"not a record of a draw: {exc}") from None
    drawn = check(entrants, cards)
    if seed is not None:
        again = draw_from_seed(entrants, int(seed))
        if dict(again.cards) != dict(drawn.cards):
            raise LotsError(f"seed {seed} does not give the cards recorded")
        drawn = again
    if "pairs" in record and [list(p) for p in drawn.pairs()] != record["pairs"]:
        raise LotsError("the pairs recorded do not follow from the cards")
    if "bye" in record and drawn.bye() != record["bye"]:
        raise LotsError("the bye recorded does not follow from the cards")
    return drawn


def toss(sides: Sequence[str], seed: int) -> str:
    """A drawing of lots between the sides of a tied mini-match, from a seed: the winner."""
    if len(sides) != 2:
        raise LotsError("a drawing of lots for a tie is between two sides")
    return random.Random(seed).choice(list(sides))


def colour_toss(tables: Sequence[tuple[str, str]], seed: int) -> list[bool]:
    """Article 13.4: the first colour of each bracket match (upper slot, lower slot) by toss,
    from a seed: True where the upper slot's entrant won it. The same seed replays the
    same toss for the same tables."""
    rng = random.Random(seed)
    return [rng.random() < 0.5 for _ in tables]
