"""Xiangqi PGN (issue 16): tags, moves in each notation, comments, the arbiter's rulings;
write → read → write identical on generated games; faults named by line and column; replay
through the engine naming the first illegal move; a published game read to its final FEN."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ball.games.xiangqi.engine import Color, Position
from ball.games.xiangqi.engine.notation import Notation
from ball.games.xiangqi.engine.pgn import PgnError, XiangqiRecord, from_game, read, write

from .positions import random_game, random_position

# The 1982 Chinese national championship game Liu Dahua – Yang Guanlin as published (ICCS)
# in the xiangqi.js README (github.com/lengyanyu258/xiangqi.js), with the final FEN it gives.
LIU_YANG = """[Game "Chinese Chess"]
[Event "1982年全国赛"]
[Date "1982.12.11"]
[Red "柳大华"]
[Black "杨官璘"]
[Result "1/2-1/2"]
[Format "ICCS"]

1. b2e2 b9c7 2. b0c2 a9b9 3. a0b0 h9g7
4. g3g4 c6c5 5. b0b6 b7a7 6. b6c6 a7a8
7. h0g2 f9e8 8. h2i2 a8c8 9. c6d6 c7b5
10. i0h0 i9h9 11. c2e1 c5c4 12. d6d5 c8c3
13. h0h6 b5d4 14. e2c2 b9b7 15. c2c4 b7d7
16. g2f4 h7i7 17. h6g6 h9h2 18. g4g5 c3b3
19. g5f5 b3b0 20. e1g2 d4f5 21. f0e1 h2h6
22. d5c5 c9a7 23. g6h6 a7c5 24. h6h3 b0b3
25. e3e4 b3b4 26. g0e2 b4e4 27. i2i1 i7i8
28. i1g1 i8g8 29. c4c2 d7f7 30. c2b2 c5a7
31. h3c3 f7b7 32. b2c2 b7f7 33. c2b2 f7b7
34. b2a2 b7f7 35. a2a6 f5h4 36. a6b6 g9e7
37. g1f1 h4f3 38. b6b3 f3g1 39. e0f0 g7f5
40. c3e3 e6e5 41. b3b1 f7f6 42. e3g3 g8f8
43. f1f2 g1i0 44. g3h3 f8f9 45. b1b5 i0g1
46. h3h5 a7c5 47. b5e5 e4b4 48. a3a4 b4b3
49. f2f3 b3b2 50. e1d2 b2b0 51. f0f1 b0d0
52. a4a5 d0g0 53. f1e1 g0g2 54. f3f5 f9f5
55. f4g2 f6b6 56. e1f1 f5f9 57. h5h1 b6e6
58. e5d5 e8f7 59. f1e1 e6b6 60. a5b5 b6a6
61. b5a5 a6b6 62. a5b5 b6a6 63. b5a5 1/2-1/2
"""
LIU_YANG_END = "3akc3/9/4ba3/r7p/P1bC5/9/8P/3AB1N2/4K1nR1/2B6 b - - 16 63"


def test_a_published_game_replays_to_its_final_position() -> None:
    record = read(LIU_YANG)
    assert record.tags["Red"] == "柳大华" and record.tags["Event"] == "1982年全国赛"
    assert record.result == "1/2-1/2" and record.notation is Notation.ICCS
    game = record.game()
    assert len(game.moves) == 125
    assert game.position.fen() == LIU_YANG_END


@pytest.mark.parametrize("fmt", list(Notation))
def test_the_published_game_in_every_notation(fmt: Notation) -> None:
    record = read(LIU_YANG)
    other = record.converted(fmt)
    assert other.tags["Format"] == {"iccs": "ICCS", "wxf": "WXF", "chinese": "Chinese"}[fmt]
    again = read(write(other))
    assert again.game().position.fen() == LIU_YANG_END
    assert again.converted("iccs").moves == record.moves


def test_the_chinese_record_of_seed_7_5() -> None:
    text = '[Game "Chinese Chess"]\n[Format "Chinese"]\n\n1. 炮二平五 馬８進７ *\n'
    record = read(text)
    assert [m.iccs() for m in record.game().moves] == ["h2e2", "h9g7"]
    assert record.converted("wxf").moves == ["C2=5", "H8+7"]


def _record(seed: int, fmt: Notation, from_start: bool) -> XiangqiRecord:
    rng = random.Random(seed)
    start = None if from_start else random_position(rng)
    game = random_game(rng, rng.randint(0, 60), start)
    record = from_game(
        game, fmt, {"Event": 'Ev "quoted" \\ name', "Round": "3", "Red": "甲", "Black": "乙"}
    )
    for ply in sorted(rng.sample(range(len(game.moves) + 1), min(3, len(game.moves) + 1))):
        record.comments[ply] = f"note {ply}: 好棋"
    if game.moves:
        record.add_ruling("*", "perpetual-check", "Red must change (4.1.7)", ply=len(game.moves))
    record.result = rng.choice(["1-0", "0-1", "1/2-1/2", "*"])
    return record


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(list(Notation)), st.booleans())
def test_write_read_write_is_identical(seed: int, fmt: Notation, from_start: bool) -> None:
    record = _record(seed, fmt, from_start)
    text = write(record)
    again = read(text)
    assert write(again) == text
    assert again.moves == record.moves and again.comments == record.comments
    assert again.rulings == record.rulings and again.result == record.result
    assert again.game().moves == record.game().moves


def test_rulings_and_comments_are_read() -> None:
    text = """[Game "Chinese Chess"]
[Red "A"]
[Ruling "0-1 perpetual-check Red chased for the third time"]

{the opening} 1. h2e2 {central cannon} h9g7 2. h0g2
{ruling: * perpetual-check Red must change (4.1.7)} {a second note} 0-1
"""
    record = read(text)
    assert record.comments == {0: "the opening", 1: "central cannon", 3: "a second note"}
    assert record.rulings == [
        {"ply": None, "result": "0-1", "reason": "perpetual-check",
         "detail": "Red chased for the third time"},
        {"ply": 3, "result": "*", "reason": "perpetual-check", "detail": "Red must change (4.1.7)"},
    ]  # fmt: skip
    assert read(write(record)) == record


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ('[Game "Chinese Chess"]\n\n1. h2e2 {never closed\n', 3, 9, "never closed"),
        ('[Game "Chinese Chess"]\n\n1. h2e2 h9g7 [Red "x"] *\n', 3, 14, "after the moves"),
        ('[Game "Chinese Chess"]\n[Format "SAN"]\n\n*\n', 2, 1, "Format"),
        ('[Game "Chess"]\n\n*\n', 1, 1, "Chinese Chess"),
        ('[Game "Chinese Chess"]\n[FEN "9/9 w"]\n\n*\n', 2, 1, "FEN"),
        ('[Game "Chinese Chess"]\n\n1. h2e2 h9g7 3. h0g2 *\n', 3, 14, "move number 3"),
        ('[Game "Chinese Chess"]\n[Result "1-0"]\n\n1. h2e2 0-1\n', 4, 9, "differs"),
        ('[Game "Chinese Chess"]\n\n1. h2e2 {ruling: 2-0 win} *\n', 3, 9, "ruling result"),
        ('[Red "a\\x"]\n\n*\n', 1, 8, "unknown escape"),
        ('[Red "a]\n\n*\n', 1, 6, "never closed"),
        ('[Red "a" \n\n*\n', 3, 1, "expected ']'"),
        ('[Game "Chinese Chess"]\n[Game "Chinese Chess"]\n\n*\n', 2, 1, "twice"),
        ('[Game "Chinese Chess"]\n\n1. h2e2 } *\n', 3, 9, "unexpected '}'"),
        ('[Game "Chinese Chess"]\n\n1... h2e2 *\n', 3, 1, "Black move"),
    ],
)
def test_faults_name_line_and_column(text: str, line: int, column: int, words: str) -> None:
    with pytest.raises(PgnError) as info:
        read(text)
    assert (info.value.line, info.value.column) == (line, column), str(info.value)
    assert words in str(info.value)


@pytest.mark.parametrize(
    ("moves", "fmt", "line", "column", "words"),
    [
        ("1. h2e2 h9g7\n2. h0g2 i9i1 *", "ICCS", 5, 9, "move 2 (black) i9i1"),
        ("1. C2=5 H8+7\n2. H2+3 R9+9 *", "WXF", 5, 9, "move 2 (black) R9+9"),
        ("1. 炮二平五 馬8進7\n2. 傌二進四 *", "Chinese", 5, 4, "move 2 (red) 傌二進四"),
        ("1. h2e2 h9g7 2. h0g2 i9i1x *", "ICCS", 4, 22, "i9i1x"),
    ],
)
def test_replay_names_the_first_bad_move(
    moves: str, fmt: str, line: int, column: int, words: str
) -> None:
    record = read(f'[Game "Chinese Chess"]\n[Format "{fmt}"]\n\n{moves}\n')
    with pytest.raises(PgnError) as info:
        record.game()
    assert (info.value.line, info.value.column) == (line, column), str(info.value)
    assert words in str(info.value)


def test_a_record_from_a_position() -> None:
    fen = "3k5/9/9/2P6/2P6/2P6/9/9/9/4K4 b - - 0 30"
    game = random_game(random.Random(3), 6, Position.from_fen(fen))
    text = write(from_game(game, "wxf"))
    assert f'[FEN "{fen}"]' in text and "30..." in text
    assert read(text).game().position == game.position


def test_rulings_added_in_code_read_back_equal() -> None:
    game = random_game(random.Random(5), 8)
    record = from_game(game, "chinese", {"Result": "0-1", "RedTeam": "北京", "BlackTeam": "上海"})
    record.add_ruling("*", "perpetual-chase", "Black must change", ply=4)
    record.add_ruling("0-1", "perpetual-check", "Red did not change (4.1.7)", ply=None)
    assert record.result == "0-1" and "Result" not in record.tags
    text = write(record)
    assert '[Ruling "0-1 perpetual-check Red did not change (4.1.7)"]' in text
    assert "{ruling: * perpetual-chase Black must change}" in text
    assert read(text) == record
    with pytest.raises(ValueError, match="ruling result"):
        record.add_ruling("2-0", "x")


def test_numeric_annotations_and_line_comments_are_skipped() -> None:
    text = '[Game "Chinese Chess"]\n\n1.h2e2 $1 h9g7 ; a rest-of-line note\n2. h0g2 $14 *\n'
    record = read(text)
    assert record.moves == ["h2e2", "h9g7", "h0g2"] and record.comments == {}


ARBITER_GAME = """[Game "Chinese Chess"]
[Red "A"]
[Black "B"]
[Result "0-1"]

1. h2e2 {log: 0:01:10 red touch 5.1 - must move h0} h9g7
2. h0g2 {log: 0:15:00 red foul 9.1.2 stopped the clock} i9h9
{log: 0:20:00 red missed 4 [0:30:00] four moves not written} 3. i0h0
{log: 0:25:00 red foul 9.1.1 distracted the opponent} 0-1
"""


def test_the_arbiters_log_rides_in_the_record() -> None:
    record = read(ARBITER_GAME)
    assert [ply for ply, _ in record.log] == [1, 3, 4, 5]
    state = record.log_state()
    assert state.fouls[Color.RED] == 3
    assert state.ending is not None and state.ending.result == record.result == "0-1"
    assert read(write(record)) == record
    assert write(record.converted("wxf")).count("{log: ") == 4
    with pytest.raises(PgnError, match="line 6, column 9: log entry: side .reed."):
        read(ARBITER_GAME.replace("red touch", "reed touch"))


def test_without_a_format_tag_each_move_is_detected() -> None:
    record = read('[Game "Chinese Chess"]\n\n1. 炮二平五 马８进７ 2. H2+3 i9h9 *\n')
    assert record.notation is Notation.CHINESE
    assert [m.iccs() for m in record.game().moves] == ["h2e2", "h9g7", "h0g2", "i9h9"]
    assert read('[Format "WXF"]\n\n1. h2e2 *\n').notation is Notation.WXF
    with pytest.raises(PgnError, match="not a WXF move"):
        read('[Format "WXF"]\n\n1. h2e2 *\n').game()
