"""The words of a table link's states and of why a link is dead (issue 35 §1), shared by
the two-player tables' page (`ball.web.desk.table_entry`) and the Mahjong seats' page
(`ball.games.mahjong.web.entry`)."""

from __future__ import annotations

from ball.tournament import table_links
from ball.web.core.templating import N_

# Why a link is dead, in the player's words (`table_links.CLOSED`).
CLOSED = {
    table_links.ROUND_CLOSED: N_("its round is closed"),
    table_links.RESULT_IN: N_("the table's result is in"),
    table_links.AGREED: N_("both sides agreed on the result"),
}
STATES = {
    table_links.WAITING: N_("waiting"),
    table_links.ENTERED: N_("entered"),
    table_links.CONFIRMED: N_("confirmed"),
    table_links.DISPUTED: N_("disputed"),
    table_links.ACCEPTED: N_("accepted"),
    table_links.REPLACED: N_("replaced by the desk"),
}
