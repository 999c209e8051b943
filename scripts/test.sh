#!/usr/bin/env bash
# The test suite: installs what it needs (scripts/setup.sh), lints Python (ruff) and the
# browser scripts (eslint), then runs pytest on two workers. Arguments go to pytest, except:
#   --fast   the quick lane: no browser, PostgreSQL, PDF, child-process, property-based
#            (Hypothesis) or slow tests (markers set by folder in tests/conftest.py), for
#            the edit-test loop; the full run and CI still run them all.
set -euo pipefail
cd "$(dirname "$0")/.."

lane=()
args=()
for arg in "$@"; do
  case "$arg" in
    --fast) lane=(-m "not browser and not postgres and not pdf and not process and not hypothesis and not slow"
                  # schemathesis serves only tests/web/test_openapi_live.py (a process test):
                  # loading its plugin was ~0.45 s of CPU in each of the three processes
                  -p no:schemathesis)
            export BALL_TEST_LANE=fast ;;  # tests/conftest.py: PIN hashes at a test cost
    *) args+=("$arg") ;;
  esac
done

bash scripts/setup.sh
# The three linters at once (they are independent; one after the other they were ~2.2 s of
# the quick lane's wall time): each one's output is printed whole, in this order, and the
# script stops before the tests if any of them failed.
# Type check: the whole package at zero errors (strict for engine, match, clocks and
# tournament, see [tool.mypy] in pyproject.toml).
lint_out=$(mktemp -d)
lint_failed=()
.venv/bin/ruff check src tests bench >"$lint_out/ruff" 2>&1 & ruff_pid=$!
# ESLint keeps each file's result keyed by the file's content and a hash of the whole config
# (and ESLint's version), so only changed files are linted again: 2.0 -> 0.4 s of CPU.
tools/eslint/node_modules/.bin/eslint --cache --cache-strategy content \
  --cache-location tools/eslint/node_modules/.cache/eslint/ \
  --config tools/eslint/eslint.config.mjs --max-warnings 0 \
  src/ball/web/static >"$lint_out/eslint" 2>&1 & eslint_pid=$!
.venv/bin/mypy src/ball >"$lint_out/mypy" 2>&1 & mypy_pid=$!
for linter in ruff eslint mypy; do
  pid_var="${linter}_pid"
  wait "${!pid_var}" || lint_failed+=("$linter")
  cat "$lint_out/$linter"
done
rm -rf "$lint_out"
if [ ${#lint_failed[@]} -gt 0 ]; then
  echo "test.sh: ${lint_failed[*]} failed (output above)" >&2
  exit 1
fi
# Test files (every test's databases, PDFs, run folders) on a memory file system where there
# is one: SQLite commits with synchronous=FULL, and a few thousand fsyncs of a real disk
# (about 5 ms each here) were a third of the quick lane's wall time. The code path is the
# same (the fsyncs are still made); a killed process loses nothing on tmpfs either, which is
# all the crash tests kill. BALL_TEST_TMP=disk keeps them on disk.
tmp_args=()
own_basetemp=no
for arg in ${args[@]+"${args[@]}"}; do
  [[ "$arg" == --basetemp* ]] && own_basetemp=yes
done
if [[ "${BALL_TEST_TMP:-}" != disk && $own_basetemp == no && -d /dev/shm && -w /dev/shm ]]; then
  test_tmp=$(mktemp -d /dev/shm/ball-tests.XXXXXX)
  chmod 755 "$test_tmp"  # the throwaway PostgreSQL runs as its own user and must reach it
  trap 'rm -rf "$test_tmp"' EXIT
  mkdir -p "$test_tmp/tmp"
  export TMPDIR="$test_tmp/tmp"
  tmp_args=(--basetemp "$test_tmp/pytest")
fi
# Byte-code caches on even where the environment turns them off (PYTHONDONTWRITEBYTECODE):
# without them every worker re-parses and assertion-rewrites ~2,100 test modules and
# compiles the packages on each run (collection: 17 s of CPU per worker, 7 s with caches).
# Work stealing: a worker that runs out of tests takes half of the other's queue, so the two
# finish together instead of one idling behind the other's long desk files.
env -u PYTHONDONTWRITEBYTECODE .venv/bin/pytest -n 2 --dist worksteal -q ${tmp_args[@]+"${tmp_args[@]}"} \
  ${lane[@]+"${lane[@]}"} ${args[@]+"${args[@]}"}
# The pure lane: where the engine and the search ran compiled above (scripts/compile.py), their
# tests run once more on the pure-Python source (BALL_PURE=1, ball/compiled_build.py), which
# is what runs on a machine without a C compiler and what the rules are written in.
# Only with no pytest arguments of the caller's own: a run of chosen tests stays that run.
pure_tests=(tests/engine tests/ai/test_mcts.py tests/properties/test_engine_invariants.py)
if [[ ${#args[@]} -eq 0 ]] \
   && [[ $(.venv/bin/python -c 'import ball.games.ball.engine, ball.compiled_build as c; print(c.build)') == compiled ]]; then
  echo "test.sh: the engine and search tests again, on the pure build (BALL_PURE=1)"
  BALL_PURE=1 env -u PYTHONDONTWRITEBYTECODE .venv/bin/pytest -n 2 --dist worksteal -q \
    ${tmp_args[@]+"${tmp_args[@]}"} ${lane[@]+"${lane[@]}"} "${pure_tests[@]}"
fi
