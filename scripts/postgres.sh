#!/usr/bin/env bash
# postgres.sh start|stop|status|dsn — a throwaway PostgreSQL for lexio's tests.
#
#   start   installs PostgreSQL from apt if missing (without letting apt start
#           the distribution's cluster), initialises a cluster under
#           $LEXIO_PGDATA (default: <repo>/.pgdata, git-ignored) owned by the
#           postgres user, starts it on 127.0.0.1:$LEXIO_PGPORT (default
#           55432, or the next free port) as a plain process, creates the
#           database lexio_test and prints the DSN.
#   stop    stops that server (pg_ctl, by its PID file).
#   status  says whether it runs.
#   dsn     prints the DSN for LEXIO_TEST_POSTGRES_DSN (the server must run).
#
# Idempotent: start on a running server only prints the DSN again.
#   export LEXIO_TEST_POSTGRES_DSN="$(scripts/postgres.sh start)"
# Everything but the DSN goes to stderr.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
PGDATA_DIR="${LEXIO_PGDATA:-$repo/.pgdata}"
DATA="$PGDATA_DIR/data"
PORT_FILE="$PGDATA_DIR/port"
LOG="$PGDATA_DIR/postgres.log"
DB=lexio_test

say() { echo "postgres.sh: $*" >&2; }
die() { say "$*"; exit 1; }

# pgbin finds the newest installed server's bin directory.
pgbin() {
  local d
  d="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  [ -n "$d" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/initdb" ] && echo "$d"
}

install_pg() {
  [ -n "$(pgbin)" ] && return 0
  [ "$(id -u)" = 0 ] || die "PostgreSQL is not installed and we are not root: run 'sudo apt-get install -y postgresql'"
  command -v apt-get >/dev/null 2>&1 || die "PostgreSQL is not installed and there is no apt-get"
  say "installing PostgreSQL with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  # A policy-rc.d that exits 101 forbids apt to start services; put ours in
  # place only for the install, and only if none is there.
  local policy=/usr/sbin/policy-rc.d ours=0
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy"
    chmod +x "$policy"
    ours=1
  fi
  local rc=0
  {
    apt-get install -y -q --no-install-recommends postgresql >/dev/null 2>&1 ||
      { apt-get update -qq >/dev/null && apt-get install -y -q --no-install-recommends postgresql >/dev/null; }
  } || rc=$?
  [ "$ours" = 1 ] && rm -f "$policy"
  [ "$rc" = 0 ] || die "apt-get install postgresql failed ($rc)"
  [ -n "$(pgbin)" ] || die "postgresql installed but no server binaries under /usr/lib/postgresql"
}

# as_pg runs a command as the postgres user (we may already be that user).
as_pg() {
  if [ "$(id -un)" = postgres ]; then
    "$@"
  elif [ "$(id -u)" = 0 ]; then
    if command -v runuser >/dev/null 2>&1; then
      runuser -u postgres -- "$@"
    else
      su -s /bin/sh postgres -c "$(printf '%q ' "$@")"
    fi
  else
    "$@" # a non-root user runs the cluster as themselves
  fi
}

port_free() {
  ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

running() {
  local bin
  bin="$(pgbin)" || return 1
  [ -f "$DATA/postmaster.pid" ] && as_pg "$bin/pg_ctl" -D "$DATA" status >/dev/null 2>&1
}

dsn() {
  [ -f "$PORT_FILE" ] || die "no cluster under $PGDATA_DIR: run '$0 start'"
  echo "postgres://postgres@127.0.0.1:$(cat "$PORT_FILE")/$DB?sslmode=disable"
}

start() {
  install_pg
  local bin
  bin="$(pgbin)"
  mkdir -p "$PGDATA_DIR"
  if [ "$(id -u)" = 0 ]; then
    chown postgres:postgres "$PGDATA_DIR"
    # postgres must be able to reach the directory through its parents:
    # give others search (x, not read) permission where it lacks.
    if ! as_pg test -w "$PGDATA_DIR"; then
      local p="$PGDATA_DIR"
      while p="$(dirname "$p")" && [ "$p" != / ]; do chmod o+x "$p" 2>/dev/null || true; done
    fi
  fi
  if [ ! -s "$DATA/PG_VERSION" ]; then
    say "initialising a cluster in $DATA"
    as_pg "$bin/initdb" -D "$DATA" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$PGDATA_DIR/initdb.log" 2>&1 ||
      as_pg "$bin/initdb" -D "$DATA" -U postgres --auth=trust -E UTF8 --no-locale >"$PGDATA_DIR/initdb.log" 2>&1 ||
      die "initdb failed: see $PGDATA_DIR/initdb.log"
  fi
  if running; then
    say "already running (pid $(head -n 1 "$DATA/postmaster.pid"))"
  else
    local port="${LEXIO_PGPORT:-55432}"
    while ! port_free "$port"; do port=$((port + 1)); done
    echo "$port" >"$PORT_FILE"
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$PORT_FILE"
    # The socket directory is ours too: /var/run/postgresql may not exist.
    as_pg "$bin/pg_ctl" -D "$DATA" -l "$LOG" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $DATA -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
      start >&2 || { tail -n 20 "$LOG" >&2 || true; die "pg_ctl start failed"; }
    say "started on 127.0.0.1:$port (pid $(head -n 1 "$DATA/postmaster.pid"))"
  fi
  local port
  port="$(cat "$PORT_FILE")"
  if ! as_pg "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB'" | grep -q 1; then
    as_pg "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -qc "CREATE DATABASE $DB" >&2
    say "created database $DB"
  fi
  dsn
}

stop() {
  local bin
  bin="$(pgbin)" || { say "PostgreSQL is not installed: nothing to stop"; return 0; }
  if running; then
    as_pg "$bin/pg_ctl" -D "$DATA" -m fast -w stop >&2
  else
    say "not running"
  fi
}

case "${1:-}" in
start) start ;;
stop) stop ;;
status) if running; then say "running: $(dsn)"; else say "not running"; exit 3; fi ;;
dsn) running || die "not running: run '$0 start'"; dsn ;;
*) echo "usage: $0 start|stop|status|dsn" >&2; exit 2 ;;
esac
