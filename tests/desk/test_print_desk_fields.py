"""A round's printed forms show desk-only fields (sanctions with their reasons, the
arbiter's notes) only to the event's desk session (issue 30, item 3); anyone else prints the
public fields, the ones the public pages show anyway (pairings, results, standings)."""

from __future__ import annotations

from ball.web.core.deps import service_for

REASON = "Kicked the table leg during the release phase"


def forms(client, event_id: int, suffix: str = "") -> str:
    answer = client.get(f"/print/forms{suffix}", params={"event": event_id, "round": 1})
    assert answer.status_code == 200, answer.text
    return answer.text


def test_a_sanction_reason_prints_for_the_desk_only(client, other_client, event4):
    event_id, tables = event4
    service_for(client.app).arbiter.give_sanction(
        "warning", REASON, player=tables[0]["a"], round_number=1, table=1, event=event_id
    )
    public = forms(other_client, event_id)
    assert REASON not in public
    # The public fields are there: the pairing of every table.
    for t in tables:
        assert t["a"] in public and t["b"] in public
    assert REASON in forms(client, event_id)


def test_a_xiangqi_sanction_reason_prints_for_the_desk_only(client, other_client, xiangqi4):
    event_id, tables = xiangqi4
    service_for(client.app).arbiter.give_sanction(
        "warning", REASON, player=tables[0]["b"], round_number=1, table=1, event=event_id
    )
    public = forms(other_client, event_id)
    assert REASON not in public and tables[0]["b"] in public
    assert REASON in forms(client, event_id)


def test_the_pdf_follows_the_same_rule(client, other_client, event4, tmp_path):
    import subprocess

    event_id, tables = event4
    service_for(client.app).arbiter.give_sanction(
        "warning", "Zebra", player=tables[0]["a"], round_number=1, table=1, event=event_id
    )

    def text(c) -> str:
        pdf = c.get("/print/forms.pdf", params={"event": event_id, "round": 1})
        assert pdf.status_code == 200
        path = tmp_path / "forms.pdf"
        path.write_bytes(pdf.content)
        out = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True)
        return out.stdout

    assert "Zebra" not in text(other_client)
    assert "Zebra" in text(client)


def test_a_mahjong_waivers_reason_prints_for_the_desk_only(client, other_client):
    from .test_mahjong_desk import edit, seat_mahjong

    event_id = seat_mahjong(client)
    url = f"/desk/{event_id}/sessions/1/tables/2"
    # TL 1 + TL 7: 80 points over the hand budget, then the referee waives them (TL 6).
    edit(client, event_id, url, "time", {"seat": "E", "limit": "hand", "over_seconds": "240"})
    edit(client, event_id, url, "penalty", {"kind": "unwilling", "seat": "E"})
    edit(client, event_id, url, "waive", {"index": "0", "reason": REASON})
    edit(client, event_id, url, "hand", {"outcome": "draw"})
    edit(client, event_id, url, "close", {})  # the closed sheet is what prints
    public = forms(other_client, event_id)
    assert REASON not in public and 'data-form="mahjong-sheet"' in public
    assert REASON in forms(client, event_id)
