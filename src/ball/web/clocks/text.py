"""The words of the clock scripts (`static/clock/*.js`), built on the server from gettext.

The scripts read them from a JSON block the clock pages embed (`clock/_text.html`), keyed by
the names below; the message ids are marked here so that `pybabel extract` finds them and
the catalogue (`ball.i18n`) holds their translations.
"""

from __future__ import annotations

import re

from ball.i18n import N_, translate

# key the scripts use -> message id
CLOCK_WORDS: dict[str, str] = {
    "stage": N_("stage"),
    "to_go": N_("to go"),
    "moves": N_("moves"),
    "delay": N_("delay"),
    "turn": N_("turn"),
    "penalty": N_("penalty"),
    "total": N_("total"),
    "overruns": N_("overruns"),
    "threshold": N_("80-point alert"),
    "flag": N_("flag"),
    "release": N_("release phase"),
    "half_timer": N_("half"),
    "final_drive": N_("Final Drive"),
    "window_mover": N_("mover"),
    "window_opponent": N_("opponent"),
    "window_referee": N_("referee"),
    "period_half": N_("Half"),
    "period_hand": N_("Hand"),
    "period_game": N_("Game"),
    "status_ready": N_("ready"),
    "status_running": N_("running"),
    "status_paused": N_("paused by the arbiter"),
    "status_interval": N_("period over"),
    "status_over": N_("game over"),
    "notice_flag": N_("flag fell"),
    "notice_stage": N_("next stage"),
    "notice_turn_overrun": N_("turn overrun"),
    "notice_period_overrun": N_("hand time overrun"),
    "notice_threshold": N_("80-point alert"),
    "notice_release_window": N_("release phase"),
    "notice_final_drive": N_("Final Drive"),
    "notice_period_end": N_("period over"),
    "notice_half_timer": N_("half timer expired"),
    "sound_on": N_("Sound on"),
    "sound_off": N_("Sound off"),
    "stopped": N_("stopped"),
    # default seat names of the shipped controls (a clock made without names shows these)
    "seat_east": N_("East"),
    "seat_south": N_("South"),
    "seat_west": N_("West"),
    "seat_north": N_("North"),
    "seat_red": N_("Red"),
    "seat_black": N_("Black"),
}


def clock_words(lang: str) -> dict[str, str]:
    """The clock scripts' words in `lang` (an unknown code reads English)."""
    return {key: translate(lang, message) for key, message in CLOCK_WORDS.items()}


# The shipped controls' titles (their TOML `title`, word for word) as message ids, so the
# clock pages show them in the page's language; an organiser's own control keeps its title.
CONTROL_TITLES: tuple[str, ...] = (
    N_("Mahjong (WMC): 15 s per turn, 3 min per player per hand, 5 points per started 15 s"),
    N_("Xiangqi: 40 moves in 90 min, then 10 moves every 15 min"),
    N_("Xiangqi: 30 moves in 60 min, then 10 moves every 10 min"),
    N_("Xiangqi rapid: 40 moves in 10 min, then 30 moves every 5 min"),
    N_("Xiangqi rapid: 30 moves every 5 min"),
    N_("Xiangqi: sudden death, 30 min for the whole game"),
    N_("Xiangqi: 20 min, 5 s Bronstein delay per move"),
    N_("Xiangqi: 20 min, 5 s simple delay per move"),
    N_("Xiangqi: 15 min + 10 s increment per move"),
)
# The BALL clock's title is made from its ruleset's figures
# (ball.games.ball.clocks.control.ball_control).
_BALL_TITLE = re.compile(
    r"BALL: (\d+)-minute halves, (\d+) s per action phase, release-phase protocol"
)
BALL_TITLE = N_("BALL: %(half)s-minute halves, %(turn)s s per action phase, release-phase protocol")


def control_title(lang: str, title: str) -> str:
    """A time control's title in `lang`: shipped titles are translated, others kept."""
    ball = _BALL_TITLE.fullmatch(title)
    if ball:
        return translate(lang, BALL_TITLE) % {"half": ball.group(1), "turn": ball.group(2)}
    return translate(lang, title) if title in CONTROL_TITLES else title
