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



def data_uri(text: str) -> str:
    """`text` as a QR code: an SVG image in a data URI (border of 2 modules: the print's
    margin does the rest of the quiet zone)."""
    import segno

    return str(segno.make(text, error="m").svg_data_uri(scale=1, border=2, omitsize=True))


def link(base: str, token: str) -> str:
    return f"{base.rstrip('/')}/t/{token}"


def codes(tokens: dict[int, dict[str, str]], base: str) -> dict[int, dict[str, str]]:
    """Each table -> each of its links (by side, or by a game's own key: a Mahjong seat's
    wind) -> the link as a QR code."""
    return {
        table: {key: data_uri(link(base, token)) for key, token in links.items()}
        for table, links in tokens.items()
    }


def round_codes(
    service: TournamentService, event_id: int, number: int, base: str
) -> dict[int, dict[str, str]]:
    """Each two-player table of the round -> side (A, B) -> its link's QR code."""
    return codes(service.table_links.table_link_tokens(event_id, number), base)
