#!/usr/bin/env bash
# Installs everything BALL Toolbox needs, idempotently: Debian packages (browser for the UI
# tests, CJK fonts and HarfBuzz subsetting for PDF, poppler for PDF checks) and a virtual
# environment at .venv/ with the package and its dev tools. Safe to run again and again.
set -euo pipefail
cd "$(dirname "$0")/.."

DEB_PACKAGES=(chromium fonts-noto-cjk fonts-dejavu-core libharfbuzz-subset0 poppler-utils
              libpango-1.0-0 libpangoft2-1.0-0 postgresql postgresql-client)

missing=()
for p in "${DEB_PACKAGES[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v uv >/dev/null 2>&1; then
  echo "setup: installing uv"
  python3 -m pip install --quiet --user uv 2>/dev/null || python3 -m pip install --quiet uv
  export PATH="$HOME/.local/bin:$PATH"
fi

[ -x .venv/bin/python ] || uv venv --quiet --python python3 .venv
# Re-installs only when pyproject.toml changed since the last run.
stamp=.venv/.ball-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  uv pip install --quiet --python .venv/bin/python -e '.[dev]'
  touch "$stamp"
fi
# The one message catalogue (en/ko/bg: web UI, clock, printed labels) is compiled from
# the .po sources (scripts/i18n.sh extracts and updates them).
if compgen -G "src/ball/locales/*/LC_MESSAGES/*.po" >/dev/null; then
  .venv/bin/pybabel compile -q -d src/ball/locales -D messages >/dev/null 2>&1 || true
fi
