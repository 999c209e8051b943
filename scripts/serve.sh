#!/usr/bin/env bash
# The main job: installs what it needs, then starts the web toolbox on 127.0.0.1:8000 with an
# embedded SQLite database (var/toolbox.sqlite) holding a demo event.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
mkdir -p var
exec .venv/bin/ball serve --db var/toolbox.sqlite --demo "$@"
