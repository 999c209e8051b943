"""The printed edition's labels (form titles, field names, tick-box words, the colophon).

Their words are messages of the one catalogue (`ball.i18n`, `ball/locales/`): the English
text is the message id, marked here so that `pybabel extract` finds it, and `labels(lang)`
gives the tree the templates read (`t.forms.score_sheet.title`, …) in one language. A label
whose translation on paper differs from the same English words on screen carries the
context "printed form". The regulation's body text is prose per language
(`content/{lang}/regulation.md`), not labels, and stays there.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ball.games import GAMES, load
from ball.i18n import LANGUAGES, N_, Marked, pN_, translate

# The English message ids, in the order the forms print them (dicts keep their order:
# the sanction levels and tie-breaks print in this order).
LABELS: dict[str, Any] = {
    "doc": {
        "regulation_title": N_("BALL Tournament Regulation"),
        "regulation_subtitle": N_("Regulation and forms — printed edition"),
        "forms_title": N_("BALL Tournament Forms"),
        "forms_subtitle": N_("Forms for one round"),
        "contents": N_("Contents"),
        "appendices": N_("Appendices: forms"),
        "appendix": N_("Appendix"),
        "edition": N_("Edition"),
        "paper": N_("Paper"),
        "blank": N_("blank"),
        "prefilled": N_("filled in from the event"),
        "default_header": N_("BALL Tournament"),
        "draft": N_("Tournament regulation draft V6"),
        "decision": N_("Decision"),
        "decision_note": N_(
            "Paragraphs marked “Decision D-nn” are the project’s decisions where the "
            "regulation is silent or ambiguous (the BALL rules contract and "
            "docs/rules-decisions.md); they are not regulation text."
        ),
    },
    "controls": {
        "print": N_("Print everything (regulation and forms)"),
        "download": N_("Download PDF"),
        "language": N_("Language"),
        "paper": N_("Paper size"),
        "toolbar": N_("Print tools"),
    },
    "common": {
        "event": N_("Event"),
        "round": N_("Round"),
        "table": N_("Table"),
        "date": N_("Date"),
        "referee": N_("Referee"),
        "coach": N_("Coach"),
        "coach_a": N_("Coach A"),
        "coach_b": N_("Coach B"),
        "half": N_("Half"),
        "half_1": N_("First half"),
        "half_2": N_("Second half"),
        "turn": N_("Turn"),
        "time": N_("Time"),
        "signature": N_("Signature"),
        "initials": N_("Initials"),
        "notes": N_("Notes"),
        "yes": N_("yes"),
        "no": N_("no"),
        "total": N_("Total"),
        "name": N_("Name"),
        "starts_atk": N_("ATK in the first half"),
        "starts_def": N_("DEF in the first half"),
    },
    "forms": {
        "score_sheet": {
            "title": N_("Match score sheet"),
            "roles": N_("Roles in this half"),
            "tally": N_("Ball clock — dual entry"),
            "tally_help": N_(
                "Mark one box in the attacker's PBATK row and one in the defender's PBDEF row "
                "for every PB. A's PBATK must equal B's PBDEF, and B's PBATK must equal A's "
                "PBDEF."
            ),
            "check": pN_("printed form", "Check"),
            "steals": N_("Steals"),
            "stealer": N_("Stealer"),
            "choice": N_("Choice"),
            "continue": N_("continue"),
            "reset": pN_("printed form", "reset"),
            "pb_added": N_("PB"),
            "touchdown": N_("Touchdown"),
            "scored_by": N_("Scored by"),
            "none": N_("none"),
            "td_pbatk": N_("Scorer's PBATK at the touchdown"),
            "final_drive": pN_("printed form", "Final Drive"),
            "timer_expired": N_("Half timer expired at"),
            "extra_turn": N_("Extra ATK turn"),
            "given": N_("given"),
            "not_needed": N_("not needed"),
            "half_ended": N_("Half ended at"),
            "sanctions": N_("Sanctions"),
            "level": N_("Level"),
            "reason": N_("Reason"),
            "result": N_("Result"),
            "touchdowns": N_("Touchdowns"),
            "sd": N_("SD = PBDEF − PBATK"),
            "criterion": N_("Deciding criterion"),
            "crit_td": N_("touchdowns"),
            "crit_efficiency": N_("attack efficiency (1-1)"),
            "crit_defence": N_("defensive superiority (0-0)"),
            "crit_efficiency_sd": N_("SD (1-1, equal PBATK)"),
            "crit_draw": pN_("printed form", "draw"),
            "crit_forfeit": pN_("printed form", "forfeit"),
            "winner": N_("Winner"),
            "signatures": N_("Signatures"),
            "research_only": N_("unfinished half: research only"),
            "qr_a": N_("Coach A's code: scan it to enter or confirm the result on your phone."),
            "qr_b": N_("Coach B's code: scan it to enter or confirm the result on your phone."),
            "sanction_levels": {
                "warning": N_("warning"),
                "turn": N_("loss of turn"),
                "possession": N_("loss of possession"),
                "match": N_("loss of match"),
            },
        },
        "pairings": {
            "title": N_("Round pairing list"),
            "atk_first": N_("ATK in the first half"),
            "def_first": N_("DEF in the first half"),
            "result": N_("Result"),
            "cards_title": N_("Table cards"),
            "qr": N_("Scan your side's code to enter or confirm the result."),
            "card_first": N_("First half: ATK"),
            "card_second": N_("Second half: ATK"),
            "checked": N_("Pairing checked by %(by)s."),
            "checked_by": {
                "swiss": N_("the FIDE Dutch checker (gacrux)"),
                "berger": N_("the FIDE Berger tables"),
                "draw": N_("the knockout draw"),
            },
            "bye": {
                "pab": N_("pairing-allocated bye"),
                "half": N_("half-point bye"),
                "zero": N_("zero-point bye"),
                "full": N_("full-point bye"),
            },
        },
        "round_control": {
            "title": N_("Round control sheet"),
            "signal_1": N_("Signal 1 (first halves start)"),
            "signal_2": N_("Signal 2 (second halves start)"),
            "first_half_end": N_("First half ended (Final Drive included)"),
            "final_drive": pN_("printed form", "Final Drive"),
            "second_half_start": N_("Second half started"),
            "match_end": N_("Match ended"),
            "last_end": N_("Last first half ended"),
            "gap": N_("Minimum rest"),
            "earliest_signal_2": N_("Earliest signal 2"),
            "minutes": N_("min"),
            "rule": N_(
                "Signal 2 may be given no earlier than the minimum rest after the last first "
                "half of the round has ended."
            ),
        },
        "standings": {
            "title": pN_("printed form", "Standings"),
            "crosstable": N_("Crosstable"),
            "after_round": N_("after round"),
            "rank": N_("Rank"),
            "played": N_("Played"),
            "points": N_("Points"),
            "wins": N_("W"),
            "draws": N_("D"),
            "losses": N_("L"),
            "tiebreak": {
                "td-difference": N_("TD diff."),
                "total-sd": N_("SD sum"),
                "pbatk-per-td": pN_("printed form", "PBATK per TD"),
                "direct-encounter": N_("Head-to-head"),
                "buchholz": pN_("printed form", "Buchholz"),
                "buchholz-cut1": pN_("printed form", "Buchholz cut 1"),
                "buchholz-median": pN_("printed form", "Median Buchholz"),
                "sonneborn-berger": pN_("printed form", "Sonneborn-Berger"),
                "wins": N_("Wins"),
                "won": N_("Won over the board"),
                "progressive": N_("Progressive"),
                "koya": N_("Koya"),
                "sanctions": N_("Sanctions (18.4)"),
                "fouls": N_("Fouls"),
                "black-games": N_("Games with Black"),
                "black-wins": N_("Wins with Black"),
            },
        },
        "incident": {
            "title": N_("Sanction and incident report"),
            "what": N_("What happened"),
            "rule": N_("Rule concerned"),
            "decision": N_("Decision of the referee"),
            "sanction": N_("Sanction"),
            "witnesses": N_("Witnesses"),
            "involved": N_("Coach(es) involved"),
            "reported_by": pN_("printed form", "Reported by"),
        },
        "forfeit": {
            "title": N_("Forfeit record"),
            "forfeiting": N_("Forfeiting coach"),
            "opponent": N_("Opponent"),
            "when": N_("Half refused or abandoned"),
            "refused": N_("refused"),
            "abandoned": N_("abandoned"),
            "reason": N_("Reason given"),
            "result": N_("Administrative result"),
            "data_note": N_(
                "The data of the unfinished half is kept for research only and does not enter "
                "the tournament's figures."
            ),
            "kept": N_("Data of the unfinished half kept"),
        },
        "formats": {
            "draw_title": N_("Draw sheet: drawing of lots"),
            "draw_help": N_(
                "Two sets of numbers, red and black, and a K card when the number of players "
                "is odd: equal numbers meet, the red card has the first colour, the K has the "
                "bye (section 9 of the event rules). Each player initials the card drawn."
            ),
            "seed": N_("Seed"),
            "at_venue": N_("drawn at the venue"),
            "bye": N_("bye"),
            "card": N_("Card"),
            "name": N_("Name"),
            "bracket_title": N_("Bracket"),
            "winner": N_("Winner"),
            "team_card_title": N_("Team match card"),
            "match": N_("Match"),
            "first_team": N_("First-named team"),
            "second_team": N_("Second team"),
            "colours_help": N_(
                "The first-named team has the first colour on the odd boards, the other "
                "team on the even boards (13.2, 13.3). Game points 1, ½, 0; match points "
                "2, 1, 0 (14.2)."
            ),
            "board": N_("Board"),
            "colour": N_("Colour"),
            "result": N_("Result"),
            "first_colour": N_("first colour"),
            "second_colour": N_("second colour"),
            "game_points": N_("Game points"),
            "match_points": N_("Match points"),
            "captain": N_("Captain"),
        },
        "release_log": {
            "title": N_("Release-phase timing log"),
            "start": N_("Release phase started"),
            "own_time": N_("Extra time used up"),
            "opponent_time": N_("Opponent's time used up"),
            "referee_closed": N_("Closed by the referee"),
            "outcome": N_("Outcome"),
        },
    },
}


def _translated(tree: dict[str, Any], lang: str) -> dict[str, Any]:
    return {
        key: _translated(value, lang) if isinstance(value, dict) else translate(lang, value)
        for key, value in tree.items()
    }


def all_labels() -> dict[str, Any]:
    """The shared labels, with each registered game's own printed labels under
    `forms.NAME` (`Paper.labels`: Xiangqi's score sheet, Mahjong's session forms)."""
    own = {
        name: load(entry.paper.labels)
        for name, entry in GAMES.items()
        if entry.paper is not None and entry.paper.labels is not None
    }
    return {**LABELS, "forms": {**LABELS["forms"], **own}}


def translated_labels(lang: str) -> dict[str, Any]:
    """Every label in `lang` (a code of `ball.i18n.LANGUAGES`; checked by the caller)."""
    return labels_in(lang, tuple(GAMES))


@cache
def labels_in(lang: str, games: tuple[str, ...]) -> dict[str, Any]:
    """Every label in `lang` with the games `games` registered (the key of the cache: a
    game registered later brings its labels)."""
    tree = _translated(all_labels(), lang)
    return {"language_name": LANGUAGES[lang], **tree}


def message_ids() -> list[str | Marked]:
    """Every label's message id (with its context where it has one)."""

    def walk(tree: dict[str, Any]):
        for value in tree.values():
            yield from walk(value) if isinstance(value, dict) else [value]

    return list(walk(all_labels()))
