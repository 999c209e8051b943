"""FIDE TRF-16 export (coach A written as White) and import.

What a pairing checker needs is written: header records (012 name, 022 place, 042/052 dates
as YYYY-MM-DD, 062 entrants, 092 system, 102 arbiter), one 001 record per entrant (pairing
number, name, rating, federation, points, rank, and for each round opponent, colour and result
code, see `ball.tournament.crosstable`), and the javafo extension records `XXR` (number of
rounds) and `XXC` (`white1`/`black1`: the colour of pairing number 1 in round 1), plus the
equivalent TRF-25 `142`/`152`/`162` records that gacrux reads. `XXZ` lists entrants who will
not be paired in the next round (withdrawn, or a requested bye).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ball.tournament.crosstable import Line
from ball.tournament.errors import TournamentError
from ball.tournament.scoring import Scoring

SYSTEM_TRF = {
    "swiss": "Swiss Dutch",
    "round-robin": "Round robin",
    "double-round-robin": "Double round robin",
    "knockout": "Knockout",
}


def _fmt_points(value: float) -> str:
    return f"{value:4.1f}"


def _player_record(line: Line, rank: int, rounds: int | None = None) -> str:
    name = line.name[:33]
    rating = f"{line.rating:4d}" if line.rating else "    "
    fed = (line.federation or "")[:3]
    text = (
        f"001 {line.number:4d}      {name:<33} {rating} {fed:<3} {'':>11} {'':<10} "
        f"{_fmt_points(line.points)} {rank:4d}  "
    )
    assert len(text) == 91, len(text)
    cells = line.cells if rounds is None else line.cells[:rounds]
    for c in cells:
        opp = f"{c.opponent:4d}" if c.opponent is not None else "0000"
        text += f"{opp} {c.colour} {c.code}  "
    return text.rstrip()


def _scoring_record(scoring: Scoring) -> str:
    # gacrux's TRF-25 layout of the 162 record: code and value in 9-character fields.
    parts = [
        ("W", scoring.win),
        ("D", scoring.draw),
        ("L", scoring.loss),
        ("P", scoring.pab),
        ("Z", scoring.zero_bye),
        ("H", scoring.half_bye),
        ("F", scoring.full_bye),
    ]
    return "162 " + "".join(f" {code} {value:3.1f}   " for code, value in parts).rstrip()


def write(
    *,
    name: str,
    place: str,
    date_start: str,
    date_end: str,
    system: str,
    arbiter: str,
    rounds: int,
    initial_colour: str,
    scoring: Scoring,
    lines: list[Line],
    ranks: dict[int, int],
    absent_next: list[int] | None = None,
    upto: int | None = None,
) -> str:
    """The TRF text; `lines` in pairing-number order, `ranks` by entrant id."""
    out = [
        f"012 {name}",
        f"022 {place}",
        f"042 {date_start}",
        f"052 {date_end}",
        f"062 {len(lines)}",
        f"072 {sum(1 for x in lines if x.rating)}",
        f"092 {SYSTEM_TRF.get(system, system)}",
        f"102 {arbiter}",
        f"142 {rounds}",
        f"152 {'B' if initial_colour == 'black1' else 'W'}",
        _scoring_record(scoring),
    ]
    for line in lines:
        out.append(_player_record(line, ranks.get(line.entrant_id, 0), upto))
    out.append(f"XXR {rounds}")
    out.append(f"XXC {initial_colour}")
    if absent_next:
        out.append("XXZ " + " ".join(str(n) for n in sorted(absent_next)))
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------------------ reading


@dataclass
class TrfPlayer:
    number: int
    name: str
    rating: int | None
    federation: str
    cells: list[tuple[int, str, str]] = field(default_factory=list)  # (opponent, colour, code)


@dataclass
class TrfEvent:
    name: str = ""
    place: str = ""
    date_start: str = ""
    date_end: str = ""
    arbiter: str = ""
    system: str = "swiss"
    rounds: int | None = None
    initial_colour: str = "white1"
    players: list[TrfPlayer] = field(default_factory=list)
    absent_next: list[int] = field(default_factory=list)


def read(text: str) -> TrfEvent:
    """Parse TRF-16 text (with XXR/XXC); raise `TournamentError` naming the bad line."""
    event = TrfEvent()
    systems = {v.lower(): k for k, v in SYSTEM_TRF.items()}
    for index, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        code, value = line[:3], line[4:].strip()
        try:
            if code == "001":
                event.players.append(_read_player(line))
            elif code == "012":
                event.name = value
            elif code == "022":
                event.place = value
            elif code == "042":
                event.date_start = value.replace("/", "-")[:10]
            elif code == "052":
                event.date_end = value.replace("/", "-")[:10]
            elif code == "102":
                event.arbiter = value
            elif code == "092":
                event.system = systems.get(value.lower(), "swiss")
            elif code in ("XXR", "142") and value:
                event.rounds = int(value.split()[0])
            elif code == "XXC":
                event.initial_colour = "black1" if "black1" in value.split() else "white1"
            elif code == "152" and value:
                event.initial_colour = "black1" if value[0].upper() == "B" else "white1"
            elif code == "XXZ":
                event.absent_next = [int(v) for v in value.replace(",", " ").split()]
        except (ValueError, IndexError) as exc:
            raise TournamentError(f"TRF line {index} ({code}): {exc}") from None
    if not event.players:
        raise TournamentError("TRF: no player (001) records")
    numbers = {p.number for p in event.players}
    if len(numbers) != len(event.players):
        raise TournamentError("TRF: two player records share a starting number")
    for p in event.players:
        for rnd, (opp, _colour, _code) in enumerate(p.cells, start=1):
            if opp and opp not in numbers:
                raise TournamentError(f"TRF: player {p.number} round {rnd}: unknown opponent {opp}")
    return event


def _read_player(line: str) -> TrfPlayer:
    number = int(line[4:8])
    name = line[14:47].strip()
    if not name:
        raise ValueError(f"player {number} has no name")
    rating_text = line[48:52].strip()
    rating = int(rating_text) if rating_text else None
    player = TrfPlayer(number, name, rating or None, line[53:56].strip())
    body = line[91:]
    for start in range(0, len(body), 10):
        chunk = body[start : start + 10].ljust(10)
        if not chunk.strip():
            player.cells.append((0, "-", "Z"))
            continue
        opp_text = chunk[0:4].strip()
        opponent = int(opp_text) if opp_text else 0
        colour = chunk[5].lower() if chunk[5] in "wbWB" else "-"
        code = chunk[7].upper() if chunk[7] != " " else " "
        if code not in "1=0+-UHFZWDL ":
            raise ValueError(f"player {number}: unknown result code {chunk[7]!r}")
        code = {"W": "1", "D": "=", "L": "0"}.get(code, code)
        player.cells.append((opponent, colour, code))
    return player
