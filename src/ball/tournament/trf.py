"""FIDE TRF-16 export (coach A written as White) and import.

What a pairing checker needs is written: header records (012 name, 022 place, 042/052 dates
as YYYY-MM-DD, 062 entrants, 092 system, 102 arbiter), one 001 record per entrant (pairing
number, name, rating, federation, points, rank, and for each round opponent, colour and result
code, see `ball.tournament.crosstable`), and the javafo extension records `XXR` (number of
rounds) and `XXC` (`white1`/`black1`: the colour of pairing number 1 in round 1), plus the
equivalent TRF-25 `142`/`152`/`162` records that gacrux reads. `XXZ` lists entrants who will
not be paired in the next round (withdrawn, or a requested bye; pairing input only).
`XXW` is BALL's own record (other programs skip it): the entrants who have withdrawn, so
that an imported event does not pair them again. BALL's other own records keep what
TRF-16 has no record for, so that export -> import -> export is identical
(docs/tournament.md, "TRF"): `XXG` the game, `XXT` the tie-break rules and chain in order,
`XXF` one played game's figures (the game's tie-breaks: fouls, games with Black, touchdowns),
`XXK` a knockout's replays, `XXL` a drawn match's lots (article 6), `XXB` a team event's
boards and ranking (with TRF-16's `013` team records). A round in which an entrant was not
paired and had no bye (a knockout entrant waiting for a replay, or out) is written `0000` with a
blank result, TRF-16's "not paired", not `Z` (a zero-point bye, an absence the entrant chose).
"""

from __future__ import annotations

import json
import math
import re
import time
from dataclasses import dataclass, field
from typing import Any

from ball.tournament.crosstable import Line
from ball.tournament.errors import TournamentError
from ball.tournament.names import bad_character, check_name
from ball.tournament.scoring import Scoring

SYSTEM_TRF = {
    "swiss": "Swiss Dutch",
    "round-robin": "Round robin",
    "double-round-robin": "Double round robin",
    "knockout": "Knockout",
    "groups": "Groups then final",
}


def _field(text: str) -> str:
    """One field of a record: a control character or line break (stored before names were
    checked) becomes a space, so no field can end its record or forge another."""
    while (char := bad_character(text)) is not None:
        text = text.replace(char, " ")
    return text


def _fmt_points(value: float) -> str:
    return f"{value:4.1f}"


def _player_record(line: Line, rank: int, rounds: int | None = None) -> str:
    name = _field(line.name)[:33]
    rating = f"{line.rating:4d}" if line.rating else "    "
    fed = _field(line.federation or "")[:3]
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
        ("+", scoring.forfeit_win),  # BALL's own letters; gacrux skips them
        ("-", scoring.forfeit_loss),
    ]
    # Four columns for the value (gacrux reads line[pos + 1 : pos + 5]): up to 99.9 points.
    return "162 " + "".join(f" {code}{value:4.1f}   " for code, value in parts).rstrip()


@dataclass
class Extras:
    """What BALL writes in its own records (`XXG`, `XXT`, `XXF`, `XXK`, `XXB`) and 013."""

    game: str = ""
    tiebreak_rules: str = ""
    tiebreaks: list[str] | None = None
    # (round, pairing number of White/coach A, {"A": figures, "B": figures})
    figures: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)
    knockout_replays: int | None = None
    replay_rounds: list[int] = field(default_factory=list)
    # (round, pairing number of White, side "A"/"B" the lots sent through: article 6)
    lots: list[tuple[int, int, str]] = field(default_factory=list)
    boards: int | None = None
    ranking: str = ""
    teams: list[tuple[str, list[int]]] = field(default_factory=list)  # 013: name, numbers


def _extra_records(extras: Extras) -> list[str]:
    out = [f"XXG {extras.game}"] if extras.game else []
    if extras.tiebreaks is not None:
        out.append(f"XXT {extras.tiebreak_rules} {' '.join(extras.tiebreaks)}".rstrip())
    for rnd, number, figs in extras.figures:
        out.append(f"XXF {rnd:3d} {number:4d} {json.dumps(figs, sort_keys=True)}")
    if extras.knockout_replays is not None:
        rounds = " ".join(str(r) for r in extras.replay_rounds)
        out.append(f"XXK {extras.knockout_replays} {rounds}".rstrip())
    for rnd, number, side in extras.lots:
        out.append(f"XXL {rnd:3d} {number:4d} {side}")
    if extras.boards is not None:
        out.append(f"XXB {extras.boards} {extras.ranking}")
    return out


def _team_records(extras: Extras) -> list[str]:
    """TRF-16's team records: `013`, the name in columns 5-36, start numbers from 37 (E-24)."""
    return [
        f"013 {_field(name)[:32]:<32}" + " ".join(f"{n:>4}" for n in numbers)
        for name, numbers in extras.teams
    ]


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
    withdrawn: list[int] | None = None,
    extras: Extras | None = None,
) -> str:
    """The TRF text; `lines` in pairing-number order, `ranks` by entrant id; `withdrawn`
    (pairing numbers) becomes BALL's XXW record, `extras` its other records."""
    out = [
        f"012 {_field(name)}",
        f"022 {_field(place)}",
        f"042 {_field(date_start)}",
        f"052 {_field(date_end)}",
        f"062 {len(lines)}",
        f"072 {sum(1 for x in lines if x.rating)}",
        f"092 {SYSTEM_TRF.get(system, system)}",
        f"102 {_field(arbiter)}",
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
    if withdrawn:
        out.append("XXW " + " ".join(str(n) for n in sorted(withdrawn)))
    if extras is not None:
        out += _extra_records(extras) + _team_records(extras)
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------------------ reading

# Bounds of the numbers a TRF holds: round numbers are three columns wide in the records
# that name a round (132, 240), pairing numbers and ratings four, points four (99.9).
MAX_ROUNDS = 999
MAX_NUMBER = 9999
MAX_RATING = 9999
MAX_POINTS = 99.9

# Record 162 (points per result): our letters and gacrux's (A: absent, a zero-point bye).
# A file without "+" scores a forfeit win as a win.
SCORING_CODES = {
    "W": ("win",),
    "+": ("forfeit_win",),
    "-": ("forfeit_loss",),
    "D": ("draw",),
    "L": ("loss",),
    "P": ("pab",),
    "H": ("half_bye",),
    "F": ("full_bye",),
    "Z": ("zero_bye",),
    "A": ("zero_bye",),
}


@dataclass
class TrfPlayer:
    number: int
    name: str
    rating: int | None
    federation: str
    cells: list[tuple[int, str, str]] = field(default_factory=list)  # (opponent, colour, code)
    line: int = 0  # where in the file, for error messages


@dataclass
class TrfEvent:
    name: str = ""
    place: str = ""
    date_start: str = ""
    date_end: str = ""
    arbiter: str = ""
    system: str = "swiss"
    rounds: int | None = None
    rounds_line: int = 0
    initial_colour: str = "white1"
    scoring: dict[str, float] | None = None  # Scoring fields from record 162
    players: list[TrfPlayer] = field(default_factory=list)
    absent_next: list[int] = field(default_factory=list)
    withdrawn: list[int] = field(default_factory=list)  # BALL's XXW record
    extras: Extras = field(default_factory=Extras)  # BALL's other records and 013

    @property
    def played(self) -> int:
        """Round columns the player records hold."""
        return max((len(p.cells) for p in self.players), default=0)


def read(text: str) -> TrfEvent:
    """Parse TRF-16 text (with XXR/XXC/XXZ/XXW and 142/152/162); raise `TournamentError`
    naming the bad line for any text or number out of place."""
    event = TrfEvent()
    for index, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        try:
            _read_line(event, line, index)
        except (ValueError, IndexError, TournamentError) as exc:
            raise TournamentError(f"TRF line {index} ({line[:3]}): {exc}") from None
    _check(event)
    return event


def _read_line(event: TrfEvent, line: str, index: int) -> None:
    code, value = line[:3], line[4:].strip()
    if code == "001":
        player = _read_player(line)
        player.line = index
        event.players.append(player)
    elif code == "012":
        event.name = check_name(value, "event name")
    elif code == "022":
        event.place = check_name(value, "place")
    elif code in ("042", "052"):
        date = _date(value)
        if code == "042":
            event.date_start = date
        else:
            event.date_end = date
    elif code == "102":
        event.arbiter = check_name(value, "arbiter")
    elif code == "092":
        systems = {v.lower(): k for k, v in SYSTEM_TRF.items()}
        event.system = systems.get(value.lower(), "swiss")
    elif code in ("XXR", "142") and value:
        event.rounds = _number(value.split()[0], "the number of rounds", 1, MAX_ROUNDS)
        event.rounds_line = index
    elif code == "XXC":
        event.initial_colour = "black1" if "black1" in value.split() else "white1"
    elif code == "152" and value:
        event.initial_colour = "black1" if value[0].upper() == "B" else "white1"
    elif code == "162":
        event.scoring = _read_scoring(value)
    elif code in EXTRA_READERS:
        EXTRA_READERS[code](event.extras, line[4:])
    elif code in ("XXZ", "XXW"):
        numbers = [
            _number(v, "a pairing number", 1, MAX_NUMBER) for v in value.replace(",", " ").split()
        ]
        if code == "XXZ":
            event.absent_next = numbers
        else:
            event.withdrawn = numbers


def _check(event: TrfEvent) -> None:
    """What no single line shows: players, their numbers, the rounds they hold."""
    if not event.players:
        raise TournamentError("TRF: no player (001) records")
    numbers = {p.number for p in event.players}
    if len(numbers) != len(event.players):
        raise TournamentError("TRF: two player records share a starting number")
    for p in event.players:
        if len(p.cells) > MAX_ROUNDS:
            raise TournamentError(
                f"TRF line {p.line} (001): player {p.number} holds {len(p.cells)} rounds; "
                f"at most {MAX_ROUNDS}"
            )
        for rnd, (opp, _colour, _code) in enumerate(p.cells, start=1):
            if opp and opp not in numbers:
                raise TournamentError(f"TRF: player {p.number} round {rnd}: unknown opponent {opp}")
    if event.rounds is not None and event.rounds < event.played:
        raise TournamentError(
            f"TRF line {event.rounds_line}: {event.rounds} rounds declared, but the player "
            f"records hold {event.played}"
        )
    _check_extras(event, numbers)
    for label, listed in (("XXZ", event.absent_next), ("XXW", event.withdrawn)):
        unknown = sorted(set(listed) - numbers)
        if unknown:
            raise TournamentError(f"TRF {label}: no player has number {unknown[0]}")


def _number(text: str, label: str, low: int, high: int) -> int:
    text = text.strip()
    if not text.isdigit() or not low <= int(text) <= high:
        raise ValueError(f"{label} must be a whole number from {low} to {high}, got {text!r}")
    return int(text)


def _date(text: str) -> str:
    """A TRF date (YYYY/MM/DD or YYYY-MM-DD) as YYYY-MM-DD; empty stays empty."""
    if not text:
        return ""
    date = text.replace("/", "-")
    try:
        time.strptime(date, "%Y-%m-%d")
    except ValueError:
        raise ValueError(f"a date must be YYYY/MM/DD or YYYY-MM-DD, got {text!r}") from None
    return date


def _read_scoring(value: str) -> dict[str, float]:
    """Record 162: a letter and its points, repeated (`W 1.0    D 0.5 ...`)."""
    out: dict[str, float] = {}
    for letter, points in re.findall(r"([A-Za-z+-])\s*(\S*)", value):
        fields_ = SCORING_CODES.get(letter.upper())
        if fields_ is None:
            continue  # a result this toolbox does not score (gacrux's X, for example)
        try:
            number = float(points)
        except ValueError:
            number = math.nan
        if not 0 <= number <= MAX_POINTS:  # NaN fails both comparisons
            raise ValueError(f"points for {letter} must be 0 to {MAX_POINTS}, got {points!r}")
        for name in fields_:
            out[name] = number
    if "win" in out:
        out.setdefault("forfeit_win", out["win"])
    return out


def _read_player(line: str) -> TrfPlayer:
    number = _number(line[4:8], "the starting number", 1, MAX_NUMBER)
    name = check_name(line[14:47], "player name")
    if not name:
        raise ValueError(f"player {number} has no name")
    rating_text = line[48:52].strip()
    rating = _number(rating_text, "the rating", 0, MAX_RATING) if rating_text else None
    federation = check_name(line[53:56], "federation")
    player = TrfPlayer(number, name, rating or None, federation)
    body = line[91:]
    for start in range(0, len(body), 10):
        chunk = body[start : start + 10].ljust(10)
        if not chunk.strip():
            player.cells.append((0, "-", " "))
            continue
        opp_text = chunk[0:4].strip()
        opponent = (
            _number(opp_text, f"player {number}: an opponent", 0, MAX_NUMBER) if opp_text else 0
        )
        colour = chunk[5].lower() if chunk[5] in "wbWB" else "-"
        code = chunk[7].upper() if chunk[7] != " " else " "
        if code not in "1=0+-UHFZWDL ":
            raise ValueError(f"player {number}: unknown result code {chunk[7]!r}")
        code = {"W": "1", "D": "=", "L": "0"}.get(code, code)
        player.cells.append((opponent, colour, code))
    return player


# ------------------------------------------------------------------ BALL's own records

NAME = re.compile(r"^[a-z][a-z0-9_.-]{0,39}$")  # a game, tie-break, rules or figure name
MAX_FIGURES = 32  # figures per side of one game
MAX_FIGURE = 1e9  # the largest figure a game records (touchdowns, PB, fouls are small)


def _names(text: str, label: str) -> list[str]:
    out = text.split()
    for word in out:
        if not NAME.match(word):
            raise ValueError(f"{label} {word[:40]!r} is not a name (a-z, 0-9, '-', 40 at most)")
    return out


def _read_game(extras: Extras, value: str) -> None:
    words = _names(value, "the game")
    if len(words) != 1:
        raise ValueError("XXG names one game")
    extras.game = words[0]


def _read_tiebreaks(extras: Extras, value: str) -> None:
    words = _names(value, "a tie-break")
    if not words:
        raise ValueError("XXT names the tie-break rules, then the chain")
    extras.tiebreak_rules, extras.tiebreaks = words[0], words[1:]


def _read_figures(extras: Extras, value: str) -> None:
    parts = value.strip().split(None, 2)
    if len(parts) != 3:
        raise ValueError("XXF is a round, a pairing number and the game's figures (JSON)")
    rnd = _number(parts[0], "the round", 1, MAX_ROUNDS)
    number = _number(parts[1], "a pairing number", 1, MAX_NUMBER)
    try:
        data = json.loads(parts[2])
    except ValueError:
        raise ValueError("the game's figures are not JSON") from None
    extras.figures.append((rnd, number, _checked_figures(data)))


def _checked_figures(data: Any) -> dict[str, Any]:
    """{"A": {name: number or null}, "B": {...}}, each side at most MAX_FIGURES figures."""
    if not isinstance(data, dict) or not set(data) <= {"A", "B"}:
        raise ValueError('the game\'s figures must be {"A": {...}, "B": {...}}')
    for side, figs in data.items():
        if not isinstance(figs, dict) or len(figs) > MAX_FIGURES:
            raise ValueError(f"side {side}: at most {MAX_FIGURES} figures in an object")
        for key, number in figs.items():
            if not isinstance(key, str) or not NAME.match(key):
                raise ValueError(f"side {side}: {str(key)[:40]!r} is not a figure name")
            if number is None:
                continue
            if isinstance(number, bool) or not isinstance(number, int | float):
                raise ValueError(f"side {side}: figure {key} must be a number or null")
            if not -MAX_FIGURE <= number <= MAX_FIGURE:  # NaN and infinities fail too
                raise ValueError(f"side {side}: figure {key} must be within ±{MAX_FIGURE:g}")
    return data


def _read_knockout(extras: Extras, value: str) -> None:
    words = value.split()
    if not words:
        raise ValueError("XXK is the number of replays, then the replay rounds")
    extras.knockout_replays = _number(words[0], "the number of replays", 0, MAX_ROUNDS)
    extras.replay_rounds = [_number(w, "a replay round", 2, MAX_ROUNDS) for w in words[1:]]


def _read_lots(extras: Extras, value: str) -> None:
    words = value.split()
    if len(words) != 3 or words[2] not in ("A", "B"):
        raise ValueError(
            "XXL is a round, White's pairing number and the side (A or B) the lots sent through"
        )
    rnd = _number(words[0], "the round", 1, MAX_ROUNDS)
    extras.lots.append((rnd, _number(words[1], "a pairing number", 1, MAX_NUMBER), words[2]))


def _read_boards(extras: Extras, value: str) -> None:
    words = value.split()
    if len(words) != 2:
        raise ValueError("XXB is the boards per match and the team ranking (15.3, 15.4, 15.5)")
    extras.boards = _number(words[0], "the boards per match", 1, MAX_NUMBER)
    extras.ranking = words[1]


def _read_team(extras: Extras, value: str) -> None:
    line = "013 " + value
    name = check_name(line[4:36], "team name")
    if not name:
        raise ValueError("a team record (013) needs the team's name in columns 5-36")
    numbers = [_number(w, "a team's start number", 1, MAX_NUMBER) for w in line[36:].split()]
    if not numbers:
        raise ValueError(f"team {name!r} lists no start number")
    extras.teams.append((name, numbers))


EXTRA_READERS = {
    "XXG": _read_game,
    "XXT": _read_tiebreaks,
    "XXF": _read_figures,
    "XXK": _read_knockout,
    "XXL": _read_lots,
    "XXB": _read_boards,
    "013": _read_team,
}


def _check_extras(event: TrfEvent, numbers: set[int]) -> None:
    extras = event.extras
    cells = {p.number: p.cells for p in event.players}
    seen: set[tuple[int, int]] = set()
    games = [(r, n) for r, n, _ in extras.figures] + [(r, n) for r, n, _ in extras.lots]
    for rnd, number in games:
        row = cells.get(number, [])
        if rnd > len(row) or not row[rnd - 1][0] or row[rnd - 1][1] != "w":
            raise TournamentError(
                f"TRF XXF/XXL: player {number} has no game with White in round {rnd}"
            )
    for rnd, number, _figs in extras.figures:
        if (rnd, number) in seen:
            raise TournamentError(f"TRF XXF: round {rnd}, player {number} is given twice")
        seen.add((rnd, number))
    if any(r > event.played for r in extras.replay_rounds):
        raise TournamentError("TRF XXK: a replay round the player records do not hold")
    in_team: set[int] = set()
    for name, listed in extras.teams:
        for n in listed:
            if n not in numbers:
                raise TournamentError(f"TRF 013 {name!r}: no player has number {n}")
            if n in in_team:
                raise TournamentError(f"TRF 013 {name!r}: player {n} is in two teams")
            in_team.add(n)
    if len({name for name, _ in extras.teams}) != len(extras.teams):
        raise TournamentError("TRF 013: two teams share a name")
