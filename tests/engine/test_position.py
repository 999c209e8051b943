"""§18.2 position document (round trips, defaults, every kind of fault naming its field) and
§18.1 action text (canonical strings, case-insensitive parsing, IllegalAction messages)."""

from __future__ import annotations

import copy
import re

import pytest

from ball.games.ball.engine import Game, IllegalAction, InvalidPosition

from .scenario import position, position_doc

STACKED = {"S:X1": ("H10", "top", 4), "N:X3": ("H10", "bottom"), "S:X3": ("K9", "down")}


def base() -> dict:
    return position_doc(STACKED)


def roundtrip(g: Game) -> None:
    doc = g.to_json()
    again = Game.from_json(copy.deepcopy(doc))
    assert again.to_json() == doc
    assert again.legal_actions() == g.legal_actions()


def test_s18_2_standard_start_document():
    doc = Game.new().to_json()
    assert doc["format"] == "ball-position/1"
    assert (doc["half"], doc["turn"], doc["to_move"], doc["phase"], doc["attack"]) == (
        1, 1, "N", "action", "S",
    )  # fmt: skip
    assert doc["ball"] == {"carrier": "S:X5"}
    at = {f"{p['side']}:{p['id']}": p["at"] for p in doc["pieces"]}
    assert at == {  # D-05 formation table
        "S:X1": "D8", "S:O2": "F8", "S:O6": "H8", "S:X7": "J8", "S:X5": "G7", "S:X3": "F6",
        "S:Q4": "H6", "N:X1": "D10", "N:O2": "F10", "N:O6": "H10", "N:X7": "J10",
        "N:X5": "G11", "N:X3": "F12", "N:Q4": "H12",
    }  # fmt: skip
    assert {p["kind"] for p in doc["pieces"]} == {"X", "O", "Q"}


STEAL_SETUP = {"S:X1": "G9", "N:X5": "H10"}


@pytest.mark.parametrize(
    ("start", "actions"),
    [
        (None, []),
        (None, ["F10-E9", "D10-F8/E7"]),  # knockdown
        (None, ["F10-E9", "D10-F8/E7", "end"]),  # S's turn with a piece down
        (None, ["F10-G9", "end", "F8-G9", "end"]),  # block, stack with since_turn
        (None, ["F10-G9", "end", "F8-G9", "end", "end"]),  # S's next turn, stack still standing
        (STEAL_SETUP, ["G9-H10"]),  # pending steal
        (STEAL_SETUP, ["G9-H10", "continue"]),
        (STEAL_SETUP, ["G9-H10", "reset"]),
    ],
)
def test_s18_2_documents_round_trip(start, actions):
    g = Game.new() if start is None else position(start, ball="N:X5", attack="N")
    for a in actions:
        g.apply(a)
    roundtrip(g)


def test_s18_2_round_trip_in_card_mode_with_effects():
    g = position({"S:X5": "G9"}, ruleset="cards", pe={"S": 3, "N": 0})
    g.apply("card screen")
    g.apply("card long-arm")
    roundtrip(g)
    assert g.to_json()["effects"] == {"short_range": 6, "screen": True, "audible": False}


def test_s18_2_missing_optional_fields_take_start_of_turn_defaults():
    doc = base()
    for key in ("ruleset", "half", "turn", "to_move", "phase", "attack"):
        doc.pop(key)
    doc["pieces"][0]["since_turn"] = 1
    g = Game.from_json(doc)
    assert (g.half, g.turn, g.to_move, g.phase, g.attack, g.pa) == (1, 1, "N", "action", "S", 2)
    assert g.pb == {"S": {"atk": 0, "def": 0}, "N": {"atk": 0, "def": 0}}
    assert g.to_json()["restricted"] == []


def piece(doc, k):
    return doc["pieces"][k]


PB0, PB1 = {"atk": 0, "def": 0}, {"atk": 1, "def": 0}
PENDING = {"phase": "steal", "ball": {"carrier": "N:X1"}}
JOKER = {"S": {"hand": ["joker"]}, "N": {}}

# (name, mutation, field the message must start with)
FAULTS = [
    ("format", lambda d: d.update(format="ball/2"), "format"),
    ("unknown-field", lambda d: d.update(colour="red"), "colour"),
    ("ruleset-missing", lambda d: d.update(ruleset="nope"), "ruleset"),
    ("ruleset-type", lambda d: d.update(ruleset=3), "ruleset"),
    ("half", lambda d: d.update(half=3), "half"),
    ("half-type", lambda d: d.update(half="1"), "half"),
    ("turn", lambda d: d.update(turn=0), "turn"),
    ("to_move", lambda d: d.update(to_move="E"), "to_move"),
    ("attack", lambda d: d.update(attack=None), "attack"),
    ("phase", lambda d: d.update(phase="lunch"), "phase"),
    ("pa", lambda d: d.update(pa=-1), "pa"),
    ("pa-bool", lambda d: d.update(pa=True), "pa"),
    ("pe-keys", lambda d: d.update(pe={"S": 0}), "pe"),
    ("pe-outside-pe-mode", lambda d: d.update(pe={"S": 1, "N": 0}), "pe"),
    ("pieces-type", lambda d: d.update(pieces={}), "pieces"),
    ("pieces-absent", lambda d: d.pop("pieces"), "pieces"),
    ("piece-type", lambda d: d["pieces"].__setitem__(3, "X"), "pieces[3]"),
    ("piece-key", lambda d: piece(d, 3).update(colour="red"), "pieces[3].colour"),
    ("piece-side", lambda d: piece(d, 3).update(side="W"), "pieces[3].side"),
    ("piece-id", lambda d: piece(d, 3).update(id="X9"), "pieces[3].id"),
    ("piece-kind", lambda d: piece(d, 3).update(kind="Q"), "pieces[3].kind"),
    ("piece-twice", lambda d: d["pieces"].append(dict(piece(d, 3), at="K13")), "pieces[14].id"),
    ("piece-state", lambda d: piece(d, 3).update(state="asleep"), "pieces[3].state"),
    ("piece-unplayable", lambda d: piece(d, 3).update(at="B1"), "pieces[3].at"),
    ("piece-off-board", lambda d: piece(d, 3).update(at="N3"), "pieces[3].at"),
    ("piece-at-type", lambda d: piece(d, 3).update(at=7), "pieces[3].at"),
    ("piece-missing", lambda d: d["pieces"].pop(3), "pieces"),
    ("since-future", lambda d: piece(d, 0).update(since_turn=9), "pieces[0].since_turn"),
    ("since-not-top", lambda d: piece(d, 3).update(since_turn=1), "pieces[3].since_turn"),
    ("was-value", lambda d: piece(d, 1).update(was="top"), "pieces[1].was"),
    ("was-not-bottom", lambda d: piece(d, 3).update(was="down"), "pieces[3].was"),
    ("lonely-top", lambda d: piece(d, 3).update(state="top"), "pieces (on "),
    ("two-actives", lambda d: piece(d, 3).update(at="K9"), "pieces (on K9)"),
    ("three-on-square", lambda d: piece(d, 3).update(at="H10"), "pieces (on H10)"),
    ("ball-shape", lambda d: d.update(ball={}), "ball"),
    ("ball-both", lambda d: d.update(ball={"carrier": "S:X5", "at": "G9"}), "ball"),
    ("ball-absent", lambda d: d.pop("ball"), "ball"),
    ("carrier-label", lambda d: d.update(ball={"carrier": "X5"}), "ball.carrier"),
    ("carrier-down", lambda d: d.update(ball={"carrier": "S:X3"}), "ball.carrier"),
    ("carrier-bottom", lambda d: d.update(ball={"carrier": "N:X3"}), "ball.carrier"),
    ("ball-on-piece", lambda d: d.update(ball={"at": "H10"}), "ball.at"),
    ("ball-unplayable", lambda d: d.update(ball={"at": "H11"}), "ball.at"),
    ("restricted-type", lambda d: d.update(restricted="S:X1"), "restricted"),
    ("restricted-item", lambda d: d.update(restricted=["S:Z1"]), "restricted[0]"),
    ("pb-dual", lambda d: d.update(pb={"S": PB1, "N": PB0}), "pb"),
    ("pb-shape", lambda d: d.update(pb={"S": {"atk": 1}, "N": {"atk": 0, "def": 1}}), "pb.S"),
    ("two-touchdowns", lambda d: d.update(score={"S": 1, "N": 1}), "score"),
    ("cards-off", lambda d: d.update(cards={}), "cards"),
    ("steal-outside", lambda d: d.update(steal={"by": "S"}), "steal"),
    ("steal-no-stealer", lambda d: d.update(phase="steal"), "phase"),
    ("steal-by", lambda d: d.update(PENDING, steal={"by": "S"}), "steal.by"),
    ("steal-resume", lambda d: d.update(PENDING, steal={"resume": "over"}), "steal.resume"),
    ("card-name", lambda d: d.update(ruleset="cards", cards=JOKER), "cards.S.hand"),
    ("effect-type", lambda d: d.update(ruleset="cards", effects={"screen": 1}), "effects.screen"),
    ("recovery_owed", lambda d: d.update(ruleset="cards", recovery_owed="Q"), "recovery_owed"),
]  # fmt: skip


@pytest.mark.parametrize(("mutate", "field"), [f[1:] for f in FAULTS], ids=[f[0] for f in FAULTS])
def test_s18_2_each_fault_is_rejected_naming_the_field(mutate, field):
    doc = base()
    mutate(doc)
    with pytest.raises(InvalidPosition) as err:
        Game.from_json(doc)
    assert str(err.value).startswith(f"{field}") and ":" in str(err.value), str(err.value)


def test_s18_2_a_document_must_be_an_object():
    with pytest.raises(InvalidPosition, match="^document: expected a JSON object"):
        Game.from_json([1, 2])


NESTED = [
    ("score.S", lambda d: d.update(score={"S": 2, "N": 0})),
    ("pe.S", lambda d: d.update(ruleset="pe", pe={"S": -1, "N": 0})),
    ("pb.S.atk", lambda d: d.update(pb={"S": {"atk": "x", "def": 0}, "N": {"atk": 0, "def": 0}})),
    ("pieces[0].since_turn", lambda d: piece(d, 0).update(since_turn="x")),
    ("effects.short_range", lambda d: d.update(ruleset="cards", effects={"short_range": "far"})),
    (
        "steal.pb",
        lambda d: d.update(PENDING, steal={"pb": 5}),
    ),
]


@pytest.mark.parametrize(("field", "mutate"), NESTED, ids=[n[0] for n in NESTED])
def test_s18_2_nested_number_faults_name_the_full_path(field, mutate):
    doc = base()
    mutate(doc)
    with pytest.raises(InvalidPosition, match=f"^{re.escape(field)}: "):
        Game.from_json(doc)


def test_s18_2_recover_phase_needs_card_mode():
    doc = base()
    doc["phase"] = "recover"
    with pytest.raises(InvalidPosition, match="^phase: "):
        Game.from_json(doc)


# --- §18.1 action text --------------------------------------------------------------------


def test_s18_1_legal_actions_are_sorted_canonical_strings():
    legal = Game.new().legal_actions()
    assert legal == sorted(legal)
    canonical = re.compile(r"^(end|[A-M]\d{1,2}([-=@~/>x][A-M]\d{1,2})+)$")
    assert all(canonical.match(a) for a in legal), legal


def test_s18_1_parsing_is_case_insensitive_and_tolerates_spacing():
    g = position({"S:X3": ("G9", "down")}, phase="release", pa=0)
    g.apply("  UP   g9-h10 ")
    g2 = position({"S:X1": "G9", "N:X3": "H10"})
    g2.apply("g9Xi11>I9")
    assert g2.to_json()["pieces"][0]["at"] == "I11"


@pytest.mark.parametrize(
    "text",
    ["", "G7", "G7-", "G7-H8-I9", "Z7-H8", "move G7 H8", "G7-H8/", "split D8", "card"],
)
def test_s18_1_unparseable_text_is_an_illegal_action_saying_so(text):
    with pytest.raises(IllegalAction) as err:
        Game.new().apply(text)
    message = str(err.value)
    assert message and "\n" not in message


def test_s18_1_unplayable_squares_in_text_are_named():
    with pytest.raises(IllegalAction, match="G8 is not a playable"):
        Game.new().apply("G8-H8")
    with pytest.raises(IllegalAction, match="is not an action"):
        Game.new().apply("dance")


def test_s3_no_pa_left():
    g = position({"S:X1": "G9"}, pa=0)
    with pytest.raises(IllegalAction, match="no PA left"):
        g.apply("G9-H10")


def test_illegal_actions_leave_the_game_unchanged():
    g = Game.new()
    before = g.to_json()
    for bad in ("G7-H8", "D10-D12", "split D10 C9 E9", "continue", "recover -", "xyz"):
        with pytest.raises(IllegalAction):
            g.apply(bad)
    assert g.to_json() == before


@pytest.mark.parametrize(
    "fields",
    [{"score": {"S": 1, "N": 0}}, {"phase": "over", "pa": 0}],
    ids=["touchdown-but-running", "over-without-touchdown"],
)
def test_d11_score_and_phase_must_agree(fields):
    """D-11: a touchdown ends the half at once, so one touchdown ⇔ phase 'over'."""
    doc = base()
    doc.update(fields)
    with pytest.raises(InvalidPosition, match="^(score|phase)"):
        Game.from_json(doc)
