"""Random BALL tournaments through the service: results from random legal score sheets,
forfeits, double forfeits, requested byes, withdrawals and late entries."""

from __future__ import annotations

import random

from ball.tournament import TournamentService
from ball.tournament.errors import Unpairable


def random_sheet(rng: random.Random) -> dict:
    """A legal score sheet: coach A is ATK in the first half, PB entered on both coaches."""
    halves = []
    for atk in ("A", "B"):
        a_atk, b_atk = rng.randint(0, 9), rng.randint(0, 9)
        candidates = [None, None] + [c for c, pb in (("A", a_atk), ("B", b_atk)) if pb > 0]
        halves.append(
            {
                "atk_first": atk,
                "td": rng.choice(candidates),
                "pb": {"A": {"atk": a_atk, "def": b_atk}, "B": {"atk": b_atk, "def": a_atk}},
            }
        )
    return {"coaches": ["A", "B"], "halves": halves, "forfeit": None}


def enter_random_results(svc: TournamentService, round_number: int, tables, rng, forfeits=0.08):
    for t in tables:
        if t["b"] is None:
            continue
        x = rng.random()
        if x < forfeits / 4:
            svc.results.enter_result(round_number, t["table"], double_forfeit=True)
        elif x < forfeits:
            svc.results.enter_result(round_number, t["table"], forfeit=rng.choice("AB"))
        else:
            svc.results.enter_result(round_number, t["table"], sheet=random_sheet(rng))


def generate_swiss(
    db,
    *,
    players: int,
    rounds: int,
    seed: int,
    byes: float = 0.05,
    withdrawals: float = 0.02,
    late: int = 1,
    rules: str = "fide-2024",
    date: str = "2025-06-01",
    scoring: dict | None = None,
) -> TournamentService:
    rng = random.Random(seed)
    svc = TournamentService(db)
    svc.events.create_event(
        name=f"Generated {players}x{rounds} #{seed}",
        system="swiss",
        rounds=rounds,
        date_start=date,
        tiebreak_rules=rules,
        scoring=scoring,
    )
    for i in range(players):
        rating = rng.choice([None, rng.randint(1200, 2400)])
        svc.entrants.add_player(f"Coach {i:03d}", rating=rating)
    withdrawn: set[str] = set()
    for number in range(1, rounds + 1):
        if number > 1 and late and number == 2:
            for i in range(late):
                svc.entrants.add_player(f"Late {i}", rating=rng.randint(1200, 2000))
        names = [e["name"] for e in svc.events.event_info()["entrants"] if e["status"] == "active"]
        for name in names:
            if number < rounds and rng.random() < withdrawals and len(names) - len(withdrawn) > 4:
                svc.entrants.withdraw(name)
                withdrawn.add(name)
            elif rng.random() < byes:
                svc.entrants.request_bye(name, number, rng.choice(["half", "zero"]))
        try:
            tables = svc.rounds.pair_next_round()
        except Unpairable:
            # Byes and withdrawals can leave only players who all met already (the Dutch
            # rules then find no pairing, and an arbiter pairs by hand): the event ends here.
            break
        enter_random_results(svc, number, tables, rng)
    return svc
