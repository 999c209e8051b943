"""D-37: documents name their ruleset; a name is looked up in the shipped set and the
organiser's directory and is never opened as a path (issue 11, items 1 and 10)."""

from __future__ import annotations

import pytest

from ball.games.ball.engine import (
    Game,
    InvalidPosition,
    RulesetError,
    available_rulesets,
    load_ruleset,
    ruleset_by_name,
)
from ball.games.ball.match.record import RecordError
from ball.games.ball.match.replay import replay_text

CLUB = 'extends = "standard"\ndescription = "club rules"\n[turn]\npa = 3\n'


@pytest.fixture
def organiser(tmp_path, monkeypatch):
    """An organiser's ruleset directory with `club` in it, configured as the server does."""
    directory = tmp_path / "rulesets"
    directory.mkdir()
    (directory / "club.toml").write_text(CLUB)
    monkeypatch.setenv("BALL_RULESETS", str(directory))
    return directory


def doc(ruleset: object) -> dict:
    return {"format": "ball-position/1", "ruleset": ruleset}


def test_a_position_naming_a_ruleset_file_is_refused_even_if_the_file_is_a_good_ruleset(tmp_path):
    good = tmp_path / "mine.toml"
    good.write_text(CLUB)
    assert load_ruleset(good).pa == 3  # the local user's own file still loads by path
    for name in (str(good), str(good.with_suffix("")), "mine.toml", f"/proc/self/cwd/{good}"):
        with pytest.raises(InvalidPosition, match=r"^ruleset: unknown ruleset"):
            Game.from_json(doc(name))


def test_a_record_naming_a_ruleset_file_is_refused_at_its_tag(tmp_path):
    good = tmp_path / "mine.toml"
    good.write_text(CLUB)
    with pytest.raises(RecordError, match="unknown ruleset") as caught:
        replay_text(f'[Event "x"]\n[Ruleset "{good}"]\n', require_complete=False)
    assert caught.value.line == 2


@pytest.mark.parametrize(
    "name",
    ["x" * 200_000, "x" * 41, "stan\x00dard", "", "-standard", "standard ", "a/b", "..", "pé"],
)
def test_only_short_plain_names_are_looked_up(name):
    with pytest.raises(RulesetError) as caught:
        ruleset_by_name(name)
    message = str(caught.value)
    assert message.startswith("unknown ruleset") and len(message) < 300
    with pytest.raises(InvalidPosition, match="^ruleset: unknown ruleset"):
        Game.from_json(doc(name))


def test_a_ruleset_that_is_not_a_string_is_named_by_its_type_not_echoed():
    with pytest.raises(InvalidPosition, match="^ruleset: expected a ruleset name, got list$"):
        Game.from_json(doc(["x"] * 100_000))


def _refusal(name: str) -> str:
    with pytest.raises(RulesetError) as caught:
        ruleset_by_name(name)
    return str(caught.value)


def test_the_message_is_the_same_whether_a_file_of_that_name_exists(tmp_path):
    (tmp_path / "there.toml").write_text(CLUB)
    there = _refusal(str(tmp_path / "there.toml"))
    absent = _refusal(str(tmp_path / "absen.toml"))  # as long, so the echoes line up
    assert there.replace("there", "NAME") == absent.replace("absen", "NAME")


def test_organiser_rulesets_are_offered_by_name_and_read_back(organiser):
    assert available_rulesets()[-1] == "club" and "standard" in available_rulesets()
    game = Game.new("club")
    assert game.ruleset.pa == 3 and game.ruleset.name == "club"
    written = game.to_json()
    assert written["ruleset"] == "club" and written["pa"] == 3
    again = Game.from_json(written)  # a position written with it reads back by its name
    assert again.ruleset.name == "club" and again.to_json() == written


def test_an_organiser_file_cannot_redefine_a_shipped_name(organiser):
    (organiser / "standard.toml").write_text(CLUB)
    assert ruleset_by_name("standard").pa == 2


def test_no_name_leaves_the_organiser_directory(organiser):
    (organiser.parent / "outside.toml").write_text(CLUB)
    for name in ("../outside", "..%2Foutside", str(organiser.parent / "outside")):
        with pytest.raises(RulesetError, match="^unknown ruleset"):
            ruleset_by_name(name)


def test_an_unreadable_organiser_file_never_quotes_its_bytes(organiser):
    (organiser / "binary.toml").write_bytes(b"name = 1\n\xff\xfeSECRET-BYTES\x00\x01")
    with pytest.raises(RulesetError) as caught:
        ruleset_by_name("binary")
    assert str(caught.value) == "binary.toml: not UTF-8 text"
