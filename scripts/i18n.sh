#!/usr/bin/env bash
# The one catalogue (src/ball/locales, read by ball.i18n): extracts every marked string of
# the web toolbox, its page scripts, the table clock and the printed forms into
# messages.pot, merges it into the en/ko/bg .po files (new entries come in empty; no fuzzy
# guesses) and compiles them. Then translate the empty entries in ko and bg:
# tests/web/test_translations_complete.py fails until none is missing, empty or fuzzy.
set -euo pipefail
cd "$(dirname "$0")/.."
PYBABEL=.venv/bin/pybabel
$PYBABEL -q extract -F src/ball/babel.cfg -o src/ball/locales/messages.pot \
  src/ball/web src/ball/printing src/ball/games
$PYBABEL -q update -i src/ball/locales/messages.pot -d src/ball/locales -D messages \
  --no-fuzzy-matching --ignore-obsolete
$PYBABEL -q compile -d src/ball/locales -D messages
