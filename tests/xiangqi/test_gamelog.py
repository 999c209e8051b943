"""The arbiter's game log (issue 16; seed §5, §7, §8, §9, 4.1.8): touch-move obligations decided
with the engine, fouls counted to the loss of the third, missed record moves turned into fouls
(7.1) unless the player has under three minutes (7.2), warnings, declared losses; the log
folds to the state that feeds the result, and its text form reads back to the same state."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ball.games.xiangqi.engine import (
    Color,
    Game,
    Move,
    Position,
    XiangqiError,
    parse_square,
    rules_from_toml,
)
from ball.games.xiangqi.engine.gamelog import (
    FOUL_ARTICLES,
    EntryKind,
    LogEntry,
    LogState,
    final_ending,
    fold,
    read_log,
    step,
    touch,
    touch_entry,
    write_log,
)

RED, BLACK = Color.RED, Color.BLACK
AFTER_TWO = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w"  # h2e2 h9g7
PINNED_HORSE = "4k4/9/9/9/9/9/9/9/4N4/4K4 w"  # the horse on e1 keeps the kings apart


def squares(*names: str) -> list[int]:
    return [parse_square(n) for n in names]


def moves(*texts: str) -> frozenset[Move]:
    return frozenset(Move.from_iccs(t) for t in texts)


def foul(time: int, side: Color, article: str, reason: str = "r") -> LogEntry:
    return LogEntry(time, side, EntryKind.FOUL, article, reason, foul=article)


def missed(time: int, side: Color, count: int, remaining: int | None = None) -> LogEntry:
    return LogEntry(time, side, EntryKind.MISSED, "7.1", "", count=count, remaining=remaining)


# --- touch-move (seed §5) --------------------------------------------------------------------


def test_touching_an_own_piece_binds_it_5_1() -> None:
    ob = touch(Position.start(), squares("b0"))
    assert (ob.moves, ob.article, ob.foul) == (moves("b0a2", "b0c2"), "5.1", "")


def test_touching_an_own_piece_that_cannot_move_frees_the_player_with_a_foul_9_1_5() -> None:
    position = Position.from_fen(PINNED_HORSE)
    ob = touch(position, squares("e1"))
    assert ob.moves == frozenset(position.legal_moves()) and ob.foul == "9.1.5"


def test_touching_an_opposing_piece_means_capturing_it_5_2() -> None:
    ob = touch(Position.from_fen(AFTER_TWO), squares("e6"))
    assert (ob.moves, ob.article, ob.foul) == (moves("e2e6"), "5.2", "")


def test_touching_an_opposing_piece_none_can_capture_is_a_foul_9_1_6() -> None:
    ob = touch(Position.start(), squares("a9"))
    assert ob.foul == "9.1.6" and len(ob.moves) == 44


def test_own_then_opposing_5_3() -> None:
    position = Position.from_fen(AFTER_TWO)
    assert touch(position, squares("e2", "e6")).moves == moves("e2e6")  # the first takes
    assert touch(position, squares("b0", "e6")).moves == moves("b0a2", "b0c2")  # else moves
    pinned = Position.from_fen("4k4/9/9/9/p8/9/9/9/R3N4/4K4 w")
    assert touch(pinned, squares("e1", "a5")).moves == moves("a1a5")  # else another takes


def test_opposing_then_own_and_both_at_once_5_4_5_5() -> None:
    position = Position.from_fen(AFTER_TWO)
    # The own piece cannot take e6, so another piece must (5.4), before moving b0.
    assert touch(position, squares("e6", "b0")).moves == moves("e2e6")
    ob = touch(position, squares("b0", "e6"), together=True)
    assert (ob.moves, ob.article) == (moves("e2e6"), "5.5")
    ob = touch(position, squares("a9", "b0"))  # nobody takes a9: move b0
    assert (ob.moves, ob.article) == (moves("b0a2", "b0c2"), "5.4")


@pytest.mark.parametrize("names", [("b0", "h0"), ("a9", "i9"), ("e5",), ()])
def test_touch_cases_outside_the_seed_are_refused(names: tuple[str, ...]) -> None:
    with pytest.raises(XiangqiError):
        touch(Position.start(), squares(*names))


# --- the fold --------------------------------------------------------------------------------


def test_the_third_foul_loses_the_game_4_1_8() -> None:
    state = fold([foul(60, RED, "9.1.2"), foul(90, BLACK, "9.1.1"), foul(120, RED, "9.1.3")])
    assert state.fouls == {RED: 2, BLACK: 1} and state.ending is None
    state = fold([*state.entries, foul(300, RED, "9.1.8", "left the board")])
    assert state.ending is not None
    assert (state.ending.result, state.ending.article) == ("0-1", "4.1.8")
    assert state.entries[-1].kind is EntryKind.LOSS and state.entries[-1].by_rule
    assert state.ended_at == 300


def test_the_number_of_fouls_is_the_organisers_data() -> None:
    rules = rules_from_toml("[arbiter]\nfouls_to_lose = 2\n")
    state = fold([foul(1, BLACK, "9.1.2"), foul(2, BLACK, "9.1.2")], rules)
    assert state.ending is not None and state.ending.result == "1-0"
    with pytest.raises(XiangqiError, match="fouls_to_lose"):
        rules_from_toml("[arbiter]\nfouls_to_lose = 0\n")
    with pytest.raises(XiangqiError, match="unknown key"):
        rules_from_toml("[arbiter]\nfouls = 3\n")


@pytest.mark.parametrize(
    ("count", "remaining", "fouls"),
    [(3, None, 0), (4, None, 1), (7, None, 1), (8, 600, 2), (4, 179, 0), (9, 180, 2)],
)
def test_missed_record_moves_7_1_and_the_relief_of_7_2(
    count: int, remaining: int | None, fouls: int
) -> None:
    state = fold([missed(100, RED, count, remaining)])
    assert state.fouls[RED] == fouls
    added = [e for e in state.entries if e.by_rule]
    assert [e.foul for e in added] == ["9.1.7"] * fouls


def test_missed_moves_and_touch_fouls_add_up_to_a_loss() -> None:
    touch_foul = touch_entry(200, Position.start(), squares("a9"))  # 9.1.6
    state = fold([missed(100, RED, 4), touch_foul, missed(400, RED, 12)])
    assert state.fouls[RED] == 3 and state.ending is not None
    assert state.ending.result == "0-1" and "9.1.7" in state.ending.detail


def test_warnings_are_counted_apart_from_fouls() -> None:
    state = fold([LogEntry(10, BLACK, EntryKind.WARNING, "8.8", "talked to a spectator")] * 4)
    assert state.warnings[BLACK] == 4 and state.fouls[BLACK] == 0 and state.ending is None


def test_a_declared_loss_ends_the_game_and_nothing_follows() -> None:
    loss = LogEntry(500, BLACK, EntryKind.LOSS, "4.1.10", "refused to continue")
    state = fold([loss])
    assert state.ending is not None and state.ending.result == "1-0"
    with pytest.raises(XiangqiError, match="already ended"):
        fold([loss, foul(600, RED, "9.1.2")])
    with pytest.raises(XiangqiError, match="not a loss the arbiter declares"):
        fold([LogEntry(5, RED, EntryKind.LOSS, "4.1.1", "mate")])


@pytest.mark.parametrize(
    "entries",
    [
        [foul(100, RED, "9.1.2"), foul(50, RED, "9.1.2")],
        [foul(10, RED, "9.2.1")],
        [missed(10, RED, 0)],
        [foul(-1, RED, "9.1.2")],
    ],
)
def test_bad_entries_are_refused(entries: list[LogEntry]) -> None:
    with pytest.raises(XiangqiError):
        fold(entries)


def test_the_log_feeds_the_result() -> None:
    game = Game()
    for text in ("h2e2", "h9g7"):
        game.push(Move.from_iccs(text))
    assert final_ending(game, fold([])) is None
    state = fold([LogEntry(900, RED, EntryKind.LOSS, "4.1.5", "arrived late")])
    ending = final_ending(game, state)
    assert ending is not None and (ending.result, ending.article) == ("0-1", "4.1.5")


# --- text form -------------------------------------------------------------------------------

LOG = """# arbiter's log, table 3
0:05:10 red touch 5.1 - must move h2
0:12:30 black foul 9.1.2 stopped the clock
0:20:00 red missed 5 [0:40:00] five moves not written
1:02:00 red missed 6 [0:02:30] under three minutes
1:05:00 black warning 8.8 spoke to a spectator
1:10:00 red touch 5.2 9.1.6 free move: touched a9
"""


def test_the_text_form_reads_back_to_the_same_state() -> None:
    state = read_log(LOG)
    assert state.fouls == {RED: 2, BLACK: 1} and state.warnings[BLACK] == 1
    text = write_log(state.entries)
    assert read_log(text) == state
    assert "by_rule" not in text and text.count("\n") == 6


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("0:61:00 red foul 9.1.2 x", "line 1: '0:61:00' is not a time"),
        ("\n0:01:00 blue foul 9.1.2 x", "line 2: side 'blue'"),
        ("0:01:00 red sneeze 9.1.2 x", "line 1: entry kind 'sneeze'"),
        ("0:01:00 red missed many", "line 1: a missed entry"),
        ("0:01:00 red", "line 1: an entry is"),
    ],
)
def test_text_faults_name_the_line(text: str, words: str) -> None:
    with pytest.raises(XiangqiError) as info:
        read_log(text)
    assert words in str(info.value)


# --- properties of the fold ------------------------------------------------------------------

ENTRY = st.one_of(
    st.builds(
        lambda side, art: foul(0, side, art, "a foul"),
        st.sampled_from([RED, BLACK]),
        st.sampled_from(sorted(FOUL_ARTICLES)),
    ),
    st.builds(
        lambda side, n, left: missed(0, side, n, left),
        st.sampled_from([RED, BLACK]),
        st.integers(1, 13),
        st.none() | st.integers(0, 3600),
    ),
    st.builds(
        lambda side: LogEntry(0, side, EntryKind.WARNING, "8.8", "warned"),
        st.sampled_from([RED, BLACK]),
    ),
)


def _timed(entries: list[LogEntry], gaps: list[int]) -> list[LogEntry]:
    out, now = [], 0
    for entry, gap in zip(entries, gaps, strict=False):
        now += gap
        out.append(replace(entry, time=now))
    return out


@settings(max_examples=150, deadline=None)
@given(st.lists(ENTRY, max_size=12), st.lists(st.integers(0, 900), min_size=12, max_size=12))
def test_the_fold_counts_fouls_to_the_loss_and_reads_back(
    entries: list[LogEntry], gaps: list[int]
) -> None:
    entries = _timed(entries, gaps)
    state, taken = LogState(), []
    for entry in entries:  # stop where the game ends: nothing may follow
        if state.ending is not None:
            with pytest.raises(XiangqiError, match="already ended"):
                step(state, entry)
            break
        state = step(state, entry)
        taken.append(entry)
    expected = {RED: 0, BLACK: 0}
    for entry in taken:
        if entry.kind is EntryKind.FOUL:
            expected[entry.side] += 1
        elif entry.kind is EntryKind.MISSED and (entry.remaining is None or entry.remaining >= 180):
            expected[entry.side] += entry.count // 4
    losers = [side for side in (RED, BLACK) if state.fouls[side] >= 3]
    assert (state.ending is not None) == bool(losers) and len(losers) <= 1
    if losers:  # the third foul ends the game at once: the count stops there (4.1.8)
        loser = losers[0]
        assert state.fouls[loser] == 3 <= expected[loser]
        assert state.fouls[loser.other] == expected[loser.other]
        assert state.ending is not None and state.ending.winner is loser.other
    else:
        assert state.fouls == expected
    assert read_log(write_log(state.entries)) == state
    assert fold(taken) == state
