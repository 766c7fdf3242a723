#!/usr/bin/env bash
# Runs a command with CACHE_URL pointing at a throwaway Redis server on a unix socket in a temporary folder
# (no TCP port, nothing saved to disk); the server is stopped afterwards.
set -euo pipefail

dir=$(mktemp -d "${TMPDIR:-/tmp}/tablescore-redis.XXXXXX")
socket="$dir/redis.sock"
redis-server --port 0 --unixsocket "$socket" --unixsocketperm 700 --save '' --appendonly no \
  --dir "$dir" --logfile "$dir/log" --daemonize no &
server=$!

stop() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$dir"
}
trap stop EXIT

for _ in $(seq 100); do
  [[ -S $socket ]] && break
  kill -0 "$server" 2>/dev/null || { cat "$dir/log" >&2; exit 1; }
  sleep 0.05
done
[[ -S $socket ]] || { echo "redis-server did not start:" >&2; cat "$dir/log" >&2; exit 1; }

export CACHE_URL="unix://$socket"
"$@"
