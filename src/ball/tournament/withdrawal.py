"""What a withdrawal does to an event's results (seed 004 article 20), as a pure classifier
the service will call: the system, when the entrant left, how many of their games were
played, and the ruling with the article it comes from.

* 20.2: before a round robin starts, the Berger table is drawn again when the entrants left
  are an even number (an odd table would otherwise give two byes a round); when they are
  odd, the withdrawn entrant's number simply becomes the bye (E-09). A Swiss may make the
  field even by admitting an entrant, which is the organiser's choice, not a ruling.
* 20.3: a round robin under way: fewer than half of the entrant's games played, all their
  results are cancelled (their opponents' games against them count for nobody); half or
  more, their results stand and their remaining games are lost by forfeit.
* 20.4: a Swiss ("points pairing"): results stand and the rest is forfeited, however many
  games were played. A knockout is treated the same way (E-10).
Article 18.3: an entrant expelled from the event is treated as withdrawn.
"""

from __future__ import annotations

from dataclasses import dataclass

from ball.tournament.errors import TournamentError

SYSTEMS = ("round-robin", "double-round-robin", "swiss", "knockout")


@dataclass(frozen=True)
class Ruling:
    """`action`: redraw | bye-in-place | none (before the start), cancel-results or
    results-stand (under way). `forfeit_remaining`: the games not yet played are lost by
    forfeit (the opponents win)."""

    action: str
    forfeit_remaining: bool
    article: str
    reason: str


def classify(
    system: str, *, started: bool, played: int = 0, scheduled: int = 0, remaining: int = 0
) -> Ruling:
    """The ruling for one withdrawal. Before the start, `remaining` is how many entrants
    stay; once under way, `played` of the entrant's `scheduled` games were played."""
    if system not in SYSTEMS:
        raise TournamentError(f"unknown system {system!r}; choose one of {', '.join(SYSTEMS)}")
    if not started:
        return _before_start(system, remaining)
    if not 0 <= played <= scheduled:
        raise TournamentError(f"{played} games played out of {scheduled} scheduled is impossible")
    if system in ("round-robin", "double-round-robin"):
        if 2 * played < scheduled:
            return Ruling(
                "cancel-results", False, "20.3",
                f"{played} of {scheduled} games played, fewer than half: all results cancelled",
            )  # fmt: skip
        return Ruling(
            "results-stand", True, "20.3",
            f"{played} of {scheduled} games played, half or more: results stand, the rest "
            "is forfeited",
        )  # fmt: skip
    article = "20.4" if system == "swiss" else "20.4 (E-10)"
    return Ruling("results-stand", True, article, "results stand, the rest is forfeited")


def _before_start(system: str, remaining: int) -> Ruling:
    if remaining < 0:
        raise TournamentError(f"{remaining} entrants remaining is impossible")
    if system in ("round-robin", "double-round-robin"):
        if remaining % 2 == 0:
            return Ruling(
                "redraw", False, "20.2",
                f"{remaining} entrants remain, an even number: the table is drawn again",
            )  # fmt: skip
        return Ruling(
            "bye-in-place", False, "20.2 (E-09)",
            f"{remaining} entrants remain, an odd number: the withdrawn number is the bye",
        )  # fmt: skip
    return Ruling("none", False, "20.2", "before the start: the entrant is simply not paired")
