"""The QR codes of a round's table links on paper (issue 35 §1): each table's two links
(`/t/TOKEN`, one per side; `ball.tournament.table_links`) as QR codes the score sheets and
table cards print, so a player scans their half of the sheet; a Mahjong table's four
(one per seat, `ball.games.mahjong.tournament.seat_links`) on its score sheet.

A code is an SVG data URI made by segno (pure Python, BSD): WeasyPrint draws it as vectors,
so it stays sharp at any print resolution. Error correction M (15 %) survives a fold or a
pen stroke across the code. The links are absolute: `base` is the server's address as the
players' phones reach it (`ball.web.print.pages` gives it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ball.tournament.service import TournamentService

SIDES = ("A", "B")


def data_uri(text: str) -> str:
    """`text` as a QR code: an SVG image in a data URI (border of 2 modules: the print's
    margin does the rest of the quiet zone)."""
    import segno

    return str(segno.make(text, error="m").svg_data_uri(scale=1, border=2, omitsize=True))


def link(base: str, token: str) -> str:
    return f"{base.rstrip('/')}/t/{token}"


def round_codes(
    service: TournamentService, event_id: int, number: int, base: str
) -> dict[int, dict[str, str]]:
    """Each two-player table of the round -> side -> its link's QR code (a data URI)."""
    tokens = service.table_links.table_link_tokens(event_id, number)
    return {
        table: {side: data_uri(link(base, sides[side])) for side in SIDES}
        for table, sides in tokens.items()
    }
