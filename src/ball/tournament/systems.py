"""The pairing systems an event may use, as one StrEnum.

Each member equals its text ("swiss", ...), so it can replace the bare strings stored on
events and sent through the API without changing a byte of either.
"""

from __future__ import annotations

from enum import StrEnum


class PairingSystem(StrEnum):
    ROUND_ROBIN = "round-robin"
    DOUBLE_ROUND_ROBIN = "double-round-robin"
    SWISS = "swiss"
    KNOCKOUT = "knockout"
    # Seeded groups then a final (`group_service`), created with its setup (--groups).
    GROUPS = "groups"
    # Seated sessions (tables of four: `Game.tournament`), created by the game's own path.
    SESSIONS = "sessions"

    @property
    def all_play_all(self) -> bool:
        """Berger tables fix every round in advance (single or double round robin)."""
        return self in (PairingSystem.ROUND_ROBIN, PairingSystem.DOUBLE_ROUND_ROBIN)


# The plain texts, in the order the service lists them (service.SYSTEMS, for adoption):
# the systems a bare choice offers (a groups event needs its setup as well).
SYSTEMS = tuple(
    system.value
    for system in PairingSystem
    if system not in (PairingSystem.GROUPS, PairingSystem.SESSIONS)
)
