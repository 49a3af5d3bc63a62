#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# The collector's unit and udev rule as installed (TAP):
#  1. systemd-analyze's offline security review of gpurobust-collect@.service
#     scores at most 2.0 ("OK");
#  2. the unit has the hardening the review does not weigh but the collector
#     relies on: a store others cannot write to whose files start private
#     (StateDirectoryMode=0755, UMask=0077), no network, only CAP_SYSLOG and
#     CAP_CHOWN;
#  3. the rules start the unit for every devcoredump udev adds, by name,
#     and run `gpurobust wedged` by its installed path for a WEDGED uevent.
# A systemd-analyze without --offline (before systemd 250) is a skip.
#
# usage: test-collect-unit.sh UNIT RULE
set -u
unit=${1:?usage: test-collect-unit.sh UNIT RULE}
rule=${2:?usage: test-collect-unit.sh UNIT RULE}
echo "1..3"
if ! command -v systemd-analyze > /dev/null ||
	! systemd-analyze security --help 2>/dev/null | grep -q -- --offline; then
	echo "ok 1 # SKIP no systemd-analyze with --offline (systemd 250 or later)"
else
	out=$(systemd-analyze security --offline=true --threshold=20 "$unit" 2>&1)
	score=$(printf '%s\n' "$out" | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
	if [ -n "$score" ] && awk -v s="$score" 'BEGIN { exit !(s <= 2.0) }'; then
		echo "ok 1 - systemd-analyze security: exposure $score"
	else
		echo "not ok 1 - systemd-analyze security: exposure ${score:-unknown}, want at most 2.0"
		printf '%s\n' "$out" | grep '✗' | sed 's/^/# /'
	fi
fi
missing=
for setting in StateDirectoryMode=0755 UMask=0077 PrivateNetwork=yes \
	'CapabilityBoundingSet=CAP_SYSLOG CAP_CHOWN' NoNewPrivileges=yes ProtectSystem=strict; do
	grep -qx "$setting" "$unit" || missing="$missing $setting"
done
if [ -z "$missing" ]; then
	echo "ok 2 - the unit keeps its files private, off the network, with CAP_SYSLOG and CAP_CHOWN only"
else
	echo "not ok 2 - the unit lacks:$missing"
fi
want='ACTION=="add", SUBSYSTEM=="devcoredump", TAG+="systemd", ENV{SYSTEMD_WANTS}+="gpurobust-collect@%k.service"'
wedged_rule='^ACTION=="change", SUBSYSTEM=="drm", ENV\{WEDGED\}=="\?\*", RUN\+="/[^" ]*/gpurobust wedged --journal"$'
if [ "$(grep -v '^#' "$rule" | grep -c .)" = 2 ] && grep -qxF "$want" "$rule" &&
	grep -Eq "$wedged_rule" "$rule"; then
	echo "ok 3 - the rules start gpurobust-collect@devcdN.service for each devcoredump added, and record WEDGED uevents by absolute path"
else
	echo "not ok 3 - the rules are not the two lines that start the unit and record WEDGED"
	sed 's/^/# /' "$rule"
fi
