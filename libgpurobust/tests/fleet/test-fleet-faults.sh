#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# The fleet store's faults, with the gpurobust command against the real
# PostgreSQL server that with-postgres.sh started: a server refused at
# start, one killed in the middle of four senders and restarted, a role
# that may only read, a schema from the future, a full disk under the
# outbox. Each gets a clear error and loses nothing: the final counts are
# exact, and the groups are those of a single-threaded SQLite run.
#
# usage: with-postgres.sh test-fleet-faults.sh GPUROBUST FLEET_GEN
set -u
gpurobust=$1
gen=$2
uri=$GPUROBUST_TEST_PG_URI
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
not_ok() {
	n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"
	shift
	for l in "$@"; do printf '%s\n' "$l" | sed 's/^/#   /'; done
}
psql_value() { psql "$uri" -XAtq -c "$1" 2>&1; }
files() { find "$@" -name '*.json' | wc -l; }
# outboxes where an fsync costs nothing: 20 000 files are written
shm=/dev/shm
[ -d "$shm" ] && [ -w "$shm" ] || shm=${TMPDIR:-/tmp}
work=$(mktemp -d "$shm/gpurobust-fleet-faults.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
echo "1..7"

# ---- 1. a server that is not there --------------------------------------------
"$gen" outbox "$work/refused" 0 10 || exit 1
"$gpurobust" send --store "postgresql:///gpurobust?host=/nonexistent&password=hunter2" \
	--outbox "$work/refused" > "$work/out" 2> "$work/err"
status=$?
if [ $status -eq 75 ] && grep -q "/nonexistent" "$work/err" && ! grep -q hunter2 "$work/err" &&
	[ "$(files "$work/refused")" -eq 10 ]; then
	ok "a refused connection: exit 75, the password not shown, the 10 crashes kept"
else
	not_ok "a refused connection" "exit $status" "$(cat "$work/err")" \
		"$(files "$work/refused") files left"
fi

# ---- 2. the server killed under four senders, and restarted ---------------------
total=20000
for k in 0 1 2 3; do
	"$gen" outbox "$work/outbox$k" $((k * total / 4)) $((total / 4)) || exit 1
done
"$gen" load "sqlite://$work/reference.db" $total 1 > "$work/reference" || exit 1
for k in 0 1 2 3; do
	"$gpurobust" send --store "$uri" --outbox "$work/outbox$k" --batch 10 --wait 120 \
		> "$work/sender$k.out" 2> "$work/sender$k.err" &
	eval "sender$k=\$!"
done
# kill it once a tenth is in (before the first sender made the table,
# there is no count)
count() {
	c=$(psql_value 'SELECT COUNT(*) FROM crashes')
	case $c in ''|*[!0-9]*) echo 0 ;; *) echo "$c" ;; esac
}
t=0
while [ "$(count)" -lt $((total / 10)) ] && [ $t -lt 600 ]; do
	t=$((t + 1))
	sleep 0.05
done
$GPUROBUST_TEST_PG_AS "$GPUROBUST_TEST_PG_BIN/pg_ctl" -D "$GPUROBUST_TEST_PG_DIR" -m immediate \
	stop > /dev/null
at_kill=$(files "$work"/outbox?)
sleep 1
$GPUROBUST_TEST_PG_AS "$GPUROBUST_TEST_PG_BIN/pg_ctl" -D "$GPUROBUST_TEST_PG_DIR" -w \
	-l "$GPUROBUST_TEST_PG_DIR/server.log" start > /dev/null
statuses=
for k in 0 1 2 3; do
	eval "wait \$sender$k"
	statuses="$statuses $?"
done
stored=$(psql_value 'SELECT COUNT(*) FROM crashes')
distinct=$(psql_value 'SELECT COUNT(DISTINCT crash_id) FROM crashes')
if [ "$statuses" = " 0 0 0 0" ] && [ "$at_kill" -gt 0 ] && [ "$at_kill" -lt $total ] &&
	[ "$stored" = $total ] && [ "$distinct" = $total ] && [ "$(files "$work"/outbox?)" = 0 ]; then
	ok "killed with $at_kill of $total crashes still to send; the senders resumed: $stored stored, once each"
else
	not_ok "kill and restart" "sender exits:$statuses" "left at the kill: $at_kill" \
		"stored: $stored ($distinct distinct), left now: $(files "$work"/outbox?)" \
		"$(cat "$work"/sender?.err)"
fi

# ---- 3. the same groups as one SQLite sender ------------------------------------------
"$gen" digest "$uri" > "$work/postgresql"
if [ "$(grep -v '^senders\|_second\|^triage\|^insert' "$work/reference")" = "$(cat "$work/postgresql")" ]; then
	ok "the groups after the fault equal a single-threaded SQLite run's: $(tr '\n' ' ' < "$work/postgresql")"
else
	not_ok "the groups" "sqlite: $(cat "$work/reference")" "postgresql: $(cat "$work/postgresql")"
fi

# ---- 4. a role that may only read -------------------------------------------------------
psql "$uri" -Xq -c "DROP ROLE IF EXISTS reader" -c "CREATE ROLE reader LOGIN IN ROLE gpurobust_triage" ||
	exit 1
reader=$(printf '%s' "$uri" | sed 's/user=gpurobust_admin/user=reader/')
"$gen" outbox "$work/reader" $total 5 || exit 1
"$gpurobust" send --store "$reader" --outbox "$work/reader" > /dev/null 2> "$work/err"
status=$?
"$gpurobust" triage --store "$reader" --limit 3 > "$work/triage" 2>&1
tstatus=$?
if [ $status -eq 1 ] && grep -q "permission denied" "$work/err" &&
	[ "$(files "$work/reader")" -eq 5 ] && [ $tstatus -eq 0 ] &&
	[ "$(psql_value 'SELECT COUNT(*) FROM crashes')" = $total ]; then
	ok "a read-only role: send refused ($(head -n 1 "$work/err")), 5 crashes kept; triage answers"
	sed 's/^/#   /' "$work/triage"
else
	not_ok "a read-only role" "send exit $status: $(cat "$work/err")" "triage exit $tstatus" \
		"$(cat "$work/triage")"
fi

# ---- 5. a schema from the future ----------------------------------------------------------
psql_value "INSERT INTO gpurobust_schema VALUES ($(psql_value 'SELECT MAX(version) FROM gpurobust_schema') + 1, 0)" > /dev/null
"$gpurobust" send --store "$uri" --outbox "$work/reader" > /dev/null 2> "$work/err"
status=$?
"$gpurobust" triage --store "$uri" > /dev/null 2> "$work/terr"
tstatus=$?
psql_value "DELETE FROM gpurobust_schema WHERE version = (SELECT MAX(version) FROM gpurobust_schema)" > /dev/null
if [ $status -eq 1 ] && [ $tstatus -eq 1 ] && grep -q "newer than this gpurobust" "$work/err" &&
	grep -q "newer than this gpurobust" "$work/terr" && [ "$(files "$work/reader")" -eq 5 ]; then
	ok "a schema from the future: refused by send and triage ($(cat "$work/err"))"
else
	not_ok "a schema from the future" "send exit $status: $(cat "$work/err")" \
		"triage exit $tstatus: $(cat "$work/terr")"
fi

# ---- 6. a full disk under the outbox ------------------------------------------------------
if [ "$(id -u)" != 0 ] || ! unshare -m true 2> /dev/null; then
	skip "a full disk needs root and a mount namespace for a small tmpfs"
else
	mkdir -p "$work/full"
	unshare -m sh -c "mount -t tmpfs -o size=64k tmpfs '$work/full' &&
		'$gen' outbox '$work/full/outbox' 0 1000 2> '$work/full.err';
		echo \$? > '$work/full.status';
		ls -A '$work/full/outbox' > '$work/full.names';
		'$gpurobust' send --store 'sqlite://$work/full.db' --outbox '$work/full/outbox' \
			> '$work/full.sent' 2>&1"
	kept=$(grep -c '\.json$' "$work/full.names")
	hidden=$(grep -c '^\.' "$work/full.names")
	if [ "$(cat "$work/full.status")" = 1 ] && grep -q "No space left on device" "$work/full.err" &&
		[ "$kept" -gt 0 ] && [ "$hidden" = 0 ] && grep -q "^sent $kept crashes" "$work/full.sent"; then
		ok "a full disk: $(cat "$work/full.err"); the $kept crashes before it whole and sent, no partial file"
	else
		not_ok "a full disk" "status $(cat "$work/full.status"): $(cat "$work/full.err")" \
			"kept $kept, partial $hidden" "$(cat "$work/full.sent")"
	fi
fi

# ---- 7. what triage answers ---------------------------------------------------------------
top=$("$gpurobust" triage --store "$uri" --json --limit 1)
group=$(printf '%s\n' "$top" | sed -n 's/.*"group": *"\([0-9a-f]*\)".*/\1/p' | head -n 1)
spread=$("$gpurobust" triage --store "$uri" --group "$group" 2>&1)
count=$(psql_value "SELECT COUNT(*) FROM crashes WHERE signature = '$group'")
if [ -n "$group" ] && printf '%s\n' "$top" | grep -q "\"crashes\": *$count" &&
	printf '%s\n' "$spread" | grep -q "^$group  *$count "; then
	ok "triage: the top group $group has its $count crashes; its spread:"
	printf '%s\n' "$spread" | head -n 12 | sed 's/^/#   /'
else
	not_ok "triage" "$top" "$spread" "count $count"
fi
[ "$failed" -eq 0 ]
