#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# The collector against a real systemd-journald (TAP). In a private mount
# namespace, a journald from Debian's systemd package runs on a tmpfs
# /run/systemd and /run/log with volatile storage, so nothing reaches the
# host's journal. The collector runs as its unit runs it: with --journal,
# and its stdout and stderr on the journal's stream (systemd-cat). The
# devcoredumps sit in a sysfs-shaped tree; the guilty process is a real one,
# run as nobody.
#
#  1. collect: one entry under the GPU crash MESSAGE_ID with systemd-
#     coredump-style fields: PID, COMM, UID, signature, breadcrumbs, file;
#     the dump is freed;
#  2. list: root sees the crash; nobody sees it, and not root's crash;
#  3. info and dump: the report with its breadcrumbs, the dump byte for byte;
#  4. a WEDGED uevent, run as udev runs the rule's program: a journal entry,
#     and info shows it with its crash (same device and pid) and no other;
#  5. a dump that vanished before it was read: a journal line, nothing lost;
#  6. two hangs at once: both stored, both freed;
#  7. a damaged dump: stored as read, with a journal line;
#  8. a full disk: the crash is counted and listed without its files, with
#     a journal line;
#  9. a disk with no room even for the entry: the dump stays in sysfs for
#     another try, with a journal line;
# 10. an empty machine: list says no crash was collected yet.
#
# usage: test-collect-journal.sh GPUROBUST FIXTURES LABELS_DUMP
set -u
if [ "${1:-}" != --inside ]; then
	echo "1..10"
	why=
	[ "$(id -u)" = 0 ] || why="needs root (a private mount namespace, chown)"
	[ -z "$why" ] && { [ -x /lib/systemd/systemd-journald ] && command -v journalctl >/dev/null ||
		why="no systemd-journald (Debian's systemd package)"; }
	[ -z "$why" ] && { unshare -m true 2>/dev/null || why="unshare -m is not allowed here"; }
	if [ -n "$why" ]; then
		for i in 1 2 3 4 5 6 7 8 9 10; do echo "ok $i # SKIP $why"; done
		exit 0
	fi
	exec unshare -m --propagation private sh "$0" --inside "$@"
fi
shift
tool=${1:?usage: test-collect-journal.sh GPUROBUST FIXTURES LABELS_DUMP}
fixtures=${2:?}
labels_dump=${3:?}
msgid=8d1e4cbf3a6f4f0c9b5e2d7a61c0f3e2
tmp=$(mktemp -d)
chmod 755 "$tmp"
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1" "failed: $2"; fi; }

# ---- a private journald ------------------------------------------------
mkdir -p /run/systemd /run/log
mount -t tmpfs -o mode=0755 tmpfs /run/systemd
mount -t tmpfs -o mode=0755 tmpfs /run/log
mkdir -p /run/systemd/journal
printf '[Journal]\nStorage=volatile\nReadKMsg=no\nForwardToSyslog=no\nForwardToWall=no\n' \
	> "$tmp/journald.conf"
mount --bind "$tmp/journald.conf" /etc/systemd/journald.conf
if [ -d /etc/systemd/journald.conf.d ]; then
	mount -t tmpfs tmpfs /etc/systemd/journald.conf.d
fi
/lib/systemd/systemd-journald > "$tmp/journald.log" 2>&1 &
journald=$!
sleeper=
cleanup() {
	[ -n "$sleeper" ] && kill "$sleeper" 2>/dev/null
	kill "$journald" 2>/dev/null
	wait 2>/dev/null
	umount "$tmp/full" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
i=0
while [ ! -S /run/systemd/journal/socket ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
if [ ! -S /run/systemd/journal/socket ]; then
	echo "Bail out! systemd-journald did not start: $(cat "$tmp/journald.log")"
	exit 1
fi

journal() { journalctl --sync 2>/dev/null; journalctl --no-pager "$@" 2>/dev/null; }
entries() { journal -o verbose MESSAGE_ID=$msgid | grep -c '^ *MESSAGE_ID='; }
# The collector as gpurobust-collect@.service runs it.
collect() {
	systemd-cat -t gpurobust-collect "$tool" collect --journal --sysfs "$tmp/sys" \
		--kmsg "$tmp/kmsg" --proc /proc --store "$store" --config-dir "$tmp/etc" "$@"
}
store=$tmp/var/lib/gpurobust/crashes
mkdir -p "$tmp/etc" "$tmp/var/lib"
: > "$tmp/kmsg"
# The limits' defaults follow the file system /tmp is on: fix them.
printf '[Collect]\nMaxUse=1G\nKeepFree=0\n' > "$tmp/etc/collect.conf"

# A sysfs tree with an amdgpu device and devcoredumps devcd1..N.
sys=$tmp/sys
d=devices/pci0000:00/0000:03:00.0
mkdir -p "$sys/bus/pci/drivers/amdgpu" "$sys/$d/drm/card0" "$sys/class/devcoredump" "$sys/class/drm"
ln -s "$sys/bus/pci/drivers/amdgpu" "$sys/$d/driver"
ln -s "$sys/$d" "$sys/$d/drm/card0/device"
ln -s "$sys/$d/drm/card0" "$sys/class/drm/card0"
add_dump() { # N FILE
	mkdir -p "$sys/devices/virtual/devcoredump/devcd$1"
	ln -s "$sys/devices/virtual/devcoredump/devcd$1" "$sys/class/devcoredump/devcd$1"
	ln -s "$sys/$d" "$sys/devices/virtual/devcoredump/devcd$1/failing_device"
	[ -n "$2" ] && cp "$2" "$sys/devices/virtual/devcoredump/devcd$1/data"
}
freed() { [ "$(head -c1 "$sys/devices/virtual/devcoredump/devcd$1/data")" = 1 ]; }
# A dump whose guilty process is PID COMM.
as_process() {
	sed -e "s/^process_name: .* PID: [0-9]*$/process_name: $2 PID: $1/" \
		-e "s/^process: .*/process: $2/" -e "s/^pid: [0-9]*$/pid: $1/" "$3"
}

# ---- 1. one crash, one journal entry ----------------------------------------
setpriv --reuid=nobody --regid=nogroup --clear-groups sleep 600 &
sleeper=$!
sleep 0.2
as_process "$sleeper" sleep "$labels_dump" > "$tmp/dump1"
add_dump 1 "$tmp/dump1"
collect devcd1
v=$(journal -o verbose MESSAGE_ID=$msgid)
field() { printf '%s\n' "$v" | sed -n "s/^ *$1=//p" | head -n1; }
file=$(field GPUCRASH_FILENAME)
if [ "$(entries)" = 1 ] && [ "$(field GPUCRASH_PID)" = "$sleeper" ] &&
	[ "$(field GPUCRASH_COMM)" = sleep ] && [ "$(field GPUCRASH_UID)" = 65534 ] &&
	field GPUCRASH_SIGNATURE | grep -qE '^[0-9a-f]{16}$' &&
	[ -n "$(field GPUCRASH_BREADCRUMBS)" ] && [ -f "$file" ] && freed 1; then
	ok "one journal entry: PID $sleeper, COMM sleep, UID 65534, breadcrumbs '$(field GPUCRASH_BREADCRUMBS)', dump freed"
	printf '%s\n' "$v" | sed 's/^/# /'
else
	not_ok "the journal entry of devcd1" "$(printf '%s\n' "$v")" "$(journal -o cat | tail -n 5)"
fi

# ---- 2. list, as root and as nobody -----------------------------------------
add_dump 2 "$fixtures/gen612-vkd3d-proton-3073.devcoredump"
collect devcd2
root_list=$("$tool" list --store "$store")
user_list=$(setpriv --reuid=nobody --regid=nogroup --clear-groups "$tool" list --store "$store" 2>"$tmp/user.err")
if [ "$(printf '%s\n' "$root_list" | grep -c .)" = 3 ] &&
	[ "$(printf '%s\n' "$user_list" | grep -c .)" = 2 ] &&
	printf '%s\n' "$user_list" | grep -q " $sleeper .*present.* sleep " &&
	grep -q "1 crash of other users not shown" "$tmp/user.err"; then
	ok "list: root sees 2 crashes, nobody sees its own 1"
	printf '%s\n' "$root_list" | sed 's/^/# /'
else
	not_ok "list as root and as nobody" "$root_list" "$user_list" "$(cat "$tmp/user.err")"
fi

# ---- 3. info and dump --------------------------------------------------------
info=$("$tool" info --store "$store" "$sleeper")
"$tool" dump --store "$store" --output "$tmp/dump1.out" sleep
check "info shows the breadcrumbs and the report; dump gives the dump back" \
	'printf "%s\n" "$info" | grep -q "Breadcrumbs: ." && printf "%s\n" "$info" | grep -q "Report:" && cmp -s "$tmp/dump1" "$tmp/dump1.out"'

# ---- 4. the WEDGED uevent of the same hang ------------------------------------
# As udev runs the rule's program: the uevent's properties in the environment.
env -i DEVPATH=/devices/pci0000:00/0000:03:00.0/drm/card0 WEDGED=none PID="$sleeper" TASK=sleep \
	"$tool" wedged --journal --store "$store"
info=$("$tool" info --store "$store" "$sleeper")
other=$("$tool" list --json --store "$store" ForzaHorizon5.e)
check "a WEDGED uevent: journaled, and linked to its crash only" \
	'printf "%s\n" "$info" | grep -q "Wedged: none (PID $sleeper, sleep)" &&
	 printf "%s\n" "$other" | grep -q "\"wedged\": *null" &&
	 journal -o verbose MESSAGE_ID=3f9a0c6e5b2d4e71a8c4d0b7e19f6a25 | grep -q "GPUCRASH_WEDGED=none"'

# ---- 5. vanished -------------------------------------------------------------
add_dump 3 ""
before=$(entries)
collect devcd3; rc=$?
check "a dump that vanished: exit 0, a journal line, no entry" \
	'[ $rc = 0 ] && [ "$(entries)" = "$before" ] && journal -o cat -t gpurobust-collect | grep -q "devcd3 vanished before it was read"'

# ---- 6. two at once ------------------------------------------------------------
add_dump 4 "$fixtures/early-khatri-2024-03.devcoredump"
add_dump 5 "$fixtures/gen612-vkd3d-proton-3073.devcoredump"
collect devcd4 & a=$!
collect devcd5 & b=$!
wait $a; ra=$?
wait $b; rb=$?
check "two hangs at once: both stored and freed" \
	'[ $ra = 0 ] && [ $rb = 0 ] && [ "$(entries)" = $((before + 2)) ] && freed 4 && freed 5'

# ---- 7. damaged ----------------------------------------------------------------
as_process 4242 vkcube "$fixtures/gen612-vkd3d-proton-3073.devcoredump" | head -c 300 > "$tmp/damaged"
printf '\n\001\002 garbage \377\376 IB content:\n0x zz\n' >> "$tmp/damaged"
add_dump 6 "$tmp/damaged"
before=$(entries)
collect devcd6
check "a damaged dump: stored as read, with a journal line" \
	'[ "$(entries)" = $((before + 1)) ] && freed 6 && journal -o cat -t gpurobust-collect | grep -q "devcd6 is damaged"'

# ---- 8. full disk --------------------------------------------------------------
# 7a: room for the entry but not the dump; 7b: no room at all.
full=$tmp/full
mkdir -p "$full"
mount -t tmpfs -o size=256k,mode=0755 tmpfs "$full"
"$tool" list --store "$full/crashes" > /dev/null 2>&1
head -c 150000 /dev/urandom > "$full/filler"
head -c 40000 /dev/urandom | base64 > "$tmp/big"
cat "$fixtures/gen612-vkd3d-proton-3073.devcoredump" "$tmp/big" > "$tmp/dump7"
add_dump 7 "$tmp/dump7"
add_dump 8 "$tmp/dump7"
before=$(entries)
collect_full() {
	systemd-cat -t gpurobust-collect "$tool" collect --journal --sysfs "$sys" \
		--kmsg "$tmp/kmsg" --store "$full/crashes" --config-dir "$tmp/etc" "$1"
}
collect_full devcd7; rc=$?
if [ "$rc" = 0 ] && [ "$(entries)" = $((before + 1)) ] && freed 7 &&
	journal -o cat -t gpurobust-collect | grep -q "event .* stored without its files: no space left" &&
	"$tool" list --store "$full/crashes" | grep -q " missing "; then
	ok "a full disk: the crash is counted and listed without its files, with a journal line"
else
	not_ok "a full disk, room for the entry only" "exit $rc" \
		"$(journal -o cat -t gpurobust-collect | tail -n 3)"
fi
head -c 1M /dev/zero > "$full/filler2" 2>/dev/null
collect_full devcd8; rc=$?
if [ "$rc" = 1 ] && [ "$(entries)" = $((before + 1)) ] && ! freed 8 &&
	journal -o cat -t gpurobust-collect | grep -Eq "cannot (store .*/devcd8|open the store .*): No space left"; then
	ok "a full disk: no room even for the entry, the dump stays in sysfs, with a journal line"
else
	not_ok "a full disk, no room at all" "exit $rc, $(entries) entries, before $before" \
		"$(journal -o cat -t gpurobust-collect | tail -n 3)"
fi

# ---- 9. nothing collected -------------------------------------------------------
out=$("$tool" list --store "$tmp/none" 2>&1); rc=$?
check "an empty machine: list says so" \
	'[ $rc = 0 ] && [ "$out" = "No GPU crashes found (none collected yet)." ]'
