#!/usr/bin/env bash
# The whole test suite: installs what it needs (scripts/setup.sh), lints, then runs pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check src tests bench
.venv/bin/pytest -n 2 -q "$@"
