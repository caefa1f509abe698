#!/usr/bin/env bash
# Start a throwaway PostgreSQL server for the tests and print its URL.
# Usage: .ci/postgres.sh DATA_DIR [PORT]. Installs the server from Debian's
# packages when it is missing; runs it as the postgres user when we are root.
set -euo pipefail
data=$1
port=${2:-55432}
if ! ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1; then
  apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
fi
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
run=()
if [ "$(id -u)" = 0 ]; then
  run=(runuser -u postgres --)
  mkdir -p "$data"
  chown postgres "$data"
fi
"${run[@]}" "$bin/initdb" -D "$data" -A trust -U postgres >/dev/null
"${run[@]}" "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w \
  -o "-p $port -k $data -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null
"${run[@]}" "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres minesweep
echo "postgresql://postgres@127.0.0.1:$port/minesweep"
