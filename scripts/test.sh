#!/usr/bin/env bash
# The whole test suite: installs what it needs (scripts/setup.sh), lints, then runs pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check src tests bench
# Type check: the packages at zero errors so far (strict for engine, match and clocks, see
# [tool.mypy] in pyproject.toml); widen the list as the others reach zero.
# (--follow-imports=silent: modules still being typed are read, their errors not reported.)
.venv/bin/mypy --follow-imports=silent src/ball/engine src/ball/match src/ball/clocks \
  src/ball/tournament/systems.py src/ball/ai src/ball/sim src/ball/cli src/ball/printing \
  src/ball/storage src/ball/__init__.py $(ls src/ball/web/*.py | grep -v -e /desk.py -e /public.py)
.venv/bin/pytest -n 2 -q "$@"
