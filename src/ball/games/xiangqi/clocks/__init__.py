"""Xiangqi's table clocks: the five schemes of the competition rules' art. 6 and the
organiser's options (Fischer, simple and Bronstein delay), shipped as control files
(`controls/`) with their titles as message ids (`XiangqiGame.clock_controls`)."""

from __future__ import annotations

from pathlib import Path

from ball.clocks.controls import ShippedControls
from ball.i18n import N_

CONTROLS = ShippedControls(
    Path(__file__).with_name("controls"),
    (
        N_("Xiangqi: 40 moves in 90 min, then 10 moves every 15 min"),
        N_("Xiangqi: 30 moves in 60 min, then 10 moves every 10 min"),
        N_("Xiangqi rapid: 40 moves in 10 min, then 30 moves every 5 min"),
        N_("Xiangqi rapid: 30 moves every 5 min"),
        N_("Xiangqi: sudden death, 30 min for the whole game"),
        N_("Xiangqi: 20 min, 5 s Bronstein delay per move"),
        N_("Xiangqi: 20 min, 5 s simple delay per move"),
        N_("Xiangqi: 15 min + 10 s increment per move"),
    ),
)
