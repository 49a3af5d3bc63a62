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
# The kernel base is one exact version of Debian's linux-source package, the
# one kernel/BASE pins, even when the archive has a newer one.
# shellcheck source=../kernel/BASE
. "$top/kernel/BASE"
wanted="$wanted $DEB_PACKAGE=$DEB_VERSION"

# An entry is a package name, or NAME=VERSION for exactly that version.
missing=""
for entry in $wanted; do
	pkg=${entry%%=*}
	status=$(dpkg-query -W -f '${Status} ${Version}' "$pkg" 2>/dev/null || true)
	case "$entry" in
	*=*) [ "$status" = "install ok installed ${entry#*=}" ] || missing="$missing $entry" ;;
	*) case "$status" in *" installed "*) ;; *) missing="$missing $entry" ;; esac ;;
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
apt-get install -y -q --no-install-recommends --allow-downgrades $missing >/dev/null
