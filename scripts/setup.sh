#!/usr/bin/env bash
# Installs everything BALL Toolbox needs, idempotently: Debian packages (browser for the UI
# tests, CJK fonts and HarfBuzz subsetting for PDF, poppler for PDF checks, Node for the JS
# linter), a virtual environment at .venv/ with exactly the versions pinned in uv.lock, and
# the JS linter in tools/eslint/node_modules/ and axe-core in tools/axe/node_modules/ from
# their package-lock.json files. Safe to run again.
#
# After changing dependencies in pyproject.toml run `uv lock` and commit uv.lock: this script
# (and so CI) refuses a uv.lock that no longer matches pyproject.toml.
set -euo pipefail
cd "$(dirname "$0")/.."

DEB_PACKAGES=(chromium fonts-noto-cjk fonts-dejavu-core libharfbuzz-subset0 poppler-utils
              libpango-1.0-0 libpangoft2-1.0-0 postgresql postgresql-client
              g++)  # PyMahjongGB (Mahjong's fans) ships only source: uv sync compiles it
command -v npm >/dev/null 2>&1 || DEB_PACKAGES+=(nodejs npm)

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

# uv reads uv.lock; a uv older than the one that wrote the lock may not understand it.
UV_SPEC="uv>=0.13,<1"
export PATH="$HOME/.local/bin:$PATH"
uv_ok() {
  command -v uv >/dev/null 2>&1 || return 1
  local version
  version=$(uv --version | awk '{print $2}')
  [ "$(printf '%s\n0.13\n' "$version" | sort -V | head -n1)" = "0.13" ]
}
if ! uv_ok; then
  echo "setup: installing $UV_SPEC"
  # Debian's python3 is "externally managed" (PEP 668); uv is a self-contained tool, so a
  # user install beside the system packages is safe.
  python3 -m pip install --quiet --user --upgrade "$UV_SPEC" 2>/dev/null \
    || python3 -m pip install --quiet --user --upgrade --break-system-packages "$UV_SPEC"
fi

# The lock must describe pyproject.toml as it is now; say so plainly when it does not.
if ! lock_check=$(uv lock --check 2>&1); then
  echo "$lock_check" >&2
  echo "setup: uv.lock does not match pyproject.toml; run \`uv lock\` and commit uv.lock" >&2
  exit 1
fi
# Installs exactly the locked versions (the package itself editable, with its dev extras) and
# removes anything else; a no-op when .venv/ already matches the lock. --compile-bytecode
# writes the .pyc files a pip install would: this environment sets PYTHONDONTWRITEBYTECODE,
# so without them every fresh process (each `ball` command, each PDF) compiled WeasyPrint
# and the rest from source again (about 3 s).
# Compiling checks every file of .venv/ (~0.5 s, a tenth of the quick lane's time outside
# pytest), so it runs only when the installed set changed: the stamp is the lock and the
# names in site-packages (each distribution's name and version), as after the last compile.
uv sync --frozen --extra dev --quiet --python python3 --no-python-downloads
stamp=.venv/.ball-bytecode
installed=$( (cat uv.lock; ls .venv/lib/python3*/site-packages) | sha256sum)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$installed" ]; then
  uv sync --frozen --extra dev --quiet --python python3 --no-python-downloads --compile-bytecode
  echo "$installed" > "$stamp"
fi

# The compiled build of the engine and the search (mypyc, scripts/compile.py): rebuilt only
# when their sources changed; without a C compiler or Python headers the package stays pure
# Python. BALL_PURE=1 skips it (ball/compiled_build.py then ignores any built extension).
if [ "${BALL_PURE:-0}" = 0 ]; then
  .venv/bin/python scripts/compile.py
fi

# The JS linter: npm ci only when its lock changed since the last install.
ESLINT_DIR=tools/eslint
if [ ! -f "$ESLINT_DIR/node_modules/.package-lock.json" ] \
   || [ "$ESLINT_DIR/package-lock.json" -nt "$ESLINT_DIR/node_modules/.package-lock.json" ]; then
  echo "setup: installing the JS linter (npm ci in $ESLINT_DIR)"
  npm ci --prefix "$ESLINT_DIR" --no-audit --no-fund --loglevel=error >/dev/null
fi

# axe-core, the accessibility checker the browser tests inject into pages (same rule: npm ci
# only when its lock changed; the tests read the installed file and fetch nothing).
AXE_DIR=tools/axe
if [ ! -f "$AXE_DIR/node_modules/.package-lock.json" ] \
   || [ "$AXE_DIR/package-lock.json" -nt "$AXE_DIR/node_modules/.package-lock.json" ]; then
  echo "setup: installing axe-core (npm ci in $AXE_DIR)"
  npm ci --prefix "$AXE_DIR" --no-audit --no-fund --loglevel=error >/dev/null
fi

# The one message catalogue (en/ko/bg: web UI, clock, printed labels) is compiled from
# the .po sources (scripts/i18n.sh extracts and updates them).
if compgen -G "src/ball/locales/*/LC_MESSAGES/*.po" >/dev/null; then
  .venv/bin/pybabel compile -q -d src/ball/locales -D messages >/dev/null 2>&1 || true
fi
