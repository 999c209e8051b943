"""The words of the clock scripts (`static/clock/*.js`), built on the server from gettext.

The scripts read them from a JSON block the clock pages embed (`clock/_text.html`), keyed by
the names below; the message ids are marked here so that `pybabel extract` finds them and
the catalogue (`ball.i18n`) holds their translations.
"""

from __future__ import annotations

from ball.clocks import controls
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


def control_title(lang: str, title: str) -> str:
    """A time control's title in `lang`: a game's own controls' titles are translated
    (`ball.clocks.controls.control_title`), an organiser's kept."""
    return controls.control_title(title, lambda message: translate(lang, message))
