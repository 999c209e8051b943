"""Round robin by the FIDE Berger tables (Handbook C.05, Annex 1), single and double.

With n entrants (n even; an odd field gets a dummy n+1 whose opponent has the bye), in round
r the fixed player n meets x with 2x = r + 1 (mod n - 1), on table 1, with Black in odd
rounds; the other tables pair x + k with x - k (numbers taken 1..n-1 cyclically), and the
smaller number has White when the two numbers add up to an odd sum. This reproduces the
published tables (tested against gacrux's copy of them for 3 to 16 entrants).

A double round robin plays the first cycle with its last two rounds swapped, as C.05
Annex 1 recommends: otherwise, in an even field, the entrants with pairing numbers 1 and
n/2 + 1 would have the same colour in the first cycle's last round and in the second
cycle's first two rounds (three in a row). The second cycle repeats the tables in their
order with colours reversed.
"""

from __future__ import annotations

Pair = tuple[int, int | None]  # (White / coach A, Black / coach B or None for the bye)


def berger_rounds(n: int) -> int:
    """Rounds of one cycle for n entrants."""
    return n - 1 if n % 2 == 0 else n


def berger_round(n: int, r: int) -> list[Pair]:
    """Pairs of round r (1-based) of a single round robin of n entrants, in table order."""
    if n < 2:
        raise ValueError("a round robin needs at least two entrants")
    size = n if n % 2 == 0 else n + 1
    cycle = size - 1
    if not 1 <= r <= cycle:
        raise ValueError(f"round {r} is outside 1..{cycle}")

    def wrap(value: int) -> int:
        return (value - 1) % cycle + 1

    x = next(i for i in range(1, size) if (2 * i - (r + 1)) % cycle == 0)
    pairs: list[tuple[int, int]] = [(x, size) if r % 2 == 1 else (size, x)]
    for k in range(1, size // 2):
        p, q = wrap(x + k), wrap(x - k)
        white, black = (min(p, q), max(p, q)) if (p + q) % 2 == 1 else (max(p, q), min(p, q))
        pairs.append((white, black))
    return [_with_bye(w, b, n) for w, b in pairs]


def _with_bye(white: int, black: int, n: int) -> Pair:
    # The dummy entrant n+1 of an odd field: its opponent sits out with the bye.
    if black > n:
        return (white, None)
    if white > n:
        return (black, None)
    return (white, black)


def round_robin_round(n: int, r: int, cycles: int = 1) -> list[Pair]:
    """Round r of a `cycles`-fold round robin; later cycles repeat with colours reversed."""
    per_cycle = berger_rounds(n)
    if not 1 <= r <= per_cycle * cycles:
        raise ValueError(f"round {r} is outside 1..{per_cycle * cycles}")
    cycle, within = divmod(r - 1, per_cycle)
    table_round = within + 1
    if cycles > 1 and cycle == 0 and per_cycle >= 3 and table_round >= per_cycle - 1:
        table_round = 2 * per_cycle - 1 - table_round  # swap the cycle's last two rounds
    pairs = berger_round(n, table_round)
    if cycle % 2 == 1:
        pairs = [(b, w) if b is not None else (w, None) for w, b in pairs]
    return pairs
