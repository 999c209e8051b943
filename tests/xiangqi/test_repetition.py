"""Repetition rulings on named cases, one per article of seed §24–§27 and per definition of
§28 (seed 004, the Chinese competition rules), each built from a FEN and ICCS moves played
until the start position has come about three times; and the AXF reading where it differs
(docs/rules-decisions.md X-30..X-39)."""

from __future__ import annotations

import pytest

from ball.games.xiangqi.engine import (
    Color,
    Game,
    Kind,
    Move,
    Piece,
    XiangqiError,
    load_rules,
    rules_from_toml,
)
from ball.games.xiangqi.engine.repetition import (
    Category,
    Chased,
    ClassifiedMove,
    Ruling,
    classify,
    side_verdict,
    verdict,
)

# name: (FEN, one cycle of ICCS moves). Each is played twice: the FEN's position then stands
# for the third time with the same side to move.
CASES: dict[str, tuple[str, list[str]]] = {
    # 28.1 check; 26.1/24.1 one-sided perpetual check: the red rook checks on d and e files.
    "perpetual_check": ("4k4/9/9/9/3R5/9/9/9/9/5K3 w - - 0 1", ["d5e5", "e9d9", "e5d5", "d9e9"]),
    # 28.3 chase of an unprotected piece: the rook follows a lone cannon along the c-file.
    "chase_unprotected": ("5k3/9/9/2c6/R8/9/9/9/9/3K5 w - - 0 1", ["a5a6", "c6c5", "a6a5", "c5c6"]),
    # 28.3 + 25.3: a cannon chases a rook that the other rook protects (a rook is worth two
    # cannons, so winning it for the cannon gains even if it is taken back).
    "cannon_chases_protected_rook": (
        "2r2k3/9/9/1nr6/Cn7/9/9/9/9/3K5 w - - 0 1",
        ["a5a6", "c6c5", "a6a5", "c5c6"],
    ),
    # 28.5 exchange: the same pattern with a rook against the protected rook is an offer to
    # exchange equal pieces, an idle move.
    "rook_offers_exchange": (
        "2r2k3/9/9/1nr6/Rn7/9/9/9/9/3K5 w - - 0 1",
        ["a5a6", "c6c5", "a6a5", "c5c6"],
    ),
    # 28.5 exchange offer with no root on the target (issue 32.8): the red rook, protected by
    # the horse (d0-b0) or the king (b0-d0), steps beside the lone black rook, which can
    # take it first; the black rook steps away. Red offers rooks; nobody chases: a draw.
    "rook_offers_exchange_to_unrooted_rook": (
        "5k3/9/9/9/9/9/9/2N6/1r7/3RK4 w - - 0 1",
        ["d0b0", "b1d1", "b0d0", "d1b1"],
    ),
    # 28.8 follow: the rook attacks a cannon that the c9 rook protects: idle.
    "follow_rooted_piece": (
        "2r2k3/9/9/2c6/R8/9/9/9/9/3K5 w - - 0 1",
        ["a5a6", "c6c5", "a6a5", "c5c6"],
    ),
    # 28.16 false root: the same, but the red rook on a9 pins the protecting rook to its king
    # (leaving rank 9 would expose it), so the cannon counts as rootless: a chase.
    "chase_false_root": (
        "R1r2k3/9/9/2c6/R8/9/9/9/9/3K5 w - - 0 1",
        ["a5a6", "c6c5", "a6a5", "c5c6"],
    ),
    # 25.3: uncrossed pawns are not "pieces": the rook attacking the lone black pawns on c6
    # and e5 in turn chases nothing.
    "uncrossed_pawns_not_chased": (
        "5k3/9/9/2p6/R3p4/9/9/9/9/3K5 w - - 0 1",
        ["a5a6", "f9f8", "a6a5", "f8f9"],
    ),
    # 25.3: crossed pawns are: the same rook attacking the black pawns on c3 and e4 chases.
    "crossed_pawns_chased": (
        "5k3/9/9/9/9/4p4/R1p6/9/9/3K5 w - - 0 1",
        ["a3a4", "f9f8", "a4a3", "f8f9"],
    ),
    # 27.1: the king itself chasing an unprotected cannon counts as idle.
    "king_chase_idle": ("5k3/9/9/9/9/9/9/3c5/4K4/9 w - - 0 1", ["e1d1", "d2e2", "d1e1", "e2d2"]),
    # 27.1, second sentence: the king steps d1-e1-d1 and each time becomes the screen of a
    # cannon (e0, then d0) that then attacks the lone black horse: a chase made with the
    # king's help is a chase by the seed; AXF rule 28 lets the king help.
    "king_helps_cannon_chase": (
        "5k3/9/9/9/4n4/9/9/9/3K5/3CC4 w - - 0 1",
        ["d1e1", "e5d7", "e1d1", "d7e5"],
    ),
    # 28.5: the same with a black cannon: it can take the attacking cannon first over the
    # king (and the king takes back), so each king step offers an exchange of cannons: idle.
    "king_screens_cannon_exchange": (
        "5k3/9/9/9/4c4/9/9/9/3K5/3CC4 w - - 0 1",
        ["d1e1", "e5d5", "e1d1", "d5e5"],
    ),
    # 27.2: a pawn chasing a cannon counts as idle.
    "pawn_chase_idle": ("3k5/9/3c5/4P4/9/9/9/9/9/5K3 w - - 0 1", ["e6d6", "d7e7", "d6e6", "e7d7"]),
    # 25.2: one check one chase is forbidden (rook checks on f5, then chases the horse on a7).
    "one_check_one_chase": (
        "5k3/9/n8/9/R8/9/9/9/9/3K5 w - - 0 1",
        ["a5f5", "f9e9", "f5a5", "e9f9"],
    ),
    # 28.12: the rook chases the cannon on c6, then the cannon on c5: "one or several pieces".
    "chase_two_pieces_in_turn": (
        "5k3/9/9/2c6/R1c6/9/9/9/9/3K5 w - - 0 1",
        ["a5a6", "c6c7", "a6a5", "c7c6"],
    ),
    # 26.3 mutual perpetual check: each side answers a check with a check (the red horse
    # blocks the rook's check and uncovers its cannon's; the black cannon does the same).
    "mutual_perpetual_check": (
        "5k3/4r4/5c3/9/5N3/9/9/3N1C3/4K4/1R7 w - - 0 1",
        ["f5e3", "f7e7", "e3f5", "e7f7"],
    ),
    # 28.2 kill, 28.11 perpetual kill: the rook steps f3-e3-f3 and each time makes a new
    # threat of mate (behind the horse on the e-file: Ne6-c5 uncovering the rook; then Rf7
    # on the seventh rank); the black king steps e7-d7-e7 out of each.
    "perpetual_kill": (
        "9/9/4k4/p3N4/9/9/5R3/9/9/5K3 w - - 0 1",
        ["f3e3", "e7d7", "e3f3", "d7e7"],
    ),
    # 26.3 both forbidden: the rook chases the lone cannon, and each flight of the cannon
    # chases an unprotected crossed red pawn (h5, then g6) over a black pawn's screen.
    "mutual_chase": (
        "5k3/9/9/2c1p1P2/R3p2P1/9/9/9/9/3K5 w - - 0 1",
        ["a5a6", "c6c5", "a6a5", "c5c6"],
    ),
    # 26.1 with 26.3's exception: red checks on every move (the cannons take turns to be
    # screen and gun on the d-file), black answers each check by a rook move that chases a
    # red cannon. Both forbidden, but one-sided perpetual check loses all the same.
    "check_against_chase": (
        "3k5/9/1C7/1r7/9/9/9/3C5/9/3K5 w - - 0 1",
        ["b7d7", "b6d6", "d7b7", "d6b6"],
    ),
    # 26.2 / 24.2: horses going out and back on both sides: all idle.
    "both_idle": (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        ["b0c2", "b9c7", "c2b0", "c7b9"],
    ),
}


def play(name: str, cycles: int = 2, extra: int = 0) -> Game:
    fen, cycle = CASES[name]
    game = Game.from_fen(fen)
    for text in cycle * cycles + cycle[:extra]:
        game.push(Move.from_iccs(text))
    return game


def ruling(name: str, rules: str = "chinese", cycles: int = 2) -> Ruling:
    return play(name, cycles).ruling(load_rules(rules))


def categories(r: Ruling, color: Color) -> list[str]:
    return [str(m.category) for m in r.cycle if m.color is color]


def test_perpetual_check_loses_at_once_26_1_and_24_1() -> None:
    r = ruling("perpetual_check")
    assert (r.result, r.verdict, r.article) == ("0-1", "loss", "26.1")
    assert categories(r, Color.RED) == ["check"] * 4
    assert categories(r, Color.BLACK) == ["idle"] * 4
    assert r.ending is not None and r.ending.winner is Color.BLACK
    assert "perpetual check" in r.reason


def test_the_ruling_waits_for_the_third_occurrence_24() -> None:
    game = play("perpetual_check", cycles=1, extra=3)
    assert game.ruling().result == "*"
    assert game.outcome() is None
    game.push(Move.from_iccs("d9e9"))
    assert game.outcome() is not None and game.outcome().result == "0-1"  # type: ignore[union-attr]


def test_chase_of_an_unprotected_piece_must_change_then_loses_28_3_26_4_24_3() -> None:
    r = ruling("chase_unprotected")
    assert (r.result, r.verdict, r.article, r.must_change) == (
        "*",
        "must-change",
        "26.4",
        Color.RED,
    )
    chased = [(c.piece.kind, c.square) for m in r.cycle for c in m.chased]
    assert chased[:2] == [("cannon", 6 * 9 + 2), ("cannon", 5 * 9 + 2)]
    assert categories(r, Color.RED) == ["chase"] * 4
    assert categories(r, Color.BLACK) == ["idle"] * 4
    # 24.3: the cycle comes round once more without the change: red loses.
    again = ruling("chase_unprotected", cycles=3)
    assert (again.result, again.verdict, again.article) == ("0-1", "loss", "24.3")


def test_cannon_chasing_a_protected_rook_is_a_chase_28_3_25_3() -> None:
    r = ruling("cannon_chases_protected_rook")
    assert r.verdict == "must-change" and r.must_change is Color.RED
    first = r.cycle[0]
    assert first.category is Category.CHASE
    assert [(c.piece.kind, c.by) for c in first.chased] == [("rook", 6 * 9)]


def test_rook_against_protected_rook_is_an_exchange_hence_idle_28_5() -> None:
    r = ruling("rook_offers_exchange")
    assert (r.result, r.verdict, r.article) == ("1/2-1/2", "draw", "26.2")
    assert categories(r, Color.RED) == ["idle"] * 4


@pytest.mark.parametrize("rules", ["chinese", "axf"])
@pytest.mark.parametrize(
    "name", ["rook_offers_exchange_to_unrooted_rook", "king_screens_cannon_exchange"]
)
def test_an_offer_to_exchange_equal_pieces_is_idle_even_without_a_root_28_5(
    name: str, rules: str
) -> None:
    r = ruling(name, rules)
    assert (r.result, r.verdict, r.article) == ("1/2-1/2", "draw", "26.2")
    assert categories(r, Color.RED) == ["idle"] * 4
    # Under AXF the king's steps are idle for their own reason; the seed names 28.5.
    assert rules == "axf" or all("28.5" in m.note for m in r.cycle if m.color is Color.RED)


@pytest.mark.parametrize(
    ("name", "who"), [("king_chase_idle", "king"), ("pawn_chase_idle", "pawn")]
)
def test_king_and_pawn_chases_count_as_idle_27_1_27_2(name: str, who: str) -> None:
    r = ruling(name)
    assert (r.result, r.verdict, r.article) == ("1/2-1/2", "draw", "26.2")
    red = [m for m in r.cycle if m.color is Color.RED]
    assert all(m.category is Category.IDLE and who in m.note for m in red)


def test_a_chase_made_with_the_kings_help_27_1_and_axf_28() -> None:
    seed = ruling("king_helps_cannon_chase")
    assert categories(seed, Color.RED) == ["chase"] * 4
    assert [c.by for c in seed.cycle[0].chased] == [4]  # the e0 cannon, screened by the king
    assert (seed.verdict, seed.must_change) == ("must-change", Color.RED)
    axf = ruling("king_helps_cannon_chase", "axf")
    assert (axf.result, axf.verdict) == ("1/2-1/2", "draw")
    assert "king" in axf.cycle[0].note


def test_one_check_one_chase_is_forbidden_25_2() -> None:
    r = ruling("one_check_one_chase")
    assert categories(r, Color.RED) == ["check", "chase"] * 2
    assert r.sides[0].label == "one check one chase" and r.sides[0].forbidden
    assert (r.verdict, r.must_change, r.article) == ("must-change", Color.RED, "26.4")


def test_mutual_perpetual_check_is_a_draw_26_3() -> None:
    r = ruling("mutual_perpetual_check")
    assert (r.result, r.verdict, r.article) == ("1/2-1/2", "draw", "26.3")
    assert categories(r, Color.RED) == categories(r, Color.BLACK) == ["check"] * 4


def test_both_forbidden_is_a_draw_26_3() -> None:
    r = ruling("mutual_chase")
    assert categories(r, Color.RED) == categories(r, Color.BLACK) == ["chase"] * 4
    assert (r.result, r.verdict, r.article) == ("1/2-1/2", "draw", "26.3")
    black = [c.piece.kind for m in r.cycle if m.color is Color.BLACK for c in m.chased]
    assert black == ["pawn"] * 4
    # AXF 32: black chases two pawns in turn, which is allowed; red's chase of the one
    # cannon is not, so red must change.
    axf = ruling("mutual_chase", "axf")
    assert (axf.verdict, axf.must_change) == ("must-change", Color.RED)


def test_perpetual_check_against_perpetual_chase_loses_26_1_26_3() -> None:
    for rules in ("chinese", "axf"):
        r = ruling("check_against_chase", rules)
        assert categories(r, Color.RED) == ["check"] * 4
        assert categories(r, Color.BLACK) == ["chase"] * 4
        # The seed forbids black's chase of the two cannons in turn; AXF allows it.
        assert r.sides[1].forbidden is (rules == "chinese")
        assert (r.result, r.verdict, r.article) == ("0-1", "loss", "26.1")


def test_perpetual_check_loses_even_against_a_forbidden_chase_26_3() -> None:
    # 26.3 excepts one-sided perpetual check from "both forbidden is a draw" (26.1).
    rep = load_rules().repetition
    checks = side_verdict(Color.RED, _moves(Color.RED, Category.CHECK, Category.CHECK), rep)
    chases = side_verdict(Color.BLACK, _moves(Color.BLACK, Category.CHASE, Category.CHASE), rep)
    assert chases.forbidden and chases.label == "perpetual chase"
    kind, article, _, _, ending = verdict(checks, chases, 3, rep)
    assert (kind, article) == ("loss", "26.1")
    assert ending is not None and ending.result == "0-1"


def test_both_allowed_is_a_draw_26_2() -> None:
    r = ruling("both_idle")
    assert (r.result, r.verdict, r.article) == ("1/2-1/2", "draw", "26.2")
    assert r.ending is not None and str(r.ending.reason) == "repetition"


def test_chasing_two_pieces_in_turn_28_12_and_axf_32() -> None:
    chinese = ruling("chase_two_pieces_in_turn")
    chased = [c.square for m in chinese.cycle[:4] for c in m.chased]
    assert chased == [6 * 9 + 2, 5 * 9 + 2]  # the c6 cannon, then the c5 cannon
    assert (chinese.verdict, chinese.must_change) == ("must-change", Color.RED)
    axf = ruling("chase_two_pieces_in_turn", "axf")
    assert (axf.result, axf.verdict) == ("1/2-1/2", "draw")
    assert "different pieces" in axf.sides[0].label


def test_the_chased_piece_is_followed_through_the_cycle_for_axf() -> None:
    # The lone cannon flees c6 -> c5 -> c6: one and the same piece, so AXF still forbids.
    r = ruling("chase_unprotected", "axf")
    assert (r.verdict, r.must_change) == ("must-change", Color.RED)


def _moves(color: Color, *kinds: Category) -> list[ClassifiedMove]:
    return [ClassifiedMove(i + 1, color, Move(0, 1), k) for i, k in enumerate(kinds)]


def test_perpetual_kill_forbidden_by_the_seed_allowed_by_axf_25_2_28_11() -> None:
    seed = ruling("perpetual_kill")
    assert categories(seed, Color.RED) == ["kill"] * 4
    assert (seed.verdict, seed.must_change, seed.article) == ("must-change", Color.RED, "26.4")
    assert seed.sides[0].label == "perpetual kill"
    axf = ruling("perpetual_kill", "axf")
    assert (axf.result, axf.verdict, axf.article) == ("1/2-1/2", "draw", "26.2")


def test_kill_verdicts_per_rule_set() -> None:
    kills = _moves(Color.RED, Category.KILL, Category.KILL)
    seed = side_verdict(Color.RED, kills, load_rules("chinese").repetition)
    axf = side_verdict(Color.RED, kills, load_rules("axf").repetition)
    assert (seed.forbidden, seed.label) == (True, "perpetual kill")
    assert not axf.forbidden


def test_a_kill_that_also_chases_is_forbidden_under_axf_too() -> None:
    # AXF allows perpetual kills, but a move that is both kill and chase is judged by its
    # forbidden side: the same cannon chased on every move stays forbidden.
    cannon = Chased(Piece(Color.BLACK, Kind.CANNON), 50, 48, 50)
    moves = [
        ClassifiedMove(i + 1, Color.RED, Move(0, 1), Category.KILL, (cannon,)) for i in range(2)
    ]
    for name in ("chinese", "axf"):
        v = side_verdict(Color.RED, moves, load_rules(name).repetition)
        assert (v.forbidden, v.label) == (True, "perpetual kill")


def test_one_check_one_idle_is_allowed_25_2() -> None:
    v = side_verdict(
        Color.RED, _moves(Color.RED, Category.CHECK, Category.IDLE), load_rules().repetition
    )
    assert (v.forbidden, v.label) == (False, "one check one idle")


def test_a_move_threatening_mate_is_a_kill_28_2() -> None:
    # The red king steps to the e-file: the black advisor on e8 is pinned by the facing
    # kings (4.1.2), so Ra9 would be mate. Not a check, but a threat of mate: a kill.
    game = Game.from_fen("4k4/4a4/9/9/9/9/9/R8/9/3K5 w - - 0 1")
    game.push(Move.from_iccs("d0e0"))
    category, chased, _ = classify(
        game.positions[0], game.moves[0], game.position, {}, load_rules().repetition
    )
    assert category is Category.KILL and not chased


def test_a_mate_already_on_the_board_is_no_moves_kill_x31() -> None:
    # Red can play Rd3 mate at once; stepping the rook to b5 (threatening Rd5 mate) makes
    # no new threat, so it is no kill (and not a chase either).
    game = Game.from_fen("9/3k5/9/9/9/7C1/1R7/9/2C6/4K4 w - - 0 1")
    game.push(Move.from_iccs("b3b5"))
    rep = load_rules().repetition
    category, _, _ = classify(game.positions[0], game.moves[0], game.position, {}, rep)
    assert category is Category.IDLE


def test_kill_depth_is_data() -> None:
    deeper = rules_from_toml("[repetition]\nkill_moves = 2\n")
    assert (deeper.repetition.kill_moves, load_rules().repetition.kill_moves) == (2, 1)
    with pytest.raises(XiangqiError, match="kill_moves must be a whole number 1..3"):
        rules_from_toml("[repetition]\nkill_moves = 9\n")


def test_as_dict_carries_result_reason_and_cycle() -> None:
    doc = ruling("chase_unprotected").as_dict()
    assert doc["result"] == "*" and doc["must_change"] == "red"
    assert doc["cycle"][0] == {
        "ply": 1,
        "side": "red",
        "move": "a5a6",
        "category": "chase",
        "chased": [{"piece": "cannon", "color": "black", "square": "c6", "by": "a6"}],
    }
    assert doc["sides"]["red"]["label"] == "perpetual chase"
    assert set(Game().ruling().as_dict()) == {"result", "reason", "article", "rules", "verdict"}


def test_repetition_table_is_checked() -> None:
    with pytest.raises(XiangqiError, match="unknown key 'ocurrences'"):
        rules_from_toml("[repetition]\nocurrences = 3\n")
    with pytest.raises(XiangqiError, match="26.1"):
        rules_from_toml('[repetition]\nforbidden = ["chase"]\n')
    with pytest.raises(XiangqiError, match="piece kinds"):
        rules_from_toml('[repetition]\nidle_attackers = ["queen"]\n')
    with pytest.raises(XiangqiError, match="values"):
        rules_from_toml("[repetition.values]\nking = 3\n")
    custom = rules_from_toml("[repetition]\nchange_chances = 0\n")
    game = play("chase_unprotected")
    assert game.ruling(custom).result == "0-1"
