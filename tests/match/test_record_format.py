"""The .bgn grammar: writing then reading gives the same record; faults name line and column."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ball.games.ball.match.record import (
    Entry,
    GameRecord,
    HalfRecord,
    RecordError,
    format_time,
    parse,
    parse_time,
    write,
)
from ball.sanctions import LADDER

SAMPLE = """\
[Event "Spring \\"Open\\""]
[CoachA "Kim"]
[CoachB "Petrova"]
[Half1ATK "A"]

half 1 {a careful start}
1. F6-F7, G8-G9 {[%time 0:00:31] solid}, end
2. G7-H8, card sprint, card quick-feet F8-E9, sanction A warning "slow", end
3. up F8-E9 {[%by referee]}
4. split D8 C9 E9:top, G7xI9>G9, G7=F6, G7~H10@I11, G7@K13, F10-F8/E7
5. final-drive {[%time 0:20:00]}

half 2
1. pe, recover -, recover sprint, continue, reset, forfeit B "left the venue"
"""


def test_sample_reads_into_entries():
    record = parse(SAMPLE)
    assert record.tags["Event"] == 'Spring "Open"'
    assert record.halves[0].comment == "a careful start"
    first = record.halves[0].entries
    assert [e.action for e in first[:3]] == ["F6-F7", "G8-G9", "end"]
    assert first[1].time == 31 and first[1].comment == "solid"
    assert (first[1].line, first[1].column) == (7, 11)
    sanction = next(e for e in first if e.kind == "sanction")
    assert (sanction.coach, sanction.step, sanction.reason, sanction.turn) == (
        "A",
        "warning",
        "slow",
        2,
    )
    assert first[-1].kind == "final-drive" and first[-1].time == 1200
    assert next(e for e in first if e.action == "up F8-E9").by == "referee"
    assert [e.turn for e in first if e.kind == "action"][-1] == 4
    last = record.halves[1].entries[-1]
    assert (last.kind, last.coach, last.reason) == ("forfeit", "B", "left the venue")


def test_sample_round_trips_exactly():
    text = write(parse(SAMPLE))
    assert text == SAMPLE
    assert parse(text) == parse(SAMPLE)


@pytest.mark.parametrize("seconds", [0, 59, 60, 1199, 1200, 3600 + 61])
def test_time_text_round_trip(seconds):
    assert parse_time(format_time(seconds)) == seconds


BAD = [
    ("half 1\n1. G7-H8 {never closed", (2, 10), "never closed"),
    ("half 1\n1. G7-Z\n", (2, 4), "18.1 notation"),
    ("half 1\n1. end\n1. end\n", (3, 1), "turn 1 follows turn 1"),
    ("half 1\n2. end {[%clk 0:00:01]}\n", (2, 8), "unknown annotation"),
    ("half 1\n2. end {[%time 0:99:01]}\n", (2, 8), "H:MM:SS"),
    ("half 1\n2. end {[%by coach]}\n", (2, 8), "[%by]"),
    ('half 1\n1. end\n[Event "x"]\n', (3, 1), "expected ',' or a new turn"),
    ('half 1\n1. sanction A scolding "x"\n', (2, 15), "unknown sanction step"),
    ('half 1\n1. sanction C warning "x"\n', (2, 13), "coach must be A or B"),
    ("half 1\n1. forfeit A\n", (2, 4), "forfeit COACH"),
    ("half 1\n1. end,, end\n", (2, 8), "empty entry"),
    ("half 1\n1. end\nhalf 1\n", (3, 6), "expected 'half 2', found 'half 1'"),
    ("half 3\n1. end\n", (1, 6), "expected 'half 1' or 'half 2', found 'half 3'"),
    ("half 2\n1. end\nhalf 1", (3, 6), "expected the end, found 'half 1'"),
    ("1. end\n", (1, 1), "expected 'half 1' or 'half 2'"),
    ("half 1\nend\n", (2, 1), "turn number"),
    ('[Event "x"]\n[Event "y"]\n', (2, 1), "appears twice"),
    ("[Event x]\n", (1, 8), "quoted string"),
    ('[Event "x\\q"]\n', (1, 10), "unknown escape"),
    ("half 1\n1. final-drive now\n", (2, 16), "no arguments"),
    ("half 1\n1. G7-H8 }\n", (2, 10), "unexpected '}'"),
    ("half 1\n1.", (2, 3), "empty entry"),
    ("half 1\n1. end\nhalf", (3, 5), "record ends where the half number"),
]


@pytest.mark.parametrize(("text", "where", "reason"), BAD)
def test_faults_name_line_column_and_reason(text, where, reason):
    with pytest.raises(RecordError) as info:
        parse(text)
    assert (info.value.line, info.value.column) == where, str(info.value)
    assert reason in info.value.reason
    assert str(info.value).startswith(f"line {where[0]}, column {where[1]}: ")


def test_half_2_alone_is_a_record_of_one_half():
    record = parse("half 2\n1. end\n")
    assert [h.number for h in record.halves] == [2]
    with pytest.raises(ValueError, match="halves"):
        write(GameRecord(halves=[HalfRecord(2), HalfRecord(1)]))


def test_writer_refuses_what_it_could_not_read_back():
    bad_comment = GameRecord(halves=[HalfRecord(1, [Entry(1, action="end", comment="a } b")])])
    with pytest.raises(ValueError, match="comment"):
        write(bad_comment)
    with pytest.raises(ValueError, match="18.1"):
        write(GameRecord(halves=[HalfRecord(1, [Entry(1, action="fly away")])]))


# ---------------------------------------------------------------------------- property

SQUARES = st.builds(lambda c, r: f"{c}{r}", st.sampled_from("ABCDEFGHIJKLM"), st.integers(1, 17))
ACTIONS = st.one_of(
    st.builds(lambda a, b: f"{a}-{b}", SQUARES, SQUARES),
    st.builds(lambda a, b, c: f"{a}-{b}/{c}", SQUARES, SQUARES, SQUARES),
    st.builds(lambda a, b, c: f"{a}x{b}>{c}", SQUARES, SQUARES, SQUARES),
    st.builds(lambda a, b: f"{a}={b}", SQUARES, SQUARES),
    st.builds(lambda a, b, c: f"{a}~{b}@{c}", SQUARES, SQUARES, SQUARES),
    st.builds(lambda a, b: f"{a}@{b}", SQUARES, SQUARES),
    st.sampled_from(["pe", "end", "continue", "reset", "card sprint", "recover -"]),
    st.builds(lambda a, b: f"up {a}-{b}", SQUARES, SQUARES),
    st.builds(
        lambda a, b, c, k: f"split {a} {b} {c}{k}",
        SQUARES,
        SQUARES,
        SQUARES,
        st.sampled_from(["", ":top", ":bottom"]),
    ),
    st.builds(lambda a: f"card second-wind {a}", SQUARES),
    st.builds(lambda a, b: f"card quick-feet {a}-{b}", SQUARES, SQUARES),
)
WORDS = st.text(
    alphabet=st.characters(blacklist_characters='{}[]%"\\', blacklist_categories=("Cs",)),
    max_size=20,
)
TEXT = WORDS.map(lambda s: " ".join(s.split()))
REASON = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=20)
OPTIONAL = {
    "time": st.none() | st.integers(0, 5 * 3600),
    "comment": st.none() | TEXT.filter(bool),
}


def entries(turn):
    action = st.builds(
        Entry, st.just(turn), st.just("action"), ACTIONS,
        by=st.none() | st.sampled_from(["opponent", "referee"]), **OPTIONAL,
    )  # fmt: skip
    sanction = st.builds(
        Entry, st.just(turn), st.just("sanction"),
        coach=st.sampled_from("AB"), step=st.sampled_from(LADDER.names), reason=REASON,
        **OPTIONAL,
    )  # fmt: skip
    forfeit = st.builds(
        Entry, st.just(turn), st.just("forfeit"), coach=st.sampled_from("AB"), reason=REASON,
        **OPTIONAL,
    )  # fmt: skip
    drive = st.builds(Entry, st.just(turn), st.just("final-drive"), **OPTIONAL)
    return st.one_of(action, action, action, sanction, forfeit, drive)


@st.composite
def half_records(draw, number):
    turns = sorted(draw(st.sets(st.integers(1, 60), max_size=8)))
    found = []
    for turn in turns:
        found.extend(draw(st.lists(entries(turn), min_size=1, max_size=5)))
    return HalfRecord(number, found, comment=draw(st.none() | TEXT.filter(bool)))


@st.composite
def records(draw):
    tags = draw(
        st.dictionaries(st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,8}", fullmatch=True), REASON)
    )
    count = draw(st.integers(0, 2))
    return GameRecord(tags=tags, halves=[draw(half_records(n)) for n in range(1, count + 1)])


@settings(max_examples=150, deadline=None)
@given(records())
def test_write_then_read_gives_back_the_same_record(record):
    text = write(record)
    back = parse(text)
    assert back == record
    assert write(back) == text
