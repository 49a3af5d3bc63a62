#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# Runs in the guest as gpurobust-e2e.service, once systemd, systemd-udevd
# and systemd-journald are up; prints TAP between "guest: start" and
# "guest: exit N" on the second serial port (ttyS1), then reboots (QEMU runs with
# -no-reboot, so that ends it). The fake amdgpu device is hosted by the
# KUnit case amdgpu_kselftest_host; everything after the hang is the
# driver's, udev's, systemd's and the installed packages' own doing.
set -u
HOST_SUITE=/sys/kernel/debug/kunit/amdgpu_kselftest_host
CONTROL=/sys/kernel/debug/amdgpu_fake_control
CRASH_ID=8d1e4cbf3a6f4f0c9b5e2d7a61c0f3e2
WEDGED_ID=3f9a0c6e5b2d4e71a8c4d0b7e19f6a25
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
not_ok() {
	n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"
	shift
	for l in "$@"; do printf '%s\n' "$l" | sed 's/^/#   /'; done
}
# wait_for SECONDS COMMAND...: until COMMAND succeeds.
wait_for() {
	t=$(( $1 * 10 ))
	shift
	while ! "$@" > /dev/null 2>&1; do
		t=$((t - 1))
		[ $t -gt 0 ] || return 1
		sleep 0.1
	done
}
# control CMD: tell the fake hardware, retrying while no IB runs yet.
control() {
	t=150
	until printf '%s' "$1" > "$CONTROL" 2>/dev/null; do
		t=$((t - 1))
		[ $t -gt 0 ] || return 1
		sleep 0.1
	done
}
field() { printf '%s\n' "$2" | sed -n "s/^ *$1=//p" | head -n 1; }
finish() {
	echo "guest: exit $failed"
	systemctl --no-block reboot
	exit 0
}

echo "guest: start"
echo "1..9"

# ---- 1. the distribution's parts run ----------------------------------------
if [ "$(cat /proc/1/comm)" = systemd ] &&
	systemctl is-active -q systemd-udevd systemd-journald; then
	ok "systemd is PID 1; systemd-udevd and systemd-journald run"
else
	not_ok "systemd, udevd and journald" "$(systemctl --failed --no-legend)"
fi

# ---- 2. the fake device, and the application that hangs it ----------------------
printf 1 > "$HOST_SUITE/run" &
host=$!
# the render node, once udev gave it the render group
if ! wait_for 120 test -w "$CONTROL" || ! wait_for 30 sh -c 'ls /dev/dri/renderD*' ||
	! udevadm settle --timeout=60; then
	not_ok "the fake amdgpu device came up" "$(cat "$HOST_SUITE/results" 2>&1)"
	finish
fi
as_player() { setpriv --reuid=player --regid=player --init-groups "$@"; }
# setpriv itself, not a function's subshell: $! is the application's pid
setpriv --reuid=player --regid=player --init-groups /usr/local/bin/hang-app > /tmp/app.out 2>&1 &
app=$!
if wait_for 30 grep -q submitted /tmp/app.out &&
	control "hang gfx ring" && control "settle gfx"; then
	ok "player's hang-app (PID $app) submitted to GFX, and the fake hardware hung it"
else
	not_ok "the application and the hang" "$(cat /tmp/app.out)"
	finish
fi

# ---- 3. the driver's devcoredump, collected by the unit udev started ---------------
if wait_for 120 sh -c "journalctl -q MESSAGE_ID=$CRASH_ID | grep -q ."; then
	entry=$(journalctl -o verbose MESSAGE_ID=$CRASH_ID)
	devcd=$(field GPUCRASH_DEVCOREDUMP "$entry")
	unit=gpurobust-collect@$devcd.service
	result=$(systemctl show -P Result "$unit")
	if [ -n "$devcd" ] && [ "$result" = success ]; then
		ok "udev started $unit for the driver's $devcd; it ended with $result"
	else
		not_ok "the collector unit" "unit $unit: ${result:-unknown}" "$(journalctl -u "$unit" -o cat)"
	fi
else
	not_ok "a GPU crash in the journal" "$(journalctl -o cat -u 'gpurobust-collect@*' -k | tail -n 20)"
	finish
fi

# ---- 4. the journal entry ------------------------------------------------------------
if [ "$(field GPUCRASH_PID "$entry")" = "$app" ] && [ "$(field GPUCRASH_COMM "$entry")" = hang-app ] &&
	[ "$(field GPUCRASH_UID "$entry")" = "$(id -u player)" ] &&
	[ "$(field GPUCRASH_RECOVERY "$entry")" = ring_reset ]; then
	ok "the journal entry names PID $app, hang-app, player's UID, ring_reset"
	printf '%s\n' "$entry" | grep -E '^ *(MESSAGE|GPUCRASH_[A-Z_]*)=' | sed 's/^ */#   /'
else
	not_ok "the journal entry" "$entry"
fi

# ---- 5. gpurobust list, as the player and as root ------------------------------------
mine=$(as_player gpurobust list 2>&1)
all=$(gpurobust list 2>&1)
if printf '%s\n' "$mine" | grep -q " $app .* hang-app " &&
	printf '%s\n' "$all" | grep -q " $app .* hang-app "; then
	ok "gpurobust list shows it to player and to root"
	printf '%s\n' "$all" | sed 's/^/#   /'
else
	not_ok "gpurobust list" "player: $mine" "root: $all"
fi

# ---- 6. what the driver put in the dump -------------------------------------------------
dump=$(gpurobust dump "$app" 2>&1)
if printf '%s\n' "$dump" | grep -q '^\*\*\*\* User Capture' &&
	printf '%s\n' "$dump" | grep -q '^\*\*\*\* Reset v1'; then
	ok "the stored dump has the series' Reset section and the DUMPABLE mapping's User Capture"
else
	not_ok "the dump's sections" "$(printf '%s\n' "$dump" | grep '^\*\*\*\*')"
fi
# hang-app's frame hangs in the lighting pass's draw: the shadow pass
# finished, post-processing never started
breadcrumbs=$(field GPUCRASH_BREADCRUMBS "$entry")
info=$(gpurobust info "$app" 2>&1)
if [ "$breadcrumbs" = DrawIndexed ] &&
	printf '%s\n' "$info" | grep -q '^ *Frame 1/Lighting pass/DrawIndexed$' &&
	printf '%s\n' "$info" | grep -q '\[X\] "Shadow pass"' &&
	printf '%s\n' "$info" | grep -q '\[ \] "Post-processing"'; then
	ok "the breadcrumbs decode from the stored dump alone: in DrawIndexed, in Frame 1/Lighting pass"
	printf '%s\n' "$info" | sed -n '/EXECUTION MARKER TREE/,$s/^/#   /p'
else
	not_ok "the breadcrumbs: \"$breadcrumbs\", not the lighting pass's draw" "$info" \
		"$(cat /tmp/app.out)"
fi

# ---- 7. the WEDGED uevent ---------------------------------------------------------------
if journalctl -q MESSAGE_ID=$WEDGED_ID | grep -q .; then
	if gpurobust info "$app" | grep -q "Wedged: "; then
		ok "the WEDGED uevent was recorded and linked: $(gpurobust info "$app" | sed -n 's/^ *Wedged: //p')"
	else
		not_ok "the WEDGED uevent is not linked" "$(journalctl -o verbose MESSAGE_ID=$WEDGED_ID)"
	fi
else
	skip "the kernel sent no WEDGED uevent for the fake device"
fi

# ---- 8. nothing left behind ---------------------------------------------------------------
kill "$app" 2>/dev/null
control quit
wait "$host"
left=$(ls /sys/class/devcoredump | grep '^devcd')
failed_units=$(systemctl --failed --no-legend --plain)
if [ -z "$left" ] && [ -z "$failed_units" ] && ! systemctl is-active -q "$unit"; then
	ok "the dump was freed, $unit is done, no unit failed"
else
	not_ok "left behind" "devcoredumps: $left" "failed units: $failed_units"
fi
sed 's/^/# host: /' "$HOST_SUITE/results" 2>/dev/null
finish
