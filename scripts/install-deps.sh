#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# Install the Debian 12 packages every part of gpurobust needs.
# Each part lists its own packages, one per line ('#' starts a comment):
#   libgpurobust/debian-packages, kernel/debian-packages, igt-tests/debian-packages
# Idempotent: when everything is installed already it touches nothing.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)

wanted=$(cat "$top"/libgpurobust/debian-packages "$top"/kernel/debian-packages \
	"$top"/igt-tests/debian-packages 2>/dev/null | sed 's/#.*//' | tr -s ' \t' '\n' |
	sed '/^$/d' | sort -u)

missing=""
for pkg in $wanted; do
	status=$(dpkg-query -W -f '${Status}' "$pkg" 2>/dev/null || true)
	case "$status" in
	*" installed") ;;
	*) missing="$missing $pkg" ;;
	esac
done

[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing Debian packages:$missing" >&2
	echo "install-deps: run as root (or install them) and try again" >&2
	exit 1
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086 # the list is meant to split into words
apt-get install -y -q --no-install-recommends $missing >/dev/null
