"""Issue 30 item 11: look-alike names (Unicode TR 39 confusables) are one name, and format
and direction characters (category Cf) are refused in every stored name, as are invisible
letters outside Cf (the Hangul filler)."""

from __future__ import annotations

import unicodedata

import pytest

from ball.storage.confusables import skeleton
from ball.tournament import TournamentError, TournamentService
from ball.tournament.names import check_name, name_key

from .test_cli import ball, one_line_error
from .test_event_names import migrated_keys

REAL = "BALL Demo Open"
# A Cyrillic о; a Cyrillic capital В; a Greek capital Α and Latin capital I for l; digit 0.
LOOK_ALIKES = ["BALL Demо Open", "ВALL Demo Open", "BΑLL Demo Open", "BALI Demo Open",
               "BALL Dem0 Open", "ball demo open"]  # fmt: skip
CF = ["\u200b", "\u202e", "\u2066", "\u2069", "\u200e", "\u00ad", "\ufeff", "\U000e0041"]


def test_the_skeleton_is_tr39s():
    # TR 39's own example pairs, and a few the campaign used
    assert skeleton("paypal") == skeleton("раураl")  # Cyrillic р, а, у
    assert skeleton("m") == skeleton("rn")
    assert skeleton("1") == skeleton("l") == skeleton("I")
    assert skeleton("Ｓ") == "S"  # compatibility forms
    assert skeleton("BALL") != skeleton("BELL")
    # the skeleton is NFD, whatever form it was given
    assert unicodedata.is_normalized("NFD", skeleton("Ångström"))


@pytest.mark.parametrize("twin", LOOK_ALIKES)
def test_a_look_alike_event_name_is_refused_like_a_duplicate(tmp_path, twin):
    assert name_key(twin) == name_key(REAL)
    svc = TournamentService(tmp_path / "e.db")
    svc.events.create_event(name=REAL, system="swiss", rounds=3)
    with pytest.raises(TournamentError, match=r"'BALL Demo Open' already exists \(id 1\)"):
        svc.events.create_event(name=twin, system="swiss")
    assert len(svc.events.list_events()) == 1
    assert svc.events.event_info(twin)["name"] == REAL  # and it names the real event


def test_distinct_names_stay_distinct():
    names = ["Spring Cup", "Spring Cap", "Sofia Open", "Sofia Open 2", "서울 오픈", "София Опен",
             "Plovdiv", "Plovdiv Cup"]  # fmt: skip
    assert len({name_key(n) for n in names}) == len(names)


def test_a_look_alike_entrant_in_the_same_event_is_refused(tmp_path):
    svc = TournamentService(tmp_path / "e.db")
    svc.events.create_event(name="Open", system="swiss", rounds=3)
    svc.entrants.add_player("Ivan Petrov")
    for twin in ("Ivan Pеtrov", "Ivan Petrоv", "lvan Petrov"):  # Cyrillic е, о; l for I
        with pytest.raises(TournamentError, match="looks like 'Ivan Petrov'"):
            svc.entrants.add_player(twin)
    # another spelling that looks different stays another entrant (tests/tournament/
    # test_narrow_writes.py: case and spacing, as before)
    svc.entrants.add_player("Ivan Petrova")
    svc.entrants.add_player("IVAN PETROV")
    names = [e["name"] for e in svc.events.event_info()["entrants"]]
    assert names == ["Ivan Petrov", "Ivan Petrova", "IVAN PETROV"]
    # another event may have its own Ivan Petrov
    svc.events.create_event(name="Blitz", system="swiss", rounds=3)
    svc.entrants.add_player("Ivan Pеtrov", event="Blitz")


def test_a_trf_with_look_alike_players_is_refused(tmp_path):
    svc = TournamentService(tmp_path / "a.db")
    svc.events.create_event(name="Open", system="swiss")
    for name in ("Ann Lee", "Bob Ray"):
        svc.entrants.add_player(name)
    text = svc.trf.export_trf().replace("Bob Ray", "Ann Lее")  # Cyrillic е twice
    target = TournamentService(tmp_path / "b.db")
    with pytest.raises(TournamentError, match="TRF players 1 and 2: 'Ann Lее' looks like"):
        target.trf.import_trf(text)
    assert target.events.list_events() == []


@pytest.mark.parametrize("char", CF)
def test_format_and_direction_characters_are_refused(tmp_path, char):
    svc = TournamentService(tmp_path / "e.db")
    why = f"event name.*format or direction.*U\\+{ord(char):04X}"
    with pytest.raises(TournamentError, match=why):
        svc.events.create_event(name=f"BALL Demo{char} Open", system="swiss")
    svc.events.create_event(name="Open", system="swiss")
    for field in ("club", "federation"):
        with pytest.raises(TournamentError, match=f"{field} must be one line"):
            svc.entrants.add_player("Ann", **{field: f"B{char}G"})
    with pytest.raises(TournamentError, match="entrant name.*format or direction"):
        svc.entrants.add_player(f"Ann{char}evil")
    assert svc.events.event_info()["entrants"] == []


@pytest.mark.parametrize("char", ["\u3164", "\uffa0", "\u115f", "\u034f", "\u2800", "\u180e"])
def test_invisible_letters_and_marks_are_refused(tmp_path, char):
    # not category Cf, yet they draw nothing: "Ann" + U+3164 looks exactly like "Ann", and a
    # name of fillers alone looks empty
    svc = TournamentService(tmp_path / "e.db")
    svc.events.create_event(name="Open", system="swiss")
    for name in (f"Ann{char}", char * 3, f"\uae40{char}\ubbfc"):
        with pytest.raises(TournamentError, match=f"invisible character \\(U\\+{ord(char):04X}\\)"):
            svc.entrants.add_player(name)
    assert svc.events.event_info()["entrants"] == []


def test_variation_selectors_do_not_make_a_second_name():
    # U+FE0F chooses an emoji's form; allowed, but "Ann" + a selector is still "Ann"
    assert check_name("Ann\ufe0f", "entrant name") == "Ann\ufe0f"
    assert name_key("Ann\ufe0f") == name_key("Ann")


def test_joiners_between_letters_are_spelling_not_spoofing():
    persian = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"  # ZWNJ inside a word
    assert check_name(persian, "entrant name") == persian
    assert name_key(persian) == name_key(persian.replace("\u200c", ""))
    for name in ("\u200cAnn", "Ann\u200d", "Ann \u200d Lee"):  # not between letters
        with pytest.raises(TournamentError, match="format or direction"):
            check_name(name, "entrant name")


def test_the_cli_refuses_a_right_to_left_override_in_one_line(tmp_path):
    db = str(tmp_path / "e.db")
    assert ball("event", "create", "--db", db, "--name", "Open", "--system", "swiss").exit_code == 0
    msg = one_line_error(ball("event", "add-player", "--db", db, "Ann\u202eevil\u202c"))
    assert "entrant name" in msg and "U+202E" in msg


def test_the_migration_rekeys_look_alikes_and_keys_the_oldest(tmp_path):
    insert = (
        "INSERT INTO tournament_events (name, name_key, system, game, ruleset, scoring, "
        "tiebreaks, created_at) VALUES (:n, :n, 'swiss', 'ball', 'standard', '{}', '[]', 0)"
    )
    names = (REAL, "BALL Demо Open", "Autumn")
    keys = migrated_keys(tmp_path / "old.db", "tournament_0006_g", names, insert)
    assert keys == [(1, name_key(REAL)), (2, None), (3, name_key("Autumn"))]
    svc = TournamentService(str(tmp_path / "old.db"))
    with pytest.raises(TournamentError, match="ambiguous: events 1, 2"):
        svc.events.event_info(REAL)
