#!/usr/bin/env bash
# The whole test suite, as a newcomer and CI run it: a virtual environment with the dev extras, then pytest.
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
exec python -m pytest "$@"
