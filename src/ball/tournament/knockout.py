"""Knockout brackets: byes up to the next power of two, seeds kept apart until late rounds."""

from __future__ import annotations


def bracket_size(n: int) -> int:
    size = 1
    while size < n:
        size *= 2
    return size


def seed_positions(size: int) -> list[int]:
    """Seeds in bracket order: seed 1 and 2 can meet only in the final, 1-4 in the semis..."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def first_round(seeds: list[int]) -> list[tuple[int | None, int | None]]:
    """Slot pairs of round 1 for entrants given in seed order; None is an empty slot (bye)."""
    size = bracket_size(len(seeds))
    slots = [seeds[s - 1] if s <= len(seeds) else None for s in seed_positions(size)]
    return [(slots[i], slots[i + 1]) for i in range(0, size, 2)]
