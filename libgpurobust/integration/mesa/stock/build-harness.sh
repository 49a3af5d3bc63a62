#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# Builds the drm-shim harness in the sid root ROOT, into WORK (a directory
# under ROOT): reset-interposer.so (with ib-replay.c), device-lost and
# gl-reset-probe, with sid's compiler and headers, warnings as errors.
#
# usage: build-harness.sh ROOT WORK
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=${1:?usage: build-harness.sh ROOT WORK}
work=${2:?usage: build-harness.sh ROOT WORK}
cp "$here/reset-interposer.c" "$here/ib-replay.c" "$here/ib-replay.h" "$here/gl-reset-probe.c" \
	"$here/../device-lost.c" "$work/"
chroot "$root" sh -ec "cd ${work#"$root"}
	cc -std=gnu11 -Wall -Wextra -Werror -shared -fPIC -I/usr/include/libdrm \
		-o reset-interposer.so reset-interposer.c ib-replay.c -ldl
	cc -std=gnu11 -Wall -Wextra -Werror -o gl-reset-probe gl-reset-probe.c -lEGL -lGLESv2
	cc -std=c11 -O2 -Wall -Wextra -Werror -o device-lost device-lost.c -lvulkan"
