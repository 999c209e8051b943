"""The desk's what-if preview beside each result (issue 35 §3): the standings as if the
table had the result chosen, next to the rank each entrant has now; nothing is stored, and
only the arbiter's session opens it."""

from __future__ import annotations

import re

from ball.web.core.deps import service_for

from .conftest import post, sheet_form

ROW = re.compile(
    r'<tr><td class="rank num">(\d+)</td><td class="name">([^<]+)</td>'
    r'<td class="num points">([^<]+)</td><td class="num now">([^<]+)</td>',
)


def rows(html: str) -> list[tuple[int, str, str, str]]:
    table = html.split('id="what-if-standings"', 1)[1].split("</table>", 1)[0]
    return [(int(r), name, points, now) for r, name, points, now in ROW.findall(table)]


def enter(client, event_id: int, table: int) -> bool:
    """Coach A wins the table (a touchdown in half 1), entered at the desk."""
    saved = post(client, event_id, f"/rounds/1/tables/{table}", sheet_form("A", version=0))
    return saved.status_code == 303


def test_the_preview_ranks_as_if_and_stores_nothing(client, event4):
    event_id, tables = event4
    t1, t2 = tables
    # table 1 entered: coach A wins (touchdown in half 1)
    assert enter(client, event_id, 1)
    round_page = client.get(f"/desk/{event_id}/rounds/1").text
    link = f"/desk/{event_id}/rounds/1/tables/2/what-if"
    assert f'href="{link}"' in round_page
    page = client.get(f"{link}?result=0-1")
    assert page.status_code == 200, page.text
    # round 1 complete as if: both winners on 1 point, both losers on 0. The short result
    # carries no game figures (as `ball standings --what-if 1:2=0-1`), so the sheet's
    # touchdown difference puts table 1's winner ahead of table 2's, and its loser (-1)
    # behind table 2's. Now (stored: after round 0) everybody shares rank 1.
    assert rows(page.text) == [
        (1, t1["a"], "1", "1"), (2, t2["b"], "1", "1"), (3, t2["a"], "0", "1"),
        (4, t1["b"], "0", "1"),
    ]  # fmt: skip
    assert f"{t2['a']} – {t2['b']}" in page.text
    assert 'aria-current="true" data-result="0-1"' in page.text
    assert "nothing is stored" in page.text
    # nothing was stored: table 2 still has no result, the round is still being played
    svc = service_for(client.app)
    assert svc.rounds.pairings(1, event=event_id)[1].result is None
    assert svc.ranking.standings(event=event_id).in_progress == 1


def test_a_draw_and_an_appeal_over_a_stored_result(client, event4):
    event_id, tables = event4
    t1, t2 = tables
    assert enter(client, event_id, 1)
    assert enter(client, event_id, 2)
    # stored: both coaches A won; table 1 as if drawn (an appeal)
    page = client.get(f"/desk/{event_id}/rounds/1/tables/1/what-if?result=1/2").text
    got = {name: (rank, points) for rank, name, points, _ in rows(page)}
    assert got[t1["a"]][1] == got[t1["b"]][1] == "½"
    assert got[t2["a"]] == (1, "1") and got[t2["b"]][1] == "0"
    assert service_for(client.app).rounds.pairings(1, event=event_id)[0].result.outcome == "A"


def test_bad_choices_are_refused_with_a_page(client, event4):
    event_id, _ = event4
    base = f"/desk/{event_id}/rounds/1/tables"
    bad_result = client.get(f"{base}/1/what-if?result=2-0")
    assert bad_result.status_code == 400 and "give one of" in bad_result.text
    no_table = client.get(f"{base}/9/what-if")
    assert no_table.status_code == 400 and "round 1 has no table 9" in no_table.text
    no_round = client.get(f"/desk/{event_id}/rounds/5/tables/1/what-if")
    assert no_round.status_code == 400 and "round 5 is not paired" in no_round.text


def test_only_the_arbiter_sees_the_preview(client, other_client, event4):
    event_id, _ = event4
    path = f"/desk/{event_id}/rounds/1/tables/1/what-if"
    response = other_client.get(path, follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"].startswith(f"/desk/{event_id}/login?next=")
