"""Mahjong's table clock: the WMC rules' turn limit and hand budget with their penalty points,
shipped as a control file (`controls/`) with its title as a message id
(`MahjongGame.clock_controls`)."""

from __future__ import annotations

from pathlib import Path

from ball.clocks.controls import ShippedControls
from ball.i18n import N_

CONTROLS = ShippedControls(
    Path(__file__).with_name("controls"),
    (N_("Mahjong (WMC): 15 s per turn, 3 min per player per hand, 5 points per started 15 s"),),
)
