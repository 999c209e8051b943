"""Game endings (seed §4) and the per-event rules data: checkmate (4.1.1), no legal move
(3.2, 4.1.3), the natural-move limit (4.2.4, a per-event number), agreement (4.2.2),
resignation (4.1.9), loss on time (4.1.4), losses declared by the arbiter (4.1.5-4.1.10);
the game document that carries the move history for repetition rulings."""

from __future__ import annotations

import pytest

from ball.games.xiangqi.engine import (
    ARBITER_ARTICLES,
    Color,
    EndReason,
    Game,
    Move,
    Position,
    XiangqiError,
    XiangqiRules,
    agreement,
    arbiter_loss,
    load_rules,
    loss_on_time,
    resignation,
    rules_from_toml,
    shipped_rules,
)


def test_checkmate_loses_for_the_side_to_move() -> None:
    ending = Game.from_fen("R2k5/R8/9/9/9/9/9/9/9/4K4 b").outcome()
    assert ending is not None
    assert (ending.result, ending.reason, ending.article) == ("1-0", EndReason.CHECKMATE, "4.1.1")
    assert ending.winner is Color.RED


def test_no_legal_move_loses_even_without_check() -> None:
    # Seed 3.2 and 4.1.3: being unable to move is a loss, not a draw as in chess.
    ending = Game.from_fen("3k5/4R4/9/9/9/9/9/9/9/5K3 b").outcome()
    assert ending is not None
    assert (ending.result, ending.reason, ending.article) == (
        "1-0",
        EndReason.NO_LEGAL_MOVE,
        "4.1.3",
    )


def test_red_can_be_the_one_without_a_move() -> None:
    ending = Game.from_fen("5k3/9/9/9/9/9/9/9/4r4/3K5 w").outcome()
    assert ending is not None and ending.result == "0-1" and ending.winner is Color.BLACK


def test_play_goes_on_from_the_start() -> None:
    assert Game().outcome() is None


# --- 4.2.4 the natural-move limit -------------------------------------------------------------

QUIET = "3k5/9/9/9/9/9/9/9/4A4/5K3 w - - {clock} 70"


def test_natural_move_limit_is_sixty_moves_each_by_default() -> None:
    rules = load_rules("chinese")
    assert rules.natural_move_limit == 60 and rules.natural_move_plies == 120
    game = Game.from_fen(QUIET.format(clock=119))
    assert game.outcome(rules) is None
    game.push(Move.from_iccs("e1d2"))
    ending = game.outcome(rules)
    assert ending is not None
    assert (ending.result, ending.reason, ending.article) == (
        "1/2-1/2",
        EndReason.NATURAL_MOVE_LIMIT,
        "4.2.4",
    )


def test_a_capture_resets_the_natural_move_count() -> None:
    game = Game.from_fen("3k5/9/9/9/9/9/9/3p5/4A4/5K3 w - - 119 70")
    game.push(Move.from_iccs("e1d2"))  # the advisor takes the pawn
    assert game.position.halfmove_clock == 0
    assert game.outcome() is None


def test_the_limit_is_a_per_event_parameter() -> None:
    # The seed allows a lower number by level of competition: 40 moves each = 80 plies.
    rules = rules_from_toml('name = "junior"\n[natural_moves]\nlimit = 40\n')
    assert Game.from_fen(QUIET.format(clock=79)).outcome(rules) is None
    ending = Game.from_fen(QUIET.format(clock=80)).outcome(rules)
    assert ending is not None and ending.reason is EndReason.NATURAL_MOVE_LIMIT
    assert "40 moves" in ending.detail
    # 0 switches the limit off.
    off = rules_from_toml("[natural_moves]\nlimit = 0\n")
    assert Game.from_fen(QUIET.format(clock=500)).outcome(off) is None


def test_checkmate_on_the_last_natural_move_still_wins() -> None:
    ending = Game.from_fen("R2k5/R8/9/9/9/9/9/9/9/4K4 b - - 130 80").outcome()
    assert ending is not None and ending.reason is EndReason.CHECKMATE


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("natural_moves = 3", "must be a table"),
        ("[natural_moves]\nlimit = -1", "limit must be"),
        ("[natural_moves]\nlimit = true", "limit must be"),
        ("[natural_moves]\nlimt = 40", "unknown key 'limt'"),
        ("[natural_move]\nlimit = 40", "unknown key 'natural_move'"),
        ("name = 3", "name must be a string"),
        ("[natural_moves", "not valid TOML"),
    ],
)
def test_rules_file_faults_are_named(text: str, fault: str) -> None:
    with pytest.raises(XiangqiError) as info:
        rules_from_toml(text)
    assert fault in str(info.value)


def test_shipped_rules() -> None:
    assert "chinese" in shipped_rules()
    assert load_rules() == XiangqiRules(natural_move_limit=60)
    with pytest.raises(XiangqiError, match="no Xiangqi rules named 'nope'"):
        load_rules("nope")


# --- administrative endings -------------------------------------------------------------------


def test_agreement_is_a_draw() -> None:
    e = agreement()
    assert (e.result, e.reason, e.article, e.winner) == (
        "1/2-1/2",
        EndReason.AGREEMENT,
        "4.2.2",
        None,
    )


def test_resignation_and_time_lose_for_the_named_side() -> None:
    r = resignation(Color.RED)
    assert (r.result, r.reason, r.article) == ("0-1", EndReason.RESIGNATION, "4.1.9")
    t = loss_on_time(Color.BLACK)
    assert (t.result, t.reason, t.article, t.winner) == ("1-0", EndReason.TIME, "4.1.4", Color.RED)


def test_arbiter_loss_names_its_article() -> None:
    for article in ARBITER_ARTICLES:
        e = arbiter_loss(Color.BLACK, article)
        assert (e.result, e.reason, e.article) == ("1-0", EndReason.ARBITER, article)
        assert e.detail == ARBITER_ARTICLES[article]
    assert arbiter_loss(Color.RED, "4.1.8", "three fouls").detail == "three fouls"
    with pytest.raises(XiangqiError, match="4.1.9"):
        arbiter_loss(Color.RED, "4.1.9")  # resignation is the player's own declaration


# --- the game and its document ----------------------------------------------------------------


def test_game_keeps_every_position_for_repetition_rulings() -> None:
    game = Game()
    for text in ("b0c2", "b9c7", "c2b0", "c7b9"):
        game.push(Move.from_iccs(text))
    keys = game.keys()
    assert len(keys) == len(game.positions) == 5
    assert keys[0] == keys[4] and keys[1] != keys[0]
    assert game.position.fen().startswith(Position.start().fen().split()[0])


def test_illegal_push_leaves_the_game_unchanged() -> None:
    game = Game()
    with pytest.raises(XiangqiError):
        game.push(Move.from_iccs("e0e2"))
    assert game.moves == [] and len(game.positions) == 1


def test_document_round_trip() -> None:
    game = Game()
    for text in ("h2e2", "h9g7", "h0g2"):
        game.push(Move.from_iccs(text))
    doc = game.to_document()
    assert doc["moves"] == ["h2e2", "h9g7", "h0g2"]
    again = Game.from_document(doc)
    assert again.position == game.position and again.moves == game.moves


FMT = "ball-xiangqi-game/1"
START = Position.start().fen()


@pytest.mark.parametrize(
    ("doc", "fault"),
    [
        ([], "must be an object"),
        ({"format": "x"}, "format"),
        ({"format": FMT, "start": 3, "moves": []}, "'start'"),
        ({"format": FMT, "start": "x w", "moves": []}, "ranks"),
        (
            {"format": FMT, "start": START, "moves": "h2e2"},
            "'moves'",
        ),
        (
            {"format": FMT, "start": START, "moves": ["h2e3"]},
            "move 1",
        ),
        (
            {
                "format": FMT,
                "start": Position.start().fen(),
                "moves": [],
                "fen": "x",
            },
            "does not match",
        ),
    ],
)
def test_document_faults_are_named(doc: object, fault: str) -> None:
    with pytest.raises(XiangqiError) as info:
        Game.from_document(doc)
    assert fault in str(info.value)


def test_a_declared_ending_ends_the_game_and_travels_in_the_document() -> None:
    game = Game()
    game.push(Move.from_iccs("h2e2"))
    game.declare(resignation(Color.BLACK))
    assert game.outcome() == resignation(Color.BLACK)
    with pytest.raises(XiangqiError, match="game is over"):
        game.push(Move.from_iccs("h9g7"))
    with pytest.raises(XiangqiError, match="already ended"):
        game.declare(agreement())
    again = Game.from_document(game.to_document())
    assert again.declared == resignation(Color.BLACK) and again.moves == game.moves


@pytest.mark.parametrize(
    ("ending", "fault"),
    [
        ("x", "must be an object"),
        ({"result": "2-0", "reason": "time"}, "'result'"),
        ({"result": "1-0", "reason": "boredom"}, "'reason'"),
        ({"result": "1-0", "reason": "time", "article": 4}, "must be strings"),
    ],
)
def test_document_ending_faults_are_named(ending: object, fault: str) -> None:
    doc = {"format": FMT, "start": START, "moves": [], "ending": ending}
    with pytest.raises(XiangqiError) as info:
        Game.from_document(doc)
    assert fault in str(info.value)
