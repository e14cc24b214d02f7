#!/usr/bin/env bash
# The whole test suite, as a newcomer and CI run it: a virtual environment with the dev extras, then pytest.
# The store and service tests run on SQLite and on PostgreSQL: without COACH_TEST_POSTGRES_URL this starts a
# throwaway PostgreSQL 15 (Debian's binaries; installed with apt when missing and run as root) and stops it at exit.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
. .venv/bin/activate
python -m pip install -q -e '.[dev]'
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = 0 ]; then
  # Browser tests drive Debian's Chromium; a test tool's own browser download cannot work here.
  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium
fi
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
PG_BIN="${COACH_PG_BIN:-/usr/lib/postgresql/15/bin}"
if [ -z "${COACH_TEST_POSTGRES_URL:-}" ]; then
  if [ ! -x "$PG_BIN/initdb" ] && [ "$(id -u)" = 0 ]; then
    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql-15
  fi
  if [ -x "$PG_BIN/initdb" ]; then
    read -r PG_DIR COACH_TEST_POSTGRES_URL < <(python tests/support/postgres.py start)
    if [ -z "${COACH_TEST_POSTGRES_URL:-}" ]; then
      echo "error: the throwaway PostgreSQL did not start (see the message above)" >&2
      exit 1
    fi
    export COACH_TEST_POSTGRES_URL
    trap 'python tests/support/postgres.py stop "$PG_DIR"' EXIT
    echo "PostgreSQL 15 for the tests: ${COACH_TEST_POSTGRES_URL}"
  elif [ "${CI:-}" = true ]; then
    echo "error: PostgreSQL 15 is needed for the tests and was not found in $PG_BIN" >&2
    exit 1
  else
    echo "warning: no PostgreSQL 15 in $PG_BIN: the PostgreSQL half of the store tests will be skipped" >&2
  fi
fi
python -m pytest "$@"
