"""The browser reads actions with the engine's grammar, never a hand-made copy.

`static/js/notation_grammar.js` is generated from `ball.games.ball.engine.notation`; these tests
fail when the checked-in file differs from what the generator writes now, when a page script
carries its own square or action pattern, and when `notation.js` (run in node) reads any
sample text differently from the Python grammar.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest

from ball.games.ball.engine import Game, notation
from ball.games.ball.play.replay import action_origin
from ball.games.ball.web import notation_js

JS = notation_js.PATH.parent  # the shared static folder's scripts
RULESETS = ["standard", "pe", "cards"]


def test_the_checked_in_grammar_module_is_what_the_generator_writes():
    assert notation_js.PATH == JS / "notation_grammar.js"
    assert notation_js.PATH.read_text(encoding="utf-8") == notation_js.render(), (
        "static/js/notation_grammar.js is stale: run "
        "`.venv/bin/python -m ball.games.ball.web.notation_js`"
    )


def test_the_generator_writes_the_file_it_checks(tmp_path, monkeypatch):
    target = tmp_path / "notation_grammar.js"
    monkeypatch.setattr(notation_js, "PATH", target)
    notation_js.main()
    assert target.read_text(encoding="utf-8") == notation_js.render()
    assert "export const GRAMMAR = " in target.read_text(encoding="utf-8")


def test_no_page_script_holds_its_own_copy_of_the_notation():
    # a square pattern written out by hand is how the grammar got copied before
    copied = re.compile(r"1\[0-7\]|\[A-M\]")
    for path in sorted(JS.glob("*.js")):
        if path.name == "notation_grammar.js":
            continue
        assert not copied.search(path.read_text(encoding="utf-8")), f"{path.name} copies a pattern"


@cache
def _legal_texts() -> tuple[str, ...]:
    """Every action text of seeded random games (they depend only on the engine: played once)."""
    texts: set[str] = set()
    for ruleset in RULESETS:
        for seed in range(6):
            rng = random.Random(seed)
            game = Game.new(ruleset)
            for _ in range(150):
                legal = game.legal_actions()
                if not legal:
                    break
                texts.update(legal)
                game.apply(rng.choice(legal))
    return tuple(sorted(texts))


def _near_misses(texts: list[str], rng: random.Random) -> list[str]:
    """Texts one edit away from actions (mostly not actions): both sides must refuse alike."""
    alphabet = "ABGMNZagmz0189-/x>=~@: "
    out = []
    for text in texts:
        i = rng.randrange(len(text) + 1)
        out.append(text[:i] + rng.choice(alphabet) + text[i:])
        if text:
            j = rng.randrange(len(text))
            out.append(text[:j] + text[j + 1 :])
    return out


def corpus() -> list[str]:
    """The legal action texts first, then other spellings, examples and near misses."""
    legal = list(_legal_texts())
    rng = random.Random(12)
    spellings = [t.lower() for t in legal[::7]]
    spellings += ["  " + t.replace(" ", " \t ") for t in legal[::11]]
    examples = [form.example for form in notation.FORMS]
    odd = ["", " ", "G7", "card", "recover -", "card sprint", "split D8 C9 E9:TOP", "Ｇ7-H8"]
    return legal + spellings + examples + odd + _near_misses(legal[::3], rng)


def python_view(text: str) -> dict:
    """What notation.js must say about `text`, from the Python grammar alone."""
    found = notation.read(notation.normalise(text))
    if found is None:
        return {"read": None, "kind": "choice", "from": None, "steps": [], "card": None}
    form, values = found
    typed = [(t, v) for t, v in zip(form.fields, values, strict=True) if v is not None]
    squares = [v.upper() for t, v in typed if t == "sq"]
    card = next((v.lower() for t, v in typed if t == "card"), None)
    view = {"read": {"form": form.name, "values": list(values)}, "card": card}
    if not squares:
        return {**view, "kind": "choice", "from": None, "steps": []}
    words = [v.lower() for t, v in typed if t == "keep"]
    kind = f"card:{card}" if card is not None else form.name
    return {**view, "kind": kind, "from": squares[0], "steps": squares[1:] + words}


RUNNER = """
import { readFileSync } from "node:fs";
import { readAction, parseAction } from "./notation.js";
const texts = JSON.parse(readFileSync(0, "utf8"));
const out = texts.map((text) => {
  const read = readAction(text);
  const p = parseAction(text);
  return {
    read: read && { form: read.form, values: read.values },
    kind: p.kind, from: p.from, steps: p.steps, card: p.card,
  };
});
process.stdout.write(JSON.stringify(out));
"""


def run_notation_js(tmp_path: Path, texts: list[str]) -> list[dict]:
    node = shutil.which("node")
    if node is None:
        message = "node is not installed (the JS linter's set-up needs it too)"
        if os.environ.get("CI"):
            pytest.fail(message)  # CI runs the set-up: a missing node is a broken install
        pytest.skip(message)
    for name in ("notation.js", "notation_grammar.js"):
        shutil.copy(JS / name, tmp_path / name)
    (tmp_path / "package.json").write_text('{"type": "module"}')
    (tmp_path / "run.js").write_text(RUNNER)
    done = subprocess.run(
        [node, "run.js"], cwd=tmp_path, input=json.dumps(texts), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def js_answers(tmp_path_factory) -> tuple[list[str], list[dict]]:
    """The corpus and notation.js's answer to each text, from one node process for the two
    tests below (each started its own: ~0.3 s of CPU apiece). notation.js reads each text on
    its own, and the legal action texts open the corpus, so their answers are the ones a run
    on them alone gives; the tests only read the lists."""
    texts = corpus()
    return texts, run_notation_js(tmp_path_factory.mktemp("notation_js"), texts)


def test_notation_js_reads_every_sample_as_the_python_grammar_does(js_answers):
    texts, answers = js_answers
    forms = {python_view(t)["read"]["form"] for t in texts if python_view(t)["read"]}
    assert forms == set(notation.FORM), "the samples cover every form"
    assert sum(python_view(t)["read"] is None for t in texts) > 100, "and many non-actions"
    assert len(answers) == len(texts)
    for text, answer in zip(texts, answers, strict=True):
        assert answer == python_view(text), repr(text)


def test_notation_js_finds_the_piece_the_server_filters_by(js_answers):
    texts, answers = js_answers
    legal = list(_legal_texts())
    assert texts[: len(legal)] == legal
    for text, answer in zip(legal, answers[: len(legal)], strict=True):
        assert answer["from"] == action_origin(text), text
