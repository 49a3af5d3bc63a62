#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# make demo: what gpurobust sees on this machine, then the reset contract's
# library rows (L1-L13) walked through with `gpurobust classify`.
# usage: demo.sh LIB_BUILD_DIR
# Exits 0 on a machine without an AMD GPU: that is a result, not an error.
set -u
gpurobust=$1/tools/gpurobust

if [ ! -x "$gpurobust" ]; then
	echo "demo: $gpurobust is missing; run 'make lib' first" >&2
	exit 1
fi

echo "== gpurobust status: DRM devices, driver, interface version, reset semantics"
"$gpurobust" status
rc=$?
case $rc in
0) ;;
3) echo "(exit code 3: no amdgpu device here, as gpurobust(1) documents;" \
	"the rest of the demo needs no GPU)" ;;
*) echo "demo: gpurobust status failed with exit code $rc" >&2
   exit 1 ;;
esac

step() {
	echo
	echo "== $1"
	shift
	"$gpurobust" classify "$@" || exit 1
}

step "L1: soft recovery killed this context's waves; its fence says -ENODATA" \
	--per-ctx -ENODATA
step "L2: a ring or full reset followed this context's hang: -ETIME" \
	--per-ctx -ETIME
step "L3: with the kernel series, -ECANCELED means innocent" \
	--per-ctx -ECANCELED
step "L4: on an upstream kernel -ECANCELED is ambiguous until QUERY_STATE2 says GUILTY" \
	-ECANCELED 'query2:RESET|GUILTY'
step "L5: the device is gone or RAS-fatal: lost, cause unknown" \
	-ENODEV
step "L6: with the series, QUERY_STATE2 RESET is about this context alone" \
	--per-ctx 'query2:PER_CTX_RESET|RESET|GUILTY'
step "L7: on an upstream kernel a bare RESET is device-global: a bystander is not lost" \
	query2:RESET query1:UNKNOWN_RESET
step "L8: other errors are not resets and pass through" \
	--per-ctx -ENOMEM -EAGAIN -ERESTARTSYS
step "L9 + L11: Vulkan stays lost; GL repeats the status until the reset completes" \
	--per-ctx 'query2:PER_CTX_RESET|RESET|RESET_IN_PROGRESS' \
	'query2:PER_CTX_RESET|RESET|RESET_IN_PROGRESS' 'query2:PER_CTX_RESET|RESET' \
	'query2:PER_CTX_RESET|RESET'
step "L12 + L13: a non-robust context never sees a GL status; the lost policy decides" \
	--per-ctx --non-robust -ETIME

# The main job: the crash report of a devcoredump with a breadcrumb capture,
# one that the series' printer wrote in KUnit (kernel/fixtures/README.md),
# never by hand.
top=$(cd "$(dirname "$0")/.." && pwd)
dump=$top/kernel/fixtures/series-d4-full-reset.devcoredump
echo
echo "== gpurobust report $(basename "$dump")"
"$gpurobust" report "$dump" || exit 1
