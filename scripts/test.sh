#!/usr/bin/env bash
# Install everything the tests need on a fresh machine, then lint and run the whole suite.
# Used by the README and by CI (.ci/run). Extra arguments go to pytest. Each step says what it
# does first (the quiet installs take minutes on a fresh machine); pytest lists the 25 slowest
# tests at the end (--durations=25).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { echo "==> $*"; }

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  step "creating the virtual environment .venv"
  "$PY" -m venv .venv
fi
step "upgrading pip"
.venv/bin/python -m pip install --quiet --upgrade pip
# The research extras are installed too, so their adapters, the Ray backend, training and
# MaskablePPO on the Gymnasium env (sb3-contrib, a few MB beside PyTorch) are
# tested. PyTorch first, by its exact version: that one has a CPU build on the machine's disk
# (a bare or open-ended torch would pull a CUDA build of several GB).
step "installing PyTorch 2.13.0 (CPU build)"
.venv/bin/python -m pip install --quiet 'torch==2.13.0'
step "installing Palio with its test and research extras (a few minutes on a fresh machine)"
.venv/bin/python -m pip install --quiet -e '.[test,postgres,ray,openspiel,gym,learn,rl]'

# Browser tests use Debian's Chromium (never `playwright install`); without it they skip.
if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  step "installing Debian's Chromium for the browser tests"
  (apt-get update -qq && apt-get install -y -qq chromium chromium-driver >/dev/null) \
    || echo "note: could not install chromium; browser tests will be skipped"
fi
# Japanese pages need a CJK font, or the screenshots show boxes instead of text.
if ! fc-list :lang=ja 2>/dev/null | grep -q . && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  step "installing a Japanese font (fonts-noto-cjk) for the screenshots"
  (apt-get update -qq && apt-get install -y -qq fonts-noto-cjk >/dev/null) \
    || echo "note: could not install fonts-noto-cjk; Japanese screenshots will show boxes"
fi

# Server tests also run against PostgreSQL when a throwaway cluster can be started here.
cleanup() { :; }
if [ -z "${PALIO_TEST_POSTGRES_URL:-}" ] && [ -x scripts/postgres.sh ]; then
  step "starting a throwaway PostgreSQL cluster for the server tests"
  if url=$(scripts/postgres.sh start 2>/dev/null); then
    export PALIO_TEST_POSTGRES_URL="$url"
    # this run's own cluster, by its URL: another run's is left alone
    cleanup() { scripts/postgres.sh stop "$PALIO_TEST_POSTGRES_URL" >/dev/null 2>&1 || true; }
  else
    echo "note: PostgreSQL not available; its server tests will be skipped"
  fi
fi
trap cleanup EXIT

step "linting (ruff)"
.venv/bin/ruff check .
step "running the test suite (pytest; about 27 minutes on a two-core machine)"
.venv/bin/python -m pytest --durations=25 "$@"
