#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# The gpurobust command as a user meets it: exit codes, messages that name
# the device and the failing call, and JSON checked by a real parser. TAP.
# usage: test-cli.sh PATH_TO_GPUROBUST
set -u
gpurobust=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0

# run NAME EXPECTED_EXIT ARGS...: runs the command, keeps out and err.
run() {
	name=$1 expected=$2
	shift 2
	"$gpurobust" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	n=$((n + 1))
	if [ "$rc" -eq "$expected" ]; then
		return 0
	fi
	echo "not ok $n - $name (exit $rc, expected $expected)"
	sed 's/^/# out: /' "$tmp/out"
	sed 's/^/# err: /' "$tmp/err"
	failed=$((failed + 1))
	return 1
}

# check NAME CONDITION...: the last run's exit code matched; now the output.
check() {
	name=$1
	shift
	if "$@"; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name"
		sed 's/^/# out: /' "$tmp/out"
		sed 's/^/# err: /' "$tmp/err"
		failed=$((failed + 1))
	fi
}

json_field() {
	python3 -c 'import json, sys
doc = json.load(open(sys.argv[1]))
for key in sys.argv[2].split("."):
    doc = doc[int(key)] if isinstance(doc, list) else doc[key]
print(doc)' "$tmp/out" "$1"
}

has_amdgpu() {
	for node in /dev/dri/renderD*; do
		[ -e "$node" ] || continue
		[ "$(basename "$(readlink -f "/sys/class/drm/$(basename "$node")/device/driver")")" = amdgpu ] &&
			return 0
	done
	return 1
}

echo "1..19"

if has_amdgpu; then
	run "status on an amdgpu machine exits 0" 0 status &&
		check "status on an amdgpu machine reports the semantics" \
			grep -Eq 'reset semantics (legacy|per_ctx)' "$tmp/out"
	run "status --json" 0 status --json &&
		check "status --json is valid JSON with the amdgpu count" \
			sh -c "python3 -m json.tool '$tmp/out' > /dev/null && [ \"\$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[\"amdgpu_devices\"] > 0)' '$tmp/out')\" = True ]"
else
	run "status without an amdgpu device exits 3" 3 status &&
		check "status without an amdgpu device says so plainly" \
			grep -q '^no amdgpu device found' "$tmp/out"
	run "status --json without an amdgpu device exits 3" 3 status --json &&
		check "status --json is valid JSON (python3 json parser) with no amdgpu device" \
			sh -c "python3 -m json.tool '$tmp/out' > /dev/null &&
				[ \"\$(cd '$tmp' && python3 -c 'import json; d = json.load(open(\"out\")); print(d[\"amdgpu_devices\"], d[\"exit_code\"])')\" = '0 3' ]"
fi

run "status --device on a missing node exits 1" 1 status --device /nonexistent/renderD128 &&
	check "the error names the device and the failing call" \
		grep -q '^gpurobust status: /nonexistent/renderD128: open failed: No such file' "$tmp/err"

run "status --device on a file that is not DRM exits 1" 1 status --device /dev/null &&
	check "the error names /dev/null and drmGetVersion" \
		grep -q '^gpurobust status: /dev/null: drmGetVersion failed' "$tmp/err"

run "status --json --device /dev/null exits 1" 1 status --json --device /dev/null &&
	check "the JSON error names the failing call" \
		[ "$(json_field devices.0.error.call)" = drmGetVersion ]

run "status rejects unknown options" 2 status --bogus &&
	check "usage goes to stderr" grep -q 'usage: gpurobust status' "$tmp/err"

run "L7 classify: a legacy kernel's bare RESET is reset elsewhere" 0 \
	classify -- query2:RESET &&
	check "L7 classify: reset_elsewhere, VK_SUCCESS, GL_NO_ERROR" \
		grep -Eq '^query2:RESET +-> none +flags: reset_elsewhere +vk: VK_SUCCESS +gl: GL_NO_ERROR' \
		"$tmp/out"

run "L4 classify: -ECANCELED resolved by QUERY2 GUILTY" 0 \
	classify -ECANCELED 'query2:RESET|GUILTY' &&
	check "L4 classify: unknown, then guilty_hard and device lost" \
		sh -c "grep -Eq '^-ECANCELED +-> unknown ' '$tmp/out' &&
			grep -Eq '^query2:RESET\\|GUILTY +-> guilty_hard .*VK_ERROR_DEVICE_LOST' '$tmp/out'"

run "L13 classify: a non-robust context reaches the policy" 0 \
	classify --per-ctx --non-robust -ETIME &&
	check "L13 classify: the policy is reported, GL says NO_ERROR (L12)" \
		sh -c "grep -q 'L13: the context is not robust' '$tmp/out' &&
			grep -Eq '^-ETIME +-> guilty_hard .*gl: GL_NO_ERROR' '$tmp/out'"

run "classify rejects evidence it cannot parse" 2 classify query2:NOPE &&
	check "the message quotes the evidence" grep -q "cannot parse evidence 'query2:NOPE'" "$tmp/err"

# collect.conf: the file, then its drop-ins in name order, later winning;
# a typo is named with its line (blank lines counted) and ignored, never
# fatal, and leaves the setting as it was; an empty value is the default.
mkdir -p "$tmp/etc/collect.conf.d"
printf '[Collect]\nStorage=none\n\nMaxUse=2G\nKeepFree=500M\n' > "$tmp/etc/collect.conf"
printf '[Collect]\nStorage=external\nCompress=off\n' > "$tmp/etc/collect.conf.d/10-keep.conf"
printf '[Collect]\n\nDumpSizeMax=64K\nMaxUze=1G\nKeepFree=lots\n' > "$tmp/etc/collect.conf.d/20-typo.conf"
printf '[Collect]\nMaxUse=\n' > "$tmp/etc/collect.conf.d/25-default.conf"
printf '[Collect]\nStorage=none\n' > "$tmp/etc/collect.conf.d/30-skipped.conf.disabled"
run "collect --show-config reads collect.conf and its drop-ins" 0 \
	collect --config-dir "$tmp/etc" --show-config &&
	check "drop-ins override in name order; a bad value keeps the last good one; empty is the default" \
		sh -c "printf '[Collect]\nStorage=external\nCompress=no\nDumpSizeMax=65536\nMaxUse=(10%% of the file system, at most 4G)\nKeepFree=524288000\nFleetStore=\nFleetOutbox=/var/lib/gpurobust/outbox\n' |
			cmp -s - '$tmp/out'"
run "a typo in collect.conf is no failure" 0 collect --config-dir "$tmp/etc" --show-config &&
	check "the unknown key and the bad value are named with file and line" \
		sh -c "grep -q '20-typo.conf:4: unknown setting MaxUze, ignored' '$tmp/err' &&
			grep -q '20-typo.conf:5: bad value for KeepFree, ignored' '$tmp/err'"
run "no collect.conf: the defaults" 0 collect --config-dir "$tmp/nowhere" --show-config &&
	check "the defaults: external, zstd, 1 GiB, MaxUse and KeepFree as coredump.conf's" \
		sh -c "grep -qx 'DumpSizeMax=1073741824' '$tmp/out' &&
			grep -qx 'MaxUse=(10% of the file system, at most 4G)' '$tmp/out' &&
			grep -qx 'KeepFree=(15% of the file system, at most 4G)' '$tmp/out'"
# a fleet store's password is never printed; a URI of no store is refused
mkdir -p "$tmp/fleet/collect.conf.d"
printf '[Collect]\nFleetStore=postgresql://sender:s3cret@db.example/crashes?sslmode=verify-full\n' \
	> "$tmp/fleet/collect.conf"
printf '[Collect]\nFleetOutbox=relative/outbox\n' > "$tmp/fleet/collect.conf.d/10-bad.conf"
printf '[Collect]\nFleetStore=mysql://db/crashes\n' > "$tmp/fleet/collect.conf.d/20-bad.conf"
run "FleetStore= and FleetOutbox= in collect.conf" 0 collect --config-dir "$tmp/fleet" --show-config &&
	check "the store shown without its password; bad values named and ignored" \
		sh -c "grep -qx \"FleetStore=postgresql: user='sender' password=\*\*\* dbname='crashes' host='db.example' sslmode='verify-full'\" '$tmp/out' &&
			grep -qx 'FleetOutbox=/var/lib/gpurobust/outbox' '$tmp/out' &&
			! grep -q s3cret '$tmp/out' '$tmp/err' &&
			grep -q '10-bad.conf:2: bad value for FleetOutbox, ignored' '$tmp/err' &&
			grep -q '20-bad.conf:2: bad value for FleetStore, ignored' '$tmp/err'"
run "send with no fleet store configured has nothing to do" 0 send --config-dir "$tmp/nowhere" &&
	check "send: says there is no store" grep -q "no fleet store" "$tmp/out"
run "send to a store that is not there keeps the crashes, exit 75" 75 \
	send --store "postgresql:///crashes?host=$tmp/no-server&password=hunter2" --outbox "$tmp/nothing" &&
	check "send: the reason, without the password" \
		sh -c "grep -q 'no-server' '$tmp/err' && ! grep -q hunter2 '$tmp/err'"
run "triage asks a fleet store only with a URI" 2 triage --store "$tmp/nowhere" --limit 3 &&
	check "triage: says why" grep -q "ask a fleet store" "$tmp/err"

run "list with no store at all says none was collected" 0 list --store "$tmp/nowhere" &&
	check "list: the message, nothing on stdout" \
		sh -c "[ ! -s '$tmp/out' ] && grep -qx 'No GPU crashes found (none collected yet).' '$tmp/err'"

run "an unknown command exits 2" 2 frobnicate &&
	check "the message names the command" grep -q "unknown command 'frobnicate'" "$tmp/err"

[ "$failed" -eq 0 ]
