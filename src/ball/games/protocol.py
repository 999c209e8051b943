"""The `Game` protocol: everything the shared code (tournament, desk, public pages, print,
CLI) asks a game, so that it never asks which game it is.

The tournament is game-agnostic: it knows that a table ended in a win for player A, a win
for player B, a draw, or nobody (double forfeit). A game turns its own result document
(BALL's score sheet, Xiangqi's arbiter's document, ...) into that outcome plus per-side
*figures* (touchdowns, fouls, ...) from which its own tie-breaks are computed; it says how
many seats a table has, its sanction ladder and default tie-break chains, and what the desk
and the public pages show of it. `GameBase` holds the defaults a two-player game without a
form of its own keeps; the registry (`ball.games`) lists the games, one line each.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ball.i18n import N_
from ball.sanctions import LADDER, Ladder

Figures = dict[str, float | None]


@dataclass(frozen=True)
class Decided:
    """A decided table: `outcome` is A, B or D (draw); figures per side, keyed "A"/"B"."""

    outcome: str
    figures: dict[str, Figures]
    decision: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class GameTieBreak:
    """A tie-break computed from one entrant's per-match figures (forfeits already excluded
    by the game where the rules say so). `higher_is_better` orders the standings.

    Its words on the standings (message ids): `description` (the tooltip and the legend),
    `label` (the column's heading; "" shows `name`) and `short` (the projector's heading;
    "" shows `label`)."""

    name: str
    description: str
    compute: Callable[[Sequence[Figures]], float | None]
    higher_is_better: bool = True
    # A tie-break computed from the entrant's sanctions instead (the steps given, oldest
    # first, from the event's sanction log): Xiangqi's 18.4. `compute` is then unused.
    from_sanctions: Callable[[Sequence[str]], float] | None = None
    label: str = ""
    short: str = ""


def _result(decision: Mapping[str, Any], _a: str, _b: str) -> str:
    return str(decision.get("result", ""))


@dataclass(frozen=True)
class DeskForm:
    """A game's result form at the desk: its template, and the two directions between the
    posted form and the game's result document. `read(form, a, b)` reads the whole form
    into the document in one step (player A first) and raises `TournamentError` naming the
    field at fault; `values(document, a, b)` fills the form from a stored document (a
    correction, or the players' entry the desk checks); `fields` are the form's own fields
    (a players' entry fills them). The form's `kind` field (sheet, forfeit-A, forfeit-B,
    double-forfeit), its sanction lines and its steal lines are the desk's, the same for
    every game; `steal_rows` is how many steal lines per half the form has (BALL's score
    sheet: 4), none by default.

    `read_quick(form, a, b, required)` reads the game's quick form (`Game.quick_form`,
    posted with `entry=quick`), where the figures only some tie-breaks read
    (`Game.pb_tiebreaks`) may be left out unless `required`; None: `read` reads it.

    `reasons` are the ways a game ends as the form names them (reason -> message id: its
    choices, and the preview's words for a decision's `reason`); `field_rules` names
    ("module:attribute") where a refusal is shown beside its field (the game's web folder,
    `ball.web.desk.field_errors` rules); `offer(values, recorded)` fills the empty form from
    the game recorded on the table's board (`Game.table_board`'s `ending`), or leaves a
    filled one as it is.

    How the preview states a decision (message ids, formatted with `winner`, `reason`,
    `article` and `td`, the score `score(decision, a, b)` gives): `wins`, `draw`, and
    `double_forfeit`."""

    template: str
    read: Callable[[Mapping[str, Any], str, str], dict[str, Any]]
    values: Callable[[Mapping[str, Any], str, str], dict[str, str]]
    fields: tuple[str, ...] = ()
    reasons: Mapping[str, str] = field(default_factory=dict)
    field_rules: str | None = None
    offer: Callable[[Mapping[str, str], Mapping[str, Any]], dict[str, str]] | None = None
    read_quick: Callable[[Mapping[str, Any], str, str, bool], dict[str, Any]] | None = None
    steal_rows: int = 0
    wins: str = N_("%(winner)s wins (%(reason)s, %(article)s)")
    draw: str = N_("Draw (%(reason)s, %(article)s)")
    double_forfeit: str = N_("Double forfeit: both players lose.")
    score: Callable[[Mapping[str, Any], str, str], str] = _result


@dataclass(frozen=True)
class Commands:
    """A group of `ball` commands a game brings: `ball NAME ...` runs the Typer app `app`
    of `module` (named, not imported: the game's CLI sits above its rules); `summary` is
    the group's line in `ball --help`, drawn without importing the module. With `command`,
    `NAME` is one top-level command the module adds itself (`register(app)`, as `ball
    play`). `lead` lists it before the shared commands in `ball --help` (the toolbox's first
    game, BALL), else after them."""

    name: str
    module: str
    summary: str
    command: bool = False
    lead: bool = False


@dataclass(frozen=True)
class LiveBoard:
    """A game's public live board (`/public/{id}/live/{n}/{table}`): the template fragment of
    its board and moves, its stylesheet and script (names under /static/css and /static/js),
    the download link's label (a message id), the tags its record starts with after the
    event and round (`tags(table, player_a, player_b)`), and the module of its recorded
    games (named, not imported: it reads the game's web store), whose `live(sessions)`
    answers `tables(session, event, round)` (table -> game id), `version(session, id)`,
    `snapshot(id)` and `record(id, tags)` -> (file extension, text), each None once the
    game is gone."""

    template: str
    style: str
    script: str
    record_label: str
    tags: Callable[[int, str, str], dict[str, str]]
    games: str


def _accept(_form: Mapping[str, Any]) -> str | None:
    return None


@dataclass(frozen=True)
class PlayersForm:
    """The result form on a player's phone (`/t/TOKEN`, issue 35 §1): its template fragment;
    the refusal of a form the players may not send (a message id, translated where shown:
    a forfeit or a ruling that is the arbiter's), or None to let the game decide it; the
    values of the form's choice the players may pick (Xiangqi's ways a game ends), if any;
    and the fields a player's form may hold (the rest of a posted form is dropped)."""

    template: str
    refuse: Callable[[Mapping[str, Any]], str | None] = _accept
    choices: frozenset[str] = frozenset()
    fields: tuple[str, ...] = ()


class Regulation(Protocol):
    """A game's printed regulation (`Paper.regulation`), which `ball.printing.render` prints
    before the game's forms."""

    def text(self, lang: str) -> str:
        """The regulation in `lang` (one of `ball.printing.render.LANGUAGES`): Markdown whose
        Jinja placeholders `{{ p.NAME }}` take `parameters()`'s values."""
        ...

    def parameters(self) -> dict[str, Any]:
        """The figures the text quotes (from the game's rules where it has them), `blank`:
        the blank forms' sizes (rows, boxes; over the shared forms' defaults) and
        `standings.tiebreaks`: a blank standings' tie-break columns (tie-break names)."""
        ...


@dataclass(frozen=True)
class Paper:
    """How the game's rounds print (`ball.printing.from_event`), beside the shared forms
    (pairing list, standings, a knockout's or a team round's forms). `tables`:
    "module:function" of the game's own forms of a round's tables (`(session, event info,
    tables, header, desk=...)` -> `ball.printing.forms.GameForms`, whose `tables` get the
    table links' QR codes: BALL's appendices, Xiangqi's forms). `results`: "module:function"
    writing a played table's result on the pairing list (`(table)` -> text: BALL's score
    sheet's score); None: in points. `round`: "module:function" printing a whole round itself
    (`(service, event, number, desk=..., link_base=...)`: Mahjong's sessions). `blank`:
    "module:function" of its blank forms (`ball pdf forms --game NAME`; the regulation's game's
    are the regulation's appendices), or None. `labels`: "module:attribute" of the printed
    texts of its own forms (message ids, a tree its templates read as `t.forms.NAME`; named,
    so a command that prints nothing does not load them), or None. `regulation`: the module
    (or "module:attribute") of the game's printed regulation, a `Regulation`: its text per
    language and the parameters it and the printed forms read (BALL's; only its game prints
    it, and its parameters size the shared blank forms), or None. `pdf`: "module:function"
    making the PDF of an edition of its forms its own way (`(edition)` -> bytes, or None to
    print the HTML as it is: BALL's alike score sheets laid out once and stamped per table),
    or None."""

    tables: str | None = None
    results: str | None = None
    round: str | None = None
    blank: str | None = None
    labels: str | None = None
    regulation: str | None = None
    pdf: str | None = None


class Game(Protocol):
    """What a game tells the shared code."""

    name: str
    # The game's name as a person reads it (a message id); "" shows `name`.
    label: str
    # The game's own pages in the site's navigation: (path, message id), in the registry's
    # order and before the shared tools.
    nav: tuple[tuple[str, str], ...]
    # players at a table: 2 (paired games, run by rounds and ranked by points and a
    # tie-break chain) or 4 (tables of four, seated by sessions, ranked by table points)
    seats: int
    tiebreaks: dict[str, GameTieBreak]
    # The tie-breaks that read figures a quick result may leave out (BALL's PB): the quick
    # form then asks for them when the event's chain has one.
    pb_tiebreaks: frozenset[str]
    # The sanction ladder of the game's events.
    ladder: Ladder
    # The game's own default tie-break chain per system, replacing the system's generic
    # chain where the rules fix the order (Xiangqi 15.1/15.2); None keeps the generic one.
    default_chains: dict[str, list[str]] | None
    # The desk's result form of a table (`DeskForm`), or None when the desk takes none (a
    # table of four enters its hands in its own way).
    desk_form: DeskForm | None
    # The desk's quick result form (the winner's figures only), if the game has one.
    quick_form: str | None
    # The two sides of a table as the public pages head them, and as a match card prints
    # them (message ids, translated where shown).
    sides: tuple[str, str]
    card_sides: tuple[str, str]
    # Whether a forfeit shows as + / - (TRF's marks), not as the game's own forfeit score.
    forfeit_marks: bool
    # The clock control of the table clocks the desk makes from a pairing, or None.
    clock_control: str | None
    # A folder of the game's own templates (its desk form), or None.
    templates: Path | None
    # A folder of the game's own static files (its scripts, style sheets), served under
    # /static/ after the shared folder, or None.
    static: Path | None
    # How the game's rounds print (`Paper`), or None: the shared forms only, results in
    # points, and no `ball pdf forms --game` of its own.
    paper: Paper | None
    # The sides of a printed match card and bracket: two keys of the printed texts' `forms`
    # table (`ball.printing`'s content, per language), or None for the first and second
    # colour.
    paper_sides: tuple[tuple[str, str], tuple[str, str]] | None
    # The result form players fill on their phones, or None: the desk enters the result.
    players_form: PlayersForm | None
    # A knockout tie's page at the desk: the template of one game's result fields, and the
    # next game's two sides as it heads them (message ids).
    tie_form: str
    tie_sides: tuple[str, str]
    # The public live board of a table's recorded game, or None when the game records none.
    live_board: LiveBoard | None
    # The game's own `ball` command groups (`ball xiangqi ...`), mounted by `ball.cli`.
    commands: tuple[Commands, ...]
    # The game's web modules (each exposes `router`), included by `ball.web.app` after the
    # shared ones; named, not imported, for the same reason as `commands`.
    routers: tuple[str, ...]
    # "module:function" called with the sessionmaker by `ball serve --demo`, after the
    # shared demo data: the game's own (BALL's demo game on the simulator), or None.
    demo: str | None
    # The module of the board a table's game is recorded on, as the desk asks it: `link`
    # (with the table's device key), `ending` (how the recorded game ended, to pre-fill the
    # result form) and `open_for_table` ("Record the game"); None when the game records none.
    table_board: str | None
    # The module of the game's own public standings, for an event not ranked by points and
    # a tie-break chain (tables of four): `standings_page(request, event, refresh, find,
    # service)` answers `/public/{id}/standings`, `projector_table(service, event_id)` gives
    # the projector its rows. None: the shared standings serve the game.
    public_standings: str | None
    # The game's own public views (`/public/{id}/VIEW`, from its routers), which `ball
    # publish` writes as files beside the shared ones (Mahjong's seating and tables).
    public_views: tuple[str, ...]
    # The game's table-clock controls, named as a module or "module:attribute" holding
    # `controls()` (by name: made from its rules, as BALL's `ball-standard`, or shipped as
    # files, `ball.clocks.controls.ShippedControls`, as Xiangqi's) and `title(title,
    # gettext)` (one of its controls' titles in the reader's words, else None); or None.
    clock_controls: str | None
    # "module:function" giving the minutes of rest between a round's last first-half end
    # and its second-half signal (R-signal, spec 15) as the game's rules set them (BALL's
    # ruleset); None: the shared figure (`ball.tournament.signals.DEFAULT_GAP_MINUTES`).
    signal_gap: str | None
    # The environment variable naming the organiser's directory of the game's rule files
    # (D-37: BALL's rulesets, looked up by name), which `ball serve --rulesets DIR` sets;
    # None: the game reads only the rule files it ships.
    organiser_rules: str | None
    # The module of the shared tournament commands (`ball event create`, `ball round pair`,
    # `ball result enter`, `ball standings`, ...) for an event this game runs in its own
    # way (tables of four seated by sessions), or None when the shared commands serve it.
    event_commands: str | None
    # The module of the game's own players' links, for tokens of its own shape (a Mahjong
    # seat's): `is_token(token)`, `open_link(service, token)` (raising `BadLink` for a
    # token that opens nothing), and the `/t/TOKEN` page's `page`, `enter` and `answer`.
    # None: the shared table links (one per side of a table) serve the game.
    own_links: str | None
    # "module:function" composing the game's own tournament use cases on the tournament's
    # store (`function(store)` -> an object with `use_cases()`, a dict the service holds by
    # name, and `standings(event)`, the event's standings in the game's way: Mahjong's
    # sessions), or None when the shared use cases serve the game.
    tournament: str | None
    # "module:function" making an event from the desk's new-event form in the game's own
    # way (`function(service, form)` -> the event's id: Mahjong's sessions, no system), or
    # None when the shared event (a pairing system and its rounds) serves the game.
    new_event: str | None

    def decide(self, sheet: dict[str, Any]) -> Decided:
        """Validate the game's result document (player A first) and decide it; raise
        `TournamentError` naming the fault when it is not a legal result."""
        ...

    def check_players(self, sheet: dict[str, Any], a: str, b: str) -> None:
        """Refuse a document whose players are not this table's (`TournamentError`)."""
        ...

    def forfeit(self, winner: str) -> dict[str, Figures]:
        """Figures of a forfeit won by `winner` ("A" or "B")."""
        ...

    def double_forfeit(self) -> dict[str, Figures]:
        """Figures of a double forfeit."""
        ...


class GameBase:
    """The defaults of `Game`: a two-player game with no tie-breaks of its own, the default
    sanction ladder (the one BALL plays), the systems' generic chains, no result form at
    the desk, no quick form, no recorded boards, players A and B. A game overrides what its
    rules say otherwise."""

    name = ""
    label = ""
    nav: tuple[tuple[str, str], ...] = ()
    seats = 2
    tiebreaks: dict[str, GameTieBreak] = {}
    pb_tiebreaks: frozenset[str] = frozenset()
    ladder: Ladder = LADDER
    default_chains: dict[str, list[str]] | None = None
    desk_form: DeskForm | None = None
    quick_form: str | None = None
    sides: tuple[str, str] = (N_("Player A"), N_("Player B"))
    card_sides: tuple[str, str] = (N_("first colour"), N_("second colour"))
    forfeit_marks = True
    clock_control: str | None = None
    templates: Path | None = None
    static: Path | None = None
    paper: Paper | None = None
    paper_sides: tuple[tuple[str, str], tuple[str, str]] | None = None
    players_form: PlayersForm | None = None
    tie_form = "desk/_tie_fields.html"  # the fields of the game's desk form, as text boxes
    tie_sides: tuple[str, str] = (N_("Player A"), N_("Player B"))
    live_board: LiveBoard | None = None
    commands: tuple[Commands, ...] = ()
    routers: tuple[str, ...] = ()
    demo: str | None = None
    event_commands: str | None = None
    own_links: str | None = None
    tournament: str | None = None
    new_event: str | None = None
    public_standings: str | None = None
    public_views: tuple[str, ...] = ()
    organiser_rules: str | None = None
    clock_controls: str | None = None
    signal_gap: str | None = None
    table_board: str | None = None

    def check_players(self, sheet: dict[str, Any], a: str, b: str) -> None:
        return None  # a document that names no players fits every table
