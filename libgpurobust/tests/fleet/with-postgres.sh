#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# Run a command beside a throwaway PostgreSQL server: Debian's postgresql
# package, initdb into a temporary directory, a Unix socket in it and no
# TCP, as an unprivileged user (nobody, when this runs as root: the server
# refuses root). The command gets
#   GPUROBUST_TEST_PG_URI   the superuser's URI (database "gpurobust")
#   GPUROBUST_TEST_PG_DIR   the data directory (for pg_ctl)
#   GPUROBUST_TEST_PG_BIN   the server's bin directory
#   GPUROBUST_TEST_PG_AS    how to run pg_ctl as the server's user (its
#                           log: the data directory's server.log)
# and the server is stopped after it, whatever it did. No server, no run:
# a missing postgresql package is a failure (make check installs it).
#
# usage: with-postgres.sh COMMAND [ARG...]
set -u
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
	echo "with-postgres: no PostgreSQL server (Debian's postgresql package)" >&2
	exit 1
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/gpurobust-pg.XXXXXX") || exit 1
as=
if [ "$(id -u)" = 0 ]; then
	chown nobody "$dir"
	as="setpriv --reuid=nobody --regid=nogroup --clear-groups"
fi
cleanup() {
	$as "$bin/pg_ctl" -D "$dir/data" -m immediate stop > /dev/null 2>&1
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# trust on the socket only, which is in a directory of the server's user
if ! $as "$bin/initdb" -D "$dir/data" -U gpurobust_admin --auth=trust --locale=C.UTF-8 \
	-E UTF8 > "$dir/initdb.log" 2>&1; then
	cat "$dir/initdb.log" >&2
	exit 1
fi
# in its configuration, so that a test that restarts it needs no options
printf "listen_addresses = ''\nunix_socket_directories = '%s'\nfsync = off\n" "$dir" |
	$as tee -a "$dir/data/postgresql.conf" > /dev/null
if ! $as "$bin/pg_ctl" -D "$dir/data" -l "$dir/data/server.log" -w -t 60 start > /dev/null; then
	cat "$dir/data/server.log" >&2
	exit 1
fi
# in a locale that sorts text as people do, as servers are set up, and
# unlike SQLite: the store must not depend on it
if ! "$bin/createdb" -h "$dir" -U gpurobust_admin --template=template0 \
	--locale-provider=icu --icu-locale=en-US gpurobust; then
	exit 1
fi
export GPUROBUST_TEST_PG_URI="postgresql:///gpurobust?host=$dir&user=gpurobust_admin"
export GPUROBUST_TEST_PG_DIR="$dir/data" GPUROBUST_TEST_PG_BIN="$bin" GPUROBUST_TEST_PG_AS="$as"
export GPUROBUST_TEST_PG_SOCKET="$dir"
"$@"
