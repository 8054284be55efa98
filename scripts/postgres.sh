#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and benchmarks.
#   scripts/postgres.sh start          -> starts one in a temp dir under /tmp, prints its URL
#   scripts/postgres.sh stop URL|DIR   -> stops that one (the URL start printed, or its dir)
#                                         and removes it
#   scripts/postgres.sh down URL|DIR   -> stops that one's server, keeping its data
#   scripts/postgres.sh up URL|DIR     -> starts it again on the same port (a restart test)
# Each run keeps its own cluster: nothing machine-wide says which one is "current", so two test
# runs at once never stop each other's. `stop` with no argument stops the cluster named in the
# file $PALIO_PG_STATE, if that is set (start writes its dir there).
# The cluster listens on a free loopback port and keeps its unix socket in its own dir. initdb
# refuses to run as root, so as root the server runs as the `postgres` user.
set -euo pipefail

BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
STATE=${PALIO_PG_STATE:-}

as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

serve() {
  as_owner "$BIN/pg_ctl" -D "$1/data" -l "$1/server.log" -w -t 60 \
    -o "-h 127.0.0.1 -p $(cat "$1/port") -k $1 -c fsync=off -c max_connections=200" start >/dev/null
}

start() {
  if [ -z "$BIN" ] || [ ! -x "$BIN/initdb" ]; then
    echo "postgres.sh: no PostgreSQL server binaries under /usr/lib/postgresql/*/bin" >&2
    exit 1
  fi
  dir=$(mktemp -d /tmp/palio-pg.XXXXXX)
  chmod 755 "$dir"
  [ "$(id -u)" = 0 ] && chown postgres: "$dir"
  port=$(free_port)
  as_owner "$BIN/initdb" -D "$dir/data" -U palio --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; rm -rf "$dir"; exit 1; }
  echo "$port" >"$dir/port"
  serve "$dir" || { cat "$dir/server.log" >&2; rm -rf "$dir"; exit 1; }
  url="postgresql+psycopg://palio@127.0.0.1:$port/postgres"
  echo "$url" >"$dir/url"
  [ -n "$STATE" ] && echo "$dir" >"$STATE"
  echo "postgres.sh: cluster in $dir on port $port" >&2
  echo "$url"
}

# the cluster's dir from the URL or dir start printed (empty if none)
find_dir() {
  case "$1" in
    *://*)
      for candidate in /tmp/palio-pg.*; do
        if [ -f "$candidate/url" ] && [ "$(cat "$candidate/url")" = "$1" ]; then
          echo "$candidate"
        fi
      done ;;
    *) if [ -d "$1" ]; then echo "$1"; fi ;;
  esac
  return 0
}

down() {
  dir=$(find_dir "${1:?say which cluster: the URL or dir that start printed}")
  [ -n "$dir" ] || { echo "postgres.sh: no cluster $1" >&2; exit 1; }
  as_owner "$BIN/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
}

up() {
  dir=$(find_dir "${1:?say which cluster: the URL or dir that start printed}")
  [ -n "$dir" ] || { echo "postgres.sh: no cluster $1" >&2; exit 1; }
  serve "$dir"
}

stop() {
  dir=${1:-}
  if [ -z "$dir" ] && [ -n "$STATE" ] && [ -f "$STATE" ]; then
    dir=$(cat "$STATE")
  elif [ -z "$dir" ]; then
    echo "postgres.sh: say which cluster to stop: the URL or dir that start printed" >&2
    exit 2
  fi
  dir=$(find_dir "$dir")
  if [ -z "$dir" ] || [ ! -d "$dir" ]; then
    echo "postgres.sh: no cluster to stop" >&2
    exit 0
  fi
  as_owner "$BIN/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
  if [ -n "$STATE" ] && [ -f "$STATE" ] && [ "$(cat "$STATE")" = "$dir" ]; then
    rm -f "$STATE"
  fi
}

case "${1:-}" in
  start) start ;;
  stop) stop "${2:-}" ;;
  down) down "${2:-}" ;;
  up) up "${2:-}" ;;
  *) echo "usage: $0 start | stop URL|DIR | down URL|DIR | up URL|DIR" >&2; exit 2 ;;
esac
