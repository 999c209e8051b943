"""Rulesets as data (spec: every *(param)* decision is a named key an organiser can change).

`load_ruleset()` reads `rulesets/standard.toml`; `load_ruleset(path_or_name)` reads another
file. Unknown keys and bad values raise `RulesetError` naming the key, so a typo in an
organiser's file never silently falls back to a default.

Documents and requests (a position's `ruleset` field, a record's `Ruleset` tag, the web API)
name a ruleset; `ruleset_by_name` looks the name up in the shipped set and then in the
organiser's directory (`$BALL_RULESETS`, `ball serve --rulesets DIR`) and never opens a path
(D-37): a request from the venue's network must not make the server read a file it chose.
Only the local user's own files (`ball rules --ruleset FILE`, tests) go through
`load_ruleset(PATH)`.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from .board import SquareError, parse_square

HERE = Path(__file__).parent
RULESET_DIR = HERE / "rulesets"
DECK_DIR = HERE / "decks"
# The organiser's own rulesets (a directory of NAME.toml), next to the shipped ones.
ORGANISER_ENV = "BALL_RULESETS"
# D-37: a ruleset name is short and plain, so it can only ever be a file name in one of the
# two directories (no '/', no '..', no NUL, nothing a file system reads as a path).
NAME_MAX = 40
NAME_RULE = f"letters, digits, '-' and '_', at most {NAME_MAX} characters"
_NAME = re.compile(rf"[A-Za-z0-9][A-Za-z0-9_-]{{0,{NAME_MAX - 1}}}")

MOVE_SHAPES = ("diag1", "diag2", "orth2")
ACTION_KINDS = ("move", "block", "protect", "dodge", "tdodge", "handoff", "short", "long")
CARD_EFFECTS = {
    "extra_pa": ("amount",),
    "second_wind": (),
    "short_range": ("value",),
    "stand_up": (),
    "cross_own_down": (),
    "free_ball_action": (),
}
SIDES = ("S", "N")


class RulesetError(ValueError):
    """A ruleset or deck file that cannot be used; the message names the key."""


@dataclass(frozen=True)
class Card:
    name: str
    title: str
    pe: int
    effect: str
    amount: int = 0
    value: int = 0


@dataclass(frozen=True)
class Deck:
    name: str
    cards: tuple[Card, ...]
    provisional: bool = True

    def card(self, name: str) -> Card | None:
        return next((c for c in self.cards if c.name == name), None)


@dataclass(frozen=True)
class Ruleset:
    name: str = "standard"
    description: str = ""
    pa: int = 2
    reset_ends_turn: bool = True
    pb_for_reset: int = 1
    pa_cost: dict[str, int] = field(default_factory=dict)
    end_zone_depth: int = 1
    short_range: int = 4
    long_min_distance: int = 2
    pe_mode: bool = False
    card_mode: bool = False
    pe_table: dict[str, int] = field(default_factory=dict)
    kinds: dict[str, tuple[str, ...]] = field(default_factory=dict)
    roster: tuple[str, ...] = ()
    ball_carrier: str = "X5"
    formation: dict[str, dict[str, int]] = field(default_factory=dict)
    deck: Deck = Deck("none", ())
    time: dict[str, int] = field(default_factory=dict)

    @property
    def uses_pe(self) -> bool:
        """PE are counted in PE mode and in card mode (cards are paid with PE)."""
        return self.pe_mode or self.card_mode

    @cached_property
    def nothing_is_free(self) -> bool:
        """No card to play and every action costs PA: at 0 PA only "end" would be legal, so
        the action phase can end without building the list (the search's hot path)."""
        return not self.card_mode and min(self.pa_cost.values(), default=1) >= 1


# Match time (spec §14): read by ball.games.ball.match, ball.clocks, the desk and the printed rules.
TIME_DEFAULTS: dict[str, int | bool] = {
    "half_minutes": 20,
    "turn_seconds": 60,
    "release_extension_seconds": 30,
    "release_opponent_seconds": 30,
    "second_half_signal_gap_minutes": 10,
    "overrun_sanctions": True,
}

# section -> key -> type
_SCHEMA: dict[str, dict[str, type]] = {
    "turn": {"pa": int, "reset_ends_turn": bool, "pb_for_reset": int},
    "pa_cost": dict.fromkeys(ACTION_KINDS, int),
    "board": {"end_zone_depth": int},
    "pass": {"short_range": int, "long_min_distance": int},
    "modes": {"pe": bool, "cards": bool},
    "pe_table": dict.fromkeys(ACTION_KINDS, int),
    "roster": {"pieces": list, "ball_carrier": str},
    "cards": {"deck": str},
    "time": {
        "half_minutes": int,
        "turn_seconds": int,
        "release_extension_seconds": int,
        "release_opponent_seconds": int,
        "second_half_signal_gap_minutes": int,
        "overrun_sanctions": bool,
    },
}
_TOP_LEVEL = {"name", "description", "extends", "kinds", "formation", *_SCHEMA}


def _check_type(where: str, value: Any, expected: type) -> None:
    ok = isinstance(value, expected) and not (expected is int and isinstance(value, bool))
    if not ok:
        raise RulesetError(f"{where}: expected {expected.__name__}, got {value!r}")
    if expected is int and value < 0:
        raise RulesetError(f"{where}: must not be negative, got {value}")


def _section(doc: dict[str, Any], name: str, origin: str) -> dict[str, Any]:
    raw = doc.get(name, {})
    if not isinstance(raw, dict):
        raise RulesetError(f"{origin}: [{name}] must be a table")
    for key, value in raw.items():
        if key not in _SCHEMA[name]:
            raise RulesetError(f"{origin}: unknown key '{name}.{key}'")
        _check_type(f"{origin}: {name}.{key}", value, _SCHEMA[name][key])
    return raw


def _kinds(doc: dict[str, Any], origin: str) -> dict[str, tuple[str, ...]]:
    raw = doc.get("kinds", {})
    if not isinstance(raw, dict):
        raise RulesetError(f"{origin}: [kinds] must be a table of kind = [shapes]")
    kinds: dict[str, tuple[str, ...]] = {}
    for kind, shapes in raw.items():
        if not isinstance(shapes, list) or not shapes:
            raise RulesetError(f"{origin}: kinds.{kind}: expected a non-empty list of shapes")
        for shape in shapes:
            if shape not in MOVE_SHAPES:
                raise RulesetError(
                    f"{origin}: kinds.{kind}: unknown move shape {shape!r} "
                    f"(known: {', '.join(MOVE_SHAPES)})"
                )
        kinds[kind] = tuple(shapes)
    return kinds


def _formation(
    doc: dict[str, Any], roster: tuple[str, ...], origin: str
) -> dict[str, dict[str, int]]:
    raw = doc.get("formation", {})
    if not isinstance(raw, dict):
        raise RulesetError(
            f"{origin}: [formation] must be a table with [formation.S] and [formation.N]"
        )
    formation: dict[str, dict[str, int]] = {}
    for side in SIDES:
        column = raw.get(side)
        if not isinstance(column, dict):
            raise RulesetError(f"{origin}: missing table [formation.{side}]")
        if set(column) != set(roster):
            extra = sorted(set(column) - set(roster))
            missing = sorted(set(roster) - set(column))
            raise RulesetError(
                f"{origin}: formation.{side} must place exactly the roster "
                f"(unknown: {extra or '-'}, missing: {missing or '-'})"
            )
        formation[side] = {}
        for pid, name in column.items():
            try:
                formation[side][pid] = parse_square(str(name))
            except SquareError as exc:
                raise RulesetError(f"{origin}: formation.{side}.{pid}: {exc}") from None
    for key in raw:
        if key not in SIDES:
            raise RulesetError(f"{origin}: unknown key 'formation.{key}'")
    squares = [sq for side in SIDES for sq in formation[side].values()]
    if len(set(squares)) != len(squares):
        raise RulesetError(f"{origin}: formation puts two pieces on one square")
    return formation


def load_deck(name_or_path: str | Path) -> Deck:
    path = Path(name_or_path)
    if not path.suffix:
        path = DECK_DIR / f"{name_or_path}.toml"
    origin = path.name
    if not path.is_file():
        raise RulesetError(f"deck file not found: {path}")
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{origin}: not valid TOML ({exc})") from None
    for key in doc:
        if key not in ("provisional", "card"):
            raise RulesetError(f"{origin}: unknown key '{key}'")
    cards = []
    for i, raw in enumerate(doc.get("card", [])):
        where = f"{origin}: card[{i}]"
        effect = raw.get("effect")
        if effect not in CARD_EFFECTS:
            raise RulesetError(f"{where}.effect: unknown effect {effect!r}")
        allowed = {"name", "title", "pe", "effect", *CARD_EFFECTS[effect]}
        for key in raw:
            if key not in allowed:
                raise RulesetError(f"{where}: unknown key '{key}' for effect {effect}")
        for key in ("name", "pe", *CARD_EFFECTS[effect]):
            if key not in raw:
                raise RulesetError(f"{where}: missing key '{key}'")
        _check_type(f"{where}.pe", raw["pe"], int)
        for key in CARD_EFFECTS[effect]:
            _check_type(f"{where}.{key}", raw[key], int)
        name = str(raw["name"]).lower()
        if not name.replace("-", "").isalnum():
            raise RulesetError(f"{where}.name: {name!r} must be letters, digits and '-'")
        cards.append(
            Card(
                name=name,
                title=str(raw.get("title", name)),
                pe=raw["pe"],
                effect=effect,
                amount=raw.get("amount", 0),
                value=raw.get("value", 0),
            )
        )
    if len({c.name for c in cards}) != len(cards):
        raise RulesetError(f"{origin}: two cards share a name")
    return Deck(name=path.stem, cards=tuple(cards), provisional=bool(doc.get("provisional")))


def parse_ruleset(
    doc: dict[str, Any], origin: str = "ruleset", base_dir: Path | None = None
) -> Ruleset:
    for key in doc:
        if key not in _TOP_LEVEL:
            raise RulesetError(f"{origin}: unknown key '{key}'")
    s = {name: _section(doc, name, origin) for name in _SCHEMA}
    roster = tuple(str(p) for p in s["roster"].get("pieces", []))
    kinds = _kinds(doc, origin)
    if not roster:
        raise RulesetError(f"{origin}: roster.pieces must list the pieces")
    if len(set(roster)) != len(roster):
        raise RulesetError(f"{origin}: roster.pieces repeats an id")
    for pid in roster:
        if pid[:1] not in kinds:
            raise RulesetError(f"{origin}: roster.pieces: {pid} has no kind '{pid[:1]}' in [kinds]")
    carrier = s["roster"].get("ball_carrier", "X5")
    if carrier not in roster:
        raise RulesetError(f"{origin}: roster.ball_carrier {carrier!r} is not in roster.pieces")
    deck_ref = s["cards"].get("deck", "standard")
    deck_path = Path(deck_ref)
    if deck_path.suffix and not deck_path.is_absolute() and base_dir is not None:
        deck_path = base_dir / deck_path
    try:
        deck = load_deck(deck_path if deck_path.suffix else deck_ref)
    except RulesetError as exc:
        raise RulesetError(f"{origin}: cards.deck = {deck_ref!r}: {exc}") from None
    depth = s["board"].get("end_zone_depth", 1)
    if not 1 <= depth <= 8:
        raise RulesetError(
            f"{origin}: board.end_zone_depth must be 1..8 (rows 1–8 and 10–17 are each side's "
            f"half), got {depth}"
        )
    pa_cost = dict.fromkeys(ACTION_KINDS, 1) | s["pa_cost"]
    return Ruleset(
        name=str(doc.get("name", origin)),
        description=str(doc.get("description", "")),
        pa=s["turn"].get("pa", 2),
        reset_ends_turn=s["turn"].get("reset_ends_turn", True),
        pb_for_reset=s["turn"].get("pb_for_reset", 1),
        pa_cost=pa_cost,
        end_zone_depth=depth,
        short_range=s["pass"].get("short_range", 4),
        long_min_distance=s["pass"].get("long_min_distance", 2),
        pe_mode=s["modes"].get("pe", False),
        card_mode=s["modes"].get("cards", False),
        pe_table=dict.fromkeys(ACTION_KINDS, 0) | s["pe_table"],
        kinds=kinds,
        roster=roster,
        ball_carrier=carrier,
        formation=_formation(doc, roster, origin),
        deck=deck,
        time=TIME_DEFAULTS | s["time"],
    )


_CACHE: dict[str, Ruleset] = {}


def is_ruleset_name(name: object) -> bool:
    """True for a string that is a well-formed ruleset name (D-37), whether or not it exists."""
    return isinstance(name, str) and _NAME.fullmatch(name) is not None


def organiser_dir() -> Path | None:
    """The organiser's ruleset directory, if the operator configured one."""
    value = os.environ.get(ORGANISER_ENV, "")
    return Path(value) if value else None


def _ruleset_dirs() -> list[Path]:
    # shipped first: an organiser's file can add a ruleset but never change what
    # "standard" means to a record or position written elsewhere
    extra = organiser_dir()
    return [RULESET_DIR, extra] if extra is not None else [RULESET_DIR]


def available_rulesets() -> list[str]:
    """Every name a document or request may give: shipped, then organiser-installed."""
    names = shipped_rulesets()
    extra = organiser_dir()
    if extra is not None and extra.is_dir():
        names += sorted(
            p.stem for p in extra.glob("*.toml") if is_ruleset_name(p.stem) and p.stem not in names
        )
    return names


def unknown_ruleset(name: object) -> str:
    """The one message for every name that is not a ruleset: the same whether or not some
    file of that name exists anywhere (no existence oracle); a long name is cut short."""
    shown = name if isinstance(name, str) else type(name).__name__
    if len(shown) > NAME_MAX:
        shown = shown[:NAME_MAX] + "…"
    return (
        f"unknown ruleset {shown!r}; a ruleset is a name ({NAME_RULE}): "
        f"{', '.join(available_rulesets())}"
    )


def ruleset_path(name: object) -> Path:
    """The file of ruleset `name` in the shipped or the organiser's set; RulesetError with
    `unknown_ruleset` for anything else. The name is checked before any file is looked at."""
    if not is_ruleset_name(name):
        raise RulesetError(unknown_ruleset(name))
    for directory in _ruleset_dirs():
        path = directory / f"{name}.toml"
        if path.is_file():
            return path
    raise RulesetError(unknown_ruleset(name))


def ruleset_by_name(name: object) -> Ruleset:
    """The ruleset a document or request names (D-37): never a path, never a file outside
    the shipped and organiser-installed sets. Its name is the name it was looked up by, so a
    position written with it reads back."""
    path = ruleset_path(name)
    key = f"name:{path}"
    if key not in _CACHE:
        doc = _read_doc(path)
        doc["name"] = str(name)
        _CACHE[key] = parse_ruleset(doc, origin=path.name, base_dir=path.parent)
    return _CACHE[key]


def _is_file_ref(value: str) -> bool:
    """A string the local user meant as a file: it has a directory part or a suffix."""
    return "/" in value or os.sep in value or bool(Path(value).suffix)


def _merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _read_doc(path: Path, seen: tuple[Path, ...] = ()) -> dict[str, Any]:
    """The TOML document of `path`, with `extends = "other"` resolved (other's keys first)."""
    if not path.is_file():
        raise RulesetError(f"ruleset file not found: {path}")
    if path.resolve() in seen:
        raise RulesetError(f"{path.name}: 'extends' forms a cycle")
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{path.name}: not valid TOML ({exc})") from None
    except UnicodeDecodeError:
        # the decoder's own message carries the file's bytes: never pass it on
        raise RulesetError(f"{path.name}: not UTF-8 text") from None
    except OSError as exc:
        raise RulesetError(f"{path.name}: cannot be read ({exc.strerror})") from None
    parent = doc.pop("extends", None)
    if parent is None:
        return doc
    if not isinstance(parent, str):
        raise RulesetError(f"{path.name}: extends: expected a ruleset name or path")
    if _is_file_ref(parent):
        parent_path = Path(parent)
        if not parent_path.is_absolute() and not parent_path.is_file():
            parent_path = path.parent / parent_path
    else:
        try:
            parent_path = ruleset_path(parent)
        except RulesetError as exc:
            raise RulesetError(f"{path.name}: extends: {exc}") from None
    base = _read_doc(parent_path, (*seen, path.resolve()))
    base.pop("name", None)
    base.pop("description", None)
    return _merge(base, doc)


def load_ruleset(name_or_path: str | Path | None = None) -> Ruleset:
    """The standard ruleset, one by name (`standard`, `pe`, `cards`, or the organiser's), or
    a TOML file the local user names (one with a directory part or a suffix).

    Never hand this a string from a document or a request: use `ruleset_by_name`, which
    opens no path (D-37). A file may start with `extends = "standard"` and then list only
    what it changes.
    """
    if not name_or_path:  # None or "": the standard ruleset, as always
        return ruleset_by_name("standard")
    if not _is_file_ref(str(name_or_path)):
        return ruleset_by_name(str(name_or_path))
    path = Path(name_or_path)
    key = f"file:{path}"
    if key not in _CACHE:
        doc = _read_doc(path)
        doc.setdefault("name", path.stem)
        _CACHE[key] = parse_ruleset(doc, origin=path.name, base_dir=path.parent)
    return _CACHE[key]


def shipped_rulesets() -> list[str]:
    return sorted(p.stem for p in RULESET_DIR.glob("*.toml"))
