#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL cluster on a unix socket in a temporary folder.
# PostgreSQL refuses to run as root, so as root the cluster runs as the `postgres` user.
set -euo pipefail

bindir=$(dirname "$(readlink -f "$(command -v initdb 2>/dev/null || ls -d /usr/lib/postgresql/*/bin/initdb | sort -V | tail -1)")")
dir=$(mktemp -d "${TMPDIR:-/tmp}/tablescore-pg.XXXXXX")
chmod 755 "$dir"
as_owner=()
if [[ $(id -u) -eq 0 ]]; then
  chown postgres "$dir"
  as_owner=(runuser -u postgres --)
fi

stop() {
  "${as_owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT

"${as_owner[@]}" "$bindir/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >/dev/null
"${as_owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
  -o "-k $dir -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
  start >/dev/null
"${as_owner[@]}" "$bindir/createdb" -h "$dir" -U postgres tablescore

export DATABASE_URL="postgres://postgres@${dir//\//%2F}/tablescore"
"$@"
